/* SPDX-License-Identifier: MIT */
/* The scheduler and system modules (issue 30): part of mods.h, which includes it (the rules of loader/mods/ are
 * there); include mods.h, not this file. */
#ifndef BAREBPF_MODS_SCHED_H
#define BAREBPF_MODS_SCHED_H

#include "../../bpf/exitsnoop.h"

/* ---- exitsnoop.c: one line per process exit (sched_process_exit) ---- */
struct exitsnoop_settings {
	uint32_t pid;           /* -p: this tgid only; 0: any */
	int per_thread;         /* --per-thread: every thread's exit */
	int failed;             /* -x: non-zero exit codes only */
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* What the tool learns from exitsnoop_start: where the fields came from. */
struct exitsnoop_info {
	int have_start;         /* task_struct.start_time found: AGE known */
	char start_why[sizeof(((struct bb_err *)0)->msg)];    /* else why not */
};
/* Find the task_struct fields (BTF, --btf, else discovered), open,
 * configure, load exitsnoop.bpf.c, open its ring into *pb, attach. */
int exitsnoop_start(struct tool_ctx *t, const struct exitsnoop_settings *s,
		    struct bb_perfbuf **pb, struct exitsnoop_info *info);
int exitsnoop_stats_fd(struct tool_ctx *t);

/* exitsnoop_disc.c: the discovery of the fields without BTF (the
 * experiment: see there). The snapshot of one exiting task: */
enum { EXITSNOOP_F_EXIT_CODE, EXITSNOOP_F_TGID, EXITSNOOP_F_REAL_PARENT,
       EXITSNOOP_F_START_TIME, EXITSNOOP_NF };
struct exitsnoop_snap {
	unsigned char bytes[EXITSNOOP_WINDOW]; /* its first bytes */
	uint64_t task;            /* its address */
	uint32_t tgid;
	int32_t code;             /* its known exit_code; -1: unknown */
	uint64_t parent;          /* its real_parent's address; 0: unknown */
	uint64_t fork_lo, fork_hi; /* its fork's window, monotonic ns; 0 */
};
/* Pure: the offsets (up to max into offs; the count returned) where every
 * snapshot that knows `field` (EXITSNOOP_F_*) holds it, two at least;
 * psize: the kernel's pointer size. */
int exitsnoop_match(const struct exitsnoop_snap *s, int n, int field,
		    int psize, int *offs, int max);
struct exitsnoop_disc {
	struct tool_ctx *t;
	int raw;                  /* exitsnoop_attach's */
	int done, run_ret;        /* the experiment runs once for all */
	struct bb_err run_err;
	struct exitsnoop_snap snaps[6];
	int nsnaps;
	int ret[EXITSNOOP_NF];
	char why[EXITSNOOP_NF][200];
	struct bb_field field[EXITSNOOP_NF];
};
/* A bb_field_discover_fn (ctx: a struct exitsnoop_disc, zeroed but t
 * and raw). */
int exitsnoop_discover(void *ctx, const char *path, struct bb_field *out,
		       struct bb_err *err);
/*
 * Attach the loaded object's program prog (tp_exit, tp_disc) to
 * sched_process_exit; with raw (where bpf_get_current_task needs the JIT,
 * which is off: riscv64 7.x), a copy of it loaded as a raw tracepoint
 * program, its constant task_arg set. 0, or -errno said.
 */
int exitsnoop_attach(struct tool_ctx *t, const char *prog, int raw);

/* ---- killsnoop.c: one line per kill() ---- */
struct killsnoop_settings {
	int tps;                /* syscall tracepoints, else kprobes */
	const char *fn;         /* the kill syscall function (kprobes) */
	uint32_t tid;           /* the sender's thread; 0: any */
	uint32_t sig;           /* 0xffffffff: any */
	int failed;             /* -x: failed kills only */
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load killsnoop.bpf.c, open its ring into *pb, attach. */
int killsnoop_start(struct tool_ctx *t, const struct killsnoop_settings *s,
		    struct bb_perfbuf **pb);

/* ---- hardirqs.c: time or calls per hard IRQ handler (tracepoints) ---- */
/* Open, configure (mode HARDIRQS_*; unit_div: -d's unit in ns), load
 * and attach hardirqs.bpf.c in t. */
int hardirqs_start(struct tool_ctx *t, int mode, uint64_t unit_div);
/* dist: struct hardirqs_key -> u64 running sum */
int hardirqs_dist_fd(struct tool_ctx *t);

/* ---- oomkill.c: one record per OOM kill (oom:mark_victim, 4.13) ---- */
/* Open, configure, load oomkill.bpf.c, open its ring into *pb (records:
 * struct oomkill_event) and attach. */
int oomkill_start(struct tool_ctx *t, perfbuf_sample_fn on_event, void *ctx,
		  struct bb_perfbuf **pb);

/* ---- runqlat.c: run-queue latency (sched tracepoints) ---- */
struct runqlat_settings {
	uint32_t filter_tgid;   /* 0: every process */
	int by;                 /* RUNQLAT_BY_*: what each histogram is */
	int ms;                 /* milliseconds, not microseconds */
	int keep_sum;           /* every wait's ns into sums (the exporter) */
};
/* Open, configure, load and attach runqlat.bpf.c in t. */
int runqlat_start(struct tool_ctx *t, const struct runqlat_settings *s);
int runqlat_hist_fd(struct tool_ctx *t);
/* sums: an array of one u64, the waits' ns (keep_sum) */
int runqlat_sums_fd(struct tool_ctx *t);

/* ---- cpudist.c: time on (or off) CPU per slice (sched_switch) ---- */
struct cpudist_settings {
	int offcpu;             /* -O: off CPU, between slices */
	uint32_t filter_tgid;   /* 0: every process */
	int by;                 /* RUNQLAT_BY_*: what each histogram is */
	int ms;
};
/* Open, configure, load and attach cpudist.bpf.c in t. */
int cpudist_start(struct tool_ctx *t, const struct cpudist_settings *s);
int cpudist_hist_fd(struct tool_ctx *t);

/* ---- runqlen.c: run queue length, sampled (a perf event per CPU) ---- */
struct runqlen_settings {
	int per_cpu;            /* -C */
	unsigned hz;
};
struct runqlen_run {
	int dist_fd;            /* struct runqlen_key -> u64 samples */
	int ncpus;              /* sampled */
	int software;           /* cpu-clock: no hardware cycles here */
	uint32_t off_nr_running;
	int src;                /* where it came from: enum bb_field_src */
};
/* Find the run queues and rq.nr_running (BTF, --btf, else discovered:
 * -v says which), open, configure, load and attach (tool_detach stops
 * it). */
int runqlen_start(struct tool_ctx *t, const struct runqlen_settings *s,
		  struct runqlen_run *r);

/* ---- softirqs.c: time or runs per softirq vector (tracepoints) ---- */
/* As hardirqs_start, with SOFTIRQS_* modes. */
int softirqs_start(struct tool_ctx *t, int mode, uint64_t unit_div);
/* dist: struct softirqs_key -> u64 running sum */
int softirqs_dist_fd(struct tool_ctx *t);

/* ---- syscount.c: system calls counted, and their time (tracepoints) ---- */
struct syscount_settings {
	uint32_t pid, tid;      /* 0: every process, every thread */
	const char *cgroup;     /* a cgroup v2 directory; NULL: any */
	long nr;                /* the one call counted; -1: all */
	int failed;             /* -x: only calls that returned an error */
	int err;                /* -e: only those that returned -err; 0: any */
	int by_process, latency;
};
/* Open, configure, load and attach syscount.bpf.c in t. */
int syscount_start(struct tool_ctx *t, const struct syscount_settings *s);
/* data: u32 number (tgid with by_process) -> struct syscount_val */
int syscount_data_fd(struct tool_ctx *t);

#endif
