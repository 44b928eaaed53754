/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_BIOSNOOP_OUT_H
#define BAREBPF_BIOSNOOP_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/biosnoop.h"

/*
 * The user side's pure parts (loader/tools/biosnoop/biosnoop.c), for the
 * unit tests. biosnoop_type: bcc's T column from rwbs: "R", "W", and where
 * bcc would say R: "D" discard, "F" flush, "N" none. The print functions
 * write one line with its "\n". start_ts is the ts of the first record:
 * TIME(s) counts from it.
 */
char biosnoop_type(const char *rwbs);
void biosnoop_print_header(FILE *f, int queued);
void biosnoop_print(FILE *f, const struct biosnoop_event *e,
		    uint64_t start_ts, const char *disk, int queued);
void biosnoop_print_json(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued);

#endif
