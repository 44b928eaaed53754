/* SPDX-License-Identifier: MIT */
/* barebpf funclatency: kernel function latency histograms, bcc's options. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "../../bpf/funclatency.h"

/* Each function costs a kprobe, a kretprobe and two file descriptors
 * (the limit is raised as far as allowed); attaching takes time too. */
#define FUNCLAT_MAX_FUNCS 4000

static const struct tool_usage help = { NULL, "funclatency" };

struct funclat_opts {
	const char *pattern, *match; /* match: without a p: */
	int user;                    /* a user-space function (uprobes) */
	unsigned long pid, maxactive;
	double interval, duration;
	int timestamp, regexp, json;
	unsigned long unit_div;
	const char *unit;
};

static int parse_args(struct tool_ctx *t, struct funclat_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_INTERVAL,
		TOOL_LONGOPT_TIMESTAMP,
		{ "microseconds", no_argument, NULL, 'u' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "regexp", no_argument, NULL, 'r' },
		TOOL_LONGOPT_MAXACTIVE,
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .interval = &o->interval,
		.pid = &o->pid, .maxactive = &o->maxactive };
	int c;

	o->maxactive = 128;
	o->unit_div = 1;
	o->unit = "nsecs";
	while ((c = tool_getopt(t, argc, argv, "hp:i:d:TumrjM:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'd':
			if (opt_seconds(t, "-d", optarg, &o->duration))
				return -EINVAL;
			break;
		case 'T': o->timestamp = 1; break;
		case 'u': o->unit_div = 1000; o->unit = "usecs"; break;
		case 'm': o->unit_div = 1000000; o->unit = "msecs"; break;
		case 'r': o->regexp = 1; break;
		}
	}
	if (c < 0)
		return c;
	if (optind != argc - 1) {
		tool_error(t, optind >= argc ? "a function pattern is "
			   "needed" : "only one pattern may be given");
		return tool_see_help(t);
	}
	o->pattern = argv[optind];
	/* bcc's: LIB:FUNC, p:LIB:FUNC and /path:FUNC are user-space */
	o->match = o->pattern;
	if (!strncmp(o->match, "p:", 2) && strchr(o->match + 2, ':'))
		o->match += 2;
	o->user = strchr(o->match, ':') != NULL;
	if (o->user && (o->regexp || strchr(o->match, ':') !=
					     strrchr(o->match, ':')))
		return tool_fail(t, -EINVAL,
				 "'%s': a function is FUNC (the kernel's), "
				 "LIB:FUNC or /PATH:FUNC (globs, not -r)",
				 o->pattern);
	return 0;
}

/* The functions to probe, at most FUNCLAT_MAX_FUNCS. */
static int find_functions(struct tool_ctx *t, const struct funclat_opts *o,
			  char ***names)
{
	int n = o->user ? tool_match_ufuncs(t, o->match, (int)o->pid, names)
			: tool_match_funcs(t, o->pattern, o->regexp, names);

	if (n > FUNCLAT_MAX_FUNCS) {
		bb_free_strv(*names, n);
		return tool_fail(t, -EINVAL,
				 "'%s' matches %d functions, more than %d: "
				 "narrow the pattern", o->pattern, n,
				 FUNCLAT_MAX_FUNCS);
	}
	return n;
}

/*
 * The stats are running totals, never reset: a reset after the read would
 * lose what a CPU added in between. Shown is what they gained since the
 * last read (prev).
 */
static void print_stats(const struct funclat_opts *o, int fd, uint64_t *prev)
{
	uint64_t v[FUNCLAT_NSTATS] = { 0 }, now;
	uint64_t total, count;
	uint32_t k;

	for (k = 0; k < FUNCLAT_NSTATS; k++) {
		if (bpf_map_lookup_elem(fd, &k, &now) < 0)
			continue;
		v[k] = now - prev[k];
		prev[k] = now;
	}
	total = v[FUNCLAT_TOTAL];
	count = v[FUNCLAT_COUNT];
	if (o->json) {
		printf("{\"time\":\"%s\",\"hist\":", now_hms());
		hist_json_log2(stdout, v, FUNCLAT_SLOTS, o->unit);
		printf(",\"total\":%llu,\"count\":%llu,\"avg\":%llu}\n",
		       (unsigned long long)total, (unsigned long long)count,
		       (unsigned long long)(count ? total / count : 0));
	} else {
		if (o->timestamp)
			printf("%-8s\n", now_hms());
		hist_print_log2(stdout, v, FUNCLAT_SLOTS, o->unit);
		if (count)
			printf("\navg = %llu %s, total: %llu %s, count: %llu\n",
			       (unsigned long long)(total / count), o->unit,
			       (unsigned long long)total, o->unit,
			       (unsigned long long)count);
	}
	fflush(stdout);
}

