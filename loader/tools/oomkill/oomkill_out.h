/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_OOMKILL_OUT_H
#define BAREBPF_OOMKILL_OUT_H

#include <stdio.h>
#include "../../../bpf/oomkill.h"

/*
 * oomkill's line (loader/tools/oomkill/oomkill.c), for the unit tests: bcc's
 * "HH:MM:SS Triggered by PID 1 ("a"), OOM kill of PID 2 ("b"), N pages,
 * loadavg: ..." or a JSON object. vcomm and pages: what the tool found
 * (NULL, or pages < 0: unknown, "?" in text, null in JSON).
 */
void oomkill_print(FILE *f, const struct oomkill_event *e, const char *hms,
		   const char *vcomm, long long pages, const char *loadavg,
		   int json);

#endif
