/* SPDX-License-Identifier: MIT */
/*
 * barebpf exporter: the block-layer signals as Prometheus metrics, for the
 * hosts ebpf_exporter cannot reach (no BTF).
 *
 * One collector per BPF program (biolatency: tracepoints; qenter, freeze,
 * slowbio: kprobes), each a start, a render and a stop function of its
 * own, each with its own object and probes (its own tool_ctx). Counters
 * come from maps that are read and never cleared, or from sums kept here
 * (freeze's records), so they only grow for the whole run. One poll loop
 * renders every --interval seconds, serves HTTP (httpd.c: non-blocking)
 * and drains the freeze ring; nothing in it waits for a client.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "tool.h"
#include "blkdisk.h"
#include "qfreeze.h"
#include "httpd.h"
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

/* Buckets up to le (2^27 - 1) us = 134 s (ebpf_exporter's biolatency goes
 * to 2^26 us); slower ones count in +Inf. */
#define EXP_BUCKETS 27
#define EXP_INTERVAL 5.0
#define EXP_TEXTFILE "barebpf.prom"
#define EXP_QENTER_MAXACTIVE 128   /* qenter's default */
#define EXP_SLOWBIO_MAXACTIVE 1024 /* slowbio's: waiters of a frozen queue */
#define EXP_SLOW_US 10000          /* slowbio's default threshold */
#define EXP_RING_DRAIN_MS 250

static const char usage[] =
"usage: barebpf exporter [-h] [--listen ADDR:PORT] [--textfile DIR]\n"
"                        [--interval SECONDS] [--slow-us US] [--no-kprobes]\n"
"                        [--duration SECONDS] [-v]\n"
"\n"
"Export block-layer latency, queue freezes and the waits they cause as\n"
"Prometheus metrics: over HTTP (GET /metrics) and/or as a file for\n"
"node_exporter's textfile collector. The probes stay attached; every\n"
"interval the maps are read (never cleared: counters grow for the whole\n"
"run) and the metrics are rendered anew.\n"
"\n"
"metrics (labels):\n"
"  barebpf_bio_latency_seconds (disk, op)   histogram, issue to completion\n"
"                                            (op: read write discard flush\n"
"                                            other); tracepoints\n"
"  barebpf_queue_enter_wait_seconds (disk)  histogram, time bios wait to\n"
"                                            enter the queue; kprobes\n"
"  barebpf_queue_freezes_total (disk)       blk-mq queue freezes; kprobes\n"
"  barebpf_queue_frozen_seconds_total (disk)  time frozen; kprobes\n"
"  barebpf_queue_last_freezer_info (disk, comm)  who froze it last\n"
"  barebpf_slow_bio_submissions_total (disk)  bio submissions slower than\n"
"                                            --slow-us; kprobes\n"
"  barebpf_collector_enabled, barebpf_probes_attached,\n"
"  barebpf_kretprobe_misses_total, barebpf_events_lost_total,\n"
"  barebpf_bpf_prog_skips_total (6.7+), barebpf_http_*, barebpf_build_info\n"
"Buckets are the log2 slots of integer microseconds: le is the largest\n"
"value a slot holds, (2^(i+1) - 1) us, up to 134 s.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -l, --listen ADDR:PORT  serve GET /metrics here (default 127.0.0.1:19435\n"
"                        unless --textfile alone is given; :PORT for every\n"
"                        IPv4 interface, [::]:PORT for IPv6 too)\n"
"  -t, --textfile DIR    write DIR/barebpf.prom every interval (a temporary\n"
"                        file renamed over it: never a part); removed at exit\n"
"  -i, --interval SECONDS  how often the metrics are rendered (default 5)\n"
"      --slow-us US      slow bio submission threshold (default 10000)\n"
"      --no-kprobes      tracepoint collectors only\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf exporter                    # http://127.0.0.1:19435/metrics\n"
"  barebpf exporter --listen :19435    # every interface, for a remote\n"
"                                      # Prometheus\n"
"  barebpf exporter --textfile /var/lib/prometheus/node-exporter\n"
"                                      # for node_exporter's textfile\n"
"                                      # collector, no HTTP\n"
"  barebpf exporter --no-kprobes -i 15 # latency only, every 15 s\n";

