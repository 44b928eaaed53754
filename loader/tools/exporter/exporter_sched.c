/* SPDX-License-Identifier: MIT */
/*
 * The exporter's collectors of the scheduler, interrupts and page cache
 * (issues 30 and 31), chosen with --collectors: runqlat (run-queue
 * latency, tracepoints), hardirqs (time in each hard interrupt handler,
 * tracepoints) and pagecache (cachestat's counts, kprobes). As the block
 * collectors (exporter_collect.c): maps read and never cleared, every
 * series there from the first render.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exporter.h"
#include "mods.h"
#include "prom.h"
#include "../../../bpf/cachestat.h"
#include "../../../bpf/hardirqs.h"
#include "../../../bpf/runqlat.h"

_Static_assert(RUNQLAT_SLOTS == 64, "64 log2 slots");

/* ---- collector: runqlat (tracepoints) ---- */

int exp_runqlat_start(struct exporter *e, struct collector *c)
{
	struct runqlat_settings s = { .by = RUNQLAT_BY_NONE, .keep_sum = 1 };

	(void)e;
	return runqlat_start(&c->t, &s) < 0 ? -1 : 0;
}

void exp_runqlat_render(struct exporter *e, struct collector *c, FILE *f)
{
	int fd = runqlat_hist_fd(&c->t), sfd = runqlat_sums_fd(&c->t);
	struct runqlat_key k, next;
	uint64_t slots[RUNQLAT_SLOTS] = { 0 }, v, sum = 0;
	uint32_t zero = 0;
	void *prev = NULL;

	(void)e;
	while (fd >= 0 && bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v) == 0 &&
		    k.slot < RUNQLAT_SLOTS)
			slots[k.slot] += v;
	}
	if (sfd >= 0)
		bpf_map_lookup_elem(sfd, &zero, &sum);
	prom_family(f, "barebpf_runqueue_latency_seconds", "histogram",
		    "Time tasks waited on a run queue, from their wakeup "
		    "(sched_wakeup, sched_wakeup_new) or preemption to running "
		    "(sched_switch): runqlat's histogram, every CPU.");
	prom_hist_log2(f, "barebpf_runqueue_latency_seconds", NULL, 0, slots,
		       RUNQLAT_SLOTS, EXP_BUCKETS, 1e6, sum / 1e9);
}

/* ---- collector: hardirqs (tracepoints) ---- */

struct irq_priv {
	char (*name)[HARDIRQS_NAME];
	uint64_t *ns;
	int n;
	uint64_t other_ns; /* names past EXP_IRQ_NAMES */
};

int exp_irq_names(const char *text, char (*names)[HARDIRQS_NAME], int max)
{
	const char *l = text;
	int n = 0;

	for (; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *end = strchr(l, '\n'), *p = l, *s;
		size_t len = end ? (size_t)(end - l) : strlen(l);

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			continue; /* the CPU line, NMI:, LOC: ... */
		/* the last word of the line, and each one after ", " */
		for (s = l + len; s > l && s[-1] == ' '; s--)
			;
		while (s > l) {
			const char *w = s;
			int i;

			while (w > l && w[-1] != ' ')
				w--;
			if (w == s || w[0] == '\0' || n >= max)
				break;
			snprintf(names[n], HARDIRQS_NAME, "%.*s",
				 (int)(s - w), w);
			for (i = 0; i < n && strcmp(names[i], names[n]); i++)
				;
			n += i == n;
			/* "a, b": a ends with ',' before " " */
			if (w - l < 2 || w[-2] != ',')
				break;
			s = w - 2;
		}
	}
	return n;
}

static int irq_index(struct irq_priv *p, const char *name)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strncmp(p->name[i], name, HARDIRQS_NAME))
			return i;
	if (p->n >= EXP_IRQ_NAMES)
		return -1;
	snprintf(p->name[p->n], HARDIRQS_NAME, "%.*s", HARDIRQS_NAME - 1,
		 name);
	return p->n++;
}

int exp_hardirqs_start(struct exporter *e, struct collector *c)
{
	struct irq_priv *p = calloc(1, sizeof(*p));
	char *text = NULL;

	(void)e;
	if (!p)
		return tool_fail(&c->t, -ENOMEM, "out of memory");
	c->priv = p;
	p->name = calloc(EXP_IRQ_NAMES, sizeof(*p->name));
	p->ns = calloc(EXP_IRQ_NAMES, sizeof(*p->ns));
	if (!p->name || !p->ns)
		return tool_fail(&c->t, -ENOMEM, "out of memory");
	/* every handler /proc/interrupts names, at 0 from the start */
	if (bb_read_file("/proc/interrupts", &text) >= 0)
		p->n = exp_irq_names(text, p->name, EXP_IRQ_NAMES);
	free(text);
	return hardirqs_start(&c->t, HARDIRQS_TIME, 1) < 0 ? -1 : 0;
}

