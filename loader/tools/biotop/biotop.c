/* SPDX-License-Identifier: MIT */
/* barebpf biotop: block device I/O by process, refreshed like top. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include "tool.h"
#include "mapdelta.h"
#include "outrec.h"
#include "mods.h"
#include "biotop_out.h"

static const struct tool_usage help = { NULL, "biotop" };

struct biotop_opts {
	int noclear, json, sort;
	unsigned long maxrows, pid, count;
	const char *disk;
	uint32_t kdev;
	double interval, duration;
	struct blkdisks disks;
};

enum { F_TIME, F_PID, F_COMM, F_D, F_MAJ, F_MIN, F_DISK, F_IO, F_KB, F_AVG,
       F_N };
/* bcc: "%-7d %-16s %1s %-3d %-3d %-8s %5s %7s %6.2f" */
static const struct out_field fields[F_N] = {
	{ NULL, "time", OUT_STR, 0, 0, 0, 0, 0, NULL },
	{ "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	{ "COMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	{ "D", "d", OUT_STR, 1, 0, 0, 0, 0, NULL },
	{ "MAJ", "maj", OUT_UINT, -3, 0, 0, 0, 0, NULL },
	{ "MIN", "min", OUT_UINT, -3, 0, 0, 0, 0, NULL },
	{ "DISK", "disk", OUT_STR, -8, 0, 0, 0, 0, NULL },
	{ "I/O", "io", OUT_UINT, 5, 0, 0, 0, 0, NULL },
	{ "Kbytes", "kbytes", OUT_UINT, 7, 0, 0, 0, 0, NULL },
	{ "AVGms", "avg_ms", OUT_DBL, 6, 2, 3, 1, 0, NULL },
};

int biotop_sort_by(const char *name)
{
	static const char *const names[] = { "bytes", "all", "io", "time" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(&((const struct biotop_row *)a)->key,
		      &((const struct biotop_row *)b)->key,
		      sizeof(struct biotop_key));
}

void biotop_sort_keys(struct biotop_row *r, int n)
{
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_key);
}

static int sort_by;

static uint64_t weight(const struct biotop_val *v)
{
	switch (sort_by) {
	case BIOTOP_SORT_IO: return v->io;
	case BIOTOP_SORT_TIME: return v->us;
	case BIOTOP_SORT_ALL: return v->io + v->bytes + v->us;
	}
	return v->bytes;
}

static int cmp_weight(const void *a, const void *b)
{
	const struct biotop_row *x = a, *y = b;
	uint64_t wx = weight(&x->val), wy = weight(&y->val);

	if (wx != wy)
		return wx < wy ? 1 : -1;
	if (x->key.pid != y->key.pid)
		return x->key.pid < y->key.pid ? -1 : 1;
	return cmp_key(a, b);
}

void biotop_sort(struct biotop_row *r, int n, int by)
{
	sort_by = by;
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_weight);
}

int biotop_deltas(const struct biotop_row *now, int n,
		  const struct biotop_row *prev, int nprev,
		  struct biotop_row **out, unsigned char *idle)
{
	struct biotop_row *r = malloc((n ? n : 1) * sizeof(*r));
	int i, k = 0;

	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct biotop_row *old = nprev ?
			bsearch(&now[i], prev, nprev, sizeof(*prev), cmp_key) :
			NULL;
		struct biotop_row d = now[i];

		if (old && old->val.io <= d.val.io) {
			d.val.io -= old->val.io;
			d.val.bytes -= old->val.bytes;
			d.val.us -= old->val.us;
		}
		if (idle)
			idle[i] = old && !d.val.io;
		if (d.val.io)
			r[k++] = d;
	}
	*out = r;
	return k;
}

void biotop_print_head(FILE *f, const char *hms, const char *loadavg,
		       int clear)
{
	/* bcc runs clear(1): cursor home, erase the screen */
	fputs(clear ? "\033[H\033[2J" : "\n", f);
	fprintf(f, "%-8s loadavg: %s\n", hms, loadavg);
	out_head(f, fields, F_N, 0);
}

void biotop_print_row(FILE *f, const struct biotop_row *r, const char *disk,
		      const char *hms, int json)
{
	struct out_val v[F_N] = { 0 };
	char comm[sizeof(r->key.comm) + 1];

	memcpy(comm, r->key.comm, sizeof(r->key.comm));
	comm[sizeof(r->key.comm)] = 0;
	v[F_TIME].s = hms;
	v[F_PID].u = r->key.pid;
	v[F_COMM].s = comm;
	v[F_D].s = r->key.write ? "W" : "R";
	v[F_MAJ].u = r->key.dev >> 20;
	v[F_MIN].u = r->key.dev & 0xfffff;
	v[F_DISK].s = disk;
	v[F_IO].u = r->val.io;
	v[F_KB].u = r->val.bytes / 1024;
	v[F_AVG].d = r->val.io ? r->val.us / 1000.0 / r->val.io : 0;
	out_row(f, fields, F_N, 0, v, json);
}

