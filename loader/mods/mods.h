/* SPDX-License-Identifier: MIT */
/*
 * loader/mods/: the program modules, one per embedded BPF object
 * (bpf/NAME.bpf.c -> loader/mods/NAME.c). A module owns everything about
 * its object on the host side: the settings a tool fills (a struct below)
 * turned into load-time constants and tracepoint-field offsets, its probe
 * table with the declared attach order (closers first, loader/probe/
 * session.c), its maps, its rings. It names constants and maps only by the
 * ids of the object's generated header ($(O)/gen/NAME.skel.h, from
 * scripts/bbskel.c), so a name the object lacks is a compile error.
 *
 * The tools (loader/tools/) and the exporter call these modules and never
 * name a constant or a map. A module includes the frame (tool.h, the cli/
 * helpers), its bpf/NAME.h and its generated header; never a tool, never
 * another module's header part. Functions print through the frame
 * (tool_error) and return 0 or -errno.
 */
#ifndef BAREBPF_MODS_H
#define BAREBPF_MODS_H

#include <stdint.h>
#include "tool.h"
#include "blkdisk.h"
#include "fieldoff.h"

/* A constant set to the offset of a tracepoint field. */
struct mod_tp_off {
	const char *event, *field;
	int id; /* of the object's enum NAME_const */
	/* where the program reads it straight from ctx if it is there with
	 * that size (BB_TP_FIELD), else at the constant; 0: never */
	int at, size;
};
/*
 * Set constants o[0..n-1] of s to their fields' offsets in
 * events/<cat>/<event>/format; with read 0, to 0 without reading (the
 * programs that use them are not attached).
 */
int mod_tp_offsets(struct tool_ctx *t, const struct bb_skel *s,
		   const char *cat, const struct mod_tp_off *o, int n,
		   int read);
/*
 * The same, and *direct = 0 unless every field with an `at` is at that
 * offset with that size (left as it is: start with 1, for several calls;
 * fields not read, with read 0, do not count).
 */
int mod_tp_fields(struct tool_ctx *t, const struct bb_skel *s,
		  const char *cat, const struct mod_tp_off *o, int n,
		  int read, int *direct);

/*
 * The results of a module's NAME_set calls (an array of them, in the
 * order made): 0, or the first error, said as a bug of the build.
 */
int mod_consts_set(struct tool_ctx *t, const int *results, int n);
/*
 * Make the stack map `name` of t's object (declared as an address stack
 * map) a build-id stack map (BPF_F_STACK_BUILD_ID: struct
 * bb_stack_build_id frames) of entries stacks, before the load. 0, or
 * -EOPNOTSUPP (said) where the kernel has none (before 4.17).
 */
int mod_build_id_stacks(struct tool_ctx *t, const char *name,
			uint32_t entries);
#define MOD_CONSTS_SET(t, results)                                             \
	mod_consts_set((t), (results), sizeof(results) / sizeof((results)[0]))

/* ---- biolatency.c: block request latency (tracepoints) ---- */
struct biolat_settings {
	uint32_t filter_dev;    /* kernel dev_t; 0: every disk */
	int queued;             /* -Q: from the insert, not the issue */
	int per_disk, per_flags;
	int per_op, keep_sum;   /* the exporter's: by operation, with _sum */
	int ms;                 /* milliseconds, not microseconds */
};
/* Open, configure, load and attach biolatency.bpf.c in t. */
int biolat_start(struct tool_ctx *t, const struct biolat_settings *s);
/* hist and sums (keep_sum) of a started object. */
int biolat_hist_fd(struct tool_ctx *t);
int biolat_sums_fd(struct tool_ctx *t);

/* ---- blkwho.c: who submitted a request (bpf/blkwho.h) ---- */
/* The ids of blkwho.h's constants in an object that includes it. */
struct blkwho_ids {
	int getrq_dev, getrq_sector;
	int frontmerge_dev, frontmerge_sector, frontmerge_nr_sector;
};
/* Set them from the format files (*direct as prog_tp_fields). */
int blkwho_offsets(struct tool_ctx *t, const struct bb_skel *s,
		   const struct blkwho_ids *id, int *direct);
/* Fill map part_disk (fd) with each partition's disk; a failure is a
 * warning said (the partitions' I/O then counts under the issuing task). */
