/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_FREEZE_OUT_H
#define BAREBPF_FREEZE_OUT_H

#include <stdio.h>
#include "../../../bpf/freeze.h"

/*
 * freeze's record, printed (loader/tools/freeze/freeze.c), for the unit tests:
 * the columns without their "\n", or a JSON object without its "}\n"
 * (the stack follows). hms is the clock ("HH:MM:SS").
 */
void freeze_print_header(FILE *f);
void freeze_print_record(FILE *f, const struct freeze_event *ev,
			 const char *hms, const char *disk, int json);

#endif
