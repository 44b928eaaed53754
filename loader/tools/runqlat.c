/* SPDX-License-Identifier: MIT */
/* barebpf runqlat: run-queue (scheduler) latency histograms, bcc's
 * options and text. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "dhist.h"
#include "mods.h"
#include "../../bpf/runqlat.h"

_Static_assert(RUNQLAT_SLOTS == DHIST_SLOTS, "one slot count");
_Static_assert(sizeof(struct runqlat_key) == DHIST_ID_KEY, "dhist's key");

static const struct tool_usage help = { NULL, "runqlat" };

enum { OPT_PIDNSS = TOOL_OPT_FIRST_OWN };

struct runqlat_opts {
	int timestamp, ms, pids, tids, pidnss, json;
	unsigned long pid;
	double interval, duration;
	unsigned long count;
};

/* /proc/TGID/ns/pid is "pid:[4026531836]" */
static uint32_t pidns_of(uint32_t tgid, void *arg)
{
	char path[64], link[64];
	unsigned long v;
	ssize_t len;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%u/ns/pid", tgid);
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return 0;
	link[len] = 0;
	if (sscanf(link, "pid:[%lu]", &v) != 1 || v > 0xffffffffUL)
		return 0;
	return v;
}

static int parse_args(struct tool_ctx *t, struct runqlat_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		TOOL_LONGOPT_PID,
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "pids", no_argument, NULL, 'P' },
		{ "tids", no_argument, NULL, 'L' },
		{ "pidnss", no_argument, NULL, OPT_PIDNSS },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTmPLp:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'm': o->ms = 1; break;
		case 'P': o->pids = 1; break;
		case 'L': o->tids = 1; break;
		case OPT_PIDNSS: o->pidnss = 1; break;
		}
	}
	if (c < 0)
		return c;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

static int runqlat_main(int argc, char **argv)
{
	struct runqlat_opts o = { 0 };
	struct runqlat_settings s = { 0 };
	struct dhist_fmt fmt = { 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "runqlat");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	fmt.unit = o.ms ? "msecs" : "usecs";
	fmt.json = o.json;
	fmt.timestamp = o.timestamp;
	/* bcc: -L before -P, both before --pidnss */
	fmt.extra_name = o.tids ? "tid" : o.pids ? "pid" :
			 o.pidnss ? "pidns" : NULL;
	fmt.extra_str = fmt.extra_name ? dhist_id_str : NULL;
	s.filter_tgid = o.pid;
	s.by = o.tids ? RUNQLAT_BY_TID : o.pids || o.pidnss ?
	       RUNQLAT_BY_TGID : RUNQLAT_BY_NONE;
	if (o.tids || o.pids)
		o.pidnss = 0;
	s.ms = o.ms;
	tool_signals();
	if (runqlat_start(&t, &s) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing run queue latency... Hit Ctrl-C to end.\n");
	if (dhist_loop_by_id(&t, runqlat_hist_fd(&t), &fmt, o.interval,
			      o.duration, o.count, o.pidnss ? pidns_of : NULL) < 0)
		goto out;
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_runqlat = {
	"runqlat", runqlat_main,
	"run queue (scheduler) latency histogram (sched tracepoints)"
};