void blkwho_fill_part_disk(struct tool_ctx *t, int fd,
			   const struct blkdisks *disks);

/* ---- bitesize.c: block I/O sizes by command (tracepoints) ---- */
struct bitesize_settings {
	uint32_t filter_dev;    /* kernel dev_t of a disk; 0: every disk */
	const char *comm;       /* only this command (15 bytes); NULL: all */
	const struct blkdisks *disks; /* for partition -> disk */
};
/* Open, configure, load and attach bitesize.bpf.c in t. */
int bitesize_start(struct tool_ctx *t, const struct bitesize_settings *s);
int bitesize_hist_fd(struct tool_ctx *t);

/* ---- biotop.c: block I/O by process (tracepoints) ---- */
struct biotop_settings {
	uint32_t filter_dev;    /* kernel dev_t of a disk; 0: every disk */
	uint32_t pid;           /* 0: every process */
	const struct blkdisks *disks; /* for partition -> disk */
};
/* Open, configure, load and attach biotop.bpf.c in t. */
int biotop_start(struct tool_ctx *t, const struct biotop_settings *s);
int biotop_counts_fd(struct tool_ctx *t);

/* ---- biosnoop.c: one line per block I/O (tracepoints) ---- */
struct biosnoop_settings {
	uint32_t filter_dev;
	int queued;             /* -Q: from the insert */
	const struct blkdisks *disks; /* for partition -> disk */
	int pages;              /* of the ring, per CPU */
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load biosnoop.bpf.c, open its ring into *pb, attach. */
int biosnoop_start(struct tool_ctx *t, const struct biosnoop_settings *s,
		   struct bb_perfbuf **pb);

/* ---- breakdown.c: a function's time by its children (kprobes) ---- */
struct breakdown_settings {
	uint64_t min_ns;
	uint32_t pid;           /* 0: every process */
	const char *comm;       /* NULL: every command */
	int kstack, maxactive;
	char **fns;             /* MAIN, then its children */
	int n;
	int pages;
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load breakdown.bpf.c, fill its program array, open its
 * ring into *pb and attach on s->fns. */
int breakdown_start(struct tool_ctx *t, const struct breakdown_settings *s,
		    struct bb_perfbuf **pb);
int breakdown_stacks_fd(struct tool_ctx *t);
int breakdown_stats_fd(struct tool_ctx *t);

/* ---- cachestat.c: page-cache hits and misses (kprobes) ---- */
/* The functions cachestat probes where a kernel has them: for tool_funcs. */
extern const char *const cachestat_wanted_fns[7];
/*
 * Open, load and attach cachestat.bpf.c on the functions of avail (sorted,
 * this kernel's), and a writeback tracepoint where the dirtying function
 * is inlined; what: the four names, ", " between. -ENOENT, said, if the
 * kernel lacks one of them.
 */
int cachestat_start(struct tool_ctx *t, char **avail, int n, char *what,
		    size_t len);
int cachestat_stats_fd(struct tool_ctx *t);

/* ---- fsslower.c: a file system's reads, writes, opens, fsyncs ---- */
/* A file system's functions (NULL-terminated read chain: its own, then
 * the generic one with an f_op check against fops). */
struct fss_fs {
	const char *fs;
	const char *read[3];
	const char *write, *open, *fsync, *fops;
};
/* The functions chosen, by FSS_READ..FSS_FSYNC (bpf/fsslower.h). */
struct fss_pick {
	const char *fn[4];
	int generic;            /* reads through generic_file_read_iter */
};
/* ext4, xfs, btrfs, nfs, f2fs; NULL: not one barebpf knows. */
const struct fss_fs *fsslower_fs(const char *name);
/* Pure: the functions of fs in avail (sorted); -ENOENT with why. */
int fsslower_pick(const struct fss_fs *fs, char *const *avail, int n,
		  struct fss_pick *p, char *why, size_t len);
struct fsslower_settings {
	const char *fs;
	uint32_t pid;           /* 0: every process */
	uint64_t min_ns;        /* records of operations this slow or more */
	int dist;               /* histograms (fsdist), not records */
	uint64_t unit_div;      /* ns per histogram unit */
	perfbuf_sample_fn on_event; /* records: struct fss_event */
	void *ctx;
};
/* Find the fields (BTF, --btf, or discovered), open, configure, load
 * fsslower.bpf.c, open its ring into *pb (not dist), attach on p. */
int fsslower_start(struct tool_ctx *t, const struct fsslower_settings *s,
		   const struct fss_pick *p, struct bb_perfbuf **pb);
/* hist: FSS_NOPS * FSS_SLOTS u64 (op * FSS_SLOTS + slot) */
int fsslower_hist_fd(struct tool_ctx *t);
/* sums: FSS_NOPS u64, the ns of each operation's histogram (dist) */
int fsslower_sums_fd(struct tool_ctx *t);
int fsslower_stats_fd(struct tool_ctx *t);

/* ---- drsnoop.c: direct reclaim stalls (vmscan tracepoints) ---- */
struct drsnoop_settings {
	uint32_t pid, tid;      /* 0: all */
	uint32_t filter_uid;    /* 0xffffffff: every user */
	uint64_t free_addr;     /* vm_zone_stat (-e); 0: free memory unread */
	int memcg;              /* the kernel has the memcg reclaim events */
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load drsnoop.bpf.c, open its ring into *pb, attach. */
int drsnoop_start(struct tool_ctx *t, const struct drsnoop_settings *s,
		  struct bb_perfbuf **pb);

/* ---- execsnoop.c: one line per exec() ---- */
struct execsnoop_settings {
	int tps;                /* syscall tracepoints, else kprobes */
	int execveat;           /* the kernel has execveat */
	const char (*fn)[64];   /* the entry of execve, execveat: a
				 * tracepoint or a kernel function */
	uint32_t filter_uid;    /* 0xffffffff: every user */
	int fails, max_args;
	int old;                /* the *_old programs: no bpf_probe_read_str
				 * (4.11), records sent in chunks */
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Does this kernel need the programs that send an exec's record in
 * chunks through the stack (no bpf_probe_read_str: before 4.11)? The
 * callback is then one that puts the chunks together. */
int execsnoop_sends_chunks(void);
/* Open, configure, load execsnoop.bpf.c, fill its jumps, open its ring
 * into *pb and attach. */
int execsnoop_start(struct tool_ctx *t, const struct execsnoop_settings *s,
		    struct bb_perfbuf **pb);

/* ---- funccount.c: calls counted per function or tracepoint ---- */
/* Open, configure and load funccount.bpf.c. */
int funccount_load(struct tool_ctx *t, uint32_t pid);
/* p[0..n-1]: the probes on names (tracepoints "cat:event" with tp). */
void funccount_probes(struct bb_probe *p, char **names, int n, int tp);
int funccount_counts_fd(struct tool_ctx *t);
/* After funccount_probes of n uprobes: each its own copy, in progs. */
int funccount_uprobe_progs(struct tool_ctx *t, struct bb_probe *p, int n,
			   struct bb_prog **progs);
/*
 * Count tracepoints names[0..n-1] ("category:event") by raw tracepoints
 * (4.17): one program each, adding 1 to the counts map at key i (set to
 * 0 first), only for thread group pid if not 0. links[i] and progs[i] get
 * its fds, or -1 where the kernel has no tracepoint of that name (the
 * syscalls/ events): those are left to perf events. Returns how many are
 * attached, -EOPNOTSUPP if the kernel has no raw tracepoints, or -errno
 * having printed why.
 */
int funccount_rawtp_attach(struct tool_ctx *t, char **names, int n,
			   uint32_t pid, int *links, int *progs);
/*
 * Count the syscalls/ events among names[0..n-1] whose links[i] is -1
 * through the raw tracepoints sys_enter and sys_exit (4.17), by syscall
 * number: links[i] becomes FUNCCOUNT_RAW_SYS for each, counted in the
 * counts map at key i. Events of no known number stay -1 (perf events).
 * Returns how many are counted so (0 where the kernel cannot; -v says
 * how many), or -errno having printed why; r gets the fds.
 */
#define FUNCCOUNT_RAW_SYS (-2)
struct funccount_rawsys {
	int nrs;             /* syscall number -> row + 1 (array map) */
	int prog[2], link[2]; /* on sys_enter, sys_exit; -1 if none */
};
#define FUNCCOUNT_RAWSYS_NONE ((struct funccount_rawsys){ -1, { -1, -1 }, \
							{ -1, -1 } })
int funccount_rawsys_attach(struct tool_ctx *t, char **names, int n,
			    uint32_t pid, int *links,
			    struct funccount_rawsys *r);
/*
 * Close what funccount_rawtp_attach (links, progs of n) and
 * funccount_rawsys_attach (r) opened, at once; returns the events their
 * programs missed (another BPF program running on that CPU).
 */
uint64_t funccount_raw_close(int *links, int *progs, int n,
			     struct funccount_rawsys *r);
/*
 * Pure: the syscall number of event ("syscalls:sys_enter_CALL" or
 * "sys_exit_CALL", the category optional) in this build's table (musl's,
 * with the kernel's renames: newstat is stat), *exit 1 for sys_exit_;
 * -ENOENT if none. exists(call, arg) (may be NULL) says whether the
 * kernel has an event sys_enter_CALL.
 */
int funccount_sysnr(const char *event, int *exit,
		    int (*exists)(const char *call, void *arg), void *arg);
/* The table's size: the highest number it knows + 1. */
int funccount_sysnr_count(void);

/* ---- funclatency.c: a function's latency histogram (kprobes) ---- */
/* Open, configure and load funclatency.bpf.c; its entry and return
 * programs, which the tool attaches in pairs (the return first). */
int funclatency_load(struct tool_ctx *t, uint32_t pid, uint64_t unit_div,
		     struct bb_prog **entry, struct bb_prog **ret);
/* After funclatency_load: the programs again, as uprobes. */
int funclatency_user_progs(struct tool_ctx *t, struct bb_prog **entry,
			   struct bb_prog **ret);
int funclatency_stats_fd(struct tool_ctx *t);

/* ---- opensnoop.c: one line per open() ---- */
struct opensnoop_settings {
	int tps;                /* syscall tracepoints, else kprobes */
	/* openat, open, openat2: the entry (a tracepoint or a kernel
	 * function; "" or "-..." where the kernel has none), the exit
	 * tracepoint */
	const char (*fn)[64], (*ex)[64];
	uint32_t pid, tid, filter_uid; /* filter_uid 0xffffffff: all */
	uint64_t flags;
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load opensnoop.bpf.c, open its ring into *pb, attach. */
int opensnoop_start(struct tool_ctx *t, const struct opensnoop_settings *s,
		    struct bb_perfbuf **pb);

/* ---- qenter.c: time bios wait to enter a queue (kprobes) ---- */
struct qenter_settings {
	uint32_t filter_dev;
	int per_disk, need_dev; /* need_dev: the disk of a bio is read */
	int keep_sum;           /* the exporter's */
	int ms, maxactive;
};
/* The functions qenter probes where a kernel has them: for tool_funcs. */
extern const char *const qenter_wanted_fns[4];
/*
 * Open, configure, load and attach qenter.bpf.c on the queue entry
 * functions of avail (sorted, of this kernel); what: those functions,
 * ", " between. -ENOENT, unsaid and before anything is opened, if the
 * kernel has none of them.
 */
int qenter_start(struct tool_ctx *t, const struct qenter_settings *s,
		 char **avail, int n, char *what, size_t len);
int qenter_hist_fd(struct tool_ctx *t);
int qenter_sums_fd(struct tool_ctx *t);

/* ---- slowbio.c: slow bio submissions (kprobes) ---- */
/* Normal submissions take microseconds; a frozen queue holds them for as
 * long as in-flight I/O takes to drain, milliseconds on any disk. */
#define SLOWBIO_DEFAULT_US 10000
#define SLOWBIO_PAGES 16
/* Threads blocked in blk_queue_enter each hold a kretprobe instance
 * while a queue is frozen: allow many (the kernel's limit is 4096). */
#define SLOWBIO_MAXACTIVE 1024
struct slowbio_settings {
	const char *fn;         /* the submit function (slowbio_submit_fns) */
	uint64_t min_ns;
	int emit;               /* a record per slow call, to on_event */
	int count;              /* the exporter's: counts per disk */
	int maxactive;
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* Open, configure, load slowbio.bpf.c, open its ring (emit) into *pb,
 * attach. */
int slowbio_start(struct tool_ctx *t, const struct slowbio_settings *s,
		  struct bb_perfbuf **pb);
int slowbio_counts_fd(struct tool_ctx *t);

/* ---- freeze.c: blk-mq queue freezes (kprobes) ---- */
struct freeze_run;
/*
 * Open, configure (r->o: no_stack, correlate), load freeze.bpf.c, fill
 * r's map fds, open its ring to fn, ctx into *pb and attach on the freeze
 * functions of avail (freeze_find_functions).
 */
int freeze_start(struct tool_ctx *t, struct freeze_run *r,
		 perfbuf_sample_fn fn, void *ctx, struct bb_perfbuf **pb,
		 char **avail, int n);
int freeze_stats_fd(struct tool_ctx *t);

/* ---- offcputime.c: time off CPU by stack (sched_switch) ---- */
struct offcpu_settings {
	uint32_t tgid, tid;     /* 0: every process, thread */
	int user_only, kernel_only;
	uint64_t min_us, max_us;
	uint32_t stack_storage; /* the stack map's entries; 0: compiled */
	int build_id;           /* user stacks by build id (4.17; here 5.4.7,
				 * 4.19.92: offcputime.c) */
};
/* Open, configure, load and attach offcputime.bpf.c; its maps' fds
 * (*ustacks_fd: the user stacks' with build_id, else -1). */
int offcpu_start(struct tool_ctx *t, const struct offcpu_settings *s,
		 int *counts_fd, int *stacks_fd, int *ustacks_fd);

/* ---- profile.c: samples by stack (a perf event per CPU) ---- */
struct profile_settings {
	uint32_t pid;           /* the process; 0: all */
	unsigned hz;
	int kstack, ustack, idle;
	uint32_t stack_storage, hash_storage; /* 0: as compiled */
	int build_id;           /* user stacks by build id (4.17) */
};
struct profile_run {
	int counts_fd, stacks_fd;
	int ustacks_fd;         /* the user stacks' with build_id, else -1 */
	int ncpus;              /* sampled */
	int software;           /* cpu-clock: no hardware cycles here */
};
/* Open, configure and load profile.bpf.c, open and attach the events (in
 * t's session: tool_detach closes them, and the programs stop). */
int profile_start(struct tool_ctx *t, const struct profile_settings *s,
		  struct profile_run *r);

/* ---- trace.c: trace's one program, a copy per probe ---- */
struct traceobj_settings {
	int split;              /* bpf_probe_read_{user,kernel}_str (5.5+) */
	uint32_t pid, tid, self_tgid, filter_dev;
	int kstack, ustack;
	int disk;               /* -d: the disk of a bio is read */
	int old;                /* helpers take the stack only (before
				 * 4.11): trace_kprobe_old, its record on
				 * the stack, TRACE_OLD_EVENT_SIZE bytes */
};
/* Does this kernel read strings of each address space with a helper of
 * its own (bpf_probe_read_{user,kernel}_str, 5.5+)? */
int traceobj_split_strs(void);
/* Open trace.bpf.c and configure what every copy shares (loaded after
 * the probes' constants: tool_load, then traceobj_load_copy each). */
int traceobj_open(struct tool_ctx *t, const struct traceobj_settings *s);
/* A constant by the name trace's compiler gives it (trace_prog_consts):
 * -ENOENT if the object has no such. */
int traceobj_set(struct tool_ctx *t, const char *name, uint64_t v);
/* A copy of the program with the constants as set now, as a kind. */
int traceobj_load_copy(struct tool_ctx *t, enum bb_prog_kind kind,
		       struct bb_prog **copy, struct bb_err *err);
void traceobj_stack_fds(struct tool_ctx *t, int stacks[2], int *gen);
int traceobj_events_fd(struct tool_ctx *t);

/* ---- vfsstat.c: VFS calls per second (kprobes) ---- */
/* Open, load and attach vfsstat.bpf.c. */
int vfsstat_start(struct tool_ctx *t);
int vfsstat_stats_fd(struct tool_ctx *t);

int opensnoop_stats_fd(struct tool_ctx *t);
int killsnoop_stats_fd(struct tool_ctx *t);
int slowbio_stats_fd(struct tool_ctx *t);

/* the scheduler and system modules; the network modules */
#include "mods_sched.h"
#include "mods_net.h"

#endif
