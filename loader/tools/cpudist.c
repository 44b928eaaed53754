/* SPDX-License-Identifier: MIT */
/* barebpf cpudist: on-CPU (or off-CPU) time per scheduling slice, bcc's
 * options and text. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include "tool.h"
#include "dhist.h"
#include "mods.h"
#include "../../bpf/cpudist.h"

static const struct tool_usage help = { NULL, "cpudist" };

struct cpudist_opts {
	int offcpu, timestamp, ms, pids, tids, json;
	unsigned long pid;
	double interval, duration;
	unsigned long count;
};

static int parse_args(struct tool_ctx *t, struct cpudist_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		TOOL_LONGOPT_PID,
		{ "offcpu", no_argument, NULL, 'O' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "pids", no_argument, NULL, 'P' },
		{ "tids", no_argument, NULL, 'L' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hOTmPLp:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'O': o->offcpu = 1; break;
		case 'T': o->timestamp = 1; break;
		case 'm': o->ms = 1; break;
		case 'P': o->pids = 1; break;
		case 'L': o->tids = 1; break;
		}
	}
	if (c < 0)
		return c;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

static int cpudist_main(int argc, char **argv)
{
	struct cpudist_opts o = { 0 };
	struct cpudist_settings s = { 0 };
	struct dhist_fmt fmt = { 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "cpudist");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	fmt.unit = o.ms ? "msecs" : "usecs";
	fmt.json = o.json;
	fmt.timestamp = o.timestamp;
	/* bcc: -L before -P */
	fmt.extra_name = o.tids ? "tid" : o.pids ? "pid" : NULL;
	fmt.extra_str = fmt.extra_name ? dhist_id_str : NULL;
	s.offcpu = o.offcpu;
	s.filter_tgid = o.pid;
	s.by = o.tids ? RUNQLAT_BY_TID : o.pids ? RUNQLAT_BY_TGID :
	       RUNQLAT_BY_NONE;
	s.ms = o.ms;
	tool_signals();
	if (cpudist_start(&t, &s) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing %s-CPU time... Hit Ctrl-C to end.\n",
		     o.offcpu ? "off" : "on");
	if (dhist_loop_by_id(&t, cpudist_hist_fd(&t), &fmt, o.interval,
			     o.duration, o.count, NULL) < 0)
		goto out;
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_cpudist = {
	"cpudist", cpudist_main,
	"on-CPU (or off-CPU) time per scheduling slice (sched_switch)"
};
