/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_KILLSNOOP_OUT_H
#define BAREBPF_KILLSNOOP_OUT_H

#include <stdio.h>
#include "../../../bpf/killsnoop.h"

/*
 * killsnoop's record, printed (loader/tools/killsnoop/killsnoop.c), for the unit
 * tests: bcc's "TIME PID COMM SIG TPID RESULT" at the wall-clock time
 * hms ("HH:MM:SS"), or a JSON line. e->comm need not be NUL-terminated.
 */
void killsnoop_print_header(FILE *f);
void killsnoop_print(FILE *f, const struct killsnoop_event *e,
		     const char *hms, int json);

#endif
