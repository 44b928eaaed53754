/* SPDX-License-Identifier: MIT */
/*
 * barebpf breakdown: for each slow call of a kernel function, how much of
 * its time each of the functions it calls took (the hand-written timing.py
 * of latency-investigation-timing.txt, on 4.15 without BTF).
 */
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "../../bpf/breakdown.h"

EMBEDDED_OBJ(breakdown);

/* -t 0 sends a record of ~430 bytes per call: room for bursts */
#define BD_PAGES 64
/* Returns of functions that sleep (blk_queue_enter on a frozen queue)
 * each hold a kretprobe instance: allow many, as slowbio does. */
#define BD_MAXACTIVE 1024

static const char usage[] =
"usage: barebpf breakdown [-h] [-m | -u] [-t THRESHOLD] [-p PID] [-n NAME]\n"
"         [-K] [-j] [-i SECS] [--duration SECS] [-M MAXACTIVE] MAIN CHILD...\n"
"\n"
"For each call of kernel function MAIN of at least THRESHOLD (1ms), where\n"
"its time went: each CHILD (a glob; missing ones skipped) called while\n"
"MAIN runs on the task, as a tree, longest first; [self]: MAIN outside\n"
"its children. A summary at exit (and every -i). At most 8 functions.\n"
"Recursion times the outermost call; a missed return is dropped, counted.\n"
"\n"
"  -u, -m                times in us (default) or ms\n"
"  -t, --threshold T     10ms, 500us, 1s, ... (bare: the unit of -u/-m)\n"
"  -p, --pid PID         only this process\n"
"  -n, --name NAME       only tasks of this name (/proc/PID/comm)\n"
"  -K, --kernel-stack    MAIN's kernel stack with each record\n"
"  -j, --json            JSON lines\n"
"  -i, --interval SECS   a summary every SECS seconds\n"
"      --duration SECS   exit after SECS seconds\n"
"  -M, --maxactive N     kretprobe instances per function (1024)\n"
"      --kern-version V  override the kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf breakdown -m -t 10ms submit_bio_noacct __bio_queue_enter \\\n"
"      blk_mq_submit_bio blk_mq_get_new_requests    # slow submissions\n"
"  barebpf breakdown -t 5ms -p 1234 vfs_read 'ext4_*read*'\n";
static const struct tool_usage help = { NULL, usage };

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

/* ---- pure: order, aggregate, text ---- */

static void order_level(const struct bd_child *c, int nfn, int parent,
			int level, int *ids, int *depth, int *n, char *done)
{
	for (;;) {
		int i, best = -1;

		for (i = 1; i < nfn; i++) {
			int p = (int)c[i].parent;
			int root = p == BD_MIXED || p == 0 || p >= nfn ||
				   !c[p].calls || p == i;

			if (done[i] || !c[i].calls ||
			    (parent ? p != parent || root : !root))
				continue;
			if (best < 0 || c[i].total > c[best].total)
				best = i;
		}
		if (best < 0)
			return;
		done[best] = 1;
		ids[*n] = best;
		depth[(*n)++] = level;
		if (level < BD_MAX_FUNCS)
			order_level(c, nfn, best, level + 1, ids, depth, n,
				    done);
	}
}

int bd_order(const struct bd_child *c, int nfn, int *ids, int *depth)
{
	char done[BD_MAX_FUNCS] = { 0 };
	int n = 0, i;

	if (nfn > BD_MAX_FUNCS)
		nfn = BD_MAX_FUNCS;
	order_level(c, nfn, 0, 1, ids, depth, &n, done);
	/* children of a cycle of parents (a calls b here, b calls a there:
	 * each shows as the other's) have no root: list them at the top */
	for (i = 1; i < nfn; i++)
		if (c[i].calls && !done[i]) {
			done[i] = 1;
			ids[n] = i;
			depth[n++] = 1;
		}
	return n;
}

static int slot_of(uint64_t v)
{
	int s = 0;

	while (v > 1 && s < BD_SLOTS - 1) {
		v >>= 1;
		s++;
	}
	return s;
}

void bd_agg_add(struct bd_agg *a, const struct bd_task *t,
		const struct bd_fmt *f)
{
	int i;

	a->slow++;
	a->dur += t->dur;
	a->self += t->self;
	a->drops += t->drops;
	for (i = 1; i < f->nfn && i < BD_MAX_FUNCS; i++) {
		const struct bd_child *c = &t->c[i];

		if (!c->calls)
			continue;
		if (!a->calls[i])
			a->parent[i] = c->parent;
		else if (a->parent[i] != c->parent)
			a->parent[i] = BD_MIXED;
		a->calls[i] += c->calls;
		a->total[i] += c->total;
		a->hist[i][slot_of(c->total / f->div)]++;
	}
}

