/* SPDX-License-Identifier: MIT */
/* The freeze summary: freezes and frozen time per disk, per queue/ file
 * and per stack (freeze_mod.h; pure, tests/unit/test_freeze.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "freeze_mod.h"

static struct freeze_agg *agg_find(struct freeze_agg **v, int *n,
				   const char *disk, const uint64_t *ips,
				   int nips)
{
	struct freeze_agg *a;
	int i;

	for (i = 0; i < *n; i++) {
		a = &(*v)[i];
		if (disk && !strcmp(a->disk, disk))
			return a;
		if (!disk && a->nips == nips &&
		    (!nips || !memcmp(a->ips, ips, nips * sizeof(*ips))))
			return a;
	}
	a = realloc(*v, (*n + 1) * sizeof(**v));
	if (!a)
		return NULL;
	*v = a;
	a = &a[*n];
	memset(a, 0, sizeof(*a));
	if (disk) {
		snprintf(a->disk, sizeof(a->disk), "%s", disk);
	} else if (nips) {
		a->ips = malloc(nips * sizeof(*ips));
		if (!a->ips)
			return NULL;
		memcpy(a->ips, ips, nips * sizeof(*ips));
		a->nips = nips;
	}
	(*n)++;
	return a;
}

static void agg_add(struct freeze_agg *a, uint64_t frozen_ns,
		    uint64_t drain_ns)
{
	a->count++;
	a->frozen_ns += frozen_ns;
	a->drain_ns += drain_ns;
	if (frozen_ns > a->max_ns)
		a->max_ns = frozen_ns;
}

int freeze_sum_add(struct freeze_sum *s, const char *disk, const char *attr,
		   const uint64_t *ips, int nips, uint64_t frozen_ns,
		   uint64_t drain_ns)
{
	struct freeze_agg *d, *a, *k;

	if (nips < 0)
		nips = 0;
	d = agg_find(&s->disks, &s->ndisks, disk && *disk ? disk : "?",
		     NULL, 0);
	if (!d)
		return -ENOMEM;
	a = agg_find(&s->attrs, &s->nattrs, attr && *attr ? attr : "-",
		     NULL, 0);
	if (!a)
		return -ENOMEM;
	k = agg_find(&s->stacks, &s->nstacks, NULL, ips, nips);
	if (!k)
		return -ENOMEM;
	agg_add(d, frozen_ns, drain_ns);
	agg_add(a, frozen_ns, drain_ns);
	agg_add(k, frozen_ns, drain_ns);
	s->count++;
	s->frozen_ns += frozen_ns;
	return 0;
}

static int cmp_agg(const void *a, const void *b)
{
	const struct freeze_agg *x = a, *y = b;
	int i;

	if (x->frozen_ns != y->frozen_ns)
		return x->frozen_ns > y->frozen_ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (strcmp(x->disk, y->disk))
		return strcmp(x->disk, y->disk);
	for (i = 0; i < x->nips && i < y->nips; i++)
		if (x->ips[i] != y->ips[i])
			return x->ips[i] < y->ips[i] ? -1 : 1;
	return x->nips - y->nips;
}

void freeze_sum_sort(struct freeze_sum *s)
{
	if (s->ndisks)
		qsort(s->disks, s->ndisks, sizeof(*s->disks), cmp_agg);
	if (s->nattrs)
		qsort(s->attrs, s->nattrs, sizeof(*s->attrs), cmp_agg);
	if (s->nstacks)
		qsort(s->stacks, s->nstacks, sizeof(*s->stacks), cmp_agg);
}

void freeze_sum_free(struct freeze_sum *s)
{
	int i;

	for (i = 0; i < s->nstacks; i++)
		free(s->stacks[i].ips);
	free(s->stacks);
	free(s->attrs);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* The lines per disk or per queue/ file, under their header. */
