/* SPDX-License-Identifier: MIT */
/*
 * What every tool shares: the straight line
 *   options -> open -> configure -> load -> attach -> loop -> cleanup
 * with errors printed once, here, and cleanup on every exit path.
 *
 * loader/cli/ is the frame every tool stands on: main and the tool table
 * (main.c), this header's skeleton (common.c, attach.c, funcs.c, opts.c),
 * the output layer (output.h), and the pieces several tools share
 * (per-disk histograms, disk names). It includes the library's headers and
 * nothing of loader/mods/ or loader/tools/. loader/mods/ holds one module
 * per embedded BPF object (mods.h), on the frame; loader/tools/ holds one
 * file per tool, or a folder loader/tools/NAME/ for a tool of several
 * files (its files prefixed with its name; the exporter's HTTP server and
 * Prometheus text sit in its folder), each including cli/ and mods/
 * headers; no tool includes another tool. The library never includes
 * anything of these folders. docs/ARCHITECTURE.md draws the whole.
 */
#ifndef BAREBPF_TOOL_H
#define BAREBPF_TOOL_H

#include <getopt.h>
#include "barebpf.h"
#include "kernel.h"
#include "user.h"
#include "obj.h"
#include "probe.h"
#include "output.h"
#include "skel.h"

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
	void *objbuf;         /* the decoded object, which obj points into */
	struct bb_session sess;
	const char *kver_override;
	const char *btf_file; /* --btf FILE (TOOL_LONGOPT_BTF), or NULL */
	int verbose;
	double t0;            /* when the tool started (bb_now_mono) */
	int ring_fds[8];      /* perf event arrays with an open ring */
	int nrings;
	int skips_own;        /* the tool reports recursion skips itself */
	struct tool_fails *fails; /* see tool_attach_probes; NULL: none */
	/* the format of the last tracepoint tool_tp_offset read: a tool
	 * asks for several fields of one event in a row */
	char tp_event[128];
	struct bb_tp_field *tp_fields;
	int tp_nfields;
};

/* Why probes of a pattern could not be attached, by error. */
struct tool_fails {
	int refused, missing, ambiguous, other;
	char other_msg[512];
};
void tool_fails_count(struct tool_fails *f, int ret, const struct bb_err *err);
/* "N of M functions could not be probed: ..." if any did not. */
void tool_fails_report(struct tool_ctx *t, const struct tool_fails *f, int n);
/*
 * The kernel functions matching pattern: a glob over
 * available_filter_functions (/proc/kallsyms where that cannot be read),
 * with regexp an extended regular expression over all of them; a plain
 * name is looked up in one pass that stops where it is found. Sorted,
 * freed with bb_free_strv. Returns how many (> 0), or -errno after printing
 * why (none matched, a bad regex).
 */
int tool_match_funcs(struct tool_ctx *t, const char *pattern, int regexp,
		     char ***names);
/*
 * Drop the names in debugfs kprobes/blacklist from names (freed); returns
 * how many are left. Where debugfs is not mounted nothing is dropped (it
 * is not mounted for this: the kernel refuses those all the same).
 */
int tool_drop_blacklisted(struct tool_ctx *t, char **names, int n);
/* The functions of "LIB:GLOB" (a library's short name or a path, for
 * process pid if > 0), as "LIB:NAME" each: sorted, no name twice, freed
 * with bb_free_strv. Returns how many (> 0), or -errno after printing why. */
int tool_match_ufuncs(struct tool_ctx *t, const char *spec, int pid,
		      char ***names);
/* The tracepoints of available_events ("category:event" a line) matching
 * pattern (a glob, or with regexp an extended regular expression); sorted,
 * freed with bb_free_strv. Returns how many, or -errno after printing
 * why. */
int tool_match_tracepoints(struct tool_ctx *t, const char *pattern,
			   int regexp, char ***out);

#define EMBEDDED_OBJ(n)                                                        \
	extern const unsigned char bpfobj_##n[], bpfobj_##n##_end[]
#define EMBEDDED_ARGS(n) bpfobj_##n, (size_t)(bpfobj_##n##_end - bpfobj_##n)