static void put_time(FILE *f, uint64_t ns, const struct bd_fmt *fm, int w)
{
	if (fm->div >= 1000000)
		fprintf(f, "%*.3f", w, (double)ns / fm->div);
	else
		fprintf(f, "%*llu", w, (unsigned long long)(ns / fm->div));
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static const char *fn_name(const struct bd_fmt *fm, unsigned int id)
{
	return id < (unsigned int)fm->nfn ? fm->names[id] : "?";
}

/* The child table of a record (max: per call) or of a summary (no max). */
static void print_table(FILE *f, const struct bd_child *c, uint64_t dur,
			uint64_t self, const struct bd_fmt *fm, int with_max,
			const char *indent)
{
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;
	char head[40];

	n = bd_order(c, fm->nfn, ids, depth);
	fprintf(f, "%s%-32s %8s ", indent, "FUNCTION", "CALLS");
	snprintf(head, sizeof(head), "TOTAL(%s)", fm->unit);
	fprintf(f, "%12s %6s", head, "SHARE");
	if (with_max) {
		snprintf(head, sizeof(head), "MAX(%s)", fm->unit);
		fprintf(f, " %12s", head);
	}
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		const struct bd_child *k = &c[ids[i]];

		fprintf(f, "%s%*s%-*s %8u ", indent, 2 * (depth[i] - 1), "",
			32 - 2 * (depth[i] - 1), fn_name(fm, ids[i]), k->calls);
		put_time(f, k->total, fm, 12);
		fprintf(f, " %5.1f%%", share(k->total, dur));
		if (with_max) {
			fputc(' ', f);
			put_time(f, k->max, fm, 12);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s%-32s %8s ", indent, "[self]", "");
	put_time(f, self, fm, 12);
	fprintf(f, " %5.1f%%\n", share(self, dur));
}

static void comm_of(const struct bd_task *t, char *comm)
{
	memcpy(comm, t->comm, sizeof(t->comm));
	comm[sizeof(t->comm)] = 0;
}

void bd_print_record(FILE *f, const struct bd_task *t, const char *hms,
		     const struct bd_fmt *fm)
{
	char comm[sizeof(t->comm) + 1];

	comm_of(t, comm);
	fprintf(f, "%-8s %-16s %-7u %-7u ", hms, comm, t->pid, t->tid);
	put_time(f, t->dur, fm, 12);
	fprintf(f, " %s\n", fm->names[0]);
	print_table(f, t->c, t->dur, t->self, fm, 1, "    ");
	if (t->drops)
		fprintf(f, "    (%u child calls dropped: their returns were "
			"missed)\n", t->drops);
}

static void json_time(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%.3f", key, (double)ns / 1000);
}

static void json_children(FILE *f, const struct bd_child *c, uint64_t dur,
			  const struct bd_fmt *fm, int with_max,
			  const uint64_t (*hist)[BD_SLOTS])
{
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;

	n = bd_order(c, fm->nfn, ids, depth);
	fputs(",\"children\":[", f);
	for (i = 0; i < n; i++) {
		const struct bd_child *k = &c[ids[i]];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, fn_name(fm, ids[i]));
		fputs(",\"parent\":", f);
		if (k->parent == BD_MIXED)
			fputs("null", f);
		else
			json_str(f, fn_name(fm, k->parent));
		fprintf(f, ",\"calls\":%u", k->calls);
		json_time(f, "total_us", k->total);
		fprintf(f, ",\"share\":%.4f", share(k->total, dur) / 100);
		if (with_max)
			json_time(f, "max_us", k->max);
		if (hist) {
			fputs(",\"hist\":", f);
			hist_json_log2(f, hist[ids[i]], BD_SLOTS,
				       fm->div >= 1000000 ? "msecs" : "usecs");
		}
		fputc('}', f);
	}
	fputc(']', f);
}

void bd_print_record_json(FILE *f, const struct bd_task *t, const char *hms,
			  const struct bd_fmt *fm, const struct bb_ksyms *ks,
			  const uint64_t *ips, int nips)
{
	char comm[sizeof(t->comm) + 1];

	comm_of(t, comm);
	fprintf(f, "{\"time\":\"%s\",\"comm\":", hms);
	json_str(f, comm);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"main\":", t->pid, t->tid);
	json_str(f, fm->names[0]);
	json_time(f, "dur_us", t->dur);
	json_time(f, "self_us", t->self);
	fprintf(f, ",\"drops\":%u", t->drops);
	json_children(f, t->c, t->dur, fm, 1, NULL);
	if (ks && nips > 0) {
		fputs(",\"kstack\":", f);
		stack_json_kernel(f, ks, ips, nips);
	}
	fputs("}\n", f);
}

