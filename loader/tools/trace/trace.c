/* SPDX-License-Identifier: MIT */
/*
 * barebpf trace: bcc's trace, the parts people use. One line per call of
 * a kernel function, its return or a tracepoint, with a message made of
 * its arguments, return value or fields, if a filter holds; kernel (-K)
 * and user (-U) stacks:
 *
 *   PID     TID     COMM            FUNC             -
 *   1712    1712    cat             do_sys_openat2   /etc/passwd
 *
 * Each probe is compiled into the constants of one embedded program
 * (trace_spec.c, trace_prog.c), loaded once per probe.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "trace_tool.h"
#include "mods.h"
#include "usyms.h"

/* one kprobe each: bcc's funccount stops at 1000 too */
#define TRACE_MAX_FUNCS 1000
#define TRACE_PAGES_PER_CPU 64


/* The kernel functions of probe p: its name, or its glob's matches. */
static int find_functions(struct tool_ctx *t, struct trace_probe *p, int pid,
			  int *total)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	char **m;
	int nm;

	if (!tfs)
		return -ENOENT;
	if (p->spec.usdt)
		return trace_find_usdt_probe(t, p, pid, total);
	if (p->spec.lib[0])
		return trace_find_user_function(t, p, pid, total);
	if (trace_spec_is_glob(&p->spec)) {
		nm = kprobe_match(tfs, p->spec.func, &m, &err);
		if (nm < 0)
			return tool_fail(t, -EINVAL, "%s", err.msg);
		if (!nm) {
			free(m);
			return tool_fail(t, -EINVAL,
					 "no kernel function matches '%s' "
					 "in %s/available_filter_functions",
					 p->spec.func, tfs);
		}
	} else {
		m = malloc(sizeof(*m));
		if (!m || !(m[0] = strdup(p->spec.func))) {
			free(m);
			return tool_fail(t, -ENOMEM, "out of memory");
		}
		nm = 1;
	}
	p->funcs = m;
	p->nfuncs = nm;
	*total += nm;
	if (*total > TRACE_MAX_FUNCS)
		return tool_fail(t, -EINVAL,
				 "more than %d functions to probe: narrow "
				 "the patterns", TRACE_MAX_FUNCS);
	return 0;
}

/*
 * The program copies of a USDT probe's other sites: the same record (the
 * output reads every site's with p->prog), only read from elsewhere.
 */
static int compile_alts(struct tool_ctx *t, const struct trace_opts *o,
			struct trace_probe *p)
{
	struct bb_err err = { "" };
	struct trace_spec *sp;
	int i, j;

	if (!p->nalt)
		return 0;
	sp = malloc(sizeof(*sp));
	if (!sp)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (i = 0; i < p->nalt; i++) {
		struct trace_usdt_alt *a = &p->alt[i];
		const struct trace_prog *m = &p->prog, *q = &a->prog;
		int same;

		*sp = p->spec;
		sp->nuargs = a->nuargs;
		memcpy(sp->uargs, a->uargs, sizeof(sp->uargs));
		if (trace_spec_compile(sp, bb_arch_native(), NULL, 0,
				       (int)o->strsize, &a->prog, &err) < 0) {
			free(sp);
			return tool_fail(t, -EINVAL, "%s", err.msg);
		}
		same = q->nslots == m->nslots && q->rec_size == m->rec_size &&
		       !memcmp(q->arg_slot, m->arg_slot, sizeof(q->arg_slot));
		for (j = 0; same && j < m->nslots; j++)
			same = q->slots[j].str == m->slots[j].str &&
			       q->slots[j].stroff == m->slots[j].stroff &&
			       q->slots[j].strsize == m->slots[j].strsize;
		if (!same) {
			free(sp);
			return tool_fail(t, -EOPNOTSUPP, "probe '%s': its sites "
					 "keep two of its values in one place "
					 "at some sites and not at others, "
					 "which one record layout cannot "
					 "hold; not supported", p->arg);
		}
	}
	free(sp);
	return 0;
}

/* Compile probe p against this kernel: its tracepoint's fields. */
static int compile_probe(struct tool_ctx *t, const struct trace_opts *o,
			 struct trace_probe *p)
{
	struct bb_err err = { "" };
	struct bb_tp_field *fields = NULL;
	const char *tfs;
	char rel[256], *text = NULL;
	int n = 0, ret;

