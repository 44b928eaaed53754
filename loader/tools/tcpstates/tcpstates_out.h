/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPSTATES_OUT_H
#define BAREBPF_TCPSTATES_OUT_H

#include <stdio.h>
#include "../../../bpf/tcpstates.h"

/* -T, -t, -w, -s: bits of the mode */
enum { TCPSTATES_TIME = 1, TCPSTATES_TS = 2, TCPSTATES_WIDE = 4,
       TCPSTATES_CSV = 8 };

/*
 * tcpstates's record, printed (tcpstates.c), for the unit tests: bcc's
 * "SKADDR C-PID C-COMM LADDR LPORT RADDR RPORT OLDSTATE -> NEWSTATE MS"
 * in its mode (wide and CSV with an IP column), after TIME (hms) and
 * TIME(s) (secs, since the first record) if asked; or a JSON line.
 */
void tcpstates_print_header(FILE *f, unsigned mode);
void tcpstates_print(FILE *f, const struct tcpstates_event *e, unsigned mode,
		     const char *hms, double secs, int json);

#endif
