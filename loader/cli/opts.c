/* SPDX-License-Identifier: MIT */
/* The options tools share and their checks (tool.h). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

int tool_opt(struct tool_ctx *t, int c, const struct tool_usage *u,
	     int *json, double *duration)
{
	switch (c) {
	case 'h':
		if (u->head)
			fputs(u->head, stdout);
		if (tool_help(u->name, stdout) < 0) {
			tool_error(t, "no help text '%s' in this binary (out "
				   "of memory, or a build without it)", u->name);
			exit(1);
		}
		exit(0);
	case 'v':
		t->verbose = 1;
		return 0;
	case TOOL_OPT_KVER:
		t->kver_override = optarg;
		return 0;
	case TOOL_OPT_BTF:
		t->btf_file = optarg;
		return 0;
	case 'j':
		if (!json)
			break;
		*json = 1;
		return 0;
	case TOOL_OPT_DURATION:
		if (!duration)
			break;
		return opt_seconds(t, "--duration", optarg, duration);
	}
	if (c == 'j' || c == TOOL_OPT_DURATION)
		tool_error(t, "%s is not an option of %s", c == 'j' ? "-j" :
			   "--duration", t->name);
	return tool_see_help(t);
}

/* After getopt's message (main.c names us "barebpf TOOL" for it) or ours:
 * the whole help would scroll the error away. */
int tool_see_help(const struct tool_ctx *t)
{
	fprintf(stderr, "barebpf %s: see `barebpf %s --help` for the "
		"options\n", t->name, t->name);
	return -EINVAL;
}

/* One option of v's (1: taken, 0: the tool's own, or -EINVAL). */
static int common_opt(struct tool_ctx *t, int c, const struct tool_optv *v)
{
	switch (c) {
	case 'i':
		return v->interval ? opt_seconds(t, "-i", optarg, v->interval) ?:
				     1 : 0;
	case 'p':
		return v->pid ? opt_pid(t, optarg, v->pid) ?: 1 : 0;
	case 'M':
		return v->maxactive ? opt_maxactive(t, optarg, v->maxactive) ?:
				      1 : 0;
	case 'h': case 'v': case 'j': case '?': case ':':
	case TOOL_OPT_KVER: case TOOL_OPT_DURATION: case TOOL_OPT_BTF:
		return tool_opt(t, c, v->usage, v->json, v->duration) ?: 1;
	}
	return 0;
}

int tool_getopt(struct tool_ctx *t, int argc, char **argv,
		const char *shortopts, const struct option *longopts,
		const struct tool_optv *v)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		ret = common_opt(t, c, v);
		if (ret < 0)
			return ret;
		if (!ret)
			return c;
	}
	return 0;
}

int opt_seconds(struct tool_ctx *t, const char *opt, const char *arg,
		double *v)
{
	if (parse_seconds(arg, v) < 0)
		return tool_fail(t, -EINVAL,
				 "%s needs a number of seconds from %g to "
				 "%g, not '%s'", opt, TOOL_SECONDS_MIN,
				 TOOL_SECONDS_MAX, arg);
	return 0;
}

int opt_id(struct tool_ctx *t, const char *opt, const char *what,
	   const char *arg, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v || *v > 0x7fffffff)
		return tool_fail(t, -EINVAL, "%s needs a %s, not '%s'", opt,
				 what, arg);
	return tool_need_pid(t, *v);
}

/*
 * A filter on a process that is not there matches nothing: profile -p,
 * offcputime -p/-t and trace -p on a tracepoint ran and printed nothing,
 * exit 0, where trace -p on a uprobe refused (ESRCH from perf_event_open).
 * kill(pid, 0) finds a thread id too; EPERM means it exists.
 */
int tool_need_pid(struct tool_ctx *t, unsigned long pid)
{
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return tool_fail(t, -ESRCH, "no process %lu: it is not running "
				 "(see `ps -e` or `ps -eL` for thread ids)",
				 pid);
	return 0;
}

