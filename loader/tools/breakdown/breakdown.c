/* SPDX-License-Identifier: MIT */
/*
 * barebpf breakdown: for each slow call of a kernel function, how much of
 * its time each of the functions it calls took (the hand-written timing.py
 * of latency-investigation-timing.txt, on 4.15 without BTF).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "breakdown_out.h"

/* -t 0 sends a record of ~430 bytes per call: room for bursts */
#define BD_PAGES 64
/* Returns of functions that sleep (blk_queue_enter on a frozen queue)
 * each hold a kretprobe instance: allow many, as slowbio does. */
#define BD_MAXACTIVE 1024

static const struct tool_usage help = { NULL, "breakdown" };

struct bd_opts {
	int json, kstack;
	const char *threshold, *name;
	unsigned long pid, maxactive;
	uint64_t min_ns;
	double interval, duration;
	struct bd_fmt fmt;
};

struct bd_run {
	const struct bd_opts *o;
	struct bd_agg agg;
	struct bb_ksyms *ks;
	int stacks_fd, ks_failed;
	uint64_t received, short_records;
};

/* ---- the tool ---- */

static int parse_threshold(struct tool_ctx *t, struct bd_opts *o)
{
	static const char sfx[][3] = { "ns", "us", "ms", "s" };
	static const double units[] = { 1, 1e3, 1e6, 1e9 };
	const char *s = o->threshold ? o->threshold : "1ms";
	const char *end = s;
	double v = 0, mul = (double)o->fmt.div;
	size_t i;

	/* not strtod: it brings 12 KiB of libc (see num.c) */
	if (bb_parse_double(s, &end, &v) < 0)
		end = s;
	if (end != s && *end) {
		for (i = 0; i < 4 && strcmp(end, sfx[i]); i++)
			;
		mul = i < 4 ? units[i] : -1;
	}
	if (end == s || mul < 0 || !(v >= 0) || v * mul > 3600e9)
		return tool_fail(t, -EINVAL,
				 "-t needs a time such as 10ms or 1s (up "
				 "to an hour), not '%s'", s);
	o->min_ns = (uint64_t)(v * mul + 0.5);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct bd_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "microseconds", no_argument, NULL, 'u' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "threshold", required_argument, NULL, 't' },
		TOOL_LONGOPT_PID,
		{ "name", required_argument, NULL, 'n' },
		{ "kernel-stack", no_argument, NULL, 'K' },
		TOOL_LONGOPT_INTERVAL,
		TOOL_LONGOPT_MAXACTIVE,
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .interval = &o->interval,
		.pid = &o->pid, .maxactive = &o->maxactive };
	int c;

	o->maxactive = BD_MAXACTIVE;
	o->fmt.div = 1000;
	o->fmt.unit = "us";
	while ((c = tool_getopt(t, argc, argv, "+humt:p:n:Kji:M:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'u': o->fmt.div = 1000; o->fmt.unit = "us"; break;
		case 'm': o->fmt.div = 1000000; o->fmt.unit = "ms"; break;
		case 't': o->threshold = optarg; break;
		case 'n':
			if (!*optarg || strlen(optarg) > 15)
				return tool_fail(t, -EINVAL,
						 "-n needs a task name of "
						 "1 to 15 characters (the "
						 "kernel keeps 15), not '%s'",
						 optarg);
			o->name = optarg;
			break;
		case 'K': o->kstack = 1; break;
		}
	}
	if (c < 0)
		return c;
	if (argc - optind < 2) {
		tool_error(t, "MAIN and at least one CHILD are needed");
		return tool_see_help(t);
	}
	return parse_threshold(t, o);
}

static int has_name(char **v, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/*
 * MAIN (one name, which must exist) and the children (names or globs
 * over available_filter_functions; one that matches nothing is said and
 * skipped) into fns[0..]. Returns how many, or -1 after saying why.
 */
static int find_functions(struct tool_ctx *t, char **pats, int npats,
			  char **fns)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	int n = 0, i, j, k;
	char **m;

	if (!tfs)
		return -ENOENT;
	for (i = 0; i < npats; i++) {
		if (strchr(pats[i], ':'))
			return tool_fail(t, -EINVAL,
					 "'%s': only kernel functions can "
					 "be traced", pats[i]);
		k = kprobe_match(tfs, pats[i], &m, &err);
		if (k < 0)
			return tool_fail(t, -EINVAL, "%s", err.msg);
		if (!i && k != 1) {
			bb_free_strv(m, k);
			return tool_fail(t, -EINVAL,
					 "MAIN '%s' must be one function of "
					 "%s/available_filter_functions",
					 pats[0], tfs);
		}
		if (!k)
			tool_error(t, "warning: '%s': no such function here, "
				   "skipped", pats[i]);
		for (j = 0; j < k; j++) {
			if (has_name(fns, n, m[j])) {
				free(m[j]);
				continue;
			}
			if (n == BD_MAX_FUNCS) {
				bb_free_strv(m + j, k - j);
				free(m);
				return tool_fail(t, -EINVAL,
						 "more than %d functions "
						 "(the per-task stack's bound)"
						 " with '%s'", BD_MAX_FUNCS,
						 pats[i]);
			}
			fns[n++] = m[j];
		}
		free(m);
	}
	if (n < 2)
		return tool_fail(t, -EINVAL, "no CHILD exists here");
	return n;
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct bd_run *r = ctx;
	const struct bd_opts *o = r->o;
	uint64_t ips[BB_MAX_STACK + 1];
	struct bd_task e;
	int nips = 0;

	(void)cpu;
	if (size < sizeof(e)) {
		r->short_records++;
		return;
	}
	memcpy(&e, data, sizeof(e));
	r->received++;
	bd_agg_add(&r->agg, &e, &o->fmt);
	if (o->kstack && e.stackid >= 0) {
		struct bb_err err = { "" };

		if (!r->ks && !r->ks_failed &&
		    ksyms_load(&r->ks, "/proc/kallsyms", &err) < 0) {
			r->ks_failed = 1;
			fprintf(stderr, "barebpf breakdown: %s\n", err.msg);
		}
		nips = stack_add_entry_ret(ips, stack_read(r->stacks_fd,
			e.stackid, ips, BB_MAX_STACK), BB_MAX_STACK + 1,
			e.entry_ret);
	}
	if (o->json) {
		bd_print_record_json(stdout, &e, now_hms(), &o->fmt, r->ks,
				     ips, r->ks ? nips : 0);
		return;
	}
	bd_print_record(stdout, &e, now_hms(), &o->fmt);
	if (o->kstack && r->ks && nips > 0)
		stack_print_kernel(stdout, r->ks, ips, nips, "        ");
	else if (o->kstack)
		printf("        [stack lost]\n");
	tool_output_failed();
}

