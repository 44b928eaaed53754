/* SPDX-License-Identifier: MIT */
/*
 * What every tool shares: the straight line
 *   options -> open -> configure -> load -> attach -> loop -> cleanup
 * with errors printed once, here, and cleanup on every exit path.
 */
#ifndef BAREBPF_TOOL_H
#define BAREBPF_TOOL_H

#include "barebpf.h"

#define BB_VERSION "0.1.0"

struct tool {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

/* One run of a tool: its object, its probes, its name for messages. */
struct tool_ctx {
	const char *name;
	struct bb_obj *obj;
	struct bb_session sess;
	const char *kver_override;
	int verbose;
	double t0;            /* when the tool started (now_mono) */
	int ring_fds[8];      /* perf event arrays with an open ring */
	int nrings;
	/* the format of the last tracepoint tool_tp_offset read: a tool
	 * asks for several fields of one event in a row */
	char tp_event[128];
	struct bb_tp_field *tp_fields;
	int tp_nfields;
};

#define EMBEDDED_OBJ(n)                                                        \
	extern const unsigned char bpfobj_##n[], bpfobj_##n##_end[]
#define EMBEDDED_ARGS(n) bpfobj_##n, (size_t)(bpfobj_##n##_end - bpfobj_##n)

/* Print "barebpf <tool>: message" to stderr. Returns 1 (an exit code). */
int tool_error(const struct tool_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tool_init(struct tool_ctx *t, const char *name);
/*
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE set bb_stop (and
 * bb_stop_signal, the first of them); system calls are not restarted.
 */
void tool_signals(void);
extern volatile int bb_stop_signal;
/* Before anything is printed: a stdout or stderr left non-blocking by
 * someone else is replaced by a blocking one (see common.c). */
void tool_stdio_init(void);
/* Flush stdout; on a write error, remember it and set bb_stop. 0 or
 * -errno. tool_wait does this on every tick. */
int tool_flush(void);
/* The same without the flush: for output callbacks, after printing. */
int tool_output_failed(void);
/* The exit status of a tool that returned ret, after its cleanup: dies of
 * SIGPIPE if its output pipe was closed; says so and fails if output was
 * lost to another write error. */
int tool_exit(const char *name, int ret);
/* tracefs path (found or mounted once per run); NULL after printing why. */
const char *tool_tracefs(struct tool_ctx *t);
/* Fail with a plain message if this kernel has no kprobe_events; also
 * removes probes left by barebpf processes that were killed. */
int tool_need_kprobes(struct tool_ctx *t);
int tool_open(struct tool_ctx *t, const void *buf, size_t len);
/*
 * The names of names[0..n-1] that this kernel has (kprobe_funcs_find: one
 * pass, stopping once the first `need` are found), sorted, as fn_pick_*
 * take them; *avail is freed with bb_free_strv. Returns how many, or -1
 * after printing why.
 */
int tool_funcs(struct tool_ctx *t, int source, const char *const *names,
	       int n, int need, char ***avail);
/* Set the offset of a tracepoint field as constant `cname`. */
int tool_tp_offset(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field, const char *cname);
/* Raise RLIMIT_MEMLOCK, find kern_version, load; print the verifier log. */
int tool_load(struct tool_ctx *t);
int tool_attach(struct tool_ctx *t, const char *prog, const char *target,
		int maxactive);
/*
 * Attach a tool's probes in the order probe_order gives (closers first:
 * see loader/attach.c), after checking that every perf event array of the
 * object has its ring open (tool_ring): a record sent while the rest is
 * still being attached must find a reader. Stops at the first failure of
 * a probe that is not optional (its message printed); an optional one
 * that fails leaves its `attached` 0. -EINTR once a signal asked to stop.
 */
int tool_attach_probes(struct tool_ctx *t, struct bb_probe *p, int n);
/* Open the ring of perf event array `map` (before any attach). */
int tool_ring(struct tool_ctx *t, const char *map, int pages,
	      perfbuf_sample_fn fn, void *ctx, struct bb_perfbuf **pb);
/* Say that perf event array map_fd is knowingly left without a reader. */
void tool_ring_unread(struct tool_ctx *t, int map_fd);
/*
 * The "Tracing ..." line, on f, flushed; with -v first "attached N probes
 * in X ms" on stderr: the time from the tool's start to this line.
 */
void tool_tracing(struct tool_ctx *t, FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Sleep up to secs (fractions allowed); returns early once bb_stop is set. */
void tool_sleep(double secs);
/* Report kretprobe misses, then detach everything: the programs stop
 * (before a tool drains its rings for the last time). Idempotent. */
void tool_detach(struct tool_ctx *t);
/* tool_detach, then close the object. */
void tool_cleanup(struct tool_ctx *t);

/*
 * The output loop of every tool: print each `interval` seconds (0: only at
 * the end), stop after `duration` seconds (0: never), or on a signal.
 * tool_wait sleeps, or polls pb if it is not NULL (delivering its events),
 * until something is due, and says what.
 */
struct tool_timer {
	double interval, next, end;
};
enum { TOOL_TICK_NONE, TOOL_TICK_INTERVAL, TOOL_TICK_LAST };
void tool_timer_init(struct tool_timer *tm, double interval, double duration);
int tool_wait(struct tool_timer *tm, struct bb_perfbuf *pb);

/*
 * Option values every tool checks the same way. Each returns 0, or prints
 * what is wrong and returns 1 (the exit code).
 */
int opt_seconds(struct tool_ctx *t, const char *opt, const char *arg,
		double *v);
int opt_maxactive(struct tool_ctx *t, const char *arg, unsigned long *v);
/* The positional [interval [count]] from argv[optind]; nothing after. */
int opt_interval_count(struct tool_ctx *t, int argc, char **argv,
		       double *interval, unsigned long *count);
/* "unknown disk 'X': ..." */
int tool_unknown_disk(struct tool_ctx *t, const char *disk);

/* Argument helpers: 0 on success, -EINVAL otherwise. */
int parse_ulong(const char *s, unsigned long *v);
int parse_seconds(const char *s, double *v);
/* Monotonic seconds. */
double now_mono(void);
/* "HH:MM:SS" local time. */
const char *now_hms(void);

/* Every embedded BPF object (generated: build/embed_list.c). */
struct embedded_obj {
	const char *name;
	const unsigned char *buf, *end; /* the object is [buf, end) */
};
extern const struct embedded_obj embedded_objs[];

extern const struct tool tool_biolatency, tool_funclatency, tool_features,
	tool_run;
extern const struct tool tool_trace;
extern const struct tool tool_freeze, tool_qenter;
extern const struct tool tool_slowbio, tool_biosnoop;
extern const struct tool tool_exporter;

#endif
