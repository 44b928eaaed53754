/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_BIOTOP_OUT_H
#define BAREBPF_BIOTOP_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/biotop.h"

/*
 * biotop's pure parts (loader/tools/biotop/biotop.c), for the unit tests. The
 * map holds running totals; an interval shows what each key gained.
 */
struct biotop_row {
	struct biotop_key key;
	struct biotop_val val;
};
/* -s: bcc's biotop sorts by bytes; libbpf-tools' also by all (the sum of
 * I/O, bytes and us), io, time */
enum { BIOTOP_SORT_BYTES, BIOTOP_SORT_ALL, BIOTOP_SORT_IO,
       BIOTOP_SORT_TIME };
/* The sort of a -s name, or -1. */
int biotop_sort_by(const char *name);
/* Sort by key (for biotop_deltas). */
void biotop_sort_keys(struct biotop_row *r, int n);
/* Largest first by `by`, then by pid, comm, direction and disk. */
void biotop_sort(struct biotop_row *r, int n, int by);
/*
 * What each row of now (sorted by key) gained since prev (the same,
 * NULL, 0 before the first read), the rows that did any I/O, in *out
 * (freed by the caller). Returns how many, or -ENOMEM. idle[i] (if not
 * NULL, n of them) is set to 1 for a key of now that was in prev and
 * gained nothing: the tool deletes those.
 */
int biotop_deltas(const struct biotop_row *now, int n,
		  const struct biotop_row *prev, int nprev,
		  struct biotop_row **out, unsigned char *idle);
/* An interval's head: the screen cleared (clear) or an empty line, bcc's
 * "HH:MM:SS loadavg: ..." line (loadavg as /proc/loadavg has it, its
 * newline included) and the column header. */
void biotop_print_head(FILE *f, const char *hms, const char *loadavg,
		       int clear);
/* One row: bcc's columns, or a JSON line with the time. */
void biotop_print_row(FILE *f, const struct biotop_row *r, const char *disk,
		      const char *hms, int json);

#endif
