/* SPDX-License-Identifier: MIT */
/* barebpf biosnoop: one line per block I/O, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "facts.h"
#include "mods.h"
#include "blkdisk.h"
#include "outrec.h"
#include "stream.h"
#include "biosnoop_out.h"

/*
 * The rings are read in batches, every BIOSNOOP_BATCH seconds, not on each
 * record's wakeup: waking the reader once per I/O cost more than half the
 * IOPS of a loop device (fio 4k randread, psync) on a 2-CPU machine;
 * batches brought that back to about a third. A ring of 128 pages
 * (about 5,900 records of 88 bytes) per CPU holds a batch at over 100,000
 * I/Os a second per CPU.
 */
#define BIOSNOOP_PAGES 128
#define BIOSNOOP_BATCH 0.05

static const struct tool_usage help = { NULL, "biosnoop" };

struct biosnoop_opts {
	int queued, json;
	const char *disk;
	uint32_t kdev;
	double duration;
};

struct biosnoop_run {
	const struct biosnoop_opts *o;
	struct blkdisks disks;
	uint64_t start_ts;
	struct tool_stream s;
	/* one batch, from every CPU's ring, to print in time order */
	struct biosnoop_event *batch;
	size_t n, cap;
};

char biosnoop_type(const char *rwbs)
{
	const char *p = rwbs;

	if (*p == 'F' && p[1]) /* a leading F is a preflush: the op follows */
		p++;
	switch (*p) {
	case 'W': return 'W';
	case 'D': return 'D';
	case 'F': return 'F';
	case 'N': return 'N';
	default: return 'R';
	}
}

/* The record, once: bcc's columns, and the JSON keys. */
enum { COL_QUEUED = 1 };
enum {
	F_TIME, F_COMM, F_PID, F_DISK, F_T, F_RWBS, F_SECTOR, F_BYTES, F_QUE,
	F_LAT, F_N
};
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME(s)", "time", OUT_DBL, -11, 6, 6, 0, 0, NULL },
	/* bcc cuts the comm at 14 in text ("%-14.14s"), not in JSON */
	[F_COMM] = { "COMM", "comm", OUT_STR, -14, 14, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -6, 0, 0, 0, 0, NULL },
	[F_DISK] = { "DISK", "disk", OUT_STR, -7, 0, 0, 0, 0, NULL },
	[F_T] = { "T", "t", OUT_STR, -1, 0, 0, 0, 0, NULL },
	[F_RWBS] = { NULL, "rwbs", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_SECTOR] = { "SECTOR", "sector", OUT_UINT, -10, 0, 0, 0, 0, NULL },
	[F_BYTES] = { "BYTES", "bytes", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	/* '-': issued without being inserted */
	[F_QUE] = { "QUE(ms)", "que_ms", OUT_DBL, 7, 2, 3, 0, COL_QUEUED,
		    "-" },
	[F_LAT] = { "LAT(ms)", "lat_ms", OUT_DBL, 7, 2, 3, 1, 0, NULL },
};

void biosnoop_print_header(FILE *f, int queued)
{
	out_head(f, fields, F_N, queued ? OUT_BIT(COL_QUEUED) : 0);
}

static void print_record(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued,
			 int json)
{
	char comm[sizeof(e->comm) + 1], rwbs[sizeof(e->rwbs) + 1], t[2];
	struct out_val v[F_N] = { 0 };

	/* comm: at most 16 bytes, not always NUL-terminated */
	if (!(e->flags & BIOSNOOP_F_WHO)) {
		strcpy(comm, "?");
	} else {
		memcpy(comm, e->comm, sizeof(e->comm));
		comm[sizeof(e->comm)] = 0;
	}
	memcpy(rwbs, e->rwbs, sizeof(e->rwbs));
	rwbs[sizeof(e->rwbs)] = 0;
	t[0] = biosnoop_type(rwbs);
	t[1] = 0;
	v[F_TIME].d = out_secs_since(e->ts, start_ts);
	v[F_COMM].s = comm;
	v[F_PID].u = e->pid;
	v[F_DISK].s = disk;
	v[F_T].s = t;
	v[F_RWBS].s = rwbs;
	v[F_SECTOR].u = e->sector;
	v[F_BYTES].u = (uint64_t)e->nr_sector * 512;
	v[F_QUE].d = e->qdelta / 1e6;
	v[F_QUE].none = !(e->flags & BIOSNOOP_F_INSERTED);
	v[F_LAT].d = e->delta / 1e6;
	out_row(f, fields, F_N, queued ? OUT_BIT(COL_QUEUED) : 0, v, json);
}

void biosnoop_print(FILE *f, const struct biosnoop_event *e,
		    uint64_t start_ts, const char *disk, int queued)
{
	print_record(f, e, start_ts, disk, queued, 0);
}

void biosnoop_print_json(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued)
{
	print_record(f, e, start_ts, disk, queued, 1);
}

static void print_event(struct biosnoop_run *r, const struct biosnoop_event *e)
{
	const struct blkdisk *d;

	if (!r->start_ts)
		r->start_ts = e->ts;
	d = blkdisks_get(&r->disks, e->dev);
	if (r->o->json)
		biosnoop_print_json(stdout, e, r->start_ts, d ? d->name : "?",
				    r->o->queued);
	else
		biosnoop_print(stdout, e, r->start_ts, d ? d->name : "?",
			       r->o->queued);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct biosnoop_run *r = ctx;
	struct biosnoop_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4096;
		struct biosnoop_event *b = realloc(r->batch, cap * sizeof(*b));

		if (!b) {
			print_event(r, &e); /* out of order, but not lost */
			return;
		}
		r->batch = b;
		r->cap = cap;
	}
	r->batch[r->n++] = e;
}

