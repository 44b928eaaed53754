/* SPDX-License-Identifier: MIT */
/*
 * loader/probe/: attaching programs, the public part: a session records
 * every link it makes (kprobes, uprobes, tracepoints, sampling events)
 * and takes them all down again; the attach order of a tool's declared
 * probes; what this kernel can attach (PMUs, kprobe_events, the functions
 * it has). probe_internal.h is the folder's own (and the tests').
 * Library rules (barebpf.h).
 */
#ifndef BAREBPF_PROBE_H
#define BAREBPF_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"
#include "obj.h"

/* ---- attaching (loader/probe/, see probe.h) ---- */
struct bb_link {
	enum bb_prog_kind kind;
	int pfd;              /* perf event fd */
	int prog_fd;          /* the program attached (owned by its object) */
	int pmu;              /* a kprobe of the perf kprobe PMU (no event) */
	char event[112];      /* "group/name" we added to kprobe_events, or "" */
	char target[128];
	char *path;           /* uprobes: the file (malloc'ed), NULL else */
	uint64_t off;         /* uprobes: the file offset probed */
	uint64_t ref_ctr;     /* uprobes: a USDT semaphore's file offset,
				 raised by the kernel (4.20+), or 0 */
	int upid;             /* uprobes: only this process if > 0 */
	struct bb_link *next;
};

struct bb_session {
	char tracefs[256];    /* "" until first needed */
	char group[48];       /* "barebpf_<pid>_<pid namespace inode>" */
	unsigned long pidns;  /* inode of our pid namespace, 0 if unknown */
	int nprobes;          /* counter for unique event names */
	struct bb_link *links;
	int mounted;          /* BB_MOUNTED_* if we mounted tracefs, else 0 */
	/* the perf kprobe PMU (kprobe.c): type, -1 if not used, -2 unknown */
	int pmu_type;
	int pmu_retbit;       /* config bit that makes a kretprobe */
	int stats_fd;         /* BPF_ENABLE_STATS, held while PMU kretprobes
				 need run counts (see kprobe.c); -1 if none */
	int npmu, ntracefs;   /* kprobes attached each way */
	int upmu_type;        /* the uprobe PMU: as pmu_type */
	int upmu_retbit;
	int nupmu, nutracefs; /* uprobes attached each way */
	int upid;             /* uprobes of session_attach: only in this
				 process, its libraries first, if > 0 */
	/* why the last kprobe went through kprobe_events although the PMU
	 * exists (for -v); the tool clears it after saying it */
	char pmu_note[320];
};

void session_init(struct bb_session *s);
/*
 * Fill s->tracefs once (tracefs_find), remembering whether it had to be
 * mounted so that session_detach_all can unmount it again.
 */
int session_tracefs(struct bb_session *s, struct bb_err *err);
/*
 * Attach prog at target (a function for kprobes, "category/name" for
 * tracepoints; NULL means the prog's own target). maxactive applies to
 * kretprobes (0: the kernel's default). Everything this adds is recorded
 * in s and removed by session_detach_all.
 */
int session_attach(struct bb_session *s, struct bb_prog *prog,
		   const char *target, int maxactive, struct bb_err *err);
/*
 * Attach a perf_event program to a sampling event at hz on every online
 * CPU (perf_sample_open; *sw as there), each recorded in s. The number of
 * CPUs, or -errno (the events opened so far stay in s).
 */
int session_attach_sampling(struct bb_session *s, struct bb_prog *prog,
			    unsigned hz, int *sw, struct bb_err *err);
/*
 * What a tool attaches, declared as a list: the program, where, and the
 * state it opens and closes (space-separated names of the tool's choosing,
 * usually its maps). probe_order puts a program that opens a state after
 * every other program that closes or names that state (see session.c).
 */
