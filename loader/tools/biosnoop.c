/* SPDX-License-Identifier: MIT */
/* barebpf biosnoop: one line per block I/O, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "progs.h"
#include "blkdisk.h"
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

static const char usage[] =
"usage: barebpf biosnoop [-h] [-Q] [-j] [-d DISK] [--duration SECONDS]\n"
"\n"
"Trace block device I/O: one line per request as it completes, with the\n"
"process that submitted it, bcc's columns:\n"
"\n"
"  TIME(s)  seconds since the first I/O printed\n"
"  COMM     process (thread group) that submitted the I/O; ? if unknown\n"
"  PID      its process id (0 if unknown)\n"
"  DISK     disk name\n"
"  T        R read, W write (and D discard, F flush, N none: bcc says R)\n"
"  SECTOR   first 512-byte sector\n"
"  BYTES    size of the request\n"
"  QUE(ms)  with -Q: time from insertion into the OS queue (the I/O\n"
"           scheduler) to issue; '-' if the request was issued directly,\n"
"           without being inserted (or was inserted before tracing began)\n"
"  LAT(ms)  time from issue to the device driver to completion\n"
"\n"
"It works on the block tracepoints alone (no kprobes, BTF or kernel\n"
"headers), from Linux 4.15 on. Requests are matched by disk and sector.\n"
"The submitter is the task current when the request was made from its\n"
"first bio (block_getrq), as bcc's biosnoop takes it (at\n"
"blk_account_io_start): the task in whose submit_bio that happened.\n"
"Requests made without a bio (flushes the block layer makes, SCSI\n"
"passthrough) or before tracing began show '?'. Time a bio waits before it\n"
"becomes a request (blk_queue_enter during a queue freeze) is in neither\n"
"column: see slowbio.\n"
"\n"
"Records go through a perf ring per CPU, read every 50 ms and printed in\n"
"completion order; if the reader falls behind, the kernel drops records:\n"
"barebpf counts them and reports at exit how many I/Os were printed and\n"
"how many were lost.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -Q, --queue           include OS queued time (QUE(ms) column)\n"
"  -j, --json            one JSON object per I/O (lines)\n"
"  -d, --disk DISK       trace this disk only (for a partition, its disk)\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf biosnoop                    # trace all block I/O\n"
"  barebpf biosnoop -Q                 # include OS queued time\n"
"  barebpf biosnoop -d sdc             # trace sdc only\n"
"  barebpf biosnoop -j --duration 10   # JSON lines, for 10 seconds\n";
static const struct tool_usage help = { NULL, usage };

struct biosnoop_opts {
	int queued, json;
	const char *disk;
	uint32_t kdev;
	double duration;
};

struct biosnoop_run {
	const struct biosnoop_opts *o;
	struct blkdisks disks;
	uint64_t start_ts, received, short_records;
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

void biosnoop_print_header(FILE *f, int queued)
{
	fprintf(f, "%-11s %-14s %-6s %-7s %-1s %-10s %-7s ", "TIME(s)", "COMM",
		"PID", "DISK", "T", "SECTOR", "BYTES");
	if (queued)
		fprintf(f, "%7s ", "QUE(ms)");
	fprintf(f, "%7s\n", "LAT(ms)");
}

/* comm from the record: at most 16 bytes, not always NUL-terminated */
static void record_comm(const struct biosnoop_event *e, char *comm)
{
	if (!(e->flags & BIOSNOOP_F_WHO)) {
		strcpy(comm, "?");
		return;
	}
	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
}

static void record_rwbs(const struct biosnoop_event *e, char *rwbs)
{
	memcpy(rwbs, e->rwbs, sizeof(e->rwbs));
	rwbs[sizeof(e->rwbs)] = 0;
}

static double since(uint64_t ts, uint64_t start_ts)
{
	return (double)(int64_t)(ts - start_ts) / 1e9;
}

