/* SPDX-License-Identifier: MIT */
/* barebpf offcputime: time blocked off CPU by stack, as bcc's. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "tool.h"
#include "mods.h"
#include "stackcount.h"

static const char usage[] =
"usage: barebpf offcputime [-h] [-p PID | -t TID | -u | -k] [-U | -K] [-d]\n"
"                          [-f] [-m MIN_BLOCK_TIME] [-M MAX_BLOCK_TIME]\n"
"                          [--stack-storage-size N] [--svg FILE]\n"
"                          [--build-id] [-j] [-v] [duration]\n"
"\n"
"Summarize off-CPU time by stack trace, as bcc's offcputime: at the\n"
"scheduler's switch (the sched:sched_switch tracepoint) the stacks of the\n"
"task leaving the CPU are taken, and when it comes back the time it was\n"
"away is added to them, in microseconds.\n"
"User stacks are walked by frame pointers: a binary built without them\n"
"gives short or broken user stacks. User frames are named from the\n"
"binaries the process maps, read while it runs (once a second), and their\n"
"separate debug files (/usr/lib/debug: Debian's -dbg packages, Fedora's\n"
"-debuginfo): a process that exits sooner has its user frames [unknown],\n"
"unless --build-id.\n"
"\n"
"positional arguments:\n"
"  duration              duration of trace, in seconds (default: until\n"
"                        Ctrl-C)\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -p, --pid PID         trace this PID only\n"
"  -t, --tid TID         trace this TID only\n"
"  -u, --user-threads-only\n"
"                        user threads only (no kernel threads)\n"
"  -k, --kernel-threads-only\n"
"                        kernel threads only (no user threads). Told by\n"
"                        the user stack (none: a kernel thread), not by\n"
"                        bcc's PF_KTHREAD flag (no task_struct layout\n"
"                        here): a process in its last switches of exit,\n"
"                        its memory gone, counts as one\n"
"  -U, --user-stacks-only\n"
"                        show stacks from user space only\n"
"  -K, --kernel-stacks-only\n"
"                        show stacks from kernel space only\n"
"  -d, --delimited       insert delimiter between kernel/user stacks\n"
"  -f, --folded          output folded format: comm, user frames from the\n"
"                        root, then kernel frames marked _[k]\n"
"  -m, --min-block-time MIN_BLOCK_TIME\n"
"                        the amount of time in microseconds over which we\n"
"                        store traces (default 1)\n"
"  -M, --max-block-time MAX_BLOCK_TIME\n"
"                        the amount of time in microseconds under which we\n"
"                        store traces (default U64_MAX: no maximum)\n"
"      --stack-storage-size N\n"
"                        the number of unique stack traces that can be\n"
"                        stored and displayed (default 16384)\n"
"      --svg FILE        also write an interactive flame graph (SVG)\n"
"      --build-id        take user stacks as (build id, file offset), so that\n"
"                        processes gone before they were seen are named, from\n"
"                        files of those build ids: mapped by processes seen,\n"
"                        or in /usr/lib/debug/.build-id (Linux 5.4.7 or\n"
"                        4.19.92; their stack map takes 4 times the memory:\n"
"                        66 MB)\n"
"  -j, --json            one JSON object per stack\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf offcputime             # trace off-CPU stack time until Ctrl-C\n"
"  barebpf offcputime 5           # trace for 5 seconds only\n"
"  barebpf offcputime -m 1000 5   # only blocks of 1 ms or more\n"
"  barebpf offcputime -p 185 -f 5 # folded output of PID 185\n"
"  barebpf offcputime --svg off.svg 10  # a flame graph of 10 s\n";
static const struct tool_usage help = { NULL, usage };

struct offcpu_opts {
	unsigned long pid, tid, storage, min_us, max_us;
	double duration;
	int user_threads, kernel_threads;
	struct stackcount_opts so; /* -U -K -d -f -j --svg */
};

/* -m, -M: microseconds above 0, as bcc's (its positive_nonzero_int): -M 0
 * would keep nothing, and no maximum is -M left out. */
static int parse_us(struct tool_ctx *t, const char *opt, const char *arg,
		    unsigned long *v)
{
	if (parse_ulong(arg, v) < 0)
		return tool_fail(t, -EINVAL, "%s needs microseconds, not '%s'",
				 opt, arg);
	if (!*v)
		return tool_fail(t, -EINVAL, "%s 0: the time must be above 0 "
				 "microseconds%s", opt, opt[1] == 'M' ?
				 " (no maximum: leave -M out)" : "");
	return 0;
}