	if (p->spec.type == TRACE_TP) {
		tfs = tool_tracefs(t);
		if (!tfs)
			return -ENOENT;
		snprintf(rel, sizeof(rel), "events/%s/%s/format", p->spec.cat,
			 p->spec.event);
		ret = tracefs_read(tfs, rel, &text);
		if (ret < 0)
			return tool_fail(t, -EINVAL,
					 "tracepoint %s:%s not found on "
					 "this kernel (%s/%s: %s)",
					 p->spec.cat, p->spec.event, tfs, rel,
					 strerror(-ret));
		n = tp_format_parse(text, NULL, 0);
		if (n > 0 && (fields = calloc(n, sizeof(*fields))))
			n = tp_format_parse(text, fields, n);
		free(text);
		if (n < 0 || (n > 0 && !fields)) {
			free(fields);
			return tool_fail(t, -EINVAL,
					 "cannot parse %s/%s", tfs, rel);
		}
	}
	ret = trace_spec_compile(&p->spec, bb_arch_native(), fields, n,
				 (int)o->strsize, &p->prog, &err);
	free(fields);
	if (ret < 0)
		return tool_fail(t, -EINVAL, "%s", err.msg);
	return compile_alts(t, o, p);
}

/* trace_prog_consts's names are the object's (tests/unit/test_skel.c
 * checks each): one it lacks is a bug, said once at the end. */
struct const_sink {
	struct tool_ctx *t;
	char missing[32];
};

static void set_const(void *ctx, const char *name, uint64_t v)
{
	struct const_sink *c = ctx;

	if (traceobj_set(c->t, name, v) < 0 && !c->missing[0])
		snprintf(c->missing, sizeof(c->missing), "%s", name);
}

static int set_consts(struct tool_ctx *t, const struct trace_prog *pr, int id)
{
	struct const_sink c = { t, "" };

	/* the program reads $cpu with bpf_get_smp_processor_id (the printed
	 * CPU is the ring's), which answers 0 on every CPU on a kernel whose
	 * JIT inlines it and is off (riscv64 6.12): not a wrong filter */
	if (pr->want_cpu && !bpf_cpu_helper_ok())
		return tool_fail(t, -EOPNOTSUPP, "$cpu: this kernel's "
				 "bpf_get_smp_processor_id() is refused or "
				 "answers 0 on every CPU (a helper its JIT "
				 "inlines, with the JIT off); sysctl net.core.bpf_jit_enable=1, "
				 "or leave $cpu out of the probe (-C prints "
				 "each event's CPU from its ring)");
	trace_prog_consts(pr, id, set_const, &c);
	return c.missing[0] ? tool_fail(t, -ENOENT, "internal: the trace "
					"object has no constant %s",
					c.missing) : 0;
}

/* The kernel's verdict on a probe's copy of the program. */
static int load_probe(struct tool_ctx *t, struct trace_probe *p, int id,
		      int old)
{
	static const enum bb_prog_kind kinds[] = {
		[TRACE_ENTRY] = BB_PROG_KPROBE,
		[TRACE_RETURN] = BB_PROG_KRETPROBE,
		[TRACE_TP] = BB_PROG_TRACEPOINT,
	}, ukinds[] = {
		[TRACE_ENTRY] = BB_PROG_UPROBE,
		[TRACE_RETURN] = BB_PROG_URETPROBE,
		[TRACE_TP] = BB_PROG_TRACEPOINT,
	};
	struct bb_err err = { "" };
	const char *log;
	int i;

	if (old && p->prog.rec_size > TRACE_OLD_EVENT_SIZE)
		return tool_fail(t, -EINVAL, "probe '%s': before 4.11 a record "
				 "is built on the stack, and its strings "
				 "share %d bytes, not %d: print fewer strings, "
				 "or fewer bytes of each (-Z)", p->arg,
				 TRACE_OLD_STR_AREA,
				 (int)(p->prog.rec_size - TRACE_EVENT_FIXED));
	if (set_consts(t, &p->prog, id) < 0)
		return -ENOENT;
	if (traceobj_load_copy(t, (p->spec.lib[0] ? ukinds : kinds)
			       [p->spec.type], &p->bprog, &err) < 0)
		goto fail;
	for (i = 0; i < p->nalt; i++) {
		if (set_consts(t, &p->alt[i].prog, id) < 0)
			return -ENOENT;
		if (traceobj_load_copy(t, BB_PROG_UPROBE, &p->alt[i].bprog,
				       &err) < 0)
			goto fail;
	}
	return 0;
fail:
	log = obj_verifier_log(t->obj);
	if (log && *log)
		fprintf(stderr, "--- verifier log ---\n%s--- end of verifier "
			"log ---\n", log);
	return tool_fail(t, -EINVAL, "probe '%s': %s", p->arg, err.msg);
}

