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

static const char usage[] =
"usage: barebpf fsdist [-h] [-t FS] [-T] [-m] [-p PID] [-j] [--btf FILE]\n"
"                      [interval [count]]\n"
"       barebpf ext4dist|xfsdist|btrfsdist|nfsdist|f2fsdist [-h] [-T] [-m]\n"
"                      [-p PID] [-j] [interval [count]]\n"
"\n"
"Summarize a file system's operation latency: a log2 histogram of the\n"
"reads, writes, opens and fsyncs, each, as bcc's ext4dist. The same\n"
"kprobes as fsslower (see barebpf fsslower --help; the file name is not\n"
"read, but the fields of the kiocb and, where reads go through\n"
"generic_file_read_iter, the file's f_op, are: BTF, --btf, or discovered).\n"
"\n"
"positional arguments:\n"
"  interval              output interval, in seconds\n"
"  count                 number of outputs\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -t, --type FS         ext4 (default), xfs, btrfs, nfs or f2fs\n"
"  -T, --notimestamp     don't include timestamp on interval output\n"
"  -m, --milliseconds    output in milliseconds\n"
"  -p, --pid PID         trace this PID only\n"
"  -j, --json            one JSON object per interval (lines)\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --btf FILE        the kernel's BTF, for a kernel without\n"
"                        /sys/kernel/btf/vmlinux (e.g. BTFhub's)\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf ext4dist            # show operation latency as a histogram\n"
"  barebpf ext4dist -p 181     # trace PID 181 only\n"
"  barebpf ext4dist 1 10       # print 1 second summaries, 10 times\n"
"  barebpf ext4dist -m 5       # 5s summaries, milliseconds\n"
"  barebpf fsdist -t xfs 1 5   # xfs, five 1 second summaries\n";
static const struct tool_usage help = { NULL, usage };

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
