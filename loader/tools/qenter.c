/* SPDX-License-Identifier: MIT */
/* barebpf qenter: how long bio submitters wait to enter the queue. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "dhist.h"
#include "mods.h"
#include "../../bpf/qenter.h"

_Static_assert(QENTER_SLOTS == DHIST_SLOTS, "one slot count");

static const struct tool_usage help = { NULL, "qenter" };

struct qenter_opts {
	int timestamp, ms, per_disk, json;
	const char *disk;
	uint32_t kdev;
	unsigned long maxactive, count;
	double interval, duration;
};

static int parse_args(struct tool_ctx *t, struct qenter_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "disks", no_argument, NULL, 'D' },
		{ "disk", required_argument, NULL, 'd' },
		TOOL_LONGOPT_MAXACTIVE,
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .maxactive = &o->maxactive };
	int c;

	o->maxactive = 128;
	while ((c = tool_getopt(t, argc, argv, "hTmDjd:M:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'm': o->ms = 1; break;
		case 'D': o->per_disk = 1; break;
		case 'd': o->disk = optarg; break;
		}
	}
	if (c < 0)
		return c;
	if (opt_interval_count(t, argc, argv, &o->interval, &o->count))
		return -EINVAL;
	if (o->disk && disk_kdev(o->disk, &o->kdev) < 0)
		return tool_unknown_disk(t, o->disk);
	return 0;
}

static int qenter_main(int argc, char **argv)
{
	struct qenter_opts o = { 0 };
	struct qenter_settings s = { 0 };
	struct tool_ctx t;
	struct dhist_fmt fmt = { 0 };
	char **avail = NULL, what[128] = "";
	int ret = 1, n = 0, hist_fd, err;

	tool_init(&t, "qenter");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	fmt.unit = o.ms ? "msecs" : "usecs";
	fmt.json = o.json;
	fmt.timestamp = o.timestamp;
	fmt.per_disk = o.per_disk;
	tool_signals();
	if (tool_need_kprobes(&t) < 0)
		goto out;
	n = tool_funcs(&t, BB_FUNCS_FTRACE, qenter_wanted_fns, 4, 2, &avail);
	if (n < 0) {
		n = 0;
		goto out;
	}
	s.filter_dev = o.kdev;
	s.per_disk = o.per_disk;
	s.need_dev = o.per_disk || o.disk;
	s.ms = o.ms;
	s.maxactive = (int)o.maxactive;
	err = qenter_start(&t, &s, avail, n, what, sizeof(what));
	if (err == -ENOENT && !t.obj)
		tool_error(&t, "neither blk_queue_enter nor __bio_queue_enter "
			   "can be probed on this kernel (see `barebpf "
			   "features`)");
	if (err < 0)
		goto out;
	hist_fd = qenter_hist_fd(&t);

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing queue entry (%s)... Hit Ctrl-C to end.\n", what);
	if (dhist_loop(&t, hist_fd, sizeof(struct qenter_key), &fmt, o.interval, o.duration,
		       o.count))
		goto out;
	ret = 0;
out:
	tool_cleanup(&t);
	bb_free_strv(avail, n);
	return ret;
}

const struct tool tool_qenter = {
	"qenter", qenter_main,
	"time bios wait to enter a (frozen) queue, histogram (kprobes)"
};