static void say_probe(const struct trace_probe *p, int split)
{
	static const char *const space[] = { "", "kernel", "user", "inline",
					     "__data_loc" };
	const struct trace_prog *pr = &p->prog;
	int i;

	fprintf(stderr, "probe '%s': %d function%s, %d value%s, %d "
		"condition%s, %llu-byte records\n", p->arg, p->nfuncs,
		p->nfuncs == 1 ? "" : "s", pr->nslots,
		pr->nslots == 1 ? "" : "s", p->spec.nterms,
		p->spec.nterms == 1 ? "" : "s",
		(unsigned long long)pr->rec_size);
	for (i = 0; i < pr->nslots; i++) {
		const struct trace_slot_c *s = &pr->slots[i];

		fprintf(stderr, "  value %d: base %llu + %llu, %llu bytes", i,
			(unsigned long long)s->base, (unsigned long long)s->off,
			(unsigned long long)s->size);
		if (s->dref)
			fprintf(stderr, " at the pointer there + %llu",
				(unsigned long long)s->dref - 1);
		if (s->str)
			fprintf(stderr, ", string (%s%s) of %llu bytes",
				space[s->str], s->str > 2 ? "" : split ?
				" memory first" : "/user: bpf_probe_read_str",
				(unsigned long long)s->strsize);
		fputc('\n', stderr);
	}
}

/*
 * Every probe's copy of the program, on each of its functions or its
 * tracepoint; with -d the copies read the disk that block_bio_queue
 * leaves (taskdev.h), so that one goes last.
 */
static int attach_all(struct tool_ctx *t, const struct trace_opts *o,
		      int nfuncs)
{
	const char *needs = o->disk ? "taskdev" : NULL;
	struct bb_probe *p;
	struct bb_prog **progs;
	char (*tp)[160];
	int i, j, n = 0, ntp = 0, ret;

	p = calloc(nfuncs + o->nprobes + 1, sizeof(*p));
	progs = calloc(nfuncs + o->nprobes + 1, sizeof(*progs));
	tp = calloc(o->nprobes, sizeof(*tp));
	if (!p || !progs || !tp) {
		ret = -ENOMEM;
		tool_error(t, "out of memory");
		goto out;
	}
	for (i = 0; i < o->nprobes; i++) {
		struct trace_probe *q = &o->probes[i];

		if (q->spec.type == TRACE_TP) {
			snprintf(tp[ntp], sizeof(tp[ntp]), "%s/%s",
				 q->spec.cat, q->spec.event);
			progs[n] = q->bprog;
			p[n++] = (struct bb_probe){ "trace_kprobe", tp[ntp++],
						    0, NULL, needs, 0, 0 };
		}
		for (j = 0; j < q->nfuncs; j++) {
			progs[n] = q->site_alt && q->site_alt[j] ?
				   q->alt[q->site_alt[j] - 1].bprog : q->bprog;
			p[n++] = (struct bb_probe){ "trace_kprobe",
						    q->funcs[j],
						    (int)o->maxactive, NULL,
						    needs, 0, 0 };
		}
	}
	if (o->disk)
		p[n++] = (struct bb_probe){ "taskdev_bio_queue", NULL, 0,
					    "taskdev", NULL, 0, 0 };
	ret = tool_attach_probe_progs(t, p, progs, n);
	if (ret == -EMFILE || ret == -ENFILE)
		tool_error(t, "%d functions take about %d file descriptors, "
			   "more than this process may open (raise `ulimit "
			   "-n`, or narrow the patterns)", nfuncs,
			   nfuncs + 64);
out:
	free(p);
	free(progs);
	free(tp);
	return ret;
}

/* What every copy shares, and an empty probe for the object's own load. */
static int configure(struct tool_ctx *t, const struct trace_opts *o,
		     int *split, int *old)
{
	/* bcc leaves itself out; in a PID namespace getpid() is not the id
	 * BPF sees, and trace's own calls show */
	struct traceobj_settings ts = { .pid = o->pid, .tid = o->tid,
		.self_tgid = o->include_self ? 0 : getpid(),
		.kstack = o->kstack, .ustack = o->ustack,
		.filter_dev = o->kdev, .disk = o->disk != NULL };
	struct trace_prog none = { 0 };
	int ret;

	*split = traceobj_split_strs();
	if (t->verbose)
		fprintf(stderr, "strings: %s\n", *split ?
			"bpf_probe_read_{user,kernel}_str (5.5+)" :
			"bpf_probe_read_str (before 5.5: reads either space)");
	ts.split = *split;
	/* 4.9, 4.10: helpers take the stack only */
	*old = bpf_helper_map_value_mem() == 0;
	ts.old = *old;
	ret = traceobj_open(t, &ts);
	if (ret < 0)
		return ret;
	return set_consts(t, &none, 0);
}

static int needs_conv(const struct trace_opts *o, char type)
{
	int i, j;

	for (i = 0; i < o->nprobes; i++)
		for (j = 0; j < o->probes[i].spec.nconv; j++)
			if (o->probes[i].spec.conv[j].type == type)
				return 1;
	return 0;
}

