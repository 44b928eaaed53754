/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_SLOWBIO_OUT_H
#define BAREBPF_SLOWBIO_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/slowbio.h"

/*
 * The user side's pure parts (loader/tools/slowbio/slowbio.c), for the
 * unit tests: one line with its "\n". start_ts is the ts of the first
 * record (TIME(s) counts from it); ms prints LAT(ms) instead of LAT(us).
 */
void slowbio_print_header(FILE *f, int ms);
void slowbio_print(FILE *f, const struct slowbio_event *e, uint64_t start_ts,
		   const char *disk, int ms);
void slowbio_print_json(FILE *f, const struct slowbio_event *e,
			uint64_t start_ts, const char *disk);

#endif