struct bb_probe {
	const char *prog;   /* program name in the object */
	const char *target; /* NULL: the program's own section target */
	int maxactive;      /* kretprobes; 0: the kernel's default */
	const char *opens;  /* state this program creates, or NULL */
	const char *closes; /* state it ends, or reads to name or end it */
	int optional;       /* a failure to attach it is not fatal */
	int attached;       /* set once it is attached */
};
/*
 * Fill order[0..n-1] with the indexes of p in attach order: closers
 * first, and otherwise the order of the list. -ELOOP if the declarations
 * contradict each other (two programs each opening what the other closes),
 * -E2BIG beyond 64 distinct states, -ENOMEM.
 */
int probe_order(const struct bb_probe *p, int n, int *order);
/* Disable, close and remove every probe this session added. Idempotent. */
void session_detach_all(struct bb_session *s);
/*
 * A detach's watch: called every 100 ms or so, and at once after a signal,
 * while perf events close (each tracepoint's last one waits for the kernel)
 * and after each probe removed from tracefs; done of total steps (a perf
 * event closed, a probe removed). Nonzero stops the detach.
 */
typedef int (*perf_close_watch_fn)(void *ctx, int done, int total);
/* session_detach_all under a watch: 0, or -EINTR if the watch stopped it,
 * what is left still in s (for session_detach_all or session_detach_fork). */
int session_detach_watch(struct bb_session *s, perf_close_watch_fn watch,
			 void *ctx);
/*
 * Hand the rest of s's detach to a child in a session of its own, stdio on
 * /dev/null, that finishes it once we have exited and exits itself; s is
 * left empty (our perf event fds closed: the child holds them). The child's
 * pid, or -errno (s as it was). Not from pid 1 of a pid namespace: its
 * children die with it.
 */
int session_detach_fork(struct bb_session *s);
/* Undo the latest session_attach that succeeded (e.g. the first half of
 * an entry/return pair whose second half failed). */
void session_detach_newest(struct bb_session *s);
/*
 * The perf kprobe PMU (4.17+): its type, the config bit of a kretprobe
 * (format/retprobe), or -ENOENT where there is none. With it the kernel
 * owns the probe and removes it with our last fd, even after SIGKILL.
 * BAREBPF_KPROBES=tracefs in the environment makes sessions ignore it.
 */
int kprobe_pmu_type(int *retbit);
/* Pure: "config:N" (a PMU format file) -> N, or -EINVAL. */
int kprobe_pmu_format_bit(const char *text);
/*
 * uprobes (probe/uprobe.c): prog (a kprobe program) at file offset off of
 * path, a uretprobe if retprobe, only in process pid if pid > 0. Through
 * the perf uprobe PMU (4.17+; BAREBPF_UPROBES=tracefs ignores it), where
 * the kernel removes the probe with our last fd, else uprobe_events (our
 * group, removed by session_detach_all). target names it in messages.
 */
int session_attach_uprobe(struct bb_session *s, struct bb_prog *prog,
			  const char *path, uint64_t off, int retprobe,
			  int pid, const char *target, struct bb_err *err);
/* The uprobe PMU: as kprobe_pmu_type. */
int uprobe_pmu_type(int *retbit);
/* Can this kernel make uprobes at all (PMU or uprobe_events)? */
int uprobes_available(const char *tracefs);
/* Does it keep a uprobe's reference counter (a USDT semaphore) up while
 * the probe is in: the PMU's format/ref_ctr_offset, 4.20+? 1 or 0. */
int uprobe_ref_ctr_available(void);
/* Remove uprobes of barebpf processes that no longer exist. */
int uprobes_remove_stale(const char *tracefs, struct bb_err *err);
/*
 * "LIB:FUNC", "/path:FUNC", "LIB:FUNC+0x10", "/path:0x1234" (a file
 * offset; as a session's target also "/path:0x1234(0x5678)", a USDT
 * probe with its semaphore at file offset 0x5678): the file (ulib_resolve, for pid if > 0) and the offset of the
 * function's first instruction plus the added one. -ENOENT with err
 * saying which of the two is missing.
 */
int uprobe_resolve(const char *spec, int pid, char *path, size_t len,
		   uint64_t *off, struct bb_err *err);