/* Every key and its totals, sorted by key; -ENOMEM. */
static int read_totals(int fd, struct biotop_row **out)
{
	int n = map_read_rows(fd, sizeof((*out)->key),
			      offsetof(struct biotop_row, val),
			      sizeof(**out), (void **)out);

	if (n > 0)
		biotop_sort_keys(*out, n);
	return n;
}

/* /proc/loadavg, its newline included */
static void loadavg(char *buf, size_t len)
{
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	snprintf(buf + (n > 0 ? n : 0), len - (n > 0 ? n : 0), "%s",
		 n > 0 ? "" : "?\n");
}

struct biotop_run {
	struct biotop_opts *o;
	int fd, clear;
	struct biotop_row *prev;
	int nprev;
};

/*
 * Print what the interval added. Keys idle for a whole interval are
 * deleted (bcc clears the map each interval; deleting a busy key would
 * lose what a CPU adds between the read and the delete), and forgotten.
 */
static int print_interval(struct biotop_run *r)
{
	struct biotop_row *now, *d;
	unsigned char *idle;
	char la[128];
	const char *hms = now_hms();
	int n = read_totals(r->fd, &now), nd, i, k;

	if (n < 0)
		return n;
	idle = calloc(n ? n : 1, 1);
	nd = idle ? biotop_deltas(now, n, r->prev, r->nprev, &d, idle) :
		-ENOMEM;
	if (nd < 0) {
		free(now);
		free(idle);
		return nd;
	}
	for (i = k = 0; i < n; i++) {
		if (idle[i])
			bpf_map_delete_elem(r->fd, &now[i].key);
		else
			now[k++] = now[i];
	}
	free(idle);
	free(r->prev);
	r->prev = now;
	r->nprev = k;
	biotop_sort(d, nd, r->o->sort);
	if (!r->o->json) {
		loadavg(la, sizeof(la));
		biotop_print_head(stdout, hms, la, r->clear);
	}
	for (i = 0; i < nd && (unsigned long)i < r->o->maxrows; i++) {
		const struct blkdisk *b = blkdisks_get(&r->o->disks,
						       d[i].key.dev);

		biotop_print_row(stdout, &d[i], b ? b->name : "?", hms,
				 r->o->json);
	}
	free(d);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct biotop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		{ "noclear", no_argument, NULL, 'C' },
		{ "maxrows", required_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "disk", required_argument, NULL, 'd' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	o->maxrows = 20;
	o->interval = 1;
	while ((c = tool_getopt(t, argc, argv, "hCr:s:p:d:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'C': o->noclear = 1; break;
		case 'd': o->disk = optarg; break;
		case 'r':
			if (opt_count(t, "-r", "rows", optarg, &o->maxrows))
				return -EINVAL;
			break;
		case 's':
			o->sort = biotop_sort_by(optarg);
			if (o->sort < 0)
				return tool_fail(t, -EINVAL, "-s: no sort '%s'; "
						 "sort by bytes, io, time or "
						 "all", optarg);
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

/* The disks, and -d's (a partition means its disk: requests belong to the
 * whole disk). */
static int pick_disk(struct tool_ctx *t, struct biotop_opts *o)
{
	const struct blkdisk *d;

	if (blkdisks_scan(&o->disks) < 0)
		return tool_fail(t, -EIO, "cannot read /sys/class/block");
	if (!o->disk)
		return 0;
	d = blkdisks_by_name(&o->disks, o->disk);
	if (!d)
		return tool_unknown_disk(t, o->disk);
	o->kdev = d->disk;
	return 0;
}

static int output_loop(struct tool_ctx *t, struct biotop_run *r)
{
	struct tool_timer tm;
	unsigned long count = r->o->count;
	int tick, ret = 0;

	tool_timer_init(&tm, r->o->interval, r->o->duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		ret = print_interval(r);
		if (ret < 0)
			tool_error(t, "out of memory");
		if (ret < 0 || tick == TOOL_TICK_LAST ||
		    (count && --count == 0))
			break;
	}
	free(r->prev);
	return ret;
}

static int biotop_main(int argc, char **argv)
{
	struct biotop_opts o = { 0 };
	struct biotop_settings s = { 0 };
	struct biotop_run r = { &o, -1, 0, NULL, 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "biotop");
	if (parse_args(&t, &o, argc, argv) || pick_disk(&t, &o))
		goto out;
	s.filter_dev = o.kdev;
	s.pid = o.pid;
	s.disks = &o.disks;
	r.clear = !o.noclear && !o.json && isatty(1);
	tool_signals();
	if (biotop_start(&t, &s) < 0)
		goto out;
	r.fd = biotop_counts_fd(&t);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing... Output every "
		     "%g secs. Hit Ctrl-C to end\n", o.interval);
	if (output_loop(&t, &r) == 0)
		ret = 0;
out:
	tool_cleanup(&t);
	blkdisks_free(&o.disks);
	return ret;
}

const struct tool tool_biotop = {
	"biotop", biotop_main,
	"block I/O by process, refreshed like top (tracepoints; bcc's)"
};
