/* SPDX-License-Identifier: MIT */
/* barebpf funccount: count kernel function calls and tracepoint hits. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "outrec.h"
#include "mods.h"
#include "../../bpf/funccount.h"

#define FUNCCOUNT_PROBES 1000

static const struct tool_usage help = { NULL, "funccount" };

struct funccount_opts {
	const char *pattern, *match; /* match: pattern without its t: */
	unsigned long pid, max_probes;
	double interval, duration;
	int timestamp, regexp, json, tp;
	int user; /* LIB:FUNC, p:LIB:FUNC, /path:FUNC (uprobes) */
};

static int parse_pattern(struct tool_ctx *t, struct funccount_opts *o)
{
	const char *s = o->pattern, *c1 = strchr(s, ':');

	o->match = s;
	if (!c1)
		return 0;
	if (!strncmp(s, "p::", 3) && !strchr(s + 3, ':')) {
		o->match = s + 3;
		return 0;
	}
	if (!strncmp(s, "t:", 2) && strchr(s + 2, ':') &&
	    !strchr(strchr(s + 2, ':') + 1, ':')) {
		o->match = s + 2;
		o->tp = 1;
		return 0;
	}
	/* bcc's: LIB:FUNC and p:LIB:FUNC are user-space functions */
	if (!strncmp(s, "p:", 2) && strchr(s + 2, ':'))
		s += 2;
	if (strncmp(s, "u:", 2) && strncmp(s, "t:", 2) &&
	    strchr(s, ':') == strrchr(s, ':') && !o->regexp) {
		o->match = s;
		o->user = 1;
		return 0;
	}
	return tool_fail(t, -EINVAL,
			 "'%s': only kernel functions (func, p::func), "
			 "user-space ones (lib:func, /path:func, as globs, not "
			 "-r) and tracepoints (t:category:event) can be "
			 "counted, no USDT probes", o->pattern);
}

static int parse_args(struct tool_ctx *t, struct funccount_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_INTERVAL,
		TOOL_LONGOPT_TIMESTAMP,
		{ "regexp", no_argument, NULL, 'r' },
		{ "max-probes", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .interval = &o->interval,
		.pid = &o->pid };
	int c;

	o->max_probes = FUNCCOUNT_PROBES;
	while ((c = tool_getopt(t, argc, argv, "hp:i:d:Trjv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'd':
			if (opt_seconds(t, "-d", optarg, &o->duration))
				return -EINVAL;
			break;
		case 'T': o->timestamp = 1; break;
		case 'r': o->regexp = 1; break;
		case TOOL_OPT_FIRST_OWN:
			if (parse_ulong(optarg, &o->max_probes) < 0 ||
			    !o->max_probes ||
			    o->max_probes > FUNCCOUNT_MAX_KEYS - 240)
				return tool_fail(t, -EINVAL,
						 "--max-probes needs a "
						 "number from 1 to %d, not "
						 "'%s'", FUNCCOUNT_MAX_KEYS -
						 240, optarg);
			break;
		}
	}
	if (c < 0)
		return c;
	if (optind != argc - 1) {
		tool_error(t, optind >= argc ? "a pattern is needed" :
			   "only one pattern may be given");
		return tool_see_help(t);
	}
	o->pattern = argv[optind];
	return parse_pattern(t, o);
}

/* What a key counted since the last read (prev), and its name. */
struct fc_row {
	uint64_t key, total, delta;
	char name[128];
};

struct fc_state {
	const struct funccount_opts *o;
	int fd;
	char **names;         /* tracepoints: "category:event" */
	int n;
	int *tp_fds;          /* their perf events: n rows of ncpus */
	int *raw_links;       /* or raw tracepoints (-1: none; or */
	int *raw_progs;       /* FUNCCOUNT_RAW_SYS), their programs */
	int nraw;
	struct funccount_rawsys sys; /* raw_syscalls: sys_enter, sys_exit */
	int ncpus;
	struct bb_ksyms *ks;  /* kallsyms, read at the first kprobe key */
	int ks_failed;
	struct fc_row *prev;  /* the last read, sorted by key */
	int nprev;
};

static int cmp_key(const void *a, const void *b)
{
	const struct fc_row *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* bcc's order: ascending by count (then by name, for a stable output) */
static int cmp_count(const void *a, const void *b)
{
	const struct fc_row *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * A kprobe's key is the address the kprobe hit (regs ip): the function's
 * own, or a few bytes into it (x86: after the int3 or the ftrace call,
 * behind an ENDBR), so the symbol at or below it is the function.
 * A tracepoint's key is its index in names: kernel addresses are not
 * small numbers.
 */
static void key_name(struct fc_state *s, uint64_t key, char *buf,
		     size_t len)
{
	const struct bb_ksym *sym;
	struct bb_err err = { "" };
	uint64_t off;

	if (key < (uint64_t)s->n) {
		const char *fn = s->names[key];

		/* bcc names a user-space function alone */
		if (s->o->user)
			fn = strrchr(fn, ':') + 1;
		snprintf(buf, len, "%s", fn);
		return;
	} else {
		if (!s->ks && !s->ks_failed &&
		    ksyms_load(&s->ks, "/proc/kallsyms", &err) < 0) {
			s->ks_failed = 1;
			fprintf(stderr, "barebpf funccount: %s\n", err.msg);
		}
		sym = s->ks ? ksyms_find(s->ks, key, &off) : NULL;
		if (sym) {
			snprintf(buf, len, "%s", sym->name);
			return;
		}
	}
	snprintf(buf, len, "0x%llx", (unsigned long long)key);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct fc_row *)a)->name,
		      ((const struct fc_row *)b)->name);
}