/* The summary's children as bd_child, for the shared table code. */
static void agg_children(const struct bd_agg *a, struct bd_child *c)
{
	int i;

	memset(c, 0, sizeof(*c) * BD_MAX_FUNCS);
	for (i = 1; i < BD_MAX_FUNCS; i++) {
		c[i].calls = (unsigned int)a->calls[i];
		c[i].total = a->total[i];
		c[i].parent = a->parent[i];
	}
}

void bd_print_agg(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		  uint64_t min_ns, const struct bd_fmt *fm)
{
	struct bd_child c[BD_MAX_FUNCS];
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n, i;
	char unit[8];

	fprintf(f, "\n%s: %llu calls, %llu of them at least ", fm->names[0],
		(unsigned long long)main_calls, (unsigned long long)a->slow);
	put_time(f, min_ns, fm, 0);
	fprintf(f, " %s", fm->unit);
	if (a->slow) {
		fputs(", in all ", f);
		put_time(f, a->dur, fm, 0);
		fprintf(f, " %s", fm->unit);
	}
	fputs("\n", f);
	if (!a->slow)
		return;
	agg_children(a, c);
	print_table(f, c, a->dur, a->self, fm, 0, "");
	if (a->drops)
		fprintf(f, "(%llu child calls dropped: their returns were "
			"missed)\n", (unsigned long long)a->drops);
	snprintf(unit, sizeof(unit), "%ssecs", fm->div >= 1000000 ? "m" : "u");
	n = bd_order(c, fm->nfn, ids, depth);
	for (i = 0; i < n; i++) {
		fprintf(f, "\n%s: time per slow %s call\n", fn_name(fm, ids[i]),
			fm->names[0]);
		hist_print_log2(f, a->hist[ids[i]], BD_SLOTS, unit);
	}
}

