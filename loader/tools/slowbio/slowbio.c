/* SPDX-License-Identifier: MIT */
/*
 * barebpf slowbio: bio submissions slower than a threshold, one line each
 * (the tool of ceph-latency-to-kernel-patch.txt).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "blkdisk.h"
#include "kfuncs.h"
#include "outrec.h"
#include "stream.h"
#include "slowbio_out.h"

static const struct tool_usage help = { NULL, "slowbio" };

struct slowbio_opts {
	int ms, json;
	const char *disk;
	uint32_t kdev;
	unsigned long min_us, maxactive;
	double duration;
};

struct slowbio_run {
	const struct slowbio_opts *o;
	struct blkdisks disks;
	uint64_t start_ts;
	struct tool_stream s;
};

/* The record, once: the article's columns, and the JSON keys. */
enum { COL_US = 1, COL_MS };
enum { F_TIME, F_COMM, F_PID, F_TID, F_US, F_MS, F_JUS, F_DISK, F_N };
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME(s)", "time", OUT_DBL, -18, 9, 9, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_TID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_US] = { "LAT(us)", NULL, OUT_UINT, 10, 0, 0, 0, COL_US, NULL },
	[F_MS] = { "LAT(ms)", NULL, OUT_DBL, 10, 2, 0, 0, COL_MS, NULL },
	/* in microseconds whatever -m says */
	[F_JUS] = { NULL, "lat_us", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_DISK] = { "DISK", "disk", OUT_STR, 0, 0, 0, 1, 0, NULL },
};

void slowbio_print_header(FILE *f, int ms)
{
	out_head(f, fields, F_N, OUT_BIT(ms ? COL_MS : COL_US));
}

static void print_record(FILE *f, const struct slowbio_event *e,
			 uint64_t start_ts, const char *disk, int ms, int json)
{
	char comm[sizeof(e->comm) + 1];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].d = out_secs_since(e->ts, start_ts);
	v[F_COMM].s = comm;
	v[F_PID].u = e->pid;
	v[F_TID].u = e->tid;
	v[F_US].u = v[F_JUS].u = e->lat / 1000;
	v[F_MS].d = e->lat / 1e6;
	v[F_DISK].s = disk;
	out_row(f, fields, F_N, OUT_BIT(ms ? COL_MS : COL_US), v, json);
}

void slowbio_print(FILE *f, const struct slowbio_event *e, uint64_t start_ts,
		   const char *disk, int ms)
{
	print_record(f, e, start_ts, disk, ms, 0);
}

void slowbio_print_json(FILE *f, const struct slowbio_event *e,
			uint64_t start_ts, const char *disk)
{
	print_record(f, e, start_ts, disk, 0, 1);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct slowbio_run *r = ctx;
	const struct blkdisk *d = NULL;
	struct slowbio_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	if (e.dev)
		d = blkdisks_get(&r->disks, e.dev);
	/* filtered here, not in the program: a partition matches its disk,
	 * and slow calls are few */
	if (r->o->disk && (!d || (d->kdev != r->o->kdev &&
				  d->disk != r->o->kdev)))
		return;
	if (!r->start_ts)
		r->start_ts = e.ts;
	r->s.printed++;
	if (r->o->json)
		slowbio_print_json(stdout, &e, r->start_ts, d ? d->name : "?");
	else
		slowbio_print(stdout, &e, r->start_ts, d ? d->name : "?",
			      r->o->ms);
}

static int parse_args(struct tool_ctx *t, struct slowbio_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "disk", required_argument, NULL, 'd' },
		TOOL_LONGOPT_MAXACTIVE,
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .maxactive = &o->maxactive };
	int c;

	o->min_us = SLOWBIO_DEFAULT_US;
	o->maxactive = SLOWBIO_MAXACTIVE;
	while ((c = tool_getopt(t, argc, argv, "hmjd:M:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'm': o->ms = 1; break;
		case 'd': o->disk = optarg; break;
		}
	}
	if (c < 0)
		return c;
	if (optind < argc) {
		/* up to an hour: the threshold is kept in ns */
		if (parse_ulong(argv[optind], &o->min_us) < 0 ||
		    o->min_us > 3600000000UL)
			return tool_fail(t, -EINVAL,
					 "min_latency_us must be a whole "
					 "number of microseconds, not '%s'",
					 argv[optind]);
		optind++;
	}
	return opt_no_args(t, argc, argv);
}

/* The first name of slowbio_submit_fns that this kernel can probe. */
static const char *find_submit_fn(struct tool_ctx *t)
{
	size_t n = 2; /* slowbio_submit_fns without its NULL */
	char **avail;
	int k = tool_funcs(t, BB_FUNCS_FTRACE, slowbio_submit_fns, n, 1,
			   &avail);
	const char *fn = NULL;
	size_t i;

	if (k < 0)
		return NULL;
	for (i = 0; i < n && !fn; i++)
		if (fn_available(avail, k, slowbio_submit_fns[i]))
			fn = slowbio_submit_fns[i];
	bb_free_strv(avail, k);
	if (!fn)
		tool_error(t, "neither submit_bio_noacct nor "
			   "generic_make_request is in %s/available_filter_"
			   "functions: cannot trace bio submission on this "
			   "kernel", t->sess.tracefs);
	return fn;
}

static int pick_disk(struct tool_ctx *t, struct slowbio_opts *o,
		     struct blkdisks *disks)
{
	const struct blkdisk *d;

	if (!o->disk)
		return 0;
	d = blkdisks_by_name(disks, o->disk);
	if (!d)
		return tool_unknown_disk(t, o->disk);
	o->kdev = d->kdev;
	return 0;
}

static int slowbio_main(int argc, char **argv)
{
	struct slowbio_opts o = { 0 };
	struct slowbio_run r = { .s = { "slow calls", SLOWBIO_EMITTED, -1,
					NULL } };
	struct slowbio_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	struct tool_timer tm;
	const char *fn;
	int ret = 1;

	tool_init(&t, "slowbio");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	if (tool_need_kprobes(&t) < 0)
		goto out;
	fn = find_submit_fn(&t);
	if (!fn)
		goto out;
	if (blkdisks_scan(&r.disks) < 0) {
		tool_error(&t, "cannot read /sys/class/block");
		goto out;
	}
	if (pick_disk(&t, &o, &r.disks))
		goto out;
	s.fn = fn;
	s.min_ns = (uint64_t)o.min_us * 1000;
	s.emit = 1;
	s.maxactive = (int)o.maxactive;
	s.on_event = on_event;
	s.ctx = &r;
	if (slowbio_start(&t, &s, &pb) < 0)
		goto out;

	tool_tracing(&t, o.json ? stderr : stdout, "Tracing %s calls slower "
		     "than %lu us... Hit Ctrl-C to end.\n", fn, o.min_us);
	if (!o.json)
		slowbio_print_header(stdout, o.ms);
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		fflush(stdout);
	tool_stream_finish(&t, &r.s, pb, NULL, NULL);
	tool_stream_report(&t, &r.s, NULL, NULL);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	blkdisks_free(&r.disks);
	return ret;
}

const struct tool tool_slowbio = {
	"slowbio", slowbio_main,
	"bio submissions slower than a threshold, one line each (kprobes)"
};
