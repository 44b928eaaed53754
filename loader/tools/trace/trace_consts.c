/* SPDX-License-Identifier: MIT */
/*
 * A compiled probe's constants by the names bpf/trace.bpf.c gives them
 * (bpf/trace.h): the per-probe ones, s<i>_... of each slot, f<j>_... of
 * each condition (trace_prog.c compiles them).
 */
#include <stdio.h>
#include "trace_spec.h"

void trace_prog_consts(const struct trace_prog *pr, uint32_t probe_id,
		       void (*set)(void *ctx, const char *name, uint64_t v),
		       void *ctx)
{
	static const char *const sname[] = { "base", "off", "size", "ext1",
		"ext2", "str", "stroff", "strsize", "strbase", "zero", "disp", "idx", "shift",
		"dref" };
	static const char *const tname[] = { "op", "neg", "slot", "mask", "k",
		"stroff", "valoff", "slen" };
	char name[32];
	int i, j;

	set(ctx, "probe_id", probe_id);
	set(ctx, "rec_size", pr->rec_size);
	set(ctx, "is_kprobe", pr->is_kprobe);
	set(ctx, "want_cpu", pr->want_cpu);
	set(ctx, "regs_off", pr->regs_off);
	set(ctx, "filter_or", pr->filter_or);
	for (i = 0; i < TRACE_NSLOTS; i++) {
		const struct trace_slot_c *sl = &pr->slots[i];
		const uint64_t v[] = { sl->base, sl->off, sl->size, sl->ext1,
			sl->ext2, sl->str, sl->stroff, sl->strsize,
			sl->strbase, sl->zero, sl->disp, sl->idx, sl->shift,
			sl->dref };

		for (j = 0; j < (int)(sizeof(v) / sizeof(v[0])); j++) {
			snprintf(name, sizeof(name), "s%d_%s", i, sname[j]);
			set(ctx, name, v[j]);
		}
	}
	for (i = 0; i < TRACE_NTERMS; i++) {
		const struct trace_term_c *t = &pr->terms[i];
		const uint64_t v[] = { t->op, t->neg, t->slot, t->mask, t->k,
			t->stroff, t->valoff, t->slen };

		for (j = 0; j < (int)(sizeof(v) / sizeof(v[0])); j++) {
			snprintf(name, sizeof(name), "f%d_%s", i, tname[j]);
			set(ctx, name, v[j]);
		}
		for (j = 0; j < TRACE_STRCMP_WORDS; j++) {
			snprintf(name, sizeof(name), "f%d_w%d", i, j);
			set(ctx, name, t->w[j]);
		}
	}
}
