/* SPDX-License-Identifier: MIT */
/* breakdown's pure parts: order, aggregate, text and JSON (breakdown_out.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "breakdown_out.h"

static void order_level(const struct bd_child *c, int nfn, int parent,
			int level, int *ids, int *depth, int *n, char *done)
{
	for (;;) {
		int i, best = -1;

		for (i = 1; i < nfn; i++) {
			int p = (int)c[i].parent;
			int root = p == BD_MIXED || p == 0 || p >= nfn ||
				   !c[p].calls || p == i;

			if (done[i] || !c[i].calls ||
			    (parent ? p != parent || root : !root))
				continue;
			if (best < 0 || c[i].total > c[best].total)
				best = i;
		}
		if (best < 0)
			return;
		done[best] = 1;
		ids[*n] = best;
		depth[(*n)++] = level;
		if (level < BD_MAX_FUNCS)
			order_level(c, nfn, best, level + 1, ids, depth, n,
				    done);
	}
}

int bd_order(const struct bd_child *c, int nfn, int *ids, int *depth)
{
	char done[BD_MAX_FUNCS] = { 0 };
	int n = 0, i;

	if (nfn > BD_MAX_FUNCS)
		nfn = BD_MAX_FUNCS;
	order_level(c, nfn, 0, 1, ids, depth, &n, done);
	/* children of a cycle of parents (a calls b here, b calls a there:
	 * each shows as the other's) have no root: list them at the top */
	for (i = 1; i < nfn; i++)
		if (c[i].calls && !done[i]) {
			done[i] = 1;
			ids[n] = i;
			depth[n++] = 1;
		}
	return n;
}

static int slot_of(uint64_t v)
{
	int s = 0;

	while (v > 1 && s < BD_SLOTS - 1) {
		v >>= 1;
		s++;
	}
	return s;
}

void bd_agg_add(struct bd_agg *a, const struct bd_task *t,
		const struct bd_fmt *f)
{
	int i;

	a->slow++;
	a->dur += t->dur;
	a->self += t->self;
	a->drops += t->drops;
	for (i = 1; i < f->nfn && i < BD_MAX_FUNCS; i++) {
		const struct bd_child *c = &t->c[i];

		if (!c->calls)
			continue;
		if (!a->calls[i])
			a->parent[i] = c->parent;
		else if (a->parent[i] != c->parent)
			a->parent[i] = BD_MIXED;
		a->calls[i] += c->calls;
		a->total[i] += c->total;
		a->hist[i][slot_of(c->total / f->div)]++;
	}
}

static void put_time(FILE *f, uint64_t ns, const struct bd_fmt *fm, int w)
{
	if (fm->div >= 1000000)
		fprintf(f, "%*.3f", w, (double)ns / fm->div);
	else
		fprintf(f, "%*llu", w, (unsigned long long)(ns / fm->div));
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static const char *fn_name(const struct bd_fmt *fm, unsigned int id)
{
	return id < (unsigned int)fm->nfn ? fm->names[id] : "?";
}

/* The child table of a record (max: per call) or of a summary (no max). */
static void print_table(FILE *f, const struct bd_child *c, uint64_t dur,
			uint64_t self, const struct bd_fmt *fm, int with_max,
			const char *indent)
{
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;
	char head[40];

	n = bd_order(c, fm->nfn, ids, depth);
	fprintf(f, "%s%-32s %8s ", indent, "FUNCTION", "CALLS");
	snprintf(head, sizeof(head), "TOTAL(%s)", fm->unit);
	fprintf(f, "%12s %6s", head, "SHARE");
	if (with_max) {
		snprintf(head, sizeof(head), "MAX(%s)", fm->unit);
		fprintf(f, " %12s", head);
	}
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		const struct bd_child *k = &c[ids[i]];

		fprintf(f, "%s%*s%-*s %8u ", indent, 2 * (depth[i] - 1), "",
			32 - 2 * (depth[i] - 1), fn_name(fm, ids[i]), k->calls);
		put_time(f, k->total, fm, 12);
		fprintf(f, " %5.1f%%", share(k->total, dur));
		if (with_max) {
			fputc(' ', f);
			put_time(f, k->max, fm, 12);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s%-32s %8s ", indent, "[self]", "");
	put_time(f, self, fm, 12);
	fprintf(f, " %5.1f%%\n", share(self, dur));
}

static void comm_of(const struct bd_task *t, char *comm)
{
	memcpy(comm, t->comm, sizeof(t->comm));
	comm[sizeof(t->comm)] = 0;
}

void bd_print_record(FILE *f, const struct bd_task *t, const char *hms,
		     const struct bd_fmt *fm)
{
	char comm[sizeof(t->comm) + 1];

	comm_of(t, comm);
	fprintf(f, "%-8s ", hms);
	out_col(f, comm, -16);
	fprintf(f, " %-7u %-7u ", t->pid, t->tid);
	put_time(f, t->dur, fm, 12);
	fprintf(f, " %s\n", fm->names[0]);
	print_table(f, t->c, t->dur, t->self, fm, 1, "    ");
	if (t->drops)
		fprintf(f, "    (%u child calls dropped: their returns were "
			"missed)\n", t->drops);
}

static void json_time(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%.3f", key, (double)ns / 1000);
}

static void json_children(FILE *f, const struct bd_child *c, uint64_t dur,
			  const struct bd_fmt *fm, int with_max,
			  const uint64_t (*hist)[BD_SLOTS])
{
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;

	n = bd_order(c, fm->nfn, ids, depth);
	fputs(",\"children\":[", f);
	for (i = 0; i < n; i++) {
		const struct bd_child *k = &c[ids[i]];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, fn_name(fm, ids[i]));
		fputs(",\"parent\":", f);
		if (k->parent == BD_MIXED)
			fputs("null", f);
		else
			json_str(f, fn_name(fm, k->parent));
		fprintf(f, ",\"calls\":%u", k->calls);
		json_time(f, "total_us", k->total);
		fprintf(f, ",\"share\":%.4f", share(k->total, dur) / 100);
		if (with_max)
			json_time(f, "max_us", k->max);
		if (hist) {
			fputs(",\"hist\":", f);
			hist_json_log2(f, hist[ids[i]], BD_SLOTS,
				       fm->div >= 1000000 ? "msecs" : "usecs");
		}
		fputc('}', f);
	}
	fputc(']', f);
}

void bd_print_record_json(FILE *f, const struct bd_task *t, const char *hms,
			  const struct bd_fmt *fm, const struct bb_ksyms *ks,
			  const uint64_t *ips, int nips)
{
	char comm[sizeof(t->comm) + 1];

	comm_of(t, comm);
	fprintf(f, "{\"time\":\"%s\",\"comm\":", hms);
	json_str(f, comm);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"main\":", t->pid, t->tid);
	json_str(f, fm->names[0]);
	json_time(f, "dur_us", t->dur);
	json_time(f, "self_us", t->self);
	fprintf(f, ",\"drops\":%u", t->drops);
	json_children(f, t->c, t->dur, fm, 1, NULL);
	if (ks && nips > 0) {
		fputs(",\"kstack\":", f);
		stack_json_kernel(f, ks, ips, nips);
	}
	fputs("}\n", f);
}