/* The hits of tracepoint i that its BPF filter let through, all CPUs. */
static uint64_t tp_count(struct fc_state *s, int i)
{
	uint64_t sum = 0, v;
	int c;

	for (c = 0; c < s->ncpus; c++)
		if (s->tp_fds[i * s->ncpus + c] >= 0 &&
		    read(s->tp_fds[i * s->ncpus + c], &v, sizeof(v)) ==
			    sizeof(v))
			sum += v;
	return sum;
}

/*
 * Counting perf events of the tracepoints on every CPU but 0, where the
 * attach made one (with the filter: one per tracepoint runs it for all
 * CPUs). Returns 0 or -1 after printing why.
 */
static int tp_open_counters(struct tool_ctx *t, struct fc_state *s,
			    struct bb_probe *p)
{
	const struct bb_link *l;
	int i, c, fd;

	s->ncpus = bb_ncpus_possible();
	if (s->ncpus < 1)
		s->ncpus = 1;
	s->tp_fds = malloc(s->n * s->ncpus * sizeof(*s->tp_fds));
	if (!s->tp_fds)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (i = 0; i < s->n * s->ncpus; i++)
		s->tp_fds[i] = -1;
	for (i = 0; i < s->n; i++) {
		char cat[128], *ev;
		struct perf_event_attr a;

		if (!p[i].attached)
			continue;
		for (l = t->sess.links; l; l = l->next)
			if (l->kind == BB_PROG_TRACEPOINT &&
			    !strcmp(l->target, s->names[i]))
				s->tp_fds[i * s->ncpus] = l->pfd;
		snprintf(cat, sizeof(cat), "%s", s->names[i]);
		ev = strchr(cat, ':');
		*ev++ = 0;
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_TRACEPOINT;
		a.size = sizeof(a);
		a.config = tracefs_event_id(t->sess.tracefs, cat, ev);
		for (c = 1; c < s->ncpus; c++) {
			/* ENODEV: a possible CPU that is offline */
			fd = sys_perf_event_open(&a, -1, c, -1,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0 && fd != -ENODEV)
				return tool_fail(t, -EINVAL,
						 "cannot count tracepoint "
						 "%s on CPU %d: %s",
						 s->names[i], c,
						 strerror(-fd));
			s->tp_fds[i * s->ncpus + c] = fd;
		}
	}
	return 0;
}

static void tp_close_counters(struct fc_state *s)
{
	int i;

	for (i = 0; s->tp_fds && i < s->n * s->ncpus; i++)
		if (i % s->ncpus && s->tp_fds[i] >= 0)
			close(s->tp_fds[i]);
	free(s->tp_fds);
	s->tp_fds = NULL;
}

/* A row of the table, once: bcc's columns, and the JSON keys (the name
 * may be a user binary's symbol: escaped). */
static const struct out_field row_fields[2] = {
	{ "FUNC", "func", OUT_STR, -36, 0, 0, 0, 0, NULL },
	{ "COUNT", "count", OUT_UINT, 8, 0, 0, 1, 0, NULL },
};

/* Running totals are read, never cleared (a clear loses what a CPU adds
 * between the read and the clear); shown is what each gained. */
