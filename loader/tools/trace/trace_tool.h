/* SPDX-License-Identifier: MIT */
/*
 * What trace.c (options, probes, attaching), trace_user.c (user-space
 * probes) and trace_out.c (its lines, stack maps and losses) share. Not
 * for other files.
 */
#ifndef BAREBPF_TRACE_TOOL_H
#define BAREBPF_TRACE_TOOL_H

#include "tool.h"
#include "trace_spec.h"

/* The sites of a USDT probe that keep its arguments elsewhere than the
 * first site does (spec.uargs): a copy of the program of their own. */
struct trace_usdt_alt {
	int nuargs;
	struct usdt_arg uargs[USDT_MAX_ARGS];
	struct trace_prog prog;
	struct bb_prog *bprog;
};

struct trace_probe {
	const char *arg;
	struct trace_spec spec;
	struct trace_prog prog;
	char **funcs; /* p: and r:, globs expanded; u: its sites */
	int nfuncs;
	struct bb_prog *bprog;
	/* u: site i runs bprog if site_alt[i] is 0, else alt[site_alt[i] -
	 * 1].bprog (site_alt NULL: every site runs bprog) */
	int nalt;
	struct trace_usdt_alt *alt;
	int *site_alt;
};

struct trace_opts {
	unsigned long pid, tid, max_events, strsize, maxactive;
	const char *disk, *name, *msg;
	uint32_t kdev;
	double duration;
	int kstack, ustack, json, time, timestamp, cpu, include_self;
	struct trace_probe *probes;
	int nprobes;
};

/* What the event callback needs. */
struct trace_run {
	const struct trace_opts *o;
	struct bb_ksyms *ks;
	struct bb_usyms *us;
	/* the two stack maps used in turn (trace.h), the one in use, its
	 * stack ids seen, whether it fills, and when it last changed */
	int stacks_fd[2], gen_fd;
	uint32_t gen;
	unsigned char seen[TRACE_STACK_ENTRIES / 8];
	int nseen, collisions, full, drains;
	double switched;
	double t0_mono, t0_real; /* when tracing started */
	uint64_t received, printed;
	int done;
};

/* perfbuf callback: print one event, as text or JSON (r->o->json). An
 * event without a message or stacks takes a fast path to the same bytes;
 * for the tests: trace_fast 0 sends every line through out_row instead,
 * trace_fast_lines counts the lines of the fast path. */
extern int trace_fast;
extern uint64_t trace_fast_lines;
void trace_on_event(void *ctx, int cpu, const void *data, uint32_t size);
void trace_print_header(const struct trace_opts *o);
/* Between drains: once the stack map in use fills, empty the other one and
 * switch to it (at most once a second). */
void trace_stack_maps_turn(struct trace_run *r, struct tool_ctx *t);
/* At exit, after tool_detach_drain: every call was printed, or is counted
 * here (lost in the ring, or skipped by the kernel). */
void trace_report_losses(struct tool_ctx *t, const struct trace_run *r,
			 struct bb_perfbuf *pb);

/* trace_user.c: the uprobe of probe p (LIB:FUNC), or its USDT probe's
 * sites, into p->funcs, counted in *total; 0 or -errno (said). */
int trace_find_user_function(struct tool_ctx *t, struct trace_probe *p,
			     int pid, int *total);
int trace_find_usdt_probe(struct tool_ctx *t, struct trace_probe *p, int pid,
			  int *total);

/* trace_field.c: the place of each VALUE->member of o's probes (from the
 * kernel's BTF or --btf), 0 or -errno (said). */
int trace_field_place(struct tool_ctx *t, struct trace_opts *o);

/* trace_opts.c: argv into o (its probes parsed), 0 or -errno (said). */
#define TRACE_MAX_PROBES 64
int trace_parse_args(struct tool_ctx *t, struct trace_opts *o, int argc,
		     char **argv);

#endif