/* Sum of kprobe_profile misses over this session's kretprobes. */
long session_kretprobe_misses(struct bb_session *s);
/* Remove probes of barebpf processes that no longer exist. Returns count. */
int kprobes_remove_stale(const char *tracefs, struct bb_err *err);
/* Is CONFIG_KPROBE_EVENTS there (tracefs has kprobe_events)? */
int kprobes_available(const char *tracefs);
/*
 * Functions in available_filter_functions matching a glob pattern
 * (fnmatch). *names is a malloc'ed array of malloc'ed strings.
 */
int kprobe_match(const char *tracefs, const char *pattern, char ***names,
		 struct bb_err *err);
void bb_free_strv(char **v, int n);
/*
 * Which of names[0..n-1] this kernel has: found[i] = 1 or 0. One pass over
 * available_filter_functions (BB_FUNCS_FTRACE; /proc/kallsyms where it
 * cannot be read) or over the text symbols of /proc/kallsyms
 * (BB_FUNCS_KALLSYMS: what kprobes can take, lib/ included, which ftrace
 * does not list), that stops as soon as names[0..need-1] are all found:
 * put first the names whose presence settles the question. Returns how
 * many were found. The lists hold 25k-100k lines: reading one costs
 * 0.2-0.5 s under emulation, most of a tool's start.
 */
#define BB_FUNCS_FTRACE 0
#define BB_FUNCS_KALLSYMS 1
int kprobe_funcs_find(const char *tracefs, int source,
		      const char *const *names, int n, int need, char *found,
		      struct bb_err *err);
/* The same on the text of one of those files (kallsyms: its format). */
int kprobe_funcs_text(const char *text, int kallsyms, const char *const *names,
		      int n, int need, char *found);
/*
 * Pure parsers behind the above, for the unit tests.
 * kprobe_events_line_pid: for a kprobe_events line of a barebpf_<pid>
 * group, copy "group/event" into event and return the pid; 0 for another
 * tool's probe; -EINVAL for a line that is not a probe definition.
 */
int kprobe_events_line_pid(const char *line, char *event, size_t len);
/* The same, and *ns gets the pid namespace inode of the group (0: none). */
int kprobe_events_line_owner(const char *line, char *event, size_t len,
			     unsigned long *ns);
/* Inode of /proc/<pid>/ns/pid ("self" for us), 0 if unknown. */
unsigned long bb_pidns_ino(const char *pid);
/* One kprobe_profile line: "  <event>  <hits>  <misses>". */
int kprobe_profile_line(const char *line, char *event, size_t len,
			unsigned long *hits, unsigned long *misses);
/* kprobe_match on the text of available_filter_functions. */
int kprobe_match_text(const char *text, const char *pattern, char ***names);

/* ---- sampling (probe/perf_event.c) ---- */
/*
 * A sampling event on one CPU (all tasks) at hz samples a second running
 * prog_fd (a perf_event program): the hardware cycles counter, or with sw
 * (or where there is no PMU, as in most VMs: *sw is then set) the
 * software cpu-clock. The perf fd, or -errno (-ENODEV: the CPU is
 * offline).
 */
int perf_sample_open(int cpu, unsigned hz, int prog_fd, int *sw);

/*
 * Does bpf_get_smp_processor_id() return the CPU a program runs on? A
 * program returning it is run (BPF_PROG_TEST_RUN) with this task pinned
 * to a CPU other than 0. Not where the JIT inlines that helper and is
 * off: riscv64 6.12's verifier then leaves the call unpatched and the
 * interpreter calls __bpf_call_base + 8, which returns 0 on every CPU
 * (7.x refuses such a program instead: 0 too, one CPU or more). 1: it
 * does (or the run cannot be made: one CPU, no BPF_PROG_TEST_RUN before
 * 4.12); 0: it does not (probe/sample.c).
 */
int bpf_cpu_helper_ok(void);

/* Does a BPF program attach to trace event tp_id (the syscalls/ events:
 * 4.14+)? 0 if the kernel refuses, else 1 (probe/perf_event.c). */
int perf_tp_bpf_ok(int tp_id);

#endif