static void print_table(FILE *f, const char *what,
			const struct freeze_agg *v, int n)
{
	int i;

	fprintf(f, "\n%-16s %8s %12s %10s %12s\n", what, "FREEZES",
		"FROZEN(ms)", "MAX(ms)", "DRAIN(ms)");
	for (i = 0; i < n; i++) {
		const struct freeze_agg *a = &v[i];

		out_col(f, a->disk, -16);
		fprintf(f, " %8lu %12.3f %10.3f %12.3f\n", a->count,
			ms(a->frozen_ns), ms(a->max_ns), ms(a->drain_ns));
	}
}

void freeze_sum_print(FILE *f, const struct freeze_sum *s,
		      const struct bb_ksyms *ks)
{
	int i;

	fprintf(f, "\n%lu freeze%s, %.3f ms frozen in total\n", s->count,
		s->count == 1 ? "" : "s", ms(s->frozen_ns));
	if (s->healed)
		fprintf(f, "healed %lu time%s: a queue we held frozen was made "
			"anew or frozen anew by the kernel (it was torn down "
			"frozen, or its unfreeze was missed); the freeze left "
			"open is not reported\n",
			s->healed, s->healed == 1 ? "" : "s");
	if (s->unseen)
		fprintf(f, "%lu unfreeze%s of freezes that began before "
			"tracing (not reported)\n", s->unseen,
			s->unseen == 1 ? "" : "s");
	if (!s->count)
		return;
	print_table(f, "DISK", s->disks, s->ndisks);
	print_table(f, "ATTR", s->attrs, s->nattrs);
	if (s->no_stacks)
		return;
	fprintf(f, "\n%8s %12s %10s  %s\n", "FREEZES", "FROZEN(ms)", "MAX(ms)",
		"STACK");
	for (i = 0; i < s->nstacks; i++) {
		const struct freeze_agg *a = &s->stacks[i];

		fprintf(f, "%8lu %12.3f %10.3f  ", a->count, ms(a->frozen_ns),
			ms(a->max_ns));
		if (!a->nips) {
			fprintf(f, "[no stack]\n");
			continue;
		}
		stack_print_kernel(f, ks, a->ips, 1, "");
		stack_print_kernel(f, ks, a->ips + 1, a->nips - 1,
				   "                                  ");
	}
}

/* The objects per disk or per queue/ file (files: "-", no file, is null). */
static void json_table(FILE *f, const char *key,
		       const struct freeze_agg *v, int n, int files)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct freeze_agg *a = &v[i];

		fprintf(f, "%s{\"%s\":", i ? "," : "", key);
		if (!files || strcmp(a->disk, "-"))
			json_str(f, a->disk);
		else
			fputs("null", f);
		fprintf(f, ",\"freezes\":%lu,\"frozen_us\":%llu,\"max_us\":%llu,"
			"\"drain_us\":%llu}", a->count,
			(unsigned long long)(a->frozen_ns / 1000),
			(unsigned long long)(a->max_ns / 1000),
			(unsigned long long)(a->drain_ns / 1000));
	}
}

void freeze_sum_json(FILE *f, const struct freeze_sum *s,
		     const struct bb_ksyms *ks)
{
	int i;

	fprintf(f, "{\"freezes\":%lu,\"frozen_us\":%llu,\"healed\":%lu,"
		"\"unseen\":%lu,\"disks\":[", s->count,
		(unsigned long long)(s->frozen_ns / 1000), s->healed,
		s->unseen);
	json_table(f, "disk", s->disks, s->ndisks, 0);
	fprintf(f, "],\"attrs\":[");
	json_table(f, "attr", s->attrs, s->nattrs, 1);
	fprintf(f, "],\"stacks\":[");
	for (i = 0; i < s->nstacks && !s->no_stacks; i++) {
		const struct freeze_agg *a = &s->stacks[i];

		fprintf(f, "%s{\"freezes\":%lu,\"frozen_us\":%llu,"
			"\"max_us\":%llu,\"stack\":", i ? "," : "", a->count,
			(unsigned long long)(a->frozen_ns / 1000),
			(unsigned long long)(a->max_ns / 1000));
		stack_json_kernel(f, ks, a->ips, a->nips);
		fputc('}', f);
	}
	fprintf(f, "]}");
}