int opt_pid(struct tool_ctx *t, const char *arg, unsigned long *v)
{
	return opt_id(t, "-p", "process id", arg, v);
}

int opt_maxactive(struct tool_ctx *t, const char *arg, unsigned long *v)
{
	/* KRETPROBE_MAXACTIVE_MAX in kernel/trace/trace_kprobe.c */
	if (parse_ulong(arg, v) < 0 || !*v || *v > 4096)
		return tool_fail(t, -EINVAL,
				 "--maxactive needs a number from 1 to "
				 "4096, not '%s'", arg);
	return 0;
}

int opt_interval_count(struct tool_ctx *t, int argc, char **argv,
		       double *interval, unsigned long *count)
{
	if (optind < argc) {
		if (parse_seconds(argv[optind], interval) < 0)
			return tool_fail(t, -EINVAL,
					 "interval must be a number of "
					 "seconds from %g to %g, not '%s'",
					 TOOL_SECONDS_MIN, TOOL_SECONDS_MAX,
					 argv[optind]);
		optind++;
	}
	if (optind < argc) {
		if (parse_ulong(argv[optind], count) < 0 || !*count)
			return tool_fail(t, -EINVAL,
					 "count must be a whole number > 0, "
					 "not '%s'", argv[optind]);
		optind++;
	}
	return opt_no_args(t, argc, argv);
}

int opt_no_args(struct tool_ctx *t, int argc, char **argv)
{
	if (optind < argc)
		return tool_fail(t, -EINVAL,
				 "unexpected argument '%s' (see --help)",
				 argv[optind]);
	return 0;
}

int opt_count(struct tool_ctx *t, const char *opt, const char *what,
	      const char *arg, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v)
		return tool_fail(t, -EINVAL,
				 "%s needs a number of %s, 1 or more, not "
				 "'%s'", opt, what, arg);
	return 0;
}

int opt_map_entries(struct tool_ctx *t, const char *opt, const char *what,
		    const char *arg, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v || *v > TOOL_MAP_ENTRIES_MAX)
		return tool_fail(t, -EINVAL,
				 "%s needs a number of %s from 1 to %lu (the "
				 "most a kernel map holds), not '%s'", opt,
				 what, TOOL_MAP_ENTRIES_MAX, arg);
	return 0;
}

int tool_unknown_disk(struct tool_ctx *t, const char *disk)
{
	return tool_fail(t, -EINVAL, "unknown disk '%s': there is no "
			 "/sys/class/block/%s (list disks with `ls /sys/block` "
			 "or `cat /proc/partitions`)", disk, disk);
}

int opt_ports(struct tool_ctx *t, const char *opt, const char *arg,
	      uint16_t *port, int *n, int max)
{
	const char *s = arg;
	char *end;
	unsigned long v;

	*n = 0;
	for (;;) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (end == s || errno || v == 0 || v > 65535 || *s == '-' ||
		    (*end && *end != ','))
			return tool_fail(t, -EINVAL, "%s '%s': '%.*s' is not a "
					 "port; give ports from 1 to 65535, "
					 "separated by commas (%s 80,443)",
					 opt, arg, (int)strcspn(s, ","), s,
					 opt);
		if (*n == max)
			return tool_fail(t, -E2BIG, "%s: at most %d ports",
					 opt, max);
		port[(*n)++] = (uint16_t)v;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

int opt_family(struct tool_ctx *t, int c, int *family)
{
	int want = c == '4' ? 2 : 10;

	if (*family && *family != want) {
		tool_error(t, "-4 and -6 exclude each other: give one, or "
			   "neither for both");
		return tool_see_help(t);
	}
	*family = want;
	return 0;
}

int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int parse_seconds(const char *s, double *v)
{
	const char *end;

	if (!s || bb_parse_double(s, &end, v) < 0 || *end ||
	    !(*v >= TOOL_SECONDS_MIN) || *v > TOOL_SECONDS_MAX)
		return -EINVAL;
	return 0;
}
