/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPRETRANS_OUT_H
#define BAREBPF_TCPRETRANS_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/tcpretrans.h"

/*
 * tcpretrans's output (tcpretrans.c), for the unit tests: bcc's
 * "TIME PID IP LADDR:LPORT T> RADDR:RPORT STATE" line of a record at the
 * wall-clock time hms, or a JSON line; with -c bcc's table of counts
 * "LADDR:LPORT RADDR:RPORT RETRANSMITS" ([addr]#port <-> [addr]#port N,
 * IPv4's flows then IPv6's, each by count, the smallest first).
 */
void tcpretrans_print_header(FILE *f);
void tcpretrans_print(FILE *f, const struct tcpretrans_event *e,
		      const char *hms, int json);
struct tcpretrans_count {
	struct tcpretrans_key k;
	uint64_t n;
};
/* sorts c[0..n-1] */
void tcpretrans_print_counts(FILE *f, struct tcpretrans_count *c, int n,
			     int json);

#endif