/* Kernel symbols name the functions of globs, kernel frames and %K. */
static int load_symbols(struct tool_ctx *t, const struct trace_opts *o,
			struct trace_run *r)
{
	struct bb_err err = { "" };
	int i, globs = 0;

	for (i = 0; i < o->nprobes; i++)
		globs |= o->probes[i].nfuncs > 1 && !o->probes[i].spec.lib[0];
	if ((o->kstack || globs || needs_conv(o, 'K')) &&
	    ksyms_load(&r->ks, "/proc/kallsyms", &err) < 0)
		return tool_fail(t, -EINVAL, "%s", err.msg);
	if (o->ustack || needs_conv(o, 'U')) {
		if (usyms_new(&r->us) < 0)
			return tool_fail(t, -ENOMEM, "out of memory");
		if (o->pid) /* while it surely lives */
			usyms_add_pid(r->us, (int)o->pid);
	}
	return 0;
}

static void free_probes(struct trace_opts *o)
{
	int i;

	for (i = 0; o->probes && i < o->nprobes; i++) {
		bb_free_strv(o->probes[i].funcs, o->probes[i].nfuncs);
		free(o->probes[i].alt);
		free(o->probes[i].site_alt);
	}
	free(o->probes);
}

static int trace_main(int argc, char **argv)
{
	struct trace_opts o;
	struct trace_run r;
	struct tool_ctx t;
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	struct timespec now;
	int ret = 1, i, nfuncs = 0, split, old = 0, kprobes = 0, uprobes = 0;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	r.o = &o;
	tool_init(&t, "trace");
	t.skips_own = 1; /* in its loss report */
	if (trace_parse_args(&t, &o, argc, argv))
		goto out;
	tool_signals();
	for (i = 0; i < o.nprobes; i++) {
		uprobes |= o.probes[i].spec.lib[0] != 0;
		kprobes |= o.probes[i].spec.type != TRACE_TP &&
			   !o.probes[i].spec.lib[0];
	}
	if (kprobes && tool_need_kprobes(&t) < 0)
		goto out;
	if (uprobes && tool_need_uprobes(&t, (int)o.pid) < 0)
		goto out;
	if (trace_field_place(&t, &o) < 0)
		goto out;
	for (i = 0; i < o.nprobes; i++) {
		struct trace_probe *p = &o.probes[i];

		if (p->spec.type != TRACE_TP &&
		    find_functions(&t, p, (int)o.pid, &nfuncs) < 0)
			goto out;
		if (compile_probe(&t, &o, p) < 0)
			goto out;
	}
	if (configure(&t, &o, &split, &old) < 0 || tool_load(&t) < 0)
		goto out;
	for (i = 0; i < o.nprobes; i++) {
		if (load_probe(&t, &o.probes[i], i, old) < 0)
			goto out;
		if (t.verbose)
			say_probe(&o.probes[i], split);
	}
	traceobj_stack_fds(&t, r.stacks_fd, &r.gen_fd);
	r.switched = bb_now_mono();
	if (load_symbols(&t, &o, &r) < 0)
		goto out;
	if (tool_ring(&t, traceobj_events_fd(&t), TRACE_PAGES_PER_CPU,
		      trace_on_event, &r, &pb) < 0)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &now);
	r.t0_mono = now.tv_sec + now.tv_nsec / 1e9;
	clock_gettime(CLOCK_REALTIME, &now);
	r.t0_real = now.tv_sec + now.tv_nsec / 1e9;
	if (attach_all(&t, &o, nfuncs) < 0)
		goto out;

	for (i = 0; i < o.nprobes; i++)
		nfuncs += o.probes[i].spec.type == TRACE_TP;
	/* on stdout as every other tool's (bcc's trace prints only its
	 * header there); -j keeps stdout for JSON */
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing %d probe%s... Hit Ctrl-C to end.\n",
		     nfuncs, nfuncs == 1 ? "" : "s");
	if (!o.json)
		trace_print_header(&o);
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (!r.done) {
		int tick = tool_wait(&tm, pb);

		if (tick == TOOL_TICK_LAST)
			break;
		if (o.kstack || o.ustack)
			trace_stack_maps_turn(&r, &t);
	}

	/* Stop the sources, then take what is still in the rings: a count
	 * of lost records is only written once a later record fits. */
	tool_detach_drain(&t, pb, NULL, NULL);
	tool_flush();
	trace_report_losses(&t, &r, pb);
	ret = 0;
out:
	tool_cleanup(&t);
	perfbuf_close(pb);
	free_probes(&o);
	ksyms_free(r.ks);
	usyms_free(r.us);
	return ret;
}

const struct tool tool_trace = {
	"trace", trace_main,
	"kernel/user functions, USDT, tracepoints: arguments, filters, stacks"
};