static void print_counts(struct fc_state *s)
{
	const struct funccount_opts *o = s->o;
	struct fc_row *cur = NULL, *old, *nr;
	uint64_t key, next, *pk = NULL;
	int n = 0, i, k, first = 1;

	while (bpf_map_get_next_key(s->fd, pk, &next) == 0) {
		nr = realloc(cur, (n + 1) * sizeof(*cur));
		if (!nr)
			break;
		cur = nr;
		key = next;
		pk = &key;
		cur[n].key = next;
		if (bpf_map_lookup_elem(s->fd, &next, &cur[n].total) == 0)
			n++;
	}
	for (i = 0; s->tp_fds && i < s->n; i++) {
		if (s->raw_links && s->raw_links[i] != -1)
			continue; /* counted in the map, key i */
		nr = realloc(cur, (n + 1) * sizeof(*cur));
		if (!nr)
			break;
		cur = nr;
		cur[n].key = i;
		cur[n++].total = tp_count(s, i);
	}
	if (n)
		qsort(cur, n, sizeof(*cur), cmp_key);
	for (i = 0; i < n; i++) {
		old = s->nprev ? bsearch(&cur[i], s->prev, s->nprev,
					 sizeof(*cur), cmp_key) : NULL;
		cur[i].delta = cur[i].total - (old ? old->total : 0);
		key_name(s, cur[i].key, cur[i].name, sizeof(cur[i].name));
	}
	free(s->prev);
	s->prev = NULL;
	s->nprev = 0;
	if (n > 0) {
		s->prev = malloc((size_t)n * sizeof(*cur));
		if (s->prev) {
			memcpy(s->prev, cur, n * sizeof(*cur));
			s->nprev = n;
		}
		/* two keys of one name (two probes of one function) are
		 * one row */
		qsort(cur, n, sizeof(*cur), cmp_name);
		for (i = 1, k = 0; i < n; i++) {
			if (!strcmp(cur[i].name, cur[k].name)) {
				cur[k].delta += cur[i].delta;
				cur[i].delta = 0;
			} else {
				k = i;
			}
		}
		qsort(cur, n, sizeof(*cur), cmp_count);
	}
	if (o->json)
		printf("{\"time\":\"%s\",\"counts\":[", now_hms());
	else {
		putchar('\n');
		if (o->timestamp)
			printf("%-8s\n", now_hms());
		out_head(stdout, row_fields, 2, 0);
	}
	for (i = 0; i < n; i++) {
		struct out_val v[2] = { { .s = cur[i].name },
					{ .u = cur[i].delta } };

		if (!cur[i].delta)
			continue;
		if (!o->json) {
			out_row(stdout, row_fields, 2, 0, v, 0);
			continue;
		}
		/* a row is an object of the line's array */
		if (!first)
			putchar(',');
		out_row_open(stdout, row_fields, 2, 0, v, 1);
		putchar('}');
		first = 0;
	}
	if (o->json)
		printf("]}\n");
	free(cur);
}

/*
 * Raw tracepoints where the kernel has them (4.17): their end waits for
 * nothing, where a tracepoint's last perf event waits for a grace period
 * each (bpf_raw_tp_open says why), 2 minutes for 't:*:*'; the syscalls/
 * events by number through raw_syscalls. The rest (all before 4.17, calls
 * this build does not know) are perf events: p[i].attached says which.
 * Returns 0 or -1 after printing why.
 */
static int tp_attach(struct tool_ctx *t, struct fc_state *s,
		     struct bb_probe *p, uint32_t pid)
{
	struct bb_probe *pp;
	int i, k = 0, ret;

	s->sys = FUNCCOUNT_RAWSYS_NONE;
	s->raw_links = malloc(s->n * sizeof(*s->raw_links));
	s->raw_progs = malloc(s->n * sizeof(*s->raw_progs));
	pp = calloc(s->n, sizeof(*pp));
	if (!s->raw_links || !s->raw_progs || !pp) {
		free(pp);
		return tool_fail(t, -ENOMEM, "out of memory");
	}
	ret = funccount_rawtp_attach(t, s->names, s->n, pid, s->raw_links,
				     s->raw_progs);
	if (ret < 0 && ret != -EOPNOTSUPP) {
		free(pp);
		return -1;
	}
	s->nraw = ret > 0 ? ret : 0;
	if (ret != -EOPNOTSUPP) {
		ret = funccount_rawsys_attach(t, s->names, s->n, pid,
					      s->raw_links, &s->sys);
		if (ret < 0) {
			free(pp);
			return -1;
		}
		s->nraw += ret;
	}
	for (i = 0; i < s->n; i++)
		if (s->raw_links[i] == -1)
			pp[k++] = p[i];
	ret = k ? tool_attach_probes(t, pp, k) : 0;
	for (i = 0, k = 0; i < s->n; i++)
		if (s->raw_links[i] == -1)
			p[i].attached = pp[k++].attached;
	free(pp);
	return ret < 0 ? -1 : 0;
}

/* Misses of the raw tracepoints' programs, then their end: at once. */
static void tp_close_raw(struct tool_ctx *t, struct fc_state *s)
{
	uint64_t miss;

	if (!s->raw_links)
		return;
	miss = funccount_raw_close(s->raw_links, s->raw_progs, s->n, &s->sys);
	if (miss)
		tool_error(t, "warning: %llu event(s) not seen: the kernel "
			   "skipped our programs because another BPF program "
			   "was running on that CPU", (unsigned long long)miss);
	free(s->raw_links);
	free(s->raw_progs);
	s->raw_links = s->raw_progs = NULL;
}

