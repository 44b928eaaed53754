/* SPDX-License-Identifier: MIT */
/*
 * barebpf loader library: the one header the tools and tests include.
 *
 * loader/ holds the library only: raw calls (sys.c; files.c, cpus.c,
 * verifier.c beside them), kernel facts (kver.c,
 * tracefs.c, kallsyms.c, disk.c), user symbols (elfsyms.c, usym.c), stacks
 * (stack.c), perf rings (perfbuf.c); BPF objects in loader/obj/ (obj.h),
 * attaching in loader/probe/ (probe.h). It returns data and errors, knows
 * nothing of tools and includes nothing of loader/cli/ or loader/tools/
 * (the Makefile builds it without them on the include path); the command
 * line (loader/cli/, the frame, and loader/tools/, one file per tool)
 * includes this header and prints (cli/output.h). The folders' own headers
 * (obj.h, probe.h) are for their files and the tests.
 *
 * Conventions (for every function here):
 *  - A function that can fail returns a non-negative result or -errno.
 *    Nobody reads errno after the fact.
 *  - Where a failure needs words (which section, which symbol, what to do),
 *    the function takes a `struct bb_err *` (may be NULL) and writes one
 *    sentence into it. The library never prints; the command line does.
 */
#ifndef BAREBPF_H
#define BAREBPF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bpf_abi.h"
#include "../bpf/bb_elf.h"