/* Print "barebpf <tool>: message" to stderr. */
void tool_error(const struct tool_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same, returning err (-errno): `return tool_fail(t, -ENOENT, ...)`.
 * Frame and tool functions return 0 or -errno; only a tool's *_main
 * turns a failure into an exit status (1). */
int tool_fail(const struct tool_ctx *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tool_init(struct tool_ctx *t, const char *name);
/*
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE set bb_stop (and
 * bb_stop_signal, the first of them); system calls are not restarted.
 */
void tool_signals(void);
/* set by those signals, or a failed write */
extern volatile int bb_stop;
/* how many of those signals but SIGPIPE came so far */
int tool_stop_signals(void);
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
/* The same for uprobes (the uprobe PMU or uprobe_events); pid > 0: the
 * session's uprobes fire in that process only (struct bb_session.upid). */
int tool_need_uprobes(struct tool_ctx *t, int pid);
/* Open an embedded object: [buf, buf + len) as asm/embed.S stores it,
 * compressed (decoded here; freed by tool_cleanup), bound to the names of
 * its generated header (skel.h; NULL: none), which it must have. */
int tool_open(struct tool_ctx *t, const struct bb_skel *skel,
	      const void *buf, size_t len);
/*
 * The names of names[0..n-1] that this kernel has (kprobe_funcs_find: one
 * pass, stopping once the first `need` are found), sorted, as fn_pick_*
 * take them; *avail is freed with bb_free_strv. Returns how many, or -errno
 * after printing why.
 */
int tool_funcs(struct tool_ctx *t, int source, const char *const *names,
	       int n, int need, char ***avail);
/*
 * System call probes (execsnoop, opensnoop). tool_syscall_tracepoints:
 * does this kernel have events/syscalls/sys_enter_<sys> (no where it was
 * built without CONFIG_FTRACE_SYSCALLS, or BAREBPF_SYSCALLS=kprobes asks
 * for the kprobe fallback)? tool_syscall_funcs: the kernel function of
 * each of sys[0..n-1], first with the wrapper prefixes of loader/arch.c
 * (4.17+/4.19+/5.19+), then SyS_, sys_ (4.x), into out[i] ("" where none).
 * tool_syscall_way: the choice every syscall tool makes: 1 for the
 * tracepoints of sys[0], else 0 with the kprobes' functions in out (out[0]
 * found). -errno after printing why.
 */
int tool_syscall_tracepoints(struct tool_ctx *t, const char *sys);
int tool_syscall_way(struct tool_ctx *t, const char *const *sys, int n,
		     char (*out)[64]);
int tool_syscall_funcs(struct tool_ctx *t, const char *const *sys, int n,
		       char (*out)[64]);
/* The offset of a tracepoint field (>= 0), or -errno after printing why. */
int tool_tp_offset(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field);
/* The whole field (offset, size, type): 0, or -errno after printing why. */
int tool_tp_field(struct tool_ctx *t, const char *cat, const char *event,
		  const char *field, struct bb_tp_field *out);
/* No option needs the disk of a bio (taskdev.h): its program is not
 * loaded and its map (16,384 preallocated LRU entries, 2 ms) holds one. */
void tool_taskdev_unused(struct tool_ctx *t);
/* Raise RLIMIT_MEMLOCK, find kern_version, load; print the verifier log. */
int tool_load(struct tool_ctx *t);
/*
 * Attach a tool's probes in the order probe_order gives (closers first:
 * see loader/probe/session.c), after checking that every perf event array
 * of the object has its ring open (tool_ring): a record sent while the
 * rest is still being attached must find a reader. Stops at the first
 * failure of a probe that is not optional (its message printed); an
 * optional one that fails leaves its `attached` 0, its message printed, or
 * with t->fails set counted there (printed with -v) for a summary. Out of
 * file descriptors, the rest cannot follow: it stops and says so. -EINTR
 * once a signal asked to stop.
 */
int tool_attach_probes(struct tool_ctx *t, struct bb_probe *p, int n);
/* The same, where progs[i] (if not NULL) is the program of p[i], instead
 * of p[i].prog by name: copies of a program (obj_prog_load_copy). */
int tool_attach_probe_progs(struct tool_ctx *t, struct bb_probe *p,
			    struct bb_prog **progs, int n);
/* Open the ring of perf event array map_fd (before any attach); a
 * negative map_fd (a map not created) is an error said. */
int tool_ring(struct tool_ctx *t, int map_fd, int pages,
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
 * (before a tool drains its rings for the last time). Idempotent. Where
 * that waits on the kernel: progress on a terminal after a second, and a
 * stop signal meanwhile leaves the rest to a child in the background
 * (session_detach_fork), said on stderr. */
void tool_detach(struct tool_ctx *t);
/*
 * The end of a tool with an output ring: tool_detach, then drain the ring
 * twice around a wait for a program still running on another CPU (close()
 * waits for it only where ours was the tracepoint's last perf event): an
 * RCU grace period (bb_rcu_wait), else a 50 ms pause (a poll, which the
 * signal that stopped us does not cut short), so that every record counted
 * as sent has arrived or is lost. drain(ctx, pb) reads the ring the tool's
 * way; NULL: perfbuf_poll(pb, 0).
 */
void tool_detach_drain(struct tool_ctx *t, struct bb_perfbuf *pb,
		       void (*drain)(void *ctx, struct bb_perfbuf *pb),
		       void *ctx);
/*
 * Records lost on the way, after tool_detach_drain: sent (counter idx of
 * the object's per-CPU array `map`) but not received, or what the kernel
 * counted as dropped where that is more (it shows a loss only once a later
 * record lands on that ring). A count that cannot be read is said, and
 * then only the kernel's counts. *sent: the count (received if unread).
 */
uint64_t tool_ring_lost(struct tool_ctx *t, struct bb_perfbuf *pb,
			const char *map, uint32_t idx, uint64_t received,
			uint64_t *sent);
/* The same with the counters' map by fd (a program module's NAME_stats_fd;
 * negative: not there, said as unread). */
uint64_t tool_ring_lost_fd(struct tool_ctx *t, struct bb_perfbuf *pb,
			   int stats_fd, uint32_t idx, uint64_t received,
			   uint64_t *sent);
/* "warning: N event(s) not counted" if the object's drops map (bb_helpers.h)
 * counted any: tool_detach says it. */
void tool_report_drops(struct tool_ctx *t);
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
/* The first tick next + k * interval (k >= 1) after now, in one step:
 * never a loop that a late wake-up or a tiny interval keeps turning. */
double tool_next_tick(double next, double interval, double now);
/*
 * The loop of the interval tools: fn(ctx) at the end of each interval and,
 * with TOOL_EVERY_PARTIAL, once more for the interval a signal or the
 * duration cut short (bcc's hardirqs, softirqs and cachestat print it;
 * vfsstat does not); stops after count calls (0: no limit).
 */
enum { TOOL_EVERY_PARTIAL = 1 };
void tool_every(double interval, double duration, unsigned long count,
		int flags, void (*fn)(void *ctx), void *ctx);

/*
 * The options every tool takes, one table and one handler: -h/--help,
 * -v/--verbose, --kern-version V, and where the tool has them -j/--json
 * and --duration SECONDS. A tool's getopt_long table starts with
 * TOOL_LONGOPTS (its short options string lists h, v and j itself), and
 * its switch hands what it does not know to tool_opt:
 *
 *	default:
 *		if (tool_opt(t, c, &usage, &o->json, &o->duration))
 *			return -EINVAL;
 *
 * json or duration NULL: the tool has no such option. bcc spells the
 * duration `-d SECONDS` in funclatency, funccount and opensnoop; those
 * tools handle their -d themselves, into the same field.
 */
enum { TOOL_OPT_DURATION = 1, TOOL_OPT_KVER = 2, TOOL_OPT_FIRST_OWN = 3 };
/* --btf FILE, for the tools that read kernel structures (the field-offset
 * layer, fieldoff.h): a value no tool's own option takes */
enum { TOOL_OPT_BTF = 0x4254 };
#define TOOL_LONGOPT_BTF { "btf", required_argument, NULL, TOOL_OPT_BTF }
#define TOOL_LONGOPTS                                                          \
	{ "help", no_argument, NULL, 'h' },                                    \
	{ "verbose", no_argument, NULL, 'v' },                                 \
	{ "json", no_argument, NULL, 'j' },                                    \
	{ "kern-version", required_argument, NULL, TOOL_OPT_KVER },            \
	{ "duration", required_argument, NULL, TOOL_OPT_DURATION }
/* What -h prints to stdout: head, if any, then the help text `name`
 * (loader/tools/.../NAME.help, help.c); a bad option prints one line
 * pointing to --help (tool_see_help). */
struct tool_usage {
	const char *head, *name;
};
/* help.c: the help texts, decoded (malloc'd, NUL-terminated; NULL without
 * memory); the text `name` in them (not NUL-terminated: *text_len bytes),
 * or NULL; text `name` written to f: 0, -ENOENT (no such text), -ENOMEM
 * or -EIO. */
char *tool_help_blob(size_t *len);
const char *tool_help_find(const char *blob, size_t len, const char *name,
			   size_t *text_len);
int tool_help(const char *name, FILE *f);
/* c is getopt's answer, optarg its argument: -h prints the usage and
 * exits 0; returns 0 for an option it took, -EINVAL after saying
 * what is wrong. */
int tool_opt(struct tool_ctx *t, int c, const struct tool_usage *u,
	     int *json, double *duration);
/* "barebpf TOOL: see `barebpf TOOL --help` ...": after a usage error;
 * returns -EINVAL. */
int tool_see_help(const struct tool_ctx *t);

/*
 * The options several tools take, each where the tool gives its field
 * (NULL: the tool has no such option, or its own meaning for the letter):
 * tool_opt's, -i/--interval SECONDS, -p/--pid PID, -M/--maxactive N.
 */
struct tool_optv {
	const struct tool_usage *usage;
	int *json;
	double *duration;
	double *interval;
	unsigned long *pid, *maxactive;
};
/*
 * getopt_long over argv, taking the options of v: the next option that is
 * the tool's own (> 0), 0 at the end, or -EINVAL after saying what is
 * wrong (-h prints the usage and exits 0). A tool's loop:
 *
 *	while ((c = tool_getopt(t, argc, argv, "hTj", longopts, &v)) > 0)
 *		switch (c) { case 'T': ... }
 *	if (c < 0)
 *		return c;
 */
int tool_getopt(struct tool_ctx *t, int argc, char **argv,
		const char *shortopts, const struct option *longopts,
		const struct tool_optv *v);
#define TOOL_LONGOPT_PID { "pid", required_argument, NULL, 'p' }
#define TOOL_LONGOPT_INTERVAL { "interval", required_argument, NULL, 'i' }
#define TOOL_LONGOPT_MAXACTIVE { "maxactive", required_argument, NULL, 'M' }
#define TOOL_LONGOPT_TIMESTAMP { "timestamp", no_argument, NULL, 'T' }

/*
 * Option values every tool checks the same way. Each returns 0, or prints
 * what is wrong and returns -EINVAL.
 */
int opt_seconds(struct tool_ctx *t, const char *opt, const char *arg,
		double *v);
int opt_maxactive(struct tool_ctx *t, const char *arg, unsigned long *v);
/* -p PID: a number, of a process or thread that is running (below). */
int opt_pid(struct tool_ctx *t, const char *arg, unsigned long *v);
/* The same for another option: "-t needs a thread id, not '-5'". */
int opt_id(struct tool_ctx *t, const char *opt, const char *what,
	   const char *arg, unsigned long *v);
/* 0 if process (or thread) pid exists, or -ESRCH after saying it does
 * not: every tool that filters on a pid refuses one that is not there. */
int tool_need_pid(struct tool_ctx *t, unsigned long pid);
/* The positional [interval [count]] from argv[optind]; nothing after. */
int opt_interval_count(struct tool_ctx *t, int argc, char **argv,
		       double *interval, unsigned long *count);
/* Nothing left in argv after the options. */
int opt_no_args(struct tool_ctx *t, int argc, char **argv);
/* A count of what (e.g. -M's "execs"), 1 or more. */
int opt_count(struct tool_ctx *t, const char *opt, const char *what,
	      const char *arg, unsigned long *v);
/*
 * A map's number of entries, 1 to TOOL_MAP_ENTRIES_MAX: max_entries is 32
 * bits (4294967297 became 1), and a hash or stack map's buckets are
 * rounded up to a power of two, which the kernel refuses above 2^31
 * (E2BIG: kernel/bpf/hashtab.c, stackmap.c).
 */
#define TOOL_MAP_ENTRIES_MAX (1UL << 31)
int opt_map_entries(struct tool_ctx *t, const char *opt, const char *what,
		    const char *arg, unsigned long *v);
/* A list of ports, "80,443" (each 1 to 65535, at most max), into port[]
 * and *n: 0, or -errno after saying why (-L, -D, -P of the network
 * tools). */
int opt_ports(struct tool_ctx *t, const char *opt, const char *arg,
	      uint16_t *port, int *n, int max);
/* -4 or -6 (getopt's c) into *family (AF_INET 2, AF_INET6 10): 0, or
 * -EINVAL after saying they exclude each other (tcpdrop, tcpretrans,
 * tcpaccept, tcpconnect). */
int opt_family(struct tool_ctx *t, int c, int *family);
/* "unknown disk 'X': ..." */
int tool_unknown_disk(struct tool_ctx *t, const char *disk);

/* Argument helpers: 0 on success, -EINVAL otherwise. */
int parse_ulong(const char *s, unsigned long *v);
/*
 * Seconds from TOOL_SECONDS_MIN to TOOL_SECONDS_MAX: an interval of 1e-12
 * spun a CPU printing (a tool cannot honour less than a millisecond: a
 * tick of the loop, a poll, costs about that much), and 1e-300 made the
 * next tick the same double as the last one (issue 32).
 */
#define TOOL_SECONDS_MIN 0.001
#define TOOL_SECONDS_MAX 1e9
int parse_seconds(const char *s, double *v);
/* "HH:MM:SS" local time. */
const char *now_hms(void);

/* Every embedded BPF object (generated: build/embed_list.c). */
struct embedded_obj {
	const char *name;
	const unsigned char *buf, *end; /* [buf, end), compressed (lz.c) */
};
extern const struct embedded_obj embedded_objs[];

#endif