void exp_hardirqs_render(struct exporter *e, struct collector *c, FILE *f)
{
	struct irq_priv *p = c->priv;
	int fd = hardirqs_dist_fd(&c->t), i;
	struct hardirqs_key k, next;
	void *prev = NULL;
	uint64_t v, other = 0;
	char name[HARDIRQS_NAME + 1];

	(void)e;
	/* the map holds running sums: read anew, not added */
	for (i = 0; i < p->n; i++)
		p->ns[i] = 0;
	while (fd >= 0 && bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v) < 0)
			continue;
		memcpy(name, k.name, HARDIRQS_NAME);
		name[HARDIRQS_NAME] = 0;
		i = irq_index(p, name);
		if (i < 0)
			other += v;
		else
			p->ns[i] += v;
	}
	p->other_ns = other;
	prom_family(f, "barebpf_hardirq_seconds_total", "counter",
		    "Time spent in hard interrupt handlers, by handler name "
		    "(irq_handler_entry to irq_handler_exit; calls that "
		    "returned IRQ_NONE not counted, as bcc's hardirqs). The "
		    "names of /proc/interrupts from the start, new ones as "
		    "they appear; past 256 names, irq=\"_other\".");
	for (i = 0; i < p->n; i++) {
		struct prom_label l = { "irq", p->name[i] };

		prom_sample(f, "barebpf_hardirq_seconds_total", &l, 1,
			    p->ns[i] / 1e9);
	}
	{
		struct prom_label l = { "irq", "_other" };

		prom_sample(f, "barebpf_hardirq_seconds_total", &l, 1,
			    p->other_ns / 1e9);
	}
}

void exp_hardirqs_stop(struct collector *c)
{
	struct irq_priv *p = c->priv;

	if (p) {
		free(p->name);
		free(p->ns);
	}
	free(p);
	c->priv = NULL;
}

/* ---- collector: pagecache (kprobes: cachestat's) ---- */

struct pc_priv {
	uint64_t accesses, misses, dirtied; /* the last exported */
};

int exp_pagecache_start(struct exporter *e, struct collector *c)
{
	char what[256];

	c->priv = calloc(1, sizeof(struct pc_priv));
	if (!c->priv)
		return tool_fail(&c->t, -ENOMEM, "out of memory");
	return cachestat_start(&c->t, e->avail, e->navail, what,
			       sizeof(what)) < 0 ? -1 : 0;
}

/* v, or the last value if v is less: a counter never goes down */
static uint64_t mono(uint64_t *last, int64_t v)
{
	if (v > 0 && (uint64_t)v > *last)
		*last = v;
	return *last;
}

void exp_pagecache_render(struct exporter *e, struct collector *c,
			     FILE *f)
{
	struct pc_priv *p = c->priv;
	int fd = cachestat_stats_fd(&c->t);
	uint64_t s[CACHESTAT_NSTATS] = { 0 };
	uint32_t k;

	(void)e;
	for (k = 0; fd >= 0 && k < CACHESTAT_NSTATS; k++)
		bpf_map_sum_percpu_u64(fd, k, &s[k]);
	prom_family(f, "barebpf_pagecache_accesses_total", "counter",
		    "Page-cache accesses, as bcc's cachestat counts them: "
		    "mark_page_accessed minus mark_buffer_dirty calls.");
	prom_sample_u64(f, "barebpf_pagecache_accesses_total", NULL, 0,
			mono(&p->accesses, (int64_t)s[CACHESTAT_MPA] -
			     (int64_t)s[CACHESTAT_MBD]));
	prom_family(f, "barebpf_pagecache_misses_total", "counter",
		    "Page-cache misses, as bcc's cachestat counts them: pages "
		    "added to the page cache (add_to_page_cache_lru, "
		    "filemap_add_folio) minus pages dirtied "
		    "(account_page_dirtied, folio_account_dirtied). Hits: "
		    "accesses minus misses.");
	prom_sample_u64(f, "barebpf_pagecache_misses_total", NULL, 0,
			mono(&p->misses, (int64_t)s[CACHESTAT_APCL] -
			     (int64_t)s[CACHESTAT_APD]));
	prom_family(f, "barebpf_pagecache_dirtied_total", "counter",
		    "Pages dirtied (account_page_dirtied, "
		    "folio_account_dirtied, or the writeback_dirty_folio "
		    "tracepoint).");
	prom_sample_u64(f, "barebpf_pagecache_dirtied_total", NULL, 0,
			mono(&p->dirtied, (int64_t)s[CACHESTAT_APD]));
}

void exp_free_priv(struct collector *c)
{
	free(c->priv);
	c->priv = NULL;
}
