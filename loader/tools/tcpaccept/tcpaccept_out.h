/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPACCEPT_OUT_H
#define BAREBPF_TCPACCEPT_OUT_H

#include <stdio.h>
#include "../../../bpf/tcpconn.h"

/*
 * tcpaccept's lines (loader/tools/tcpaccept/tcpaccept.c), for the unit
 * tests: bcc's "PID COMM IP RADDR RPORT LADDR LPORT", after TIME (-T,
 * hms) and TIME(s) (-t, secs) as mask says. comm need not end in a NUL.
 */
#define TCPACCEPT_TIME (1u << 1)
#define TCPACCEPT_TS (1u << 2)
void tcpaccept_print_header(FILE *f, unsigned mask);
void tcpaccept_print(FILE *f, const struct tcpconn_event *e, const char *hms,
		     double secs, unsigned mask, int json);

#endif