struct exp_opts {
	const char *listen, *textfile;
	double interval, duration;
	unsigned long slow_us;
	int no_kprobes;
};

struct exporter;

struct collector {
	const char *name;
	int kprobes;
	int (*start)(struct exporter *e, struct collector *c);
	void (*render)(struct exporter *e, struct collector *c, FILE *f);
	void (*stop)(struct collector *c);
	struct tool_ctx t;
	int on;                 /* attached and collecting */
	struct bb_perfbuf *pb;  /* its ring, if it has one */
	void *priv;
};

struct exporter {
	struct exp_opts o;
	struct collector *c;
	int nc;
	char **avail;           /* available_filter_functions, sorted */
	int navail;
	struct blkdisks disks;  /* read again at each render */
	struct httpd *h;
	uint32_t kver;
	char release[65];
	int verbose, wrote_textfile, textfile_err;
	const char *kver_override;
};

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

/* ---- the exporter's own health ---- */

static int nlinks(const struct collector *c)
{
	const struct bb_link *l;
	int n = 0;

	for (l = c->t.sess.links; l; l = l->next)
		n++;
	return n;
}

/* bpf_prog_info.recursion_misses over the collector's programs. */
static int prog_skips(struct collector *c, uint64_t *sum)
{
	int i, n = obj_nprogs(c->t.obj);

	*sum = 0;
	for (i = 0; i < n; i++) {
		struct bb_prog *p = obj_prog_at(c->t.obj, i);
		uint64_t v;

		if (p->fd < 0)
			continue;
		if (bpf_prog_recursion_misses(p->fd, &v) < 0)
			return -1;
		*sum += v;
	}
	return 0;
}

static void render_health(struct exporter *e, FILE *f)
{
	static const char *const codes[] = { "200", "400", "404", "405", "431",
					     "505" };
	struct prom_label l;
	int i;

	prom_family(f, "barebpf_collector_enabled", "gauge",
		    "1 if the collector is attached; 0 if this kernel or the "
		    "options left it out.");
	for (i = 0; i < e->nc; i++) {
		l = (struct prom_label){ "collector", e->c[i].name };
		prom_sample_u64(f, "barebpf_collector_enabled", &l, 1,
				e->c[i].on);
	}
	prom_family(f, "barebpf_probes_attached", "gauge",
		    "Probes (tracepoints, kprobes, kretprobes) attached.");
	for (i = 0; i < e->nc; i++) {
		l = (struct prom_label){ "collector", e->c[i].name };
		prom_sample_u64(f, "barebpf_probes_attached", &l, 1,
				e->c[i].on ? nlinks(&e->c[i]) : 0);
	}
	prom_family(f, "barebpf_kretprobe_misses_total", "counter",
		    "Calls whose return was not seen (more in flight than the "
		    "kretprobe's maxactive), from kprobe_profile.");
	for (i = 0; i < e->nc; i++) {
		long m;

		if (!e->c[i].on || !e->c[i].kprobes)
			continue;
		m = session_kretprobe_misses(&e->c[i].t.sess);
		l = (struct prom_label){ "collector", e->c[i].name };
		if (m >= 0)
			prom_sample_u64(f, "barebpf_kretprobe_misses_total", &l,
					1, m);
	}
	prom_family(f, "barebpf_events_lost_total", "counter",
		    "Records the kernel could not put in a full perf ring.");
	for (i = 0; i < e->nc; i++) {
		if (!e->c[i].on || !e->c[i].pb)
			continue;
		l = (struct prom_label){ "collector", e->c[i].name };
		prom_sample_u64(f, "barebpf_events_lost_total", &l, 1,
				perfbuf_lost(e->c[i].pb));
	}
	/* counted for tracepoint and kprobe programs from 6.7 on (5.12-6.6
	 * have the field but count only trampoline programs in it) */
	if (e->kver >= KVER(6, 7, 0)) {
		prom_family(f, "barebpf_bpf_prog_skips_total", "counter",
			    "Runs of our programs the kernel skipped because "
			    "a BPF program was already running on that CPU.");
		for (i = 0; i < e->nc; i++) {
			uint64_t v;

			if (!e->c[i].on || prog_skips(&e->c[i], &v) < 0)
				continue;
			l = (struct prom_label){ "collector", e->c[i].name };
			prom_sample_u64(f, "barebpf_bpf_prog_skips_total", &l,
					1, v);
		}
	}
	if (e->h) {
		const struct httpd_stats *st = httpd_stats(e->h);

		prom_family(f, "barebpf_http_requests_total", "counter",
			    "HTTP requests answered, by status code.");
		for (i = 0; i < 6; i++) {
			l = (struct prom_label){ "code", codes[i] };
			prom_sample_u64(f, "barebpf_http_requests_total", &l,
					1, st->by_status[i]);
		}
		prom_family(f, "barebpf_http_connections_dropped_total",
			    "counter", "HTTP connections closed before an "
			    "answer: evicted for a newer one, refused while "
			    "all were new, or past their deadline.");
		l = (struct prom_label){ "reason", "evicted" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->evicted);
		l = (struct prom_label){ "reason", "refused" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->refused);
		l = (struct prom_label){ "reason", "timeout" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->timed_out);
	}
	{
		struct prom_label b[2] = { { "version", BB_VERSION },
					   { "kernel", e->release } };

		prom_family(f, "barebpf_build_info", "gauge",
			    "barebpf's version and the running kernel's "
			    "release (uname -r).");
		prom_sample_u64(f, "barebpf_build_info", b, 2, 1);
	}
}

