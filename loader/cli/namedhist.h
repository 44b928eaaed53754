/* SPDX-License-Identifier: MIT */
/*
 * Totals or log2 histograms by name, as bcc's hardirqs and softirqs print
 * them (namedhist.c): a "NAME TOTAL_usecs" table, or one histogram per
 * name under "section = name" (print_log2_hist's section header); or one
 * JSON line of either.
 */
#ifndef BAREBPF_NAMEDHIST_H
#define BAREBPF_NAMEDHIST_H

#include <stdint.h>
#include <stdio.h>
#include "tool.h"

struct nh_row {
	char name[33];
	unsigned int slot; /* histograms: the log2 slot */
	uint64_t val;
};
struct nh_table {
	const char *col;     /* "HARDIRQ" */
	int width;           /* of its column: 26 (hardirqs), 16 (softirqs) */
	const char *label;   /* "usecs", "nsecs", "count" */
	const char *section; /* "hardirq": of the histograms and JSON */
	int ascending;       /* totals smallest first (bcc's softirqs) */
};
/* Totals: rows[0..n-1] (one per name, sorted here), each divided by div. */
void nh_print_totals(FILE *f, const struct nh_table *t,
		     struct nh_row *rows, int n, uint64_t div,
		     const char *hms, int json);
/* Histograms: rows[0..n-1], a (name, slot) each, any order. */
void nh_print_dists(FILE *f, const struct nh_table *t, struct nh_row *rows,
		    int n, const char *hms, int json);

/* The options hardirqs and softirqs share (bcc's): -T -N -C -d, interval
 * and count, --duration, -j. */
struct nh_irq_opts {
	double interval, duration;
	unsigned long count;
	int timestamp, ns, counts, dist, json;
};
/* argv into o, with usage for -h; 0 or -errno (said). */
int nh_irq_parse_args(struct tool_ctx *t, const struct tool_usage *usage,
		      struct nh_irq_opts *o, int argc, char **argv);

#endif
