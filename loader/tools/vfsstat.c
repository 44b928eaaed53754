/* SPDX-License-Identifier: MIT */
/* barebpf vfsstat: VFS calls per second, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "tool.h"
#include "progs.h"
#include "../../bpf/vfsstat.h"

static const char usage[] =
"usage: barebpf vfsstat [-h] [-j] [-d SECS] [-v] [interval [count]]\n"
"\n"
"Count VFS calls: reads, writes, fsyncs, opens and creates per second,\n"
"one line per interval (default 1 second), as bcc's vfsstat.\n"
"\n"
"A kprobe on each of vfs_read, vfs_write, vfs_fsync, vfs_open and\n"
"vfs_create, counting per CPU. Needs kprobes (CONFIG_KPROBE_EVENTS); see\n"
"`barebpf features`. A function this kernel lacks leaves its column at 0,\n"
"said at start. Calls that bypass these functions (io_uring, splice,\n"
"sendfile, mmap) are not counted, as in bcc.\n"
"\n"
"positional arguments:\n"
"  interval              output interval, in seconds (default 1)\n"
"  count                 number of outputs, then exit (default: no limit)\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -j, --json            one JSON object per interval (lines): per-second\n"
"                        rates and the counts they came from\n"
"  -d, --duration SECS   exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf vfsstat               # per second, until Ctrl-C\n"
"  barebpf vfsstat 5 3           # three 5-second summaries, then exit\n"
"  barebpf vfsstat -j 1 10       # ten JSON lines\n";
static const struct tool_usage help = { NULL, usage };

struct vfsstat_opts {
	double interval, duration;
	unsigned long count;
	int json;
};

static const char *const cols[VFS_NSTATS] = {
	"READ", "WRITE", "FSYNC", "OPEN", "CREATE"
};

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
static void print_rates(const struct vfsstat_opts *o, int fd, uint64_t *prev)
{
	uint64_t d[VFS_NSTATS], now;
	uint32_t k;

	for (k = 0; k < VFS_NSTATS; k++) {
		d[k] = 0;
		if (bpf_map_sum_percpu_u64(fd, k, &now) == 0) {
			d[k] = now - prev[k];
			prev[k] = now;
		}
	}
	if (o->json) {
		printf("{\"time\":\"%s\",\"interval\":%g", now_hms(),
		       o->interval);
		for (k = 0; k < VFS_NSTATS; k++)
			printf(",\"%s/s\":%llu,\"%s\":%llu", cols[k],
			       (unsigned long long)(d[k] / o->interval),
			       cols[k], (unsigned long long)d[k]);
		printf("}\n");
		return;
	}
	printf("%-8s: ", now_hms());
	for (k = 0; k < VFS_NSTATS; k++)
		printf(" %8llu", (unsigned long long)(d[k] / o->interval));
	putchar('\n');
}

static int vfsstat_main(int argc, char **argv)
{
	struct vfsstat_opts o = { 0 };
	struct tool_ctx t;
	struct tool_timer tm;
	uint64_t prev[VFS_NSTATS] = { 0 };
	unsigned long printed = 0;
	char head[128];
	int ret = 1, k, n, fd;

	tool_init(&t, "vfsstat");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (tool_need_kprobes(&t) < 0 || vfsstat_start(&t) < 0)
		goto out;
	fd = vfsstat_stats_fd(&t);
	/* the counts made while attaching are not the first interval's */
	for (k = 0; k < VFS_NSTATS; k++)
		bpf_map_sum_percpu_u64(fd, k, &prev[k]);
	if (o.json) {
		tool_tracing(&t, stderr, "Tracing VFS calls... Hit Ctrl-C to "
			     "end.\n");
	} else {
		n = snprintf(head, sizeof(head), "%-8s  ", "TIME");
		for (k = 0; k < VFS_NSTATS; k++)
			n += snprintf(head + n, sizeof(head) - n, " %6s/s",
				      cols[k]);
		tool_tracing(&t, stdout, "%s\n", head);
	}
	tool_timer_init(&tm, o.interval, o.duration);
	for (;;) {
		int tick = tool_wait(&tm, NULL);

		/* bcc prints no partial interval at Ctrl-C */
		if (tick == TOOL_TICK_LAST)
			break;
		if (tick == TOOL_TICK_NONE)
			continue;
		print_rates(&o, fd, prev);
		if (o.count && ++printed >= o.count)
			break;
	}
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_vfsstat = {
	"vfsstat", vfsstat_main,
	"VFS reads, writes, fsyncs, opens, creates per second (kprobes)"
};
