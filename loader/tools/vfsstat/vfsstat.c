/* SPDX-License-Identifier: MIT */
/* barebpf vfsstat: VFS calls per second, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "tool.h"
#include "outrec.h"
#include "vfsstat_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "vfsstat" };

struct vfsstat_opts {
	double interval, duration;
	unsigned long count;
	int json;
};

/*
 * The line, once: bcc's columns, and the JSON keys (each counter as a
 * rate and as a count). bcc prints "%-8s: " then " %8d" a column: here
 * the clock and its colon are one column, and the space before each
 * number is the separator after the one before it.
 */
#define VFS_COL(name)                                                          \
	{ name "/s", NULL, OUT_UINT, 8, 0, 0, 0, 0, NULL },                    \
	{ NULL, name "/s", OUT_UINT, 0, 0, 0, 0, 0, NULL },                   \
	{ NULL, name, OUT_UINT, 0, 0, 0, 0, 0, NULL }
enum { F_TIME, F_JTIME, F_JINTERVAL, F_COLS, F_N = F_COLS + 3 * VFS_NSTATS };
static const struct out_field fields[F_N] = {
	{ "TIME", NULL, OUT_STR, -10, 0, 0, 0, 0, NULL },
	{ NULL, "time", OUT_STR, 0, 0, 0, 0, 0, NULL },
	{ NULL, "interval", OUT_RAW, 0, 0, 0, 0, 0, NULL },
	VFS_COL("READ"), VFS_COL("WRITE"), VFS_COL("FSYNC"), VFS_COL("OPEN"),
	/* the last: no blank at the end */
	{ "CREATE/s", NULL, OUT_UINT, 8, 0, 0, 1, 0, NULL },
	{ NULL, "CREATE/s", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	{ NULL, "CREATE", OUT_UINT, 0, 0, 0, 0, 0, NULL },
};

void vfsstat_print_header(FILE *f)
{
	out_head(f, fields, F_N, 0);
}

void vfsstat_print(FILE *f, const uint64_t *d, double interval,
		   const char *hms, int json)
{
	struct out_val v[F_N] = { 0 };
	char time[16], iv[32];
	int k;

	snprintf(time, sizeof(time), "%s:", hms);
	snprintf(iv, sizeof(iv), "%g", interval);
	v[F_TIME].s = time;
	v[F_JTIME].s = hms;
	v[F_JINTERVAL].s = iv;
	for (k = 0; k < VFS_NSTATS; k++) {
		struct out_val *c = &v[F_COLS + 3 * k];

		c[0].u = c[1].u = (unsigned long long)(d[k] / interval);
		c[2].u = d[k];
	}
	out_row(f, fields, F_N, 0, v, json);
}

static int parse_args(struct tool_ctx *t, struct vfsstat_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ 0 }
	};
	int c;

	o->interval = 1;
	while ((c = getopt_long(argc, argv, "hjd:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (opt_seconds(t, "--duration", optarg, &o->duration))
				return -EINVAL;
			break;
		default:
			if (tool_opt(t, c, &help, &o->json, &o->duration))
				return -EINVAL;
			break;
		}
	}
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

/* Totals only grow (nothing is cleared, so nothing a CPU adds between a
 * read and a clear is lost): shown is what they gained since prev. */
struct vfsstat_loop {
	const struct vfsstat_opts *o;
	int fd;
	uint64_t prev[VFS_NSTATS];
};

static void print_rates(void *ctx)
{
	struct vfsstat_loop *l = ctx;
	uint64_t d[VFS_NSTATS];

	bpf_map_percpu_deltas(l->fd, VFS_NSTATS, l->prev, d);
	vfsstat_print(stdout, d, l->o->interval, now_hms(), l->o->json);
}

static int vfsstat_main(int argc, char **argv)
{
	struct vfsstat_opts o = { 0 };
	struct tool_ctx t;
	struct vfsstat_loop l = { .o = &o };
	uint64_t d[VFS_NSTATS];
	char head[128];
	int ret = 1;

	tool_init(&t, "vfsstat");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (tool_need_kprobes(&t) < 0 || vfsstat_start(&t) < 0)
		goto out;
	l.fd = vfsstat_stats_fd(&t);
	/* the counts made while attaching are not the first interval's */
	bpf_map_percpu_deltas(l.fd, VFS_NSTATS, l.prev, d);
	if (o.json) {
		tool_tracing(&t, stderr, "Tracing VFS calls... Hit Ctrl-C to "
			     "end.\n");
	} else {
		FILE *hf = fmemopen(head, sizeof(head), "w");

		head[0] = 0;
		if (hf) {
			vfsstat_print_header(hf);
			fclose(hf);
		}
		tool_tracing(&t, stdout, "%s", head);
	}
	/* bcc prints no partial interval at Ctrl-C */
	tool_every(o.interval, o.duration, o.count, 0, print_rates, &l);
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_vfsstat = {
	"vfsstat", vfsstat_main,
	"VFS reads, writes, fsyncs, opens, creates per second (kprobes)"
};