static uint64_t stat_of(struct tool_ctx *t, uint32_t k)
{
	uint64_t v = 0;

	bpf_map_sum_percpu_u64(breakdown_stats_fd(t), k, &v);
	return v;
}

static void print_summary(struct tool_ctx *t, struct bd_run *r,
			  uint64_t *prev_calls)
{
	uint64_t calls = stat_of(t, BD_MAIN_CALLS);

	if (r->o->json)
		bd_print_agg_json(stdout, &r->agg, calls - *prev_calls,
				  r->o->min_ns, &r->o->fmt);
	else
		bd_print_agg(stdout, &r->agg, calls - *prev_calls,
			     r->o->min_ns, &r->o->fmt);
	*prev_calls = calls;
	memset(&r->agg, 0, sizeof(r->agg));
	fflush(stdout);
}

/* After tool_detach: what was lost or dropped, on stderr. */
static void report(struct tool_ctx *t, struct bd_run *r,
		   struct bb_perfbuf *pb)
{
	uint64_t lost;
	uint64_t dropped = stat_of(t, BD_DROPPED), stale = stat_of(t, BD_STALE);
	uint64_t noroom = stat_of(t, BD_NO_ROOM);

	lost = tool_ring_lost_fd(t, pb, breakdown_stats_fd(t), BD_EMITTED,
				 r->received, NULL);
	/* records lost (the reader fell behind) or short (a mismatched
	 * build); calls dropped for a missed return (raise -M); MAIN calls
	 * untimed for want of room (10240 tasks at once) */
	if (lost || dropped || stale || noroom || r->short_records)
		tool_error(t, "warning: %llu records lost, %llu short; %llu "
			   "child and %llu MAIN calls dropped (returns missed:"
			   " raise -M); %llu MAIN calls untimed (no room)",
			   (unsigned long long)lost,
			   (unsigned long long)r->short_records,
			   (unsigned long long)dropped,
			   (unsigned long long)stale,
			   (unsigned long long)noroom);
}

static int breakdown_main(int argc, char **argv)
{
	struct bd_opts o = { 0 };
	struct bd_run r = { 0 };
	struct breakdown_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	char *fns[BD_MAX_FUNCS];
	struct tool_ctx t;
	struct tool_timer tm;
	uint64_t prev_calls = 0;
	int ret = 1, n = 0, i;

	tool_init(&t, "breakdown");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	if (tool_need_kprobes(&t) < 0)
		goto out;
	n = find_functions(&t, argv + optind, argc - optind, fns);
	if (n < 0) {
		n = 0;
		goto out;
	}
	o.fmt.names = (const char *const *)fns;
	o.fmt.nfn = n;
	s.min_ns = o.min_ns;
	s.pid = o.pid;
	s.comm = o.name;
	s.kstack = o.kstack;
	s.maxactive = (int)o.maxactive;
	s.fns = fns;
	s.n = n;
	s.pages = BD_PAGES;
	s.on_event = on_event;
	s.ctx = &r;
	if (breakdown_start(&t, &s, &pb) < 0)
		goto out;
	r.stacks_fd = breakdown_stacks_fd(&t);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing %s and %d "
		     "children, calls of at least %.3f ms... Hit Ctrl-C to "
		     "end.\n", fns[0], n - 1, o.min_ns / 1e6);
	if (!o.json)
		printf("%-8s %-16s %-7s %-7s %9s(%s) MAIN\n", "TIME", "COMM",
		       "PID", "TID", "DUR", o.fmt.unit);
	fflush(stdout);
	tool_timer_init(&tm, o.interval, o.duration);
	for (;;) {
		int tick = tool_wait(&tm, pb);

		if (tick == TOOL_TICK_INTERVAL)
			print_summary(&t, &r, &prev_calls);
		if (tick == TOOL_TICK_LAST)
			break;
	}
	tool_detach_drain(&t, pb, NULL, NULL);
	print_summary(&t, &r, &prev_calls);
	report(&t, &r, pb);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	ksyms_free(r.ks);
	for (i = 0; i < n; i++)
		free(fns[i]);
	return ret;
}

const struct tool tool_breakdown = {
	"breakdown", breakdown_main,
	"where a slow kernel call's time went, child by child (kprobes)"
};
