/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_CACHESTAT_OUT_H
#define BAREBPF_CACHESTAT_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/cachestat.h"

/*
 * cachestat's pure parts (loader/tools/cachestat/cachestat.c), for the unit tests.
 * From the calls an interval counted (d[CACHESTAT_*]), bcc's arithmetic:
 * accesses are pages marked accessed less buffers dirtied, misses are
 * pages added less pages dirtied (a write adds a page it dirties), hits
 * the rest; where read-ahead added more pages than were read (hits < 0),
 * every access is a miss. dirties is bcc's column: buffers dirtied.
 */
struct cachestat_row {
	uint64_t hits, misses, dirties;
	double ratio; /* hits / accesses, 0 without accesses */
};
void cachestat_compute(const uint64_t *d, struct cachestat_row *r);
void cachestat_print_header(FILE *f, int timestamp);
/* One line: bcc's columns ("%8d %8d %8d %7.2f%% %12.0f %10.0f") after
 * hms if timestamp, or a JSON line; buffers_kb, cached_kb as in
 * /proc/meminfo. */
void cachestat_print(FILE *f, const struct cachestat_row *r,
		     uint64_t buffers_kb, uint64_t cached_kb, const char *hms,
		     int timestamp, int json);

#endif