/* ---- errors (err.c) ---- */
struct bb_err {
	char msg[512];
};
/* Fill err (if not NULL) and return code, which must be negative. */
int bb_fail(struct bb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- raw system calls (sys.c) ---- */
long sys_bpf(int cmd, void *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
int sys_ioctl(int fd, unsigned long req, unsigned long arg);
/* Returns the address, or a value in [-4095, -1] (check with bb_is_err). */
long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int sys_munmap(void *addr, size_t len);
int sys_prlimit64(int pid, int resource, const void *new_lim, void *old_lim);
int sys_mount(const char *src, const char *target, const char *fstype,
	      unsigned long flags, const void *data);
int sys_umount2(const char *target, int flags);
static inline int bb_is_err(long v) { return v < 0 && v >= -4095; }

/* ---- thin bpf() wrappers (sys.c) ---- */
int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		   uint32_t max_entries, uint32_t flags, const char *name);
int bpf_map_lookup_elem(int fd, const void *key, void *value);
int bpf_map_update_elem(int fd, const void *key, const void *value,
			uint64_t flags);
int bpf_map_delete_elem(int fd, const void *key);
int bpf_map_get_next_key(int fd, const void *key, void *next_key);
/* A map with the fields bpf_map_create lacks (map-in-map 4.12, NUMA 4.14). */
struct bb_map_attr {
	uint32_t type, key_size, value_size, max_entries, map_flags;
	int inner_fd;       /* -1 or 0: none */
	uint32_t numa_node; /* used with BPF_F_NUMA_NODE in map_flags */
};
int bpf_map_create_attr(const struct bb_map_attr *a, const char *name);
int bpf_obj_pin(int fd, const char *path);
int bpf_obj_get(const char *path);
int bpf_map_freeze(int fd); /* 5.2 */
/* The first len bytes of struct bpf_map_info (4.13) of a map fd. */
struct bb_map_info {
	uint32_t type, id, key_size, value_size, max_entries, map_flags;
};
int bpf_map_get_info(int fd, struct bb_map_info *info);
/*
 * Load a program. If the verifier refuses it and logp is not NULL, *logp
 * gets a malloc'ed copy of the verifier log: the buffer grows on ENOSPC up
 * to what the kernel accepts, and the largest log obtained is kept
 * (*truncated, if not NULL, says it did not fit whole). The error is that
 * of the first load, made without a log.
 */
int bpf_prog_load(uint32_t type, const struct bpf_insn *insns, uint32_t cnt,
		  const char *license, uint32_t kern_version, const char *name,
		  char **logp, int *truncated);
/* Pure (verifier.c): a sentence on why the verifier refused a program
 * (E2BIG: it gave up after N instructions; a truncated log), or "". */
void bpf_verifier_explain(int err, const char *log, int truncated,
			  char *buf, size_t len);
/*
 * Does this kernel give programs of prog_type helper number `helper`? It
 * loads helper(stack buffer, 8, 0): for helpers of that shape (the
 * probe_read family). 1 or 0; -errno if bpf() itself fails (EPERM).
 */
int bpf_helper_available(uint32_t prog_type, int32_t helper);
/* Do helpers take a map value as their memory (4.11; before, the stack
 * only)? 1 yes, 0 no, or -errno (the test map or program). */
int bpf_helper_map_value_mem(void);
/* Does a BPF program attach to trace event tp_id (the syscalls/ events:
 * 4.14+)? 0 if the kernel refuses, else 1 (probe/perf_event.c). */
int perf_tp_bpf_ok(int tp_id);
/* Read a whole file (pseudo files too) into a malloc'ed NUL-terminated
 * buffer; returns its length (files.c, as bb_read_small). */
int bb_read_fd(int fd, char **buf);
int bb_read_file(const char *path, char **buf);
/* Read the first line of a small file (sysfs, procfs), without "\n". */
int bb_read_small(const char *path, char *buf, size_t len);
/* Sum over CPUs of a u64 in a per-CPU array at key into *sum: 0 or
 * -errno (then *sum is 0 and means nothing). */
int bpf_map_sum_percpu_u64(int fd, uint32_t key, uint64_t *sum);
/* The u64 at byte off (a multiple of 8, below 256) of the program's
 * bpf_prog_info; -EOPNOTSUPP where this kernel's info is shorter. */
int bpf_prog_info_u64(int prog_fd, uint32_t off, uint64_t *v);
/* How often the kernel skipped the program because another BPF program
 * was running on that CPU (6.7+): 0, or -EOPNOTSUPP on older kernels. */
int bpf_prog_recursion_misses(int prog_fd, uint64_t *misses);
/*
 * Attach a BPF_PROG_TYPE_RAW_TRACEPOINT program to the kernel tracepoint
 * `name` (4.17; the tracepoint's own name, without its tracefs category:
 * "sched_switch"): the returned fd holds it, closing it detaches. -ENOENT
 * if no tracepoint has that name (the syscalls/ events are not
 * tracepoints), -EINVAL before 4.17.
 */
int bpf_raw_tp_open(const char *name, int prog_fd);
/* Number of possible CPUs (per-CPU map values come in this many slots;
 * cpus.c, as bb_parse_cpu_list). */
int bb_ncpus_possible(void);
/*
 * Parse a CPU list like "0-3,5" and return how many CPUs (highest+1);
 * -ERANGE for a CPU number of BB_MAX_CPUS or more: the largest NR_CPUS a
 * kernel can be built with is 8192 (x86_64 with MAXSMP; arm64: 4096).
 */
#define BB_MAX_CPUS 8192
int bb_parse_cpu_list(const char *s);
/* Raise RLIMIT_MEMLOCK to infinity (maps are charged to it before 5.11);
 * 0 also where it cannot be raised but the kernel does not charge to it. */
int bb_raise_memlock(struct bb_err *err);
/* 1 if BPF memory is charged to the memory cgroup, not to RLIMIT_MEMLOCK
 * (5.11+, as the kernel answers a probe), else 0. */
int bb_memcg_charged(void);
/* Raise RLIMIT_NOFILE as far as allowed (fs.nr_open as root, else the hard
 * limit): every probe holds a file descriptor. Returns the new soft limit. */
long bb_raise_nofile(void);

/* ---- kernel version (kver.c) ---- */
#define KVER(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
/* Pure parsers: each returns 0 and sets *code, or -EINVAL. */
int kver_parse_release(const char *release, uint32_t *code); /* uname -r */
int kver_parse_ubuntu_signature(const char *sig, uint32_t *code);
int kver_parse_debian_uname_v(const char *uname_v, uint32_t *code);
int kver_parse_vdso_note(const void *vdso, size_t len, uint32_t *code);
/*
 * Find LINUX_VERSION_CODE: override string (option) if not NULL, then
 * $BAREBPF_KERN_VERSION, then the vDSO note, /proc/version_signature,
 * "Debian x.y.z" in uname -v, uname -r. source gets a short description
 * of where it came from ("vDSO note", ...).
 */
int kver_detect(const char *override, uint32_t *code, char *source,
		size_t srclen, struct bb_err *err);

/* ---- numbers (num.c) ---- */
/*
 * The decimal number "[+-]digits[.digits][(e|E)[+-]digits]" at the start of
 * s (at least one digit; no space, hex, inf or nan): its value in *v and
 * where it ends in *end. Returns 1 if *v is the correctly rounded value
 * (up to 15 significant digits and an exponent within 10^+-22, where one
 * exact operation gives it), 0 if it may be off (relative error under
 * 1e-14 in the normal range), -EINVAL if s does not start with a number.
 */
int bb_parse_double(const char *s, const char **end, double *v);

/* ---- the embedded objects' compression (lz.c; encoder scripts/lzpack.c) ---- */
/* The size a stream decodes to, from its header; -EINVAL if too short. */
long lz_size(const void *src, size_t len);
/* Decode src into dst (cap bytes): the decoded size, or -EINVAL if src is
 * not a whole valid stream or does not fit. Pure; checks every length. */
long lz_decode(void *dst, size_t cap, const void *src, size_t len);

/* ---- BPF ELF objects (loader/obj/) ---- */
enum bb_prog_kind {
	BB_PROG_KPROBE,
	BB_PROG_KRETPROBE,
	BB_PROG_TRACEPOINT,
	BB_PROG_PERF_EVENT, /* perf_event (libbpf, samples/bpf): run samples
			     * every CPU (session_attach_sampling); and
			     * bb_perf_event, which profile attaches the
			     * same way (not at its section's target) */
	BB_PROG_UPROBE,     /* uprobe/PATH:FUNC: a kprobe program */
	BB_PROG_URETPROBE,
};

/* What the programs do with a map, told by their helper calls. */
#define BB_MAP_USE_OUTPUT   (1u << 0) /* bpf_perf_event_output */
#define BB_MAP_USE_COUNTERS (1u << 1) /* bpf_perf_event_read(_value) */
#define BB_MAP_USE_KSTACK   (1u << 2) /* bpf_get_stackid, kernel stacks */
#define BB_MAP_USE_USTACK   (1u << 3) /* bpf_get_stackid, BPF_F_USER_STACK */
#define BB_MAP_USE_TAILCALL (1u << 4) /* bpf_tail_call */

/* Where a map's definition came from. */
enum bb_map_origin {
	BB_MAP_LEGACY,  /* section maps (bpf_map_def of any size) */
	BB_MAP_SECTION, /* a maps/<name> section (gobpf) */
	BB_MAP_BTF,     /* SEC(".maps"), read from the object's BTF */
	BB_MAP_DATA,    /* .rodata, .data, .bss: an array map from 5.2 */
};

struct bb_map {
	char name[64];
	struct bb_map_def def;
	int fd; /* -1 until obj_load (and for global data a kernel lacks) */
	enum bb_map_origin origin;
	uint32_t numa_node;         /* with BPF_F_NUMA_NODE in map_flags */
	int inner;                  /* map-in-map: index of the map whose
				     * definition the inner maps share; -1 */
	struct bb_map_def inner_def; /* BTF map-in-map (__array(values, ..)):
				      * the inner template; type 0 if none */
	char pin[192];              /* path where it is pinned, "" if not */
	int pin_reused;             /* obj_load found it pinned already */
	uint32_t usage;             /* BB_MAP_USE_* */
	uint32_t sample_size;       /* output maps: the size every call
				     * site sends, 0 if unknown or mixed */
	uint32_t btf_key, btf_value; /* BTF type ids (obj_btf), 0 if none */
	int prealloc;               /* obj_set_lazy_hash spares it */
};

struct bb_prog {
	char name[64];    /* function symbol */
	char section[128];
	enum bb_prog_kind kind;
	const char *target; /* after the first '/' of the section; "" if none;
			     * for syscall probes the kernel's function, once
			     * obj_load resolved it */
	uint32_t prog_type;
	struct bpf_insn *insns; /* private, relocated copy */
	size_t insn_cnt;
	int fd; /* -1 until obj_load */
	int tail_slot;   /* kprobe/<N> (bpf_load): slot N of the object's
			  * program array, not attached; -1 otherwise */
	int syscall;     /* BB_SYSCALL_*: the target names a system call */
	char resolved[128];
};

/* How a syscall probe was named (struct bb_prog.syscall). */
#define BB_SYSCALL_NONE 0
#define BB_SYSCALL_OLD  1 /* kprobe/sys_X, SyS_X: the arguments themselves */
#define BB_SYSCALL_NEW  2 /* ksyscall/X, kretsyscall/X (libbpf) */
#define BB_SYSCALL_WRAP 3 /* kprobe/__x64_sys_X, __arm64_sys_X */

struct bb_const {
	char name[64];
	uint64_t value;
	int set;
};

/*
 * What the running kernel takes, found by loading tiny programs (kcaps.c):
 * never assumed from the version number, which distributions backport past.
 */
struct bb_kcaps {
	int probed;
	int bpf_calls;         /* bpf-to-bpf calls (4.16) */
	int jmp32;             /* JMP32 instructions (5.1) */
	int big_progs;         /* more than 4096 instructions (5.2) */
	int global_data;       /* BPF_PSEUDO_MAP_VALUE (5.2) */
	int map_freeze;        /* BPF_MAP_FREEZE (5.2) */
	int rdonly_prog;       /* BPF_F_RDONLY_PROG (5.2) */
	int probe_read_kernel; /* bpf_probe_read_{kernel,user}[_str] (5.5) */
	int syscall_wrapper;   /* syscalls take a struct pt_regs * (x86_64
				* 4.17, arm64 4.19) */
	int wrapper_unknown;   /* syscall_wrapper not looked up yet: only
				* objects that ask read kallsyms for it */
	uint32_t kver;         /* LINUX_VERSION_CODE, if known */
	unsigned skipped;      /* KCAP_* not probed: no need (left 0) */
};
/* What an object needs to know of the kernel (obj_load probes only that:
 * each probe is a program or map the kernel builds, 1-5 ms each) */
#define KCAP_CALLS 0x01 /* bpf_calls */
#define KCAP_JMP32 0x02 /* jmp32 */
#define KCAP_BIG   0x04 /* big_progs */
#define KCAP_DATA  0x08 /* global_data, map_freeze, rdonly_prog */
#define KCAP_PRK   0x10 /* probe_read_kernel */
#define KCAP_ALL   0x1f
/* Probe this kernel (needs bpf() as root). Fills what it can. */
void kcaps_probe(struct bb_kcaps *c, uint32_t kver);
/* The same for the KCAP_* in need only; the rest stay 0 (c->skipped). */
void kcaps_probe_some(struct bb_kcaps *c, uint32_t kver, unsigned need);
/* c->syscall_wrapper, looked up in /proc/kallsyms the first time. */
int kcaps_syscall_wrapper(struct bb_kcaps *c);
/* "bpf-to-bpf calls, JMP32, ..." of what c lacks: for -v and messages. */
void kcaps_describe(const struct bb_kcaps *c, char *buf, size_t len);

struct bb_obj; /* opaque: one context per object, no globals */
struct bb_btf;

/*
 * Parse and validate an object held in memory (buf must outlive obj).
 * name is used in messages.
 */
int obj_open(struct bb_obj **objp, const void *buf, size_t len,
	     const char *name, struct bb_err *err);
/*
 * Set a load-time constant (an undefined symbol the programs refer to), or
 * the value of a variable in .rodata or .data (`const volatile` settings):
 * -ENOENT if there is neither, -ERANGE if the value does not fit the
 * variable's size.
 */
int obj_set_const(struct bb_obj *obj, const char *name, uint64_t value);
/* The names of the constants the programs need, set or not. */
int obj_consts(struct bb_obj *obj, const struct bb_const **consts);
/*
 * What the kernel takes; obj_load probes the running kernel unless this
 * was called first (unit tests, which have no bpf()).
 */
void obj_set_kcaps(struct bb_obj *obj, const struct bb_kcaps *c);
const struct bb_kcaps *obj_kcaps(const struct bb_obj *obj);
/*
 * Create maps (or reuse pinned ones), relocate (maps, constants, global
 * data, bpf-to-bpf calls, per what this kernel takes) and load every
 * program; fill program arrays (tail calls) and maps of maps. On a
 * verifier failure, err names the program and obj_verifier_log() returns
 * the kernel's log.
 */
/*
 * Create the object's hash maps (HASH, PERCPU_HASH) without preallocating
 * their elements where the kernel allocates them safely from any context
 * (bpf_mem_alloc, 6.1+; before, a tracing program with such a map warns or
 * is refused): creating a preallocated 10,240-entry map costs milliseconds
 * at start. For barebpf's own objects only: a user's map is left as written.
 */
void obj_set_lazy_hash(struct bb_obj *obj);
/*
 * ... except the maps whose `prealloc` the tool set before obj_load: the
 * maps a program updates and deletes from on every event (start times).
 * A preallocated element comes from a per-CPU free list; bpf_mem_alloc
 * costs more per update and delete (biolatency's issue program measured
 * 297 ns a run with its 10,240-entry start map lazy, 209 ns with 4,096
 * preallocated, on 6.18).
 */
/* Before 4.11, bpf_probe_read_str calls become fixed-size bpf_probe_read
 * (obj/load.c): for objects written for that (the tools'). */
void obj_set_str_fallback(struct bb_obj *obj);
/* Leave program `name` out of obj_load (its fd stays -1): a tool's program
 * that an option leaves unused costs a verification. -ENOENT: no such. */
int obj_set_noload(struct bb_obj *obj, const char *name);
int obj_load(struct bb_obj *obj, uint32_t kern_version, struct bb_err *err);
const char *obj_verifier_log(const struct bb_obj *obj);
/* Did that log not fit whole (the kernel kept only part of it)? */
int obj_verifier_log_truncated(const struct bb_obj *obj);
/*
 * Load program `name` of a loaded object once more, with the load-time
 * constants as they are set now (obj_set_const after obj_load), as a
 * program of `kind`: one program serves several probes, each with
 * constants of its own. kind may differ from the section's (a kprobe
 * program attached as a kretprobe, or loaded as a tracepoint program if
 * its constants keep it from reading pt_regs). The copy belongs to obj:
 * obj_close closes it. Its insns are not kept (NULL).
 */
int obj_prog_load_copy(struct bb_obj *obj, const char *name,
		       enum bb_prog_kind kind, struct bb_prog **copy,
		       struct bb_err *err);
int obj_nprogs(const struct bb_obj *obj);
struct bb_prog *obj_prog_at(struct bb_obj *obj, int i);
struct bb_prog *obj_prog(struct bb_obj *obj, const char *name);
int obj_nmaps(const struct bb_obj *obj);
struct bb_map *obj_map_at(struct bb_obj *obj, int i);
struct bb_map *obj_map(struct bb_obj *obj, const char *name);
const char *obj_license(const struct bb_obj *obj); /* "" if none */
/* Does a program call bpf_trace_printk (or trace_vprintk)? */
int obj_uses_printk(const struct bb_obj *obj);
/* Notes for the user gathered by obj_load (resolved syscall names, ...),
 * one per line; "" if none. */
const char *obj_notes(const struct bb_obj *obj);
/* How the object's map definitions were read where their layout was a
 * choice (28-byte ones: bpf_load's or iproute2's), else "". */
const char *obj_maps_layout(const struct bb_obj *obj);
/* The object's BTF (btf.h), NULL if it has none. */
const struct bb_btf *obj_btf(const struct bb_obj *obj);
void obj_close(struct bb_obj *obj); /* closes fds, frees; NULL is fine */

/* ---- tracefs (tracefs.c) ---- */
/*
 * Find tracefs (mounting tracefs or debugfs if neither is mounted).
 * Returns 0 if it was there, or BB_MOUNTED_* if it had to mount it: the
 * caller then owes a tracefs_unmount() (a session does this itself).
 */
#define BB_MOUNTED_TRACEFS 1 /* tracefs on /sys/kernel/tracing */
#define BB_MOUNTED_DEBUGFS 2 /* debugfs on /sys/kernel/debug */
int tracefs_find(char *path, size_t len, struct bb_err *err);
int tracefs_unmount(int mounted);
/*
 * Unmount what tracefs_find mounted in this process and nobody unmounted
 * yet: the command line's last word, for an exit path that skipped its
 * cleanup. Returns 0 or -errno.
 */
int tracefs_unmount_owed(void);
/* Read a whole file below tracefs into a malloc'ed NUL-terminated buffer. */
int tracefs_read(const char *tracefs, const char *rel, char **buf);
/* One write() of text to a file below tracefs (O_APPEND). */
int tracefs_append(const char *tracefs, const char *rel, const char *text);
/* Trace event id of events/<category>/<name>/id. */
int tracefs_event_id(const char *tracefs, const char *category,
		     const char *name);

struct bb_tp_field {
	char name[64];
	char type[64]; /* the declaration without the name: "char[16]" */
	int offset;
	int size;
	int is_signed;
};
/* Pure: parse the text of a format file. Returns the number of fields. */
int tp_format_parse(const char *text, struct bb_tp_field *fields, int max);
/* Every field of events/<category>/<event>/format, in *fields (freed by
 * the caller). Returns how many, or -errno. */
int tp_fields(const char *tracefs, const char *category, const char *event,
	      struct bb_tp_field **fields, struct bb_err *err);
/* Field `field` of fields[0..n-1] (from tp_fields), or -ENOENT saying so. */
int tp_fields_find(const struct bb_tp_field *fields, int n,
		   const char *tracefs, const char *category,
		   const char *event, const char *field,
		   struct bb_tp_field *out, struct bb_err *err);
/* Look a field up in events/<category>/<event>/format. */
int tp_field(const char *tracefs, const char *category, const char *event,
	     const char *field, struct bb_tp_field *out, struct bb_err *err);

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
 * every other program that closes or names that state (see attach.c).
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

/* ---- perf event array reader (perfbuf.c) ---- */
typedef void (*perfbuf_sample_fn)(void *ctx, int cpu, const void *data,
				  uint32_t size);
struct bb_perfbuf;
/* Open one ring per possible CPU and store their fds in map_fd. */
int perfbuf_open(struct bb_perfbuf **pbp, int map_fd, int pages_per_cpu,
		 perfbuf_sample_fn fn, void *ctx, struct bb_err *err);
/*
 * The rings wake their reader at a watermark (a quarter full), so a record
 * may wait in its ring until a poll times out: perfbuf_poll waits at most
 * this long, which bounds the delay from a record to its delivery.
 */
#define PERFBUF_MAX_DELAY_MS 100
/* Wait up to timeout_ms (at most PERFBUF_MAX_DELAY_MS), then deliver every
 * pending sample. */
int perfbuf_poll(struct bb_perfbuf *pb, int timeout_ms);
uint64_t perfbuf_lost(const struct bb_perfbuf *pb);
/*
 * Pure: the pages per CPU of a ring, given a tool's least (a power of two)
 * and the machine: 1/512 of mem_bytes over ncpus rings, a power of two,
 * at most PERFBUF_MAX_RING_BYTES, never fewer than pages. A ring of 64
 * pages (256 KiB) fills in a millisecond at a million events a second,
 * sooner than a reader on a busy machine is scheduled again.
 */
#define PERFBUF_MAX_RING_BYTES (16UL << 20)
int perfbuf_pages_scaled(int pages, uint64_t mem_bytes, int ncpus,
			 size_t page_size);
void perfbuf_close(struct bb_perfbuf *pb);

/* ---- kernel symbols (kallsyms.c) ---- */
struct bb_ksym {
	uint64_t addr;
	const char *name;
};
struct bb_ksyms;
int ksyms_load(struct bb_ksyms **ksp, const char *path, struct bb_err *err);
/* Pure: parse text in /proc/kallsyms format. */
int ksyms_parse(struct bb_ksyms **ksp, const char *text);
/* The symbol at or below addr (offset in *off), or NULL. */
const struct bb_ksym *ksyms_find(const struct bb_ksyms *ks, uint64_t addr,
				 uint64_t *off);
int ksyms_has(const struct bb_ksyms *ks, const char *name);
void ksyms_free(struct bb_ksyms *ks);
/*
 * The addresses of names[0..n-1] (any symbol type: data too, where the
 * kernel lists it, CONFIG_KALLSYMS_ALL) in one pass over path (NULL:
 * /proc/kallsyms), without indexing the rest: addrs[i] 0 where not found
 * (or hidden by kptr_restrict). Returns how many were found, or -errno.
 * ksyms_lookup_text: the same on text in that format (pure).
 */
int ksyms_lookup(const char *path, const char *const *names, int n,
		 uint64_t *addrs, struct bb_err *err);
int ksyms_lookup_text(const char *text, const char *const *names, int n,
		      uint64_t *addrs);

/* ---- sampling (probe/perf_event.c) ---- */
/*
 * A sampling event on one CPU (all tasks) at hz samples a second running
 * prog_fd (a perf_event program): the hardware cycles counter, or with sw
 * (or where there is no PMU, as in most VMs: *sw is then set) the
 * software cpu-clock. The perf fd, or -errno (-ENODEV: the CPU is
 * offline).
 */
int perf_sample_open(int cpu, unsigned hz, int prog_fd, int *sw);

/* ---- stacks (stack.c) ---- */
#define BB_MAX_STACK 127 /* PERF_MAX_STACK_DEPTH: stack map value size/8 */
/* Copy stack `stackid` of a stack trace map into ips; returns the depth. */
int stack_read(int map_fd, int stackid, uint64_t *ips, int max);
/* Put ret, a probed function's return address (PT_REGS_ENTRY_RET), after
 * ips[0] unless it is 0 or already there; returns the new depth (n if
 * n < 1). */
int stack_add_entry_ret(uint64_t *ips, int n, int max, uint64_t ret);
/*
 * Empty a stack trace map: a stack map is a hash of buckets that only
 * fills, and a new stack whose bucket holds another fails (EEXIST) for the
 * rest of the run. Returns how many stacks it held.
 */
int stack_map_clear(int map_fd, uint32_t max_entries);

#include "usyms.h"

/* ---- disks (disk.c) ---- */
/* Kernel dev_t (major << 20 | minor) <-> disk name, via /sys/block. */
int disk_name(uint32_t kdev, char *name, size_t len);
int disk_kdev(const char *name, uint32_t *kdev);

#endif
