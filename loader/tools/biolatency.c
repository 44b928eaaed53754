/* SPDX-License-Identifier: MIT */
/* barebpf biolatency: block I/O latency histograms, bcc's options. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "facts.h"
#include "dhist.h"
#include "mods.h"
#include "../../bpf/biolatency.h"

_Static_assert(BIOLAT_SLOTS == DHIST_SLOTS, "one slot count");

static const struct tool_usage help = { NULL, "biolatency" };

struct biolat_opts {
	int timestamp, queued, ms, per_disk, per_flags, json;
	const char *disk;
	uint32_t kdev;
	double interval, duration;
	unsigned long count;
};

/* rwbs as bcc's -F names it: "Sync-Write", "Read", "Flush-Write" ... */
static void flags_name(const char *rwbs, char *out, size_t len)
{
	const char *op = "Unknown";
	char mods[96] = "";
	const char *p = rwbs;

	if (*p == 'F') { /* a leading F is a preflush */
		strcat(mods, "PreFlush-");
		p++;
	}
	switch (*p) {
	case 'R': op = "Read"; break;
	case 'W': op = "Write"; break;
	case 'D': op = "Discard"; break;
	case 'E': op = "SecureErase"; break;
	case 'N': op = "None"; break;
	}
	if (*p)
		p++;
	for (; *p; p++) {
		if (*p == 'F') strcat(mods, "ForceUnitAccess-");
		if (*p == 'A') strcat(mods, "ReadAhead-");
		if (*p == 'S') strcat(mods, "Sync-");
		if (*p == 'M') strcat(mods, "Metadata-");
	}
	snprintf(out, len, "%s%s", mods, op);
}

static int parse_args(struct tool_ctx *t, struct biolat_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		{ "queued", no_argument, NULL, 'Q' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "disks", no_argument, NULL, 'D' },
		{ "flags", no_argument, NULL, 'F' },
		{ "disk", required_argument, NULL, 'd' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTQmDFjd:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'Q': o->queued = 1; break;
		case 'm': o->ms = 1; break;
		case 'D': o->per_disk = 1; break;
		case 'F': o->per_flags = 1; break;
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

static int biolatency_main(int argc, char **argv)
{
	struct biolat_opts o = { 0 };
	struct tool_ctx t;
	struct dhist_fmt fmt = { 0 };
	struct biolat_settings s = { 0 };
	int ret = 1, hist_fd;

	tool_init(&t, "biolatency");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	fmt.unit = o.ms ? "msecs" : "usecs";
	fmt.json = o.json;
	fmt.timestamp = o.timestamp;
	fmt.per_disk = o.per_disk;
	if (o.per_flags) {
		fmt.extra_name = "flags";
		fmt.extra_str = flags_name;
	}
	s.filter_dev = o.kdev;
	s.queued = o.queued;
	s.per_disk = o.per_disk;
	s.per_flags = o.per_flags;
	s.ms = o.ms;
	tool_signals();
	if (biolat_start(&t, &s) < 0)
		goto out;
	hist_fd = biolat_hist_fd(&t);

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing block device I/O... Hit Ctrl-C to end.\n");
	if (dhist_loop(&t, hist_fd, sizeof(struct biolat_key), &fmt, o.interval, o.duration,
		       o.count))
		goto out;
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_biolatency = {
	"biolatency", biolatency_main,
	"block I/O latency histogram (tracepoints; bcc's options)"
};
