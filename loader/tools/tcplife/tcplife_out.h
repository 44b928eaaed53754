/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPLIFE_OUT_H
#define BAREBPF_TCPLIFE_OUT_H

#include <stdio.h>
#include "../../../bpf/tcplife.h"

/* -T, -t, -w, -s: bits of the mode */
enum { TCPLIFE_TIME = 1, TCPLIFE_TS = 2, TCPLIFE_WIDE = 4, TCPLIFE_CSV = 8 };

/*
 * tcplife's record, printed (tcplife.c), for the unit tests: bcc's
 * "PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS" in its mode (wide and
 * CSV with an IP column), after TIME (hms) and TIME(s) (secs) if asked;
 * or a JSON line (the bytes exact: tx_bytes, rx_bytes).
 */
void tcplife_print_header(FILE *f, unsigned mode);
void tcplife_print(FILE *f, const struct tcplife_event *e, unsigned mode,
		   const char *hms, double secs, int json);

#endif
