/* SPDX-License-Identifier: MIT */
/*
 * loader/obj/: BPF ELF objects, the public part: open an object held in
 * memory, set its constants, load it against what this kernel takes
 * (kcaps), and find its programs and maps; the embedded objects' codec
 * (lz.c) and the verifier log's sentence (verifier.c). obj_internal.h is
 * the folder's own (and the tests'); skel.h names an object's constants
 * and maps by the ids of its generated header. Library rules (barebpf.h).
 */
#ifndef BAREBPF_OBJ_H
#define BAREBPF_OBJ_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"
#include "../../bpf/bb_elf.h"

/* ---- the verifier's log (verifier.c) ---- */
/* Pure: a sentence on why the verifier refused a program
 * (E2BIG: it gave up after N instructions; a truncated log), or "". */
void bpf_verifier_explain(int err, const char *log, int truncated,
			  char *buf, size_t len);

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
	BB_PROG_RAW_TRACEPOINT, /* a copy only (obj_prog_load_copy): its
				 * target the tracepoint's name alone */
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
/* Load-time constants that fit 32 signed bits become a mov of an
 * immediate (and a ja +0), not an ld_imm64: before 4.11 the verifier
 * knows the value of a mov, not of an ld_imm64, and so takes it as a
 * helper's size or an offset on the stack, and walks only the branch it
 * decides (trace_kprobe_old on 4.9). */
void obj_set_const_mov(struct bb_obj *obj);
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
 * its constants keep it from reading pt_regs; a tracepoint program as a
 * raw tracepoint one, 4.17+, if they keep it from reading the event's
 * fields). The copy belongs to obj: obj_close closes it. Its insns are
 * not kept (NULL).
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

/*
 * The interpreter's tail-call frame (tailframe.c: 6.9+ runs a tail-called
 * program in its caller's frame, sized by the caller's depth): whether
 * instructions call bpf_tail_call; how deep below r10 they reach; a copy
 * (*out, freed by the caller) with a store at r10 - 512 first, which
 * gives the program, and its callees, the whole 512-byte frame.
 */
int tailframe_calls_tail(const struct bpf_insn *in, size_t n);
int tailframe_depth(const struct bpf_insn *in, size_t n);
int tailframe_pad(const struct bpf_insn *in, size_t n,
		  struct bpf_insn **out);

#endif