static int cmp_ts(const void *a, const void *b)
{
	const struct biosnoop_event *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * Drain every ring, then print in completion order: the rings are read
 * one CPU after the other, so a batch holds each CPU's records in a row.
 */
static void drain(void *ctx, struct bb_perfbuf *pb)
{
	struct biosnoop_run *r = ctx;
	size_t i;

	perfbuf_poll(pb, 0);
	qsort(r->batch, r->n, sizeof(*r->batch), cmp_ts);
	for (i = 0; i < r->n; i++)
		print_event(r, &r->batch[i]);
	r->n = 0;
	fflush(stdout);
}

static int parse_args(struct tool_ctx *t, struct biosnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "queue", no_argument, NULL, 'Q' },
		{ "queued", no_argument, NULL, 'Q' },
		{ "disk", required_argument, NULL, 'd' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hQjd:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'Q': o->queued = 1; break;
		case 'd': o->disk = optarg; break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

/* -d: the disk's kdev; a partition means its disk, since requests (and
 * so the block_rq_* tracepoints) belong to the whole disk. */
static int pick_disk(struct tool_ctx *t, struct biosnoop_opts *o,
		     struct blkdisks *disks)
{
	const struct blkdisk *d;

	if (!o->disk)
		return 0;
	d = blkdisks_by_name(disks, o->disk);
	if (!d)
		return tool_unknown_disk(t, o->disk);
	o->kdev = d->disk;
	if (d->disk != d->kdev) {
		const struct blkdisk *whole = blkdisks_get(disks, d->disk);

		fprintf(stderr, "barebpf biosnoop: %s is a partition: tracing "
			"its disk, %s\n", d->name, whole ? whole->name : "?");
	}
	return 0;
}

/* Skips of a program by the kernel: see bpf_prog_recursion_misses. */
static uint64_t recursion_misses(struct tool_ctx *t, const char *prog)
{
	struct bb_prog *p = obj_prog(t->obj, prog);
	uint64_t n = 0;

	if (p && p->fd >= 0)
		bpf_prog_recursion_misses(p->fd, &n);
	return n;
}

static void finish(struct tool_ctx *t, struct biosnoop_run *r,
		   struct bb_perfbuf *pb)
{
	char more[64] = "", warn[256];
	uint64_t missed;

	tool_stream_finish(t, &r->s, pb, drain, r);
	r->s.printed = r->s.received;
	if (t->verbose)
		fprintf(stderr, "records: %llu emitted, %llu received, %llu "
			"dropped by the kernel\n",
			(unsigned long long)r->s.emitted,
			(unsigned long long)r->s.received,
			(unsigned long long)perfbuf_lost(pb));
	/*
	 * Each skipped issue or completion is an I/O not seen, but of any
	 * disk: the programs run for all and filter inside. An upper bound.
	 */
	missed = recursion_misses(t, "rq_issue") +
		 recursion_misses(t, "rq_complete");
	if (missed) {
		snprintf(more, sizeof(more), ", up to %llu not seen",
			 (unsigned long long)missed);
		snprintf(warn, sizeof(warn), "the kernel skipped our programs "
			 "%llu times because another BPF program was running "
			 "on the same CPU (an interrupt in the middle of it): "
			 "up to that many I/Os, of any disk, were not seen",
			 (unsigned long long)missed);
	}
	tool_stream_report(t, &r->s, more, missed ? warn : NULL);
}

static int biosnoop_main(int argc, char **argv)
{
	struct biosnoop_opts o = { 0 };
	struct biosnoop_run r = { .s = {
		"I/Os", BIOSNOOP_EMITTED, BIOSNOOP_UNTRACKED,
		"tracked: more than 10240 requests were in flight at once" } };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	struct tool_timer tm;
	int ret = 1;
	struct biosnoop_settings s = { 0 };

	tool_init(&t, "biosnoop");
	t.skips_own = 1; /* in its loss report */
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	if (blkdisks_scan(&r.disks) < 0) {
		tool_error(&t, "cannot read /sys/class/block");
		goto out_disks;
	}
	if (pick_disk(&t, &o, &r.disks))
		goto out_disks;
	tool_signals();
	s.filter_dev = o.kdev;
	s.queued = o.queued;
	s.disks = &r.disks;
	s.pages = BIOSNOOP_PAGES;
	s.on_event = on_event;
	s.ctx = &r;
	if (biosnoop_start(&t, &s, &pb) < 0)
		goto out;

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing block I/O... Hit Ctrl-C to end.\n");
	if (!o.json)
		biosnoop_print_header(stdout, o.queued);
	fflush(stdout);
	tool_timer_init(&tm, BIOSNOOP_BATCH, o.duration);
	while (tool_wait(&tm, NULL) != TOOL_TICK_LAST)
		drain(&r, pb);
	finish(&t, &r, pb);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
out_disks:
	blkdisks_free(&r.disks);
	free(r.batch);
	return ret;
}

const struct tool tool_biosnoop = {
	"biosnoop", biosnoop_main,
	"one line per block I/O: process, disk, sector, latency (tracepoints)"
};