static int check_args(struct tool_ctx *t, struct offcpu_opts *o)
{
	if (!!o->pid + !!o->tid + o->user_threads + o->kernel_threads > 1)
		return tool_fail(t, -EINVAL, "-p, -t, -u and -k exclude each "
				 "other");
	if (stackcount_opts_check(t, &o->so) < 0)
		return -EINVAL;
	if (o->max_us && o->min_us > o->max_us)
		return tool_fail(t, -EINVAL, "-m is above -M");
	return 0;
}

static int parse_args(struct tool_ctx *t, struct offcpu_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		{ "tid", required_argument, NULL, 't' },
		{ "user-threads-only", no_argument, NULL, 'u' },
		{ "kernel-threads-only", no_argument, NULL, 'k' },
		STACKCOUNT_LONGOPTS,
		{ "min-block-time", required_argument, NULL, 'm' },
		{ "max-block-time", required_argument, NULL, 'M' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->so.json,
		.duration = &o->duration, .pid = &o->pid };
	int c, ret;

	o->min_us = 1;
	stackcount_opts_init(&o->so);
	while ((c = tool_getopt(t, argc, argv,
				"hp:t:ukm:M:j" STACKCOUNT_SHORTOPTS "v",
				longopts, &v)) > 0) {
		ret = stackcount_opt(t, c, &o->so, &o->storage);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		switch (c) {
		case 't':
			if (opt_id(t, "-t", "thread id", optarg, &o->tid))
				return -EINVAL;
			break;
		case 'u': o->user_threads = 1; break;
		case 'k': o->kernel_threads = 1; break;
		case 'm':
			if (parse_us(t, "-m", optarg, &o->min_us))
				return -EINVAL;
			break;
		case 'M':
			if (parse_us(t, "-M", optarg, &o->max_us))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	if (check_args(t, o) < 0)
		return -EINVAL;
	if (optind < argc &&
	    opt_seconds(t, "duration", argv[optind++], &o->duration))
		return -EINVAL;
	return opt_no_args(t, argc, argv);
}

/* bcc's first line; with -f or -j on stderr (as profile's). */
static void say_start(struct tool_ctx *t, const struct offcpu_opts *o)
{
	char who[32], secs[48];

	if (o->pid)
		snprintf(who, sizeof(who), "PID %lu", o->pid);
	else if (o->tid)
		snprintf(who, sizeof(who), "TID %lu", o->tid);
	else
		snprintf(who, sizeof(who), "%s", o->user_threads ?
			 "user threads" : o->kernel_threads ?
			 "kernel threads" : "all threads");
	if (o->duration)
		snprintf(secs, sizeof(secs), " for %g secs.", o->duration);
	else
		snprintf(secs, sizeof(secs), "... Hit Ctrl-C to end.");
	tool_tracing(t, o->so.folded || o->so.json ? stderr : stdout,
		     "Tracing off-CPU time (us) of %s by %s stack%s\n", who,
		     stackcount_which(&o->so), secs);
}

static int offcputime_main(int argc, char **argv)
{
	struct offcpu_opts o = { 0 };
	struct offcpu_settings s = { 0 };
	struct stackcount_opts *so = &o.so;
	struct stackcount sc = { 0 };
	struct tool_ctx t;
	struct tool_timer tm;
	int ret = 1, counts_fd, stacks_fd, ustacks_fd;

	tool_init(&t, "offcputime");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	s.tgid = o.pid;
	s.tid = o.tid;
	s.user_only = o.user_threads;
	s.kernel_only = o.kernel_threads;
	s.min_us = o.min_us;
	s.max_us = o.max_us ? o.max_us : UINT64_MAX;
	s.stack_storage = o.storage;
	s.build_id = so->build_id;
	so->title = "Off-CPU Time Flame Graph";
	so->show_tgid = 0;
	so->missed = "lost and could not be displayed";
	so->unit = "us";
	/* what takes time first: tracing starts with the duration */
	if (stackcount_init(&t, &sc, so) < 0 ||
	    offcpu_start(&t, &s, &counts_fd, &stacks_fd, &ustacks_fd) < 0)
		goto out;
	tool_timer_init(&tm, 1, o.duration);
	stackcount_maps(&sc, counts_fd, stacks_fd, ustacks_fd);
	say_start(&t, &o);
	while (tool_wait(&tm, NULL) != TOOL_TICK_LAST)
		stackcount_poll(&sc);
	tool_detach(&t);
	ret = stackcount_print(&t, &sc, so) < 0;
out:
	stackcount_free(&sc);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_offcputime = {
	"offcputime", offcputime_main,
	"time blocked off CPU by stack, flame graphs (sched_switch)"
};
