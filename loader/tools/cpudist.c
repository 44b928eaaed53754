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

static const char usage[] =
"usage: barebpf cpudist [-h] [-O] [-T] [-m] [-P] [-L] [-p PID] [-j]\n"
"                       [--duration SECONDS] [interval [count]]\n"
"\n"
"Summarize on-CPU time per task as a histogram: the time from a task's\n"
"switch in to its switch out, one count per slice; with -O the time off\n"
"the CPU between two slices. From sched:sched_switch alone (no kprobes,\n"
"BTF or kernel headers; Linux 4.9 on). The idle tasks (pid 0) are left\n"
"out. With -O and -p or -P, a time off CPU is counted when the task\n"
"leaves the CPU again (its process is known only while it runs): a task\n"
"still on a CPU at the last output is counted later.\n"
"\n"
"positional arguments:\n"
"  interval              output interval, in seconds\n"
"  count                 number of outputs\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -O, --offcpu          measure off-CPU time\n"
"  -T, --timestamp       include timestamp on output\n"
"  -m, --milliseconds    millisecond histogram\n"
"  -P, --pids            print a histogram per process ID\n"
"  -L, --tids            print a histogram per thread ID\n"
"  -p, --pid PID         trace this PID only\n"
"  -j, --json            one JSON object per output (lines)\n"
"      --duration SECONDS  exit after this many seconds\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf cpudist              # summarize on-CPU time as a histogram\n"
"  barebpf cpudist -O           # summarize off-CPU time as a histogram\n"
"  barebpf cpudist 1 10         # print 1 second summaries, 10 times\n"
"  barebpf cpudist -mT 1        # 1s summaries, milliseconds, and timestamps\n"
"  barebpf cpudist -P           # show each PID separately\n"
"  barebpf cpudist -p 185       # trace PID 185 only\n";
static const struct tool_usage help = { NULL, usage };

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
