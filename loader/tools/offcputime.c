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

static const struct tool_usage help = { NULL, "offcputime" };

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