/* Every family, into a malloc'ed buffer. */
static int render(struct exporter *e, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int i, ret;

	if (!f)
		return -ENOMEM;
	blkdisks_scan(&e->disks);
	for (i = 0; i < e->nc; i++)
		if (e->c[i].on)
			e->c[i].render(e, &e->c[i], f);
	render_health(e, f);
	ret = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) || ret) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void publish(struct exporter *e)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (render(e, &buf, &len) < 0) {
		tool_error(&e->c[0].t, "warning: out of memory: metrics not "
			   "renewed");
		return;
	}
	if (e->h && httpd_set_metrics(e->h, buf, len) < 0)
		tool_error(&e->c[0].t, "warning: out of memory: metrics not "
			   "renewed");
	if (e->o.textfile) {
		ret = prom_textfile_write(e->o.textfile, EXP_TEXTFILE, buf, len);
		if (ret < 0 && ret != e->textfile_err)
			tool_error(&e->c[0].t, "warning: cannot write %s/%s: %s "
				   "(trying again every interval)",
				   e->o.textfile, EXP_TEXTFILE, strerror(-ret));
		else if (!ret && e->textfile_err)
			tool_error(&e->c[0].t, "%s/%s written again",
				   e->o.textfile, EXP_TEXTFILE);
		e->textfile_err = ret;
		e->wrote_textfile |= !ret;
	}
	free(buf);
}

/* ---- the straight line ---- */

static int parse_args(struct tool_ctx *t, struct exporter *e, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "listen", required_argument, NULL, 'l' },
		{ "textfile", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "slow-us", required_argument, NULL, 3 },
		{ "no-kprobes", no_argument, NULL, 4 },
		{ "duration", required_argument, NULL, 1 },
		{ "kern-version", required_argument, NULL, 2 },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 }
	};
	struct exp_opts *o = &e->o;
	struct sockaddr_storage ss;
	const char *why;
	socklen_t len;
	struct stat st;
	int c;

	o->interval = EXP_INTERVAL;
	o->slow_us = EXP_SLOW_US;
	while ((c = getopt_long(argc, argv, "hl:t:i:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); exit(0);
		case 'l': o->listen = optarg; break;
		case 't': o->textfile = optarg; break;
		case 'v': e->verbose = 1; break;
		case 'i':
			if (opt_seconds(t, "--interval", optarg, &o->interval))
				return 1;
			break;
		case 1:
			if (opt_seconds(t, "--duration", optarg, &o->duration))
				return 1;
			break;
		case 2: e->kver_override = optarg; break;
		case 3:
			if (parse_ulong(optarg, &o->slow_us) < 0 || !o->slow_us ||
			    o->slow_us > 3600000000UL)
				return tool_error(t, "--slow-us needs a number of "
						  "microseconds from 1 to "
						  "3600000000, not '%s'",
						  optarg);
			break;
		case 4: o->no_kprobes = 1; break;
		default:
			fputs(usage, stderr);
			return 1;
		}
	}
	if (optind < argc)
		return tool_error(t, "unexpected argument '%s' (see --help)",
				  argv[optind]);
	if (!o->listen && !o->textfile) {
		static char dflt[32];

		snprintf(dflt, sizeof(dflt), "127.0.0.1:%d",
			 HTTPD_DEFAULT_PORT);
		o->listen = dflt;
	}
	if (o->listen && httpd_parse_listen(o->listen, &ss, &len, &why) < 0)
		return tool_error(t, "--listen '%s': %s", o->listen, why);
	if (o->textfile && (stat(o->textfile, &st) < 0 ||
			    !S_ISDIR(st.st_mode)))
		return tool_error(t, "--textfile '%s' is not a directory: give "
				  "the directory node_exporter reads "
				  "(--collector.textfile.directory)",
				  o->textfile);
	if (o->textfile && access(o->textfile, W_OK) < 0)
		return tool_error(t, "--textfile '%s': %s: barebpf.prom cannot "
				  "be written there", o->textfile,
				  strerror(errno));
	return 0;
}