/*
 * Both probes of a function or neither: its return first (the attach rule
 * of loader/probe/session.c, function by function here: an entry without its
 * return probe would fill the start map with calls that never end), then
 * its entry; if the entry fails, the
 * return goes too. With one function a failure is an error; with a glob,
 * some matches (notrace, blacklisted) refuse: they are counted and said.
 * Out of file descriptors, the rest cannot follow: stop and say how many
 * it takes. Returns the number of functions traced, or -errno.
 */
static int attach_all(struct tool_ctx *t, const struct funclat_opts *o,
		      char **names, int n, struct bb_prog *ent,
		      struct bb_prog *ret)
{
	struct tool_fails f = { 0 };
	struct bb_err err = { "" };
	long nofile = bb_raise_nofile();
	int i, r, attached = 0, quiet = n > 1 && !t->verbose;

	if (t->verbose)
		fprintf(stderr, "file descriptor limit %ld; %d functions need "
			"about %d\n", nofile, n, 2 * n + 32);
	for (i = 0; i < n && !bb_stop; i++) {
		r = session_attach(&t->sess, ret, names[i], (int)o->maxactive,
				   &err);
		if (r == 0) {
			r = session_attach(&t->sess, ent, names[i], 0, &err);
			if (r < 0)
				session_detach_newest(&t->sess);
		}
		if (t->verbose && t->sess.pmu_note[0])
			fprintf(stderr, "%s\n", t->sess.pmu_note);
		t->sess.pmu_note[0] = 0;
		if (r == 0) {
			attached++;
			continue;
		}
		if (!quiet || r == -EMFILE || r == -ENFILE)
			tool_error(t, "%s", err.msg);
		if (n == 1)
			return r;
		if (r == -EMFILE || r == -ENFILE) {
			tool_error(t, "%d of %d functions could not be probed: "
				   "%d take about %d file descriptors and the "
				   "limit is %ld (raise it with `ulimit -n %d`, "
				   "or narrow the pattern)", n - attached, n, n,
				   2 * n + 32, nofile, 2 * n + 32);
			break;
		}
		tool_fails_count(&f, r, &err);
	}
	tool_fails_report(t, &f, n);
	if (!attached && !bb_stop)
		tool_error(t, "no function of '%s' could be probed", o->pattern);
	return bb_stop ? -EINTR : attached;
}

static int funclatency_main(int argc, char **argv)
{
	struct funclat_opts o = { 0 };
	struct tool_ctx t;
	char **names = NULL;
	uint64_t prev[FUNCLAT_NSTATS] = { 0 };
	struct tool_timer tm;
	struct bb_prog *ent, *rp;
	int ret = 1, n = 0, attached = 0, stats_fd;

	tool_init(&t, "funclatency");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (o.user ? tool_need_uprobes(&t, (int)o.pid) < 0 :
		     tool_need_kprobes(&t) < 0)
		goto out;
	n = find_functions(&t, &o, &names);
	if (n < 0) {
		n = 0;
		names = NULL; /* freed by find_functions */
		goto out;
	}
	if (funclatency_load(&t, o.pid, o.unit_div, &ent, &rp) < 0 ||
	    (o.user && funclatency_user_progs(&t, &ent, &rp) < 0))
		goto out;
	attached = attach_all(&t, &o, names, n, ent, rp);
	if (attached <= 0)
		goto out;
	stats_fd = funclatency_stats_fd(&t);
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n",
		     attached, o.pattern);

	tool_timer_init(&tm, o.interval, o.duration);
	for (;;) {
		int tick = tool_wait(&tm, NULL);

		if (tick == TOOL_TICK_NONE)
			continue;
		if (!o.json)
			putchar('\n');
		print_stats(&o, stats_fd, prev);
		if (tick == TOOL_TICK_LAST)
			break;
	}
	if (!o.json)
		printf("Detaching...\n");
	ret = 0;
out:
	tool_cleanup(&t);
	bb_free_strv(names, n);
	return ret;
}

const struct tool tool_funclatency = {
	"funclatency", funclatency_main,
	"kernel/user function latency histogram (bcc's options)"
};