void bd_print_agg_json(FILE *f, const struct bd_agg *a, uint64_t main_calls,
		       uint64_t min_ns, const struct bd_fmt *fm)
{
	struct bd_child c[BD_MAX_FUNCS];

	agg_children(a, c);
	fputs("{\"summary\":true,\"main\":", f);
	json_str(f, fm->names[0]);
	fprintf(f, ",\"main_calls\":%llu,\"slow\":%llu",
		(unsigned long long)main_calls, (unsigned long long)a->slow);
	json_time(f, "threshold_us", min_ns);
	json_time(f, "dur_us", a->dur);
	json_time(f, "self_us", a->self);
	fprintf(f, ",\"drops\":%llu", (unsigned long long)a->drops);
	json_children(f, c, a->dur, fm, 0, a->hist);
	fputs("}\n", f);
}

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
		return tool_error(t, "-t needs a time such as 10ms or 1s (up "
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
		{ "pid", required_argument, NULL, 'p' },
		{ "name", required_argument, NULL, 'n' },
		{ "kernel-stack", no_argument, NULL, 'K' },
		{ "interval", required_argument, NULL, 'i' },
		{ "maxactive", required_argument, NULL, 'M' },
		{ 0 }
	};
	int c;

	o->maxactive = BD_MAXACTIVE;
	o->fmt.div = 1000;
	o->fmt.unit = "us";
	while ((c = getopt_long(argc, argv, "+humt:p:n:Kji:M:v", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'u': o->fmt.div = 1000; o->fmt.unit = "us"; break;
		case 'm': o->fmt.div = 1000000; o->fmt.unit = "ms"; break;
		case 't': o->threshold = optarg; break;
		case 'p':
			if (parse_ulong(optarg, &o->pid) < 0 || !o->pid ||
			    o->pid > 0x7fffffff)
				return tool_error(t, "-p needs a process id, "
						  "not '%s'", optarg);
			break;
		case 'n':
			if (!*optarg || strlen(optarg) > 15)
				return tool_error(t, "-n needs a task name of "
						  "1 to 15 characters (the "
						  "kernel keeps 15), not '%s'",
						  optarg);
			o->name = optarg;
			break;
		case 'K': o->kstack = 1; break;
		case 'i':
			if (opt_seconds(t, "-i", optarg, &o->interval))
				return 1;
			break;
		case 'M':
			if (opt_maxactive(t, optarg, &o->maxactive))
				return 1;
			break;
		default:
			if (tool_opt(t, c, &help, &o->json, &o->duration))
				return 1;
			break;
		}
	}
	if (argc - optind < 2) {
		fputs(usage, stderr);
		return tool_error(t, "MAIN and at least one CHILD are needed");
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
		return -1;
	for (i = 0; i < npats; i++) {
		if (strchr(pats[i], ':'))
			return tool_error(t, "'%s': only kernel functions can "
					  "be traced", pats[i]), -1;
		k = kprobe_match(tfs, pats[i], &m, &err);
		if (k < 0)
			return tool_error(t, "%s", err.msg), -1;
		if (!i && k != 1) {
			bb_free_strv(m, k);
			return tool_error(t, "MAIN '%s' must be one function of "
					  "%s/available_filter_functions",
					  pats[0], tfs), -1;
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
				return tool_error(t, "more than %d functions "
						  "(the per-task stack's bound)"
						  " with '%s'", BD_MAX_FUNCS,
						  pats[i]), -1;
			}
			fns[n++] = m[j];
		}
		free(m);
	}
	if (n < 2)
		return tool_error(t, "no CHILD exists here"), -1;
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

	bpf_map_sum_percpu_u64(obj_map(t->obj, "stats")->fd, k, &v);
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
	uint64_t emitted = stat_of(t, BD_EMITTED), lost;
	uint64_t dropped = stat_of(t, BD_DROPPED), stale = stat_of(t, BD_STALE);
	uint64_t noroom = stat_of(t, BD_NO_ROOM);

	lost = emitted > r->received ? emitted - r->received : 0;
	if (perfbuf_lost(pb) > lost)
		lost = perfbuf_lost(pb);
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

static int fill_jmp(struct tool_ctx *t)
{
	int fd = obj_map(t->obj, "jmp")->fd;
	uint32_t k;

	for (k = 0; k < 2; k++) {
		int pfd = obj_prog(t->obj, k ? "bd_return" : "bd_entry")->fd;
		int r = bpf_map_update_elem(fd, &k, &pfd, 0);

		if (r < 0)
			return tool_error(t, "cannot fill the program array: "
					  "%s", strerror(-r)), -1;
	}
	return 0;
}

static int breakdown_main(int argc, char **argv)
{
	static char pn[BD_MAX_FUNCS][2][8];
	struct bd_opts o = { 0 };
	struct bd_run r = { 0 };
	struct bb_probe p[2 * BD_MAX_FUNCS];
	struct bb_perfbuf *pb = NULL;
	char *fns[BD_MAX_FUNCS];
	struct tool_ctx t;
	struct tool_timer tm;
	uint64_t comm[2] = { 0 }, prev_calls = 0;
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
	if (tool_open(&t, EMBEDDED_ARGS(breakdown)) < 0)
		goto out;
	if (o.name)
		memcpy(comm, o.name, strlen(o.name)); /* little-endian words */
	obj_set_const(t.obj, "min_ns", o.min_ns);
	obj_set_const(t.obj, "filter_tgid", o.pid);
	obj_set_const(t.obj, "comm0", comm[0]);
	obj_set_const(t.obj, "comm1", comm[1]);
	obj_set_const(t.obj, "kstack", o.kstack);
	if (tool_load(&t) < 0 || fill_jmp(&t) < 0)
		goto out;
	r.stacks_fd = obj_map(t.obj, "stacks")->fd;
	/* every return before any entry (the attach rule): an entry opens
	 * a frame that only its return closes */
	for (i = 0; i < n; i++) {
		snprintf(pn[i][0], sizeof(pn[i][0]), "bd_e%d", i);
		snprintf(pn[i][1], sizeof(pn[i][1]), "bd_r%d", i);
		p[2 * i] = (struct bb_probe){ pn[i][0], fns[i], 0, "frame",
					      NULL, 0, 0 };
		p[2 * i + 1] = (struct bb_probe){ pn[i][1], fns[i],
						  (int)o.maxactive, NULL,
						  "frame", 0, 0 };
	}
	if (tool_ring(&t, "events", BD_PAGES, on_event, &r, &pb) < 0 ||
	    tool_attach_probes(&t, p, 2 * n) < 0)
		goto out;
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
	tool_detach(&t);
	perfbuf_poll(pb, 0);
	poll(NULL, 0, 50); /* a program still running on another CPU */
	perfbuf_poll(pb, 0);
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
