/* SPDX-License-Identifier: MIT */
/* Totals and histograms by name, bcc's text or JSON (namedhist.h). */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include "output.h"
#include "namedhist.h"

#define NH_SLOTS 64

static int cmp_desc(const void *a, const void *b)
{
	const struct nh_row *x = a, *y = b;

	if (x->val != y->val)
		return x->val < y->val ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_asc(const void *a, const void *b)
{
	return -cmp_desc(a, b);
}

static int cmp_name(const void *a, const void *b)
{
	const struct nh_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->slot > y->slot) - (x->slot < y->slot);
}

void nh_print_totals(FILE *f, const struct nh_table *t,
		     struct nh_row *rows, int n, uint64_t div,
		     const char *hms, int json)
{
	char head[32];
	int i;

	if (n > 1)
		qsort(rows, n, sizeof(*rows), t->ascending ? cmp_asc :
		      cmp_desc);
	if (json) {
		fprintf(f, "{\"time\":\"%s\",\"%ss\":[", hms, t->section);
		for (i = 0; i < n; i++) {
			fputs(i ? ",{\"name\":" : "{\"name\":", f);
			json_str(f, rows[i].name);
			fprintf(f, ",\"total_%s\":%llu}", t->label,
				(unsigned long long)(rows[i].val / div));
		}
		fputs("]}\n", f);
		return;
	}
	snprintf(head, sizeof(head), "TOTAL_%s", t->label);
	fprintf(f, "%-*s %11s\n", t->width, t->col, head);
	for (i = 0; i < n; i++) {
		out_col(f, rows[i].name, -t->width);
		fprintf(f, " %11llu\n", (unsigned long long)(rows[i].val / div));
	}
}

void nh_print_dists(FILE *f, const struct nh_table *t, struct nh_row *rows,
		    int n, const char *hms, int json)
{
	uint64_t vals[NH_SLOTS];
	int i = 0, j, first = 1;

	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_name);
	if (json)
		fprintf(f, "{\"time\":\"%s\",\"%ss\":[", hms, t->section);
	while (i < n) {
		memset(vals, 0, sizeof(vals));
		for (j = i; j < n && !strcmp(rows[j].name, rows[i].name); j++)
			if (rows[j].slot < NH_SLOTS)
				vals[rows[j].slot] += rows[j].val;
		if (json) {
			fputs(first ? "{\"name\":" : ",{\"name\":", f);
			json_str(f, rows[i].name);
			fputs(",\"dist\":", f);
			hist_json_log2(f, vals, NH_SLOTS, t->label);
			fputc('}', f);
		} else {
			fprintf(f, "\n%s = ", t->section);
			out_text(f, rows[i].name);
			fputc('\n', f);
			hist_print_log2(f, vals, NH_SLOTS, t->label);
		}
		first = 0;
		i = j;
	}
	if (json)
		fputs("]}\n", f);
}

int nh_irq_parse_args(struct tool_ctx *t, const struct tool_usage *usage,
		      struct nh_irq_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "timestamp", no_argument, NULL, 'T' },
		{ "nanoseconds", no_argument, NULL, 'N' },
		{ "count", no_argument, NULL, 'C' },
		{ "dist", no_argument, NULL, 'd' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = usage, .json = &o->json,
				     .duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hvjTNCd", longopts, &v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'N': o->ns = 1; break;
		case 'C': o->counts = 1; break;
		case 'd': o->dist = 1; break;
		default: return tool_see_help(t);
		}
	}
	if (c < 0)
		return c;
	if (o->counts && (o->dist || o->ns))
		return tool_fail(t, -EINVAL, "the --count option can't be "
				 "used with time-based options (-d, -N)");
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}