/* available_filter_functions once for the kprobe collectors; 0 if this
 * kernel has no kprobes (said once), -1 on an error said. */
static int kprobes_ready(struct exporter *e)
{
	struct tool_ctx *t = &e->c[0].t;
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	char names[64] = "";
	int i;

	if (!tfs)
		return -1;
	if (kprobes_available(tfs)) {
		if (tool_need_kprobes(t) < 0)
			return -1;
		e->navail = kprobe_match(tfs, "*", &e->avail, &err);
		if (e->navail >= 0)
			return 1;
		e->navail = 0;
		tool_error(t, "%s", err.msg);
		return -1;
	}
	for (i = 0; i < e->nc; i++)
		if (e->c[i].kprobes)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 *names ? ", " : "", e->c[i].name);
	tool_error(t, "this kernel has no kprobe_events (CONFIG_KPROBES, "
		   "CONFIG_KPROBE_EVENTS): the %s collectors are left out; "
		   "only what tracepoints show is exported", names);
	return 0;
}

static int start_collectors(struct exporter *e)
{
	int i, kp = -2, on = 0;

	for (i = 0; i < e->nc && !bb_stop; i++) {
		struct collector *c = &e->c[i];

		if (c->kprobes && e->o.no_kprobes)
			continue;
		if (c->kprobes && kp == -2)
			kp = kprobes_ready(e);
		if (c->kprobes && kp <= 0)
			continue;
		if (c->start(e, c) < 0) {
			tool_error(&c->t, "the %s collector is left out",
				   c->name);
			c->stop(c);
			perfbuf_close(c->pb);
			c->pb = NULL;
			tool_cleanup(&c->t);
			continue;
		}
		c->on = 1;
		on++;
		if (e->verbose)
			fprintf(stderr, "collector %s: %d probes\n", c->name,
				nlinks(c));
	}
	return on;
}

static void stop_collectors(struct exporter *e)
{
	int i;

	/* the reverse order: the first one may have mounted tracefs, which
	 * the others' probes need until they are gone */
	for (i = e->nc - 1; i >= 0; i--) {
		struct collector *c = &e->c[i];

		perfbuf_close(c->pb);
		c->pb = NULL;
		tool_cleanup(&c->t);
		c->stop(c);
		c->on = 0;
	}
}

static void stop_nothing(struct collector *c)
{
	(void)c;
}

