/* SPDX-License-Identifier: MIT */
/*
 * The exporter's collectors (exporter.h): biolatency (tracepoints), qenter,
 * freeze and slowbio (kprobes), each a start, a render and a stop of its
 * own, with its own object and probes (its own tool_ctx). Counters come
 * from maps that are read and never cleared, or from sums kept here
 * (freeze's records), so they only grow for the whole run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exporter.h"
#include "mods.h"
#include "freeze_mod.h"
#include "prom.h"
#include "../../../bpf/biolatency.h"
#include "../../../bpf/freeze.h"
#include "../../../bpf/qenter.h"
#include "../../../bpf/slowbio.h"

_Static_assert(BIOLAT_SLOTS == 64 && QENTER_SLOTS == 64, "64 log2 slots");

/* ---- per-disk log2 histograms, read as they are ---- */

struct exp_hist {
	uint32_t dev;
	char op;              /* BIOLAT_OP_*, or 0 */
	const char *disk;
	uint64_t slots[64];
	uint64_t sum_ns;
};

struct hist_set {
	struct exp_hist *v;
	int n;
};

static struct exp_hist *hist_get(struct hist_set *s, uint32_t dev, char op)
{
	struct exp_hist *v;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].dev == dev && s->v[i].op == op)
			return &s->v[i];
	v = realloc(s->v, (s->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	s->v = v;
	memset(&v[s->n], 0, sizeof(*v));
	v[s->n].dev = dev;
	v[s->n].op = op;
	return &v[s->n++];
}

/*
 * Add up a map keyed { u32 dev; u32 slot; [char op; ...] } with u64
 * values into s (sum_ns from `sums`, keyed the same with slot 0). Nothing
 * is deleted, so a key never comes back as a new one and each bucket only
 * grows between reads.
 */
static int hist_read(int hist_fd, int sums_fd, size_t key_size,
		     struct hist_set *s)
{
	unsigned char key[16], next[16];
	int pass;

	if (key_size < 8 || key_size > sizeof(key))
		return -EINVAL;
	for (pass = 0; pass < 2; pass++) {
		int fd = pass ? sums_fd : hist_fd;
		void *prev = NULL;

		while (bpf_map_get_next_key(fd, prev, next) == 0) {
			struct exp_hist *h;
			uint32_t dev, slot;
			uint64_t v;

			memcpy(key, next, key_size);
			prev = key;
			if (bpf_map_lookup_elem(fd, key, &v) < 0)
				continue;
			memcpy(&dev, key, 4);
			memcpy(&slot, key + 4, 4);
			h = hist_get(s, dev, key_size > 8 ? (char)key[8] : 0);
			if (!h)
				return -ENOMEM;
			if (pass)
				h->sum_ns += v;
			else if (slot < 64)
				h->slots[slot] += v;
		}
	}
	return 0;
}

/*
 * Every series at 0 from the start: a series that first appears with its
 * first count loses that count to Prometheus's increase() and rate(),
 * which see no earlier 0 (269 of a burst of 1,000 I/Os on an idle disk,
 * scraped every second). So every whole disk of the table, read again at
 * each render (a new disk is there from the first render after it
 * appears), is exported with each operation, counted or not.
 */
static int each_disk(const struct exporter *e, int i)
{
	const struct blkdisk *d = &e->disks.v[i];

	return !d->unknown && d->disk == d->kdev;
}

static int hist_seed(struct exporter *e, struct hist_set *s, int per_op)
{
	static const char ops[] = { BIOLAT_OP_READ, BIOLAT_OP_WRITE,
				    BIOLAT_OP_DISCARD, BIOLAT_OP_FLUSH,
				    BIOLAT_OP_OTHER };
	int i, k;

	for (i = 0; i < e->disks.n; i++)
		for (k = 0; each_disk(e, i) && k < (per_op ? 5 : 1); k++)
			if (!hist_get(s, e->disks.v[i].kdev,
				      per_op ? ops[k] : 0))
				return -ENOMEM;
	return 0;
}

static const char *disk_label(struct exporter *e, uint32_t dev)
{
	const struct blkdisk *d;

	if (!dev)
		return "unknown";
	d = blkdisks_get(&e->disks, dev);
	return d ? d->name : "unknown";
}

static int cmp_hist(const void *a, const void *b)
{
	const struct exp_hist *x = a, *y = b;
	int c = strcmp(x->disk, y->disk);

	return c ? c : x->op - y->op;
}

static const char *op_label(char op)
{
	switch (op) {
	case BIOLAT_OP_READ: return "read";
	case BIOLAT_OP_WRITE: return "write";
	case BIOLAT_OP_DISCARD: return "discard";
	case BIOLAT_OP_FLUSH: return "flush";
	}
	return "other";
}

/* One histogram family from a hist map, by disk (and op). */
static void render_hists(struct exporter *e, FILE *f, int hist_fd,
			 int sums_fd, size_t key_size, const char *name,
			 const char *help)
{
	struct hist_set s = { 0 };
	int i;

	if (hist_fd < 0 || sums_fd < 0 ||
	    hist_read(hist_fd, sums_fd, key_size, &s) < 0 ||
	    hist_seed(e, &s, key_size > 8) < 0)
		goto out;
	for (i = 0; i < s.n; i++)
		s.v[i].disk = disk_label(e, s.v[i].dev);
	if (s.n)
		qsort(s.v, s.n, sizeof(*s.v), cmp_hist);
	prom_family(f, name, "histogram", help);
	for (i = 0; i < s.n; i++) {
		struct prom_label l[2] = { { "disk", s.v[i].disk },
					   { "op", op_label(s.v[i].op) } };

		prom_hist_log2(f, name, l, key_size > 8 ? 2 : 1, s.v[i].slots,
			       64, EXP_BUCKETS, 1e6, s.v[i].sum_ns / 1e9);
	}
out:
	free(s.v);
}

/* ---- collector: biolatency (tracepoints) ---- */

static int bio_start(struct exporter *e, struct collector *c)
{
	/* every disk, by operation, with the sums of a histogram's _sum */
	struct biolat_settings s = { .per_disk = 1, .per_op = 1,
				     .keep_sum = 1 };

	(void)e;
	return biolat_start(&c->t, &s) < 0 ? -1 : 0;
}

static void bio_render(struct exporter *e, struct collector *c, FILE *f)
{
	render_hists(e, f, biolat_hist_fd(&c->t), biolat_sums_fd(&c->t),
		     sizeof(struct biolat_key),
		     "barebpf_bio_latency_seconds",
		     "Block I/O latency from issue to the driver to completion "
		     "(block_rq_issue to block_rq_complete), by disk and "
		     "operation.");
}

/* ---- collector: qenter (kprobes) ---- */

static int qenter_collect(struct exporter *e, struct collector *c)
{
	struct qenter_settings s = { .per_disk = 1, .need_dev = 1,
				     .keep_sum = 1,
				     .maxactive = EXP_QENTER_MAXACTIVE };
	int ret = qenter_start(&c->t, &s, e->avail, e->navail, NULL, 0);

	if (ret == -ENOENT && !c->t.obj)
		tool_error(&c->t, "qenter: neither blk_queue_enter nor "
			   "__bio_queue_enter can be probed on this kernel");
	return ret < 0 ? -1 : 0;
}

static void qenter_render(struct exporter *e, struct collector *c, FILE *f)
{
	render_hists(e, f, qenter_hist_fd(&c->t), qenter_sums_fd(&c->t),
		     sizeof(struct qenter_key),
		     "barebpf_queue_enter_wait_seconds",
		     "Time bio submitters spent entering the block queue "
		     "(blk_queue_enter, __bio_queue_enter): waits for a frozen "
		     "queue. Before 5.15 every bio; from 5.15 only the slow "
		     "path.");
}

/* ---- collector: freeze (kprobes) ---- */

struct freeze_disk {
	char disk[64];
	char comm[FREEZE_COMM_LEN + 1];
	char attr[FREEZE_ATTR_LEN + 1]; /* "": not a queue/ file write */
	uint64_t count, frozen_ns;
	uint64_t last_start; /* start_ns of the freeze comm and attr are of */
};

struct freeze_priv {
	struct freeze_opts o;
	struct freeze_run r;
	struct freeze_disk *d;
	int nd, oom;
};

/* The disk named disk, added at 0 if new; NULL without memory. */
static struct freeze_disk *freeze_disk_get(struct freeze_priv *p,
					   const char *disk)
{
	struct freeze_disk *d;
	int i;

	for (i = 0; i < p->nd && strcmp(p->d[i].disk, disk); i++)
		;
	if (i < p->nd)
		return &p->d[i];
	d = realloc(p->d, (p->nd + 1) * sizeof(*d));
	if (!d) {
		p->oom = 1;
		return NULL;
	}
	p->d = d;
	memset(&d[i], 0, sizeof(*d));
	snprintf(d[i].disk, sizeof(d[i].disk), "%s", disk);
	p->nd++;
	return &d[i];
}

static void freeze_on_event(void *ctx, int cpu, const void *data,
			    uint32_t size)
{
	struct collector *c = ctx;
	struct freeze_priv *p = c->priv;
	struct freeze_event ev;
	struct freeze_disk *d;
	char disk[64];

	(void)cpu;
	if (size < sizeof(ev))
		return;
	memcpy(&ev, data, sizeof(ev));
	freeze_queue_disk(&p->r, &ev, disk, sizeof(disk));
	if (!strcmp(disk, "?"))
		snprintf(disk, sizeof(disk), "unknown");
	d = freeze_disk_get(p, disk);
	if (!d)
		return;
	d->count++;
	d->frozen_ns += ev.frozen_ns;
	/* the last freezer is the freeze that started last: the rings are
	 * per CPU and read one after the other, so the last record read may
	 * be an earlier freeze (4.14 in CI: scheduler named after a later
	 * nr_requests write) */
	if (d->count > 1 && ev.start_ns < d->last_start)
		return;
	d->last_start = ev.start_ns;
	snprintf(d->comm, sizeof(d->comm), "%.*s", FREEZE_COMM_LEN, ev.comm);
	snprintf(d->attr, sizeof(d->attr), "%.*s", FREEZE_ATTR_LEN, ev.attr);
}

static int freeze_collect(struct exporter *e, struct collector *c)
{
	struct tool_ctx *t = &c->t;
	struct freeze_priv *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return tool_fail(t, -ENOMEM, "out of memory");
	c->priv = p;
	p->o.no_stack = 1;
	p->r.o = &p->o;
	p->r.t = t;
	p->r.qdev_fd = -1;
	p->r.sum.no_stacks = 1;
	ret = freeze_start(t, &p->r, freeze_on_event, c, &c->pb, e->avail,
			   e->navail);
	return ret < 0 ? -1 : 0;
}

static int cmp_freeze_disk(const void *a, const void *b)
{
	return strcmp(((const struct freeze_disk *)a)->disk,
		      ((const struct freeze_disk *)b)->disk);
}

static void freeze_render(struct exporter *e, struct collector *c, FILE *f)
{
	struct freeze_priv *p = c->priv;
	int i;

	for (i = 0; i < e->disks.n; i++)
		if (each_disk(e, i))
			freeze_disk_get(p, e->disks.v[i].name);
	if (p->nd)
		qsort(p->d, p->nd, sizeof(*p->d), cmp_freeze_disk);
	prom_family(f, "barebpf_queue_freezes_total", "counter",
		    "blk-mq queue freezes (outermost freeze to the unfreeze "
		    "that ends it), by disk. While a queue is frozen every "
		    "new bio waits.");
	for (i = 0; i < p->nd; i++) {
		struct prom_label l = { "disk", p->d[i].disk };

		prom_sample_u64(f, "barebpf_queue_freezes_total", &l, 1,
				p->d[i].count);
	}
	prom_family(f, "barebpf_queue_frozen_seconds_total", "counter",
		    "Time blk-mq queues stayed frozen, by disk.");
	for (i = 0; i < p->nd; i++) {
		struct prom_label l = { "disk", p->d[i].disk };

		prom_sample(f, "barebpf_queue_frozen_seconds_total", &l, 1,
			    p->d[i].frozen_ns / 1e9);
	}
	prom_family(f, "barebpf_queue_last_freezer_info", "gauge",
		    "The task (comm) that froze each disk's queue last, and "
		    "the queue/ file it wrote (attr; empty: another cause).");
	for (i = 0; i < p->nd; i++) {
		struct prom_label l[3] = { { "disk", p->d[i].disk },
					   { "comm", p->d[i].comm },
					   { "attr", p->d[i].attr } };

		if (p->d[i].count) /* no freezer yet: nothing to name */
			prom_sample_u64(f, "barebpf_queue_last_freezer_info",
					l, 3, 1);
	}
}

static void freeze_stop(struct collector *c)
{
	struct freeze_priv *p = c->priv;

	if (p)
		free(p->d);
	free(p);
	c->priv = NULL;
}

/* ---- collector: slowbio (kprobes) ---- */

static int slowbio_collect(struct exporter *e, struct collector *c)
{
	struct slowbio_settings s = { .min_ns = (uint64_t)e->o.slow_us * 1000,
				      .count = 1,
				      .maxactive = EXP_SLOWBIO_MAXACTIVE };
	int i = fn_pick_first(slowbio_submit_fns, e->avail, e->navail);

	if (i < 0) {
		tool_error(&c->t, "slowbio: neither submit_bio_noacct nor "
			   "generic_make_request can be probed on this kernel");
		return -1;
	}
	s.fn = slowbio_submit_fns[i];
	return slowbio_start(&c->t, &s, NULL) < 0 ? -1 : 0;
}

static void slowbio_render(struct exporter *e, struct collector *c, FILE *f)
{
	int fd = slowbio_counts_fd(&c->t);
	uint32_t key, next;
	void *prev = NULL;
	int i;

	prom_family(f, "barebpf_slow_bio_threshold_seconds", "gauge",
		    "What barebpf_slow_bio_submissions_total counts as slow.");
	prom_sample(f, "barebpf_slow_bio_threshold_seconds", NULL, 0,
		    e->o.slow_us / 1e6);
	prom_family(f, "barebpf_slow_bio_submissions_total", "counter",
		    "Bio submissions (submit_bio_noacct, generic_make_request) "
		    "slower than the threshold, by the disk the submitter "
		    "queued a bio to last.");
	for (i = 0; i < e->disks.n; i++) {
		struct prom_label l = { "disk", e->disks.v[i].name };
		uint64_t v = 0;

		if (!each_disk(e, i))
			continue;
		key = e->disks.v[i].kdev;
		bpf_map_lookup_elem(fd, &key, &v); /* none yet: 0 */
		prom_sample_u64(f, "barebpf_slow_bio_submissions_total", &l, 1,
				v);
	}
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct prom_label l = { "disk", NULL };
		const struct blkdisk *d;
		uint64_t v;

		key = next;
		prev = &key;
		d = key ? blkdisks_get(&e->disks, key) : NULL;
		if ((d && !d->unknown && d->disk == d->kdev) ||
		    bpf_map_lookup_elem(fd, &key, &v) < 0)
			continue; /* said above */
		l.value = disk_label(e, key);
		prom_sample_u64(f, "barebpf_slow_bio_submissions_total", &l, 1,
				v);
	}
}
static void stop_nothing(struct collector *c)
{
	(void)c;
}

const struct collector_kind exp_collectors[EXP_NCOLLECTORS] = {
	{ "biolatency", 0, bio_start, bio_render, stop_nothing },
	{ "qenter", 1, qenter_collect, qenter_render, stop_nothing },
	{ "freeze", 1, freeze_collect, freeze_render, freeze_stop },
	{ "slowbio", 1, slowbio_collect, slowbio_render, stop_nothing },
	/* with --collectors (exporter_sched.c) */
	{ "runqlat", 0, exp_runqlat_start, exp_runqlat_render, exp_free_priv },
	{ "hardirqs", 0, exp_hardirqs_start, exp_hardirqs_render,
	  exp_hardirqs_stop },
	{ "pagecache", 1, exp_pagecache_start, exp_pagecache_render,
	  exp_free_priv },
	{ "fs", 1, exp_fs_start, exp_fs_render, exp_fs_stop },
	/* with --collectors (exporter_tcp.c) */
	{ "tcp", 0, exp_tcp_start, exp_tcp_render, exp_free_priv },
};
