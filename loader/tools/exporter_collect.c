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
#include "qfreeze.h"
#include "prom.h"
#include "../../bpf/biolatency.h"
#include "../../bpf/freeze.h"
#include "../../bpf/qenter.h"
#include "../../bpf/slowbio.h"

EMBEDDED_OBJ(biolatency);
EMBEDDED_OBJ(qenter);
EMBEDDED_OBJ(freeze);
EMBEDDED_OBJ(slowbio);

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
static void render_hists(struct exporter *e, FILE *f, struct tool_ctx *t,
			 size_t key_size, const char *name, const char *help)
{
	struct hist_set s = { 0 };
	int i;

	if (hist_read(obj_map(t->obj, "hist")->fd,
		      obj_map(t->obj, "sums")->fd, key_size, &s) < 0)
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
	static const struct {
		const char *event, *field, *cname;
	} offs[] = { BIOLAT_TP_FIELDS };
	struct tool_ctx *t = &c->t;
	size_t i;

	(void)e;
	if (tool_open(t, EMBEDDED_ARGS(biolatency)) < 0)
		return -1;
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		if (tool_tp_offset(t, "block", offs[i].event, offs[i].field,
				   offs[i].cname) < 0)
			return -1;
	obj_set_const(t->obj, "filter_dev", 0);
	obj_set_const(t->obj, "per_disk", 1);
	obj_set_const(t->obj, "per_flags", 0);
	obj_set_const(t->obj, "per_op", 1);
	obj_set_const(t->obj, "keep_sum", 1);
	obj_set_const(t->obj, "unit_div", 1000);
	obj_set_const(t->obj, "issue_update_flags", BPF_ANY);
	if (tool_load(t) < 0)
		return -1;
	/* the closer first (DESIGN.md, attach order) */
	if (tool_attach(t, "rq_complete", NULL, 0) < 0 ||
	    tool_attach(t, "rq_issue", NULL, 0) < 0)
		return -1;
	return 0;
}

static void bio_render(struct exporter *e, struct collector *c, FILE *f)
{
	render_hists(e, f, &c->t, sizeof(struct biolat_key),
		     "barebpf_bio_latency_seconds",
		     "Block I/O latency from issue to the driver to completion "
		     "(block_rq_issue to block_rq_complete), by disk and "
		     "operation.");
}

/* ---- collector: qenter (kprobes) ---- */

static int qenter_start(struct exporter *e, struct collector *c)
{
	struct tool_ctx *t = &c->t;
	int slow = fn_pick_first(qenter_slow_fns, e->avail, e->navail);
	int blk = fn_available(e->avail, e->navail, "blk_queue_enter");

	if (slow < 0 && !blk) {
		tool_error(t, "qenter: neither blk_queue_enter nor "
			   "__bio_queue_enter can be probed on this kernel");
		return -1;
	}
	if (tool_open(t, EMBEDDED_ARGS(qenter)) < 0 ||
	    tool_tp_offset(t, "block", "block_bio_queue", "dev",
			   "tpoff_bio_queue_dev") < 0)
		return -1;
	obj_set_const(t->obj, "filter_dev", 0);
	obj_set_const(t->obj, "per_disk", 1);
	obj_set_const(t->obj, "need_dev", 1);
	/* without the slow path function, bios enter via blk_queue_enter */
	obj_set_const(t->obj, "blk_is_bio", slow < 0);
	obj_set_const(t->obj, "unit_div", 1000);
	obj_set_const(t->obj, "keep_sum", 1);
	if (tool_load(t) < 0)
		return -1;
	/* closers first: the returns, then the entries, then the
	 * tracepoint that names the disk for the entries */
	if ((slow >= 0 && tool_attach(t, "qenter_ret", qenter_slow_fns[slow],
				      EXP_QENTER_MAXACTIVE) < 0) ||
	    (blk && tool_attach(t, "qenter_ret", "blk_queue_enter",
				EXP_QENTER_MAXACTIVE) < 0) ||
	    (slow >= 0 && tool_attach(t, "qenter_bio", qenter_slow_fns[slow],
				      0) < 0) ||
	    (blk && tool_attach(t, "qenter_blk", "blk_queue_enter", 0) < 0) ||
	    tool_attach(t, "taskdev_bio_queue", NULL, 0) < 0)
		return -1;
	return 0;
}