void biosnoop_print(FILE *f, const struct biosnoop_event *e,
		    uint64_t start_ts, const char *disk, int queued)
{
	char comm[sizeof(e->comm) + 1], rwbs[sizeof(e->rwbs) + 1];

	record_comm(e, comm);
	record_rwbs(e, rwbs);
	fprintf(f, "%-11.6f %-14.14s %-6u %-7s %-1c %-10llu %-7llu ",
		since(e->ts, start_ts), comm, e->pid, disk,
		biosnoop_type(rwbs), e->sector,
		(unsigned long long)e->nr_sector * 512);
	if (queued) {
		if (e->flags & BIOSNOOP_F_INSERTED)
			fprintf(f, "%7.2f ", e->qdelta / 1e6);
		else
			fprintf(f, "%7s ", "-");
	}
	fprintf(f, "%7.2f\n", e->delta / 1e6);
}

void biosnoop_print_json(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued)
{
	char comm[sizeof(e->comm) + 1], rwbs[sizeof(e->rwbs) + 1];

	record_comm(e, comm);
	record_rwbs(e, rwbs);
	fprintf(f, "{\"time\":%.6f,\"comm\":", since(e->ts, start_ts));
	json_str(f, comm);
	fprintf(f, ",\"pid\":%u,\"disk\":", e->pid);
	json_str(f, disk);
	fprintf(f, ",\"t\":\"%c\",\"rwbs\":", biosnoop_type(rwbs));
	json_str(f, rwbs);
	fprintf(f, ",\"sector\":%llu,\"bytes\":%llu", e->sector,
		(unsigned long long)e->nr_sector * 512);
	if (queued) {
		if (e->flags & BIOSNOOP_F_INSERTED)
			fprintf(f, ",\"que_ms\":%.3f", e->qdelta / 1e6);
		else
			fprintf(f, ",\"que_ms\":null");
	}
	fprintf(f, ",\"lat_ms\":%.3f}\n", e->delta / 1e6);
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
	/* the kernel pads u32 size + record to 8 bytes: size may be larger */
	if (size < sizeof(e)) {
		r->short_records++;
		return;
	}
	memcpy(&e, data, sizeof(e));
	r->received++;
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

/*
 * At exit: stop the programs first, then drain the rings, so that every
 * record counted as emitted has either arrived or is lost. A lost record
 * shows in perfbuf_lost only once a later one lands on that ring; the
 * count kept by the program does not wait for that.
 */
static void finish(struct tool_ctx *t, struct biosnoop_run *r,
		   struct bb_perfbuf *pb)
{
	int stats_fd = obj_map(t->obj, "stats")->fd;
	uint64_t emitted, untracked = 0, lost, missed;

	tool_detach_drain(t, pb, drain, r);
	lost = tool_ring_lost(t, pb, "stats", BIOSNOOP_EMITTED, r->received,
			      &emitted);
	bpf_map_sum_percpu_u64(stats_fd, BIOSNOOP_UNTRACKED, &untracked);
	if (t->verbose)
		fprintf(stderr, "records: %llu emitted, %llu received, %llu "
			"dropped by the kernel\n", (unsigned long long)emitted,
			(unsigned long long)r->received,
			(unsigned long long)perfbuf_lost(pb));
	/*
	 * Each skipped issue or completion is an I/O not seen, but of any
	 * disk: the programs run for all and filter inside. An upper bound.
	 */
	missed = recursion_misses(t, "rq_issue") +
		 recursion_misses(t, "rq_complete");
	fprintf(stderr, "barebpf biosnoop: %llu I/Os printed, %llu lost",
		(unsigned long long)r->received, (unsigned long long)lost);
	if (missed)
		fprintf(stderr, ", up to %llu not seen",
			(unsigned long long)missed);
	fputc('\n', stderr);
	if (lost)
		tool_error(t, "warning: %llu I/Os were not printed: the reader "
			   "fell behind and the kernel dropped their records",
			   (unsigned long long)lost);
	if (missed)
		tool_error(t, "warning: the kernel skipped our programs %llu "
			   "times because another BPF program was running on "
			   "the same CPU (an interrupt in the middle of it): up "
			   "to that many I/Os, of any disk, were not seen",
			   (unsigned long long)missed);
	if (untracked)
		tool_error(t, "warning: %llu I/Os were not tracked: more than "
			   "10240 requests were in flight at once",
			   (unsigned long long)untracked);
	if (r->short_records)
		tool_error(t, "warning: %llu records were too short (a "
			   "mismatched build?)",
			   (unsigned long long)r->short_records);
}

static int biosnoop_main(int argc, char **argv)
{
	struct biosnoop_opts o = { 0 };
	struct biosnoop_run r = { 0 };
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
