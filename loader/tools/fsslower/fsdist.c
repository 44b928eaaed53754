/* SPDX-License-Identifier: MIT */
/*
 * barebpf fsdist (ext4dist, xfsdist, btrfsdist, nfsdist, f2fsdist): a
 * file system's read, write, open and fsync latency histograms, as bcc's
 * ext4dist.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "namedhist.h"
#include "fsslower_out.h"

static const struct tool_usage help = { NULL, "fsdist" };

struct fsd_opts {
	const char *fs;
	unsigned long pid, count;
	int notimestamp, ms, json;
	double interval, duration;
};

static int parse_args(struct tool_ctx *t, struct fsd_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "type", required_argument, NULL, 't' },
		{ "notimestamp", no_argument, NULL, 'T' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c, fixed = o->fs != NULL;

	while ((c = tool_getopt(t, argc, argv, fixed ? "ht:Tmp:jv" :
				"ht:Tmp:jv", longopts, &v)) > 0) {
		if (c == 'T')
			o->notimestamp = 1;
		if (c == 'm')
			o->ms = 1;
		if (c == 't' && fixed)
			return tool_fail(t, -EINVAL, "-t: %s traces %s only; "
					 "for another, barebpf fsdist -t FS",
					 t->name, o->fs);
		if (c == 't' && !fsslower_fs(optarg))
			return tool_fail(t, -EINVAL, "-t '%s': give ext4, "
					 "xfs, btrfs, nfs or f2fs", optarg);
		if (c == 't')
			o->fs = optarg;
	}
	if (c < 0)
		return c;
	if (!o->fs)
		o->fs = "ext4";
	if (o->pid && tool_need_pid(t, o->pid) < 0)
		return -ESRCH;
	o->interval = 0;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

/* The counts since the last call (prev), as rows; how many rows. */
static int read_rows(int fd, uint64_t *prev, struct nh_row *rows)
{
	uint32_t k;
	int n = 0;

	for (k = 0; k < FSS_NOPS * FSS_SLOTS; k++) {
		uint64_t v = 0;

		if (bpf_map_lookup_elem(fd, &k, &v) < 0 || v == prev[k])
			continue;
		snprintf(rows[n].name, sizeof(rows[n].name), "%s",
			 fsslower_op_name(k / FSS_SLOTS));
		rows[n].slot = k % FSS_SLOTS;
		rows[n].val = v - prev[k];
		prev[k] = v;
		n++;
	}
	return n;
}

static void print_interval(const struct fsd_opts *o, int fd, uint64_t *prev,
			   int interval)
{
	static struct nh_row rows[FSS_NOPS * FSS_SLOTS];
	struct nh_table tb = { "OPERATION", 10, o->ms ? "msecs" : "usecs",
			       "operation", 0 };
	int n = read_rows(fd, prev, rows);

	if (!o->json) {
		if (interval)
			putchar('\n');
		if (interval && !o->notimestamp)
			printf("%-8s\n", now_hms());
	}
	nh_print_dists(stdout, &tb, rows, n, now_hms(), o->json);
	fflush(stdout);
}

static int fsd_main(const char *name, const char *fs, int argc, char **argv)
{
	static uint64_t prev[FSS_NOPS * FSS_SLOTS];
	struct fsd_opts o = { fs, 0, 0, 0, 0, 0, 0, 0 };
	struct fsslower_settings s = { 0 };
	unsigned long printed = 0;
	struct tool_timer tm;
	struct tool_ctx t;
	int ret = 1, tick, fd;

	tool_init(&t, name);
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	s.fs = o.fs;
	s.pid = o.pid;
	s.dist = 1;
	s.unit_div = o.ms ? 1000000 : 1000;
	if (fsslower_run_start(&t, &s, NULL) < 0)
		goto out;
	fd = fsslower_hist_fd(&t);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing %s operation "
		     "latency... Hit Ctrl-C to end.\n", o.fs);
	tool_timer_init(&tm, o.interval, o.duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		print_interval(&o, fd, prev, o.interval > 0);
		if (tick == TOOL_TICK_LAST ||
		    (o.count && ++printed >= o.count))
			break;
	}
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

static int fsdist_main(int argc, char **argv)
{
	return fsd_main("fsdist", NULL, argc, argv);
}
static int ext4dist_main(int argc, char **argv)
{
	return fsd_main("ext4dist", "ext4", argc, argv);
}
static int xfsdist_main(int argc, char **argv)
{
	return fsd_main("xfsdist", "xfs", argc, argv);
}
static int btrfsdist_main(int argc, char **argv)
{
	return fsd_main("btrfsdist", "btrfs", argc, argv);
}

const struct tool tool_fsdist = {
	"fsdist", fsdist_main,
	"file system operation latency histograms (kprobes; bcc's ext4dist)"
};
const struct tool tool_ext4dist = {
	"ext4dist", ext4dist_main, "fsdist -t ext4"
};
const struct tool tool_xfsdist = {
	"xfsdist", xfsdist_main, "fsdist -t xfs"
};
const struct tool tool_btrfsdist = {
	"btrfsdist", btrfsdist_main, "fsdist -t btrfs"
};