static void qenter_render(struct exporter *e, struct collector *c, FILE *f)
{
	render_hists(e, f, &c->t, sizeof(struct qenter_key),
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
	uint64_t count, frozen_ns;
};

struct freeze_priv {
	struct freeze_opts o;
	struct freeze_run r;
	struct freeze_disk *d;
	int nd, oom;
};

static void freeze_on_event(void *ctx, int cpu, const void *data,
			    uint32_t size)
{
	struct collector *c = ctx;
	struct freeze_priv *p = c->priv;
	struct freeze_event ev;
	struct freeze_disk *d;
	char disk[64];
	int i;

	(void)cpu;
	if (size < sizeof(ev))
		return;
	memcpy(&ev, data, sizeof(ev));
	freeze_queue_disk(&p->r, &ev, disk, sizeof(disk));
	if (!strcmp(disk, "?"))
		snprintf(disk, sizeof(disk), "unknown");
	for (i = 0; i < p->nd && strcmp(p->d[i].disk, disk); i++)
		;
	if (i == p->nd) {
		d = realloc(p->d, (p->nd + 1) * sizeof(*d));
		if (!d) {
			p->oom = 1;
			return;
		}
		p->d = d;
		memset(&d[i], 0, sizeof(*d));
		snprintf(d[i].disk, sizeof(d[i].disk), "%s", disk);
		p->nd++;
	}
	d = &p->d[i];
	d->count++;
	d->frozen_ns += ev.frozen_ns;
	snprintf(d->comm, sizeof(d->comm), "%.*s", FREEZE_COMM_LEN, ev.comm);
}

static int freeze_start(struct exporter *e, struct collector *c)
{
	struct tool_ctx *t = &c->t;
	struct freeze_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return tool_error(t, "out of memory"), -1;
	c->priv = p;
	p->o.no_stack = 1;
	p->r.o = &p->o;
	p->r.t = t;
	p->r.qdev_fd = -1;
	p->r.sum.no_stacks = 1;
	if (tool_open(t, EMBEDDED_ARGS(freeze)) < 0)
		return -1;
	obj_set_const(t->obj, "dedup_ns", FREEZE_DEDUP_NS);
	obj_set_const(t->obj, "confirm_ns", FREEZE_CONFIRM_NS);
	obj_set_const(t->obj, "want_stack", 0);
	obj_set_const(t->obj, "tpoff_bio_queue_dev", 0);
	if (tool_load(t) < 0)
		return -1;
	p->r.stacks_fd = obj_map(t->obj, "stacks")->fd;
	p->r.fstate_fd = obj_map(t->obj, "fstate")->fd;
	p->r.qname_fd = obj_map(t->obj, "q_name")->fd;
	p->r.tasksysfs_fd = obj_map(t->obj, "task_sysfs")->fd;
	/* the ring before the probes: a record must find its reader */
	if (tool_ring(t, "events", 64, freeze_on_event, c, &c->pb) < 0)
		return -1;
	return freeze_attach_probes(t, &p->r, e->avail, e->navail) < 0 ? -1 : 0;
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

	(void)e;
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
		    "The task (comm) that froze each disk's queue last.");
	for (i = 0; i < p->nd; i++) {
		struct prom_label l[2] = { { "disk", p->d[i].disk },
					   { "comm", p->d[i].comm } };

		prom_sample_u64(f, "barebpf_queue_last_freezer_info", l, 2, 1);
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

static int slowbio_start(struct exporter *e, struct collector *c)
{
	struct tool_ctx *t = &c->t;
	int i = fn_pick_first(slowbio_submit_fns, e->avail, e->navail);
	const char *fn;

	if (i < 0) {
		tool_error(t, "slowbio: neither submit_bio_noacct nor "
			   "generic_make_request can be probed on this kernel");
		return -1;
	}
	fn = slowbio_submit_fns[i];
	if (tool_open(t, EMBEDDED_ARGS(slowbio)) < 0 ||
	    tool_tp_offset(t, "block", "block_bio_queue", "dev",
			   "tpoff_bio_queue_dev") < 0)
		return -1;
	obj_set_const(t->obj, "min_ns", (uint64_t)e->o.slow_us * 1000);
	obj_set_const(t->obj, "emit", 0);
	obj_set_const(t->obj, "count", 1);
	if (tool_load(t) < 0)
		return -1;
	/* as slowbio: the return probe before the entry (see slowbio.c) */
	if (tool_attach(t, "taskdev_bio_queue", NULL, 0) < 0 ||
	    tool_attach(t, "submit_return", fn, EXP_SLOWBIO_MAXACTIVE) < 0 ||
	    tool_attach(t, "submit_entry", fn, 0) < 0)
		return -1;
	return 0;
}

static void slowbio_render(struct exporter *e, struct collector *c, FILE *f)
{
	int fd = obj_map(c->t.obj, "counts")->fd;
	uint32_t key, next;
	void *prev = NULL;

	prom_family(f, "barebpf_slow_bio_threshold_seconds", "gauge",
		    "What barebpf_slow_bio_submissions_total counts as slow.");
	prom_sample(f, "barebpf_slow_bio_threshold_seconds", NULL, 0,
		    e->o.slow_us / 1e6);
	prom_family(f, "barebpf_slow_bio_submissions_total", "counter",
		    "Bio submissions (submit_bio_noacct, generic_make_request) "
		    "slower than the threshold, by the disk the submitter "
		    "queued a bio to last.");
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct prom_label l = { "disk", NULL };
		uint64_t v;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v) < 0)
			continue;
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
	{ "qenter", 1, qenter_start, qenter_render, stop_nothing },
	{ "freeze", 1, freeze_start, freeze_render, freeze_stop },
	{ "slowbio", 1, slowbio_start, slowbio_render, stop_nothing },
};