static void serve(struct exporter *e)
{
	struct pollfd fds[HTTPD_MAX_CONNS + 1];
	double now = now_mono(), next = now, end = 0;
	int i, n, wait, ring = 0;

	if (e->o.duration > 0)
		end = now + e->o.duration;
	for (i = 0; i < e->nc; i++)
		ring |= e->c[i].on && e->c[i].pb;
	while (!bb_stop) {
		now = now_mono();
		if (end && now >= end)
			break;
		if (now >= next) {
			publish(e);
			while (next <= now)
				next += e->o.interval;
		}
		/* wake at least once a second: a signal between the check
		 * and the poll is not missed for long */
		wait = (int)((next - now) * 1000) + 1;
		if (wait > 1000)
			wait = 1000;
		if (end && (int)((end - now) * 1000) + 1 < wait)
			wait = (int)((end - now) * 1000) + 1;
		if (ring && wait > EXP_RING_DRAIN_MS)
			wait = EXP_RING_DRAIN_MS;
		n = 0;
		if (e->h) {
			int t = httpd_timeout_ms(e->h, now);

			n = httpd_pollfds(e->h, fds, HTTPD_MAX_CONNS + 1, now);
			if (t >= 0 && t < wait)
				wait = t;
		}
		poll(fds, n, wait); /* EINTR on a signal: bb_stop is looked at */
		if (e->h)
			httpd_serve(e->h, fds, n, now_mono());
		for (i = 0; i < e->nc; i++)
			if (e->c[i].on && e->c[i].pb)
				perfbuf_poll(e->c[i].pb, 0);
	}
}

static int exporter_main(int argc, char **argv)
{
	struct collector cs[] = {
		{ "biolatency", 0, bio_start, bio_render, stop_nothing },
		{ "qenter", 1, qenter_start, qenter_render, stop_nothing },
		{ "freeze", 1, freeze_start, freeze_render, freeze_stop },
		{ "slowbio", 1, slowbio_start, slowbio_render, stop_nothing },
	};
	struct exporter e = { 0 };
	struct bb_err err = { "" };
	struct utsname u;
	char src[64], where[320] = "";
	int i, n, ret = 1;

	e.c = cs;
	e.nc = sizeof(cs) / sizeof(cs[0]);
	for (i = 0; i < e.nc; i++) {
		tool_init(&cs[i].t, "exporter");
		/* the collectors' sessions share our kprobe group: each
		 * names its events from a counter of its own */
		cs[i].t.sess.nprobes = i * 10000;
	}
	if (parse_args(&cs[0].t, &e, argc, argv))
		return 1;
	for (i = 0; i < e.nc; i++) {
		cs[i].t.verbose = e.verbose;
		cs[i].t.kver_override = e.kver_override;
	}
	if (uname(&u) == 0)
		snprintf(e.release, sizeof(e.release), "%s", u.release);
	if (kver_detect(e.kver_override, &e.kver, src, sizeof(src), &err) < 0)
		e.kver = 0; /* tool_load says why, where it matters */
	tool_signals();
	/* the port first: a port in use is said before any probe exists */
	if (e.o.listen) {
		ret = httpd_open(&e.h, e.o.listen);
		if (ret < 0) {
			tool_error(&cs[0].t, "cannot listen on %s: %s%s",
				   e.o.listen, strerror(-ret),
				   ret == -EADDRINUSE ? " (another exporter on "
				   "this port? choose one with --listen)" : "");
			return 1;
		}
		ret = 1;
	}
	if (!start_collectors(&e)) {
		if (!bb_stop)
			tool_error(&cs[0].t, "no collector could start: "
				   "nothing to export");
		goto out;
	}
	if (e.o.listen)
		snprintf(where, sizeof(where), "http://%s/metrics", e.o.listen);
	if (e.o.textfile)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "%s%s/%s", *where ? " and " : "", e.o.textfile,
			 EXP_TEXTFILE);
	printf("Exporting block-layer metrics (");
	for (i = 0, n = 0; i < e.nc; i++)
		if (cs[i].on)
			printf("%s%s", n++ ? ", " : "", cs[i].name);
	printf(") to %s every %g s... Hit Ctrl-C to end.\n", where,
	       e.o.interval);
	fflush(stdout);
	serve(&e);
	ret = 0;
out:
	httpd_close(e.h);
	stop_collectors(&e);
	if (e.wrote_textfile) {
		char path[4096];

		/* stale numbers would look live to node_exporter */
		snprintf(path, sizeof(path), "%s/%s", e.o.textfile,
			 EXP_TEXTFILE);
		unlink(path);
	}
	blkdisks_free(&e.disks);
	bb_free_strv(e.avail, e.navail);
	return ret;
}

const struct tool tool_exporter = {
	"exporter", exporter_main,
	"Prometheus metrics: latency, queue freezes, waits (HTTP, textfile)"
};