/* The summary's children as bd_child, for the shared table code. */
static void agg_children(const struct bd_agg *a, struct bd_child *c)
{
	int i;

	memset(c, 0, sizeof(*c) * BD_MAX_FUNCS);
	for (i = 1; i < BD_MAX_FUNCS; i++) {
		c[i].calls = (unsigned int)a->calls[i];
		c[i].total = a->total[i];
		c[i].parent = a->parent[i];
	}
}

void bd_print_agg(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		  uint64_t min_ns, const struct bd_fmt *fm)
{
	struct bd_child c[BD_MAX_FUNCS];
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;
	char unit[8];

	fprintf(f, "\n%s: %llu calls, %llu of them at least ", fm->names[0],
		(unsigned long long)main_calls, (unsigned long long)a->slow);
	put_time(f, min_ns, fm, 0);
	fprintf(f, " %s", fm->unit);
	if (a->slow) {
		fputs(", in all ", f);
		put_time(f, a->dur, fm, 0);
		fprintf(f, " %s", fm->unit);
	}
	fputs("\n", f);
	if (!a->slow)
		return;
	agg_children(a, c);
	print_table(f, c, a->dur, a->self, fm, 0, "");
	if (a->drops)
		fprintf(f, "(%llu child calls dropped: their returns were "
			"missed)\n", (unsigned long long)a->drops);
	snprintf(unit, sizeof(unit), "%ssecs", fm->div >= 1000000 ? "m" : "u");
	n = bd_order(c, fm->nfn, ids, depth);
	for (i = 0; i < n; i++) {
		fprintf(f, "\n%s: time per slow %s call\n", fn_name(fm, ids[i]),
			fm->names[0]);
		hist_print_log2(f, a->hist[ids[i]], BD_SLOTS, unit);
	}
}

void bd_print_agg_json(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		       uint64_t min_ns, const struct bd_fmt *fm)
{
	struct bd_child c[BD_MAX_FUNCS];

	agg_children(a, c);
	fputs("{\"summary\":true,\"main\":", f);
	json_str(f, fm->names[0]);
	fprintf(f, ",\"main_calls\":%llu,\"slow\":%llu",
		(unsigned long long)main_calls, (unsigned long long)a->slow);
	json_time(f, "threshold_us", min_ns);
	json_time(f, "dur_us", a->dur);
	json_time(f, "self_us", a->self);
	fprintf(f, ",\"drops\":%llu", (unsigned long long)a->drops);
	json_children(f, c, a->dur, fm, 0, a->hist);
	fputs("}\n", f);
}
