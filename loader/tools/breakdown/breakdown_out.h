/* SPDX-License-Identifier: MIT */
/*
 * breakdown's pure parts (breakdown_out.c, for the unit tests): the order
 * of children, the aggregate over slow calls, records and summaries as
 * text and JSON.
 */
#ifndef BAREBPF_BREAKDOWN_OUT_H
#define BAREBPF_BREAKDOWN_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/breakdown.h"

#define BD_SLOTS 32 /* log2 histogram slots (in the output unit) */

/* The aggregate over slow calls. */
struct bd_agg {
	uint64_t slow, dur, self, drops;
	uint64_t calls[BD_MAX_FUNCS], total[BD_MAX_FUNCS];
	uint64_t hist[BD_MAX_FUNCS][BD_SLOTS];
	unsigned int parent[BD_MAX_FUNCS];
};
/* How to print: names by id (nfn of them), unit divisor and name. */
struct bd_fmt {
	const char *const *names;
	int nfn;
	unsigned long div;      /* 1000: us, 1000000: ms */
	const char *unit;       /* "us", "ms" */
};
/* Children with calls, in print order: a tree of parents, each level by
 * total time, longest first; depth[] their nesting (1: under MAIN).
 * Returns how many. */
int bd_order(const struct bd_child *c, int nfn, int *ids, int *depth);
void bd_agg_add(struct bd_agg *a, const struct bd_task *t,
		const struct bd_fmt *f);
void bd_print_record(FILE *f, const struct bd_task *t, const char *hms,
		     const struct bd_fmt *fm);
struct bb_ksyms;
/* ks and ips: MAIN's stack (-K), or NULL and 0 */
void bd_print_record_json(FILE *f, const struct bd_task *t, const char *hms,
			  const struct bd_fmt *fm, const struct bb_ksyms *ks,
			  const uint64_t *ips, int nips);
void bd_print_agg(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		  uint64_t min_ns, const struct bd_fmt *fm);
void bd_print_agg_json(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		       uint64_t min_ns, const struct bd_fmt *fm);

#endif