static int funccount_main(int argc, char **argv)
{
	struct funccount_opts o = { 0 };
	struct tool_fails fails = { 0 };
	struct fc_state st = { 0 };
	struct tool_ctx t;
	struct tool_timer tm;
	struct bb_probe *p = NULL;
	struct bb_prog **progs = NULL;
	char **names = NULL;
	double t_attach;
	int ret = 1, n = 0, i, attached = 0;

	tool_init(&t, "funccount");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (o.tp) {
		n = tool_match_tracepoints(&t, o.match, o.regexp, &names);
	} else if (o.user) {
		if (tool_need_uprobes(&t, (int)o.pid) == 0)
			n = tool_match_ufuncs(&t, o.match, (int)o.pid, &names);
	} else if (tool_need_kprobes(&t) == 0) {
		n = tool_match_funcs(&t, o.match, o.regexp, &names);
		if (n > 0)
			n = tool_drop_blacklisted(&t, names, n);
		if (n == 0)
			tool_error(&t, "every function of '%s' is in "
				   "kprobes/blacklist", o.pattern);
	}
	if (n <= 0) {
		/* out: tool_cleanup unmounts the tracefs matching mounted */
		bb_free_strv(names, n);
		names = NULL;
		n = 0;
		goto out;
	}
	if ((unsigned long)n > o.max_probes) {
		tool_error(&t, "'%s' matches %d %s, more than %lu: narrow the "
			   "pattern, or raise the limit with --max-probes %d",
			   o.pattern, n, o.tp ? "tracepoints" : "functions",
			   o.max_probes, n);
		goto out;
	}
	p = calloc(n, sizeof(*p));
	if (!p) {
		tool_error(&t, "out of memory");
		goto out;
	}
	funccount_probes(p, names, n, o.tp);
	if (funccount_load(&t, o.pid) < 0)
		goto out;
	if (o.user && (!(progs = calloc(n, sizeof(*progs))) ||
		       funccount_uprobe_progs(&t, p, n, progs) < 0))
		goto out;
	t.fails = &fails;
	st.names = names;
	st.n = n;
	t_attach = bb_now_mono();
	if (o.tp ? tp_attach(&t, &st, p, o.pid) < 0 :
		   tool_attach_probe_progs(&t, p, progs, n) < 0)
		goto out;
	t_attach = bb_now_mono() - t_attach;
	attached = st.nraw;
	for (i = 0; i < n; i++)
		attached += p[i].attached;
	tool_fails_report(&t, &fails, n);
	if (!attached) {
		tool_error(&t, "nothing of '%s' could be probed", o.pattern);
		goto out;
	}
	if (t.verbose)
		fprintf(stderr, "attached %d probes in %.3f s: %.0f probes/s "
			"(%d through the kprobe PMU, %d through "
			"kprobe_events, %d raw tracepoints)\n", attached,
			t_attach, attached / (t_attach > 0 ? t_attach : 1e-9),
			t.sess.npmu, t.sess.ntracefs, st.nraw);
	if (o.tp && tp_open_counters(&t, &st, p) < 0)
		goto out;
	/* perf adds their __perf_count() value (ns of delay or runtime), not 1 */
	for (i = 0; o.tp && i < n; i++)
		if (p[i].attached &&
		    !strncmp(names[i], "sched:sched_stat_", 17))
			tool_error(&t, "warning: %s counts what the kernel "
				   "weights it by (__perf_count: ns), not hits",
				   names[i]);
	st.o = &o;
	st.fd = funccount_counts_fd(&t);
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing %d functions for \"%s\"... Hit Ctrl-C to end.\n",
		     attached, o.pattern);

	tool_timer_init(&tm, o.interval, o.duration);
	for (;;) {
		int tick = tool_wait(&tm, NULL);

		if (tick == TOOL_TICK_NONE)
			continue;
		print_counts(&st);
		if (tick == TOOL_TICK_LAST)
			break;
	}
	if (!o.json)
		printf("Detaching...\n");
	tool_flush();
	tp_close_raw(&t, &st);
	tp_close_counters(&st);
	tool_detach(&t); /* -v: "detached N probes in X ms" */
	ret = 0;
out:
	tp_close_raw(&t, &st);
	tp_close_counters(&st);
	tool_cleanup(&t);
	bb_free_strv(names, n);
	free(p);
	free(progs);
	free(st.prev);
	ksyms_free(st.ks);
	return ret;
}

const struct tool tool_funccount = {
	"funccount", funccount_main,
	"count kernel/user function calls, tracepoint hits (bcc's options)"
};
