/* SPDX-License-Identifier: MIT */
/* barebpf profile: on-CPU stacks sampled at a frequency, as bcc's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "tool.h"
#include "mods.h"
#include "stackcount.h"

static const struct tool_usage help = { NULL, "profile" };

enum { OPT_HASH_STORAGE = STACKCOUNT_OPT_FIRST_OWN };

struct profile_opts {
	unsigned long pid, hz, storage, hash_storage;
	double duration;
	int idle;
	struct stackcount_opts so; /* -U -K -d -f -j --svg */
};

static int parse_args(struct tool_ctx *t, struct profile_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		STACKCOUNT_LONGOPTS,
		{ "frequency", required_argument, NULL, 'F' },
		{ "include-idle", no_argument, NULL, 'I' },
		{ "hash-storage-size", required_argument, NULL,
		  OPT_HASH_STORAGE },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->so.json,
		.duration = &o->duration, .pid = &o->pid };
	int c, ret;

	o->hz = 49;
	stackcount_opts_init(&o->so);
	while ((c = tool_getopt(t, argc, argv,
				"hp:F:Ij" STACKCOUNT_SHORTOPTS "v", longopts,
				&v)) > 0) {
		ret = stackcount_opt(t, c, &o->so, &o->storage);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		switch (c) {
		case 'I': o->idle = 1; break;
		case 'F':
			if (opt_count(t, "-F", "Hertz", optarg, &o->hz))
				return -EINVAL;
			break;
		case OPT_HASH_STORAGE:
			if (opt_map_entries(t, "--hash-storage-size", "keys",
					    optarg, &o->hash_storage))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	if (stackcount_opts_check(t, &o->so) < 0)
		return -EINVAL;
	if (optind < argc &&
	    opt_seconds(t, "duration", argv[optind++], &o->duration))
		return -EINVAL;
	return opt_no_args(t, argc, argv);
}

/* bcc's first line; with -f or -j on stderr, where it tells a script
 * that sampling has begun without mixing into the output. */
static void say_start(struct tool_ctx *t, const struct profile_opts *o)
{
	char who[32], secs[48];

	if (o->pid)
		snprintf(who, sizeof(who), "PID %lu", o->pid);
	else
		snprintf(who, sizeof(who), "all threads");
	if (o->duration)
		snprintf(secs, sizeof(secs), " for %g secs.", o->duration);
	else
		snprintf(secs, sizeof(secs), "... Hit Ctrl-C to end.");
	tool_tracing(t, o->so.folded || o->so.json ? stderr : stdout,
		     "Sampling at %lu Hertz of %s by %s stack%s\n", o->hz, who,
		     stackcount_which(&o->so), secs);
}

static int profile_main(int argc, char **argv)
{
	struct profile_opts o = { 0 };
	struct profile_settings s = { 0 };
	struct stackcount_opts *so = &o.so;
	struct profile_run r = { 0 };
	struct stackcount sc = { 0 };
	struct tool_ctx t;
	struct tool_timer tm;
	int ret = 1;

	tool_init(&t, "profile");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	s.pid = o.pid;
	s.hz = o.hz;
	s.kstack = so->kernel;
	s.ustack = so->user;
	s.idle = o.idle;
	s.stack_storage = o.storage;
	s.hash_storage = o.hash_storage;
	s.build_id = so->build_id;
	so->title = "Flame Graph";
	so->show_tgid = 1;
	so->missed = "could not be displayed";
	so->unit = "samples";
	/* what takes time first: sampling starts with the duration */
	if (stackcount_init(&t, &sc, so) < 0 || profile_start(&t, &s, &r) < 0)
		goto out;
	tool_timer_init(&tm, 1, o.duration);
	stackcount_maps(&sc, r.counts_fd, r.stacks_fd, r.ustacks_fd);
	say_start(&t, &o);
	if (t.verbose)
		fprintf(stderr, "sampling %d CPUs with the %s\n", r.ncpus,
			r.software ? "software cpu-clock (no hardware cycles "
				     "counter here)" : "hardware cycles counter");
	while (tool_wait(&tm, NULL) != TOOL_TICK_LAST)
		stackcount_poll(&sc);
	tool_detach(&t);
	ret = stackcount_print(&t, &sc, so) < 0;
out:
	stackcount_free(&sc);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_profile = {
	"profile", profile_main,
	"on-CPU stacks sampled at a frequency, flame graphs (perf events)"
};
