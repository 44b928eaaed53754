/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_EXITSNOOP_OUT_H
#define BAREBPF_EXITSNOOP_OUT_H

#include <stddef.h>
#include <stdio.h>
#include "../../../bpf/exitsnoop.h"

/*
 * exitsnoop's record, printed (loader/tools/exitsnoop/exitsnoop.c), for
 * the unit tests: bcc's "PCOMM PID PPID TID AGE(s) EXIT_CODE", after
 * bcc's "TIME-TZ" column with -t (tz: its title's zone, hms: the time
 * "HH:MM:SS.mmm"; NULL: no such column), or a JSON line (iso: the time
 * "YYYY-MM-DDTHH:MM:SS.mmm"). have_age 0: the AGE is unknown, "-" (JSON
 * null). e->comm need not be NUL-terminated.
 */
void exitsnoop_print_header(FILE *f, const char *tz);
void exitsnoop_print(FILE *f, const struct exitsnoop_event *e,
		     const char *hms, const char *iso, int have_age, int json);
/* bcc's EXIT_CODE text of task_struct.exit_code: "0", "code 2",
 * "signal 9 (KILL)", "signal 11 (SEGV), core dumped". */
void exitsnoop_exit_text(char *buf, size_t n, int exit_code);

#endif
