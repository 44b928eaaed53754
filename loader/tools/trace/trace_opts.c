/* SPDX-License-Identifier: MIT */
/* barebpf trace's options and usage (trace.c runs the rest). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_tool.h"

static const char usage_line[] =
"usage: barebpf trace [-h] [-p PID] [-L TID] [-v] [-Z STRING_SIZE] [-S]\n"
"                     [-M MAX_EVENTS] [-t] [-T] [-C] [-n NAME] [-f MSG]\n"
"                     [-K] [-U] [-d DISK] [-j] [--duration SECS]\n"
"                     [--maxactive N] [--btf FILE] probe [probe ...]\n";

static const struct tool_usage help = { usage_line, "trace" };

static int parse_num(struct tool_ctx *t, const char *opt, const char *what,
		     const char *arg, unsigned long max, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v || *v > max)
		return tool_fail(t, -EINVAL,
				 "%s needs %s, not '%s'", opt, what, arg);
	return 0;
}

int trace_parse_args(struct tool_ctx *t, struct trace_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "tid", required_argument, NULL, 'L' },
		{ "string-size", required_argument, NULL, 'Z' },
		{ "include-self", no_argument, NULL, 'S' },
		{ "max-events", required_argument, NULL, 'M' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "time", no_argument, NULL, 'T' },
		{ "print_cpu", no_argument, NULL, 'C' },
		{ "name", required_argument, NULL, 'n' },
		{ "msg-filter", required_argument, NULL, 'f' },
		{ "kernel-stack", no_argument, NULL, 'K' },
		{ "user-stack", no_argument, NULL, 'U' },
		{ "disk", required_argument, NULL, 'd' },
		{ "maxactive", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
				     .duration = &o->duration };
	int c, i, j;

	o->strsize = TRACE_STR_DEFAULT;
	while ((c = tool_getopt(t, argc, argv, "hp:L:vZ:SM:tTCn:f:KUd:j",
				longopts, &v)) > 0) {
		switch (c) {
		case 'p':
			if (parse_num(t, "-p", "a process id", optarg,
				      0x7fffffff, &o->pid) ||
			    tool_need_pid(t, o->pid))
				return -EINVAL;
			break;
		case 'L':
			if (parse_num(t, "-L", "a thread id", optarg,
				      0x7fffffff, &o->tid) ||
			    tool_need_pid(t, o->tid))
				return -EINVAL;
			break;
		case 'Z':
			if (parse_num(t, "-Z", "a string size from 1 to 256",
				      optarg, TRACE_STR_MAX, &o->strsize))
				return -EINVAL;
			break;
		case 'S': o->include_self = 1; break;
		case 'M':
			if (parse_num(t, "-M", "a number of events > 0",
				      optarg, ~0UL, &o->max_events))
				return -EINVAL;
			break;
		case 't': o->timestamp = 1; break;
		case 'T': o->time = 1; break;
		case 'C': o->cpu = 1; break;
		case 'n': o->name = optarg; break;
		case 'f': o->msg = optarg; break;
		case 'K': o->kstack = 1; break;
		case 'U': o->ustack = 1; break;
		case 'd': o->disk = optarg; break;
		case TOOL_OPT_FIRST_OWN:
			if (opt_maxactive(t, optarg, &o->maxactive))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	if (o->pid && o->tid)
		return tool_fail(t, -EINVAL,
				 "only one of -p and -L may be given");
	if (o->disk && disk_kdev(o->disk, &o->kdev) < 0)
		return tool_unknown_disk(t, o->disk);
	if (optind >= argc) {
		fputs(usage_line, stderr);
		return tool_fail(t, -EINVAL,
				 "a probe is needed (a kernel function or "
				 "t:CATEGORY:EVENT)");
	}
	if (argc - optind > TRACE_MAX_PROBES)
		return tool_fail(t, -EINVAL,
				 "at most %d probes", TRACE_MAX_PROBES);
	o->probes = calloc(argc - optind, sizeof(*o->probes));
	if (!o->probes)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (i = optind; i < argc; i++) {
		struct trace_probe *p = &o->probes[o->nprobes];
		struct bb_err err = { "" };

		if (trace_spec_parse(argv[i], &p->spec, &err) < 0)
			return tool_fail(t, -EINVAL, "%s", err.msg);
		p->arg = argv[i];
		for (j = 0; j < o->nprobes; j++)
			if (!strcmp(o->probes[j].arg, argv[i]))
				return tool_fail(t, -EINVAL,
						 "'%s' is given twice",
						 argv[i]);
		o->nprobes++;
	}
	return 0;
}
