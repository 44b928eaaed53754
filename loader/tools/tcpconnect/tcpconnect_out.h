/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPCONNECT_OUT_H
#define BAREBPF_TCPCONNECT_OUT_H

#include <stdio.h>
#include "../../../bpf/tcpconn.h"

/*
 * tcpconnect's lines (loader/tools/tcpconnect/tcpconnect.c), for the unit
 * tests. mask: TCPCONNECT_TS (-t: secs, the TIME(s) column), _UID (-U),
 * _LPORT (-L). A record's comm need not be NUL-terminated.
 */
#define TCPCONNECT_TS (1u << 1)
#define TCPCONNECT_UID (1u << 2)
#define TCPCONNECT_LPORT (1u << 3)
void tcpconnect_print_header(FILE *f, unsigned mask);
void tcpconnect_print(FILE *f, const struct tcpconn_event *e, double secs,
		      unsigned mask, int json);
/* -c: the header, then one flow "LADDR RADDR RPORT CONNECTS" */
void tcpconnect_print_count_header(FILE *f);
void tcpconnect_print_count(FILE *f, const struct tcpconn_event *e,
			    unsigned long long n, int json);
/* e's address (saddr or daddr) as text */
const char *tcpconnect_addr(const struct tcpconn_event *e,
			    const unsigned char *a, char *buf, size_t len);

#endif
