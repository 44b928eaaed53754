/* SPDX-License-Identifier: MIT */
/*
 * What barebpf's BPF programs need, without kernel headers or libbpf:
 * fixed-width types, the helper calls that exist in Linux 4.15, section
 * and map macros, pt_regs access and load-time constants.
 *
 * bpf/ holds the BPF side: one <tool>.bpf.c per tool and one <tool>.h that
 * it shares with its module and tool (loader/mods/, loader/tools/: only
 * what crosses the boundary: records, keys, constants; nothing of the user
 * side), the helpers the programs share (this file: the histogram
 * increment too; taskdev.h: the disk a task submits to), and bb_elf.h, the
 * contract with the loader. A .bpf.c includes only headers of this folder;
 * the user side includes the <tool>.h files and bb_elf.h, never a .bpf.c.
 */
#ifndef BAREBPF_BB_HELPERS_H
#define BAREBPF_BB_HELPERS_H

#include "bb_elf.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef signed long long s64;

#define SEC(name) __attribute__((section(name), used))
#define __always_inline inline __attribute__((always_inline))

/* map types used by our programs (values from include/uapi/linux/bpf.h) */
#define BPF_MAP_TYPE_HASH 1
#define BPF_MAP_TYPE_ARRAY 2
#define BPF_MAP_TYPE_PROG_ARRAY 3
#define BPF_MAP_TYPE_PERF_EVENT_ARRAY 4
#define BPF_MAP_TYPE_PERCPU_HASH 5
#define BPF_MAP_TYPE_PERCPU_ARRAY 6
#define BPF_MAP_TYPE_STACK_TRACE 7
#define BPF_MAP_TYPE_LRU_HASH 9
#define BPF_ANY 0
#define BPF_NOEXIST 1
#define BPF_EXIST 2
#define BPF_F_CURRENT_CPU 0xffffffffULL
#define BPF_F_FAST_STACK_CMP (1ULL << 9)
#define BPF_F_USER_STACK (1ULL << 8)

#define BB_MAP(name, t, ksize, vsize, max)                                     \
	struct bb_map_def name SEC("maps") = {                                 \
		.type = (t), .key_size = (ksize), .value_size = (vsize),       \
		.max_entries = (max),                                          \
	}

/* helpers present in 4.15, by number */
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key,
				   const void *value, u64 flags) = (void *)2;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;
static long (*bpf_probe_read)(void *dst, u32 size, const void *src) = (void *)4;
static u64 (*bpf_ktime_get_ns)(void) = (void *)5;
static long (*bpf_trace_printk)(const char *fmt, u32 fmt_size, ...) = (void *)6;
static u32 (*bpf_get_smp_processor_id)(void) = (void *)8;
static u64 (*bpf_get_current_pid_tgid)(void) = (void *)14;
static u64 (*bpf_get_current_uid_gid)(void) = (void *)15;
static long (*bpf_get_current_comm)(void *buf, u32 size) = (void *)16;
static long (*bpf_perf_event_output)(void *ctx, void *map, u64 flags,
				     void *data, u64 size) = (void *)25;
static long (*bpf_get_stackid)(void *ctx, void *map, u64 flags) = (void *)27;
static long (*bpf_probe_read_str)(void *dst, u32 size,
				  const void *src) = (void *)45;
static long (*bpf_tail_call)(void *ctx, void *map, u32 index) = (void *)12;
static u64 (*bpf_perf_event_read)(void *map, u64 flags) = (void *)22;
static u64 (*bpf_get_current_task)(void) = (void *)35; /* 4.8 */
/* 5.5; barebpf rewrites them to bpf_probe_read(_str) on older kernels */
static long (*bpf_probe_read_user)(void *dst, u32 size,
				   const void *src) = (void *)112;
static long (*bpf_probe_read_kernel)(void *dst, u32 size,
				     const void *src) = (void *)113;

/*
 * 5.5+ only: a program that calls them does not load on older kernels, so
 * call them only behind a load-time constant that is 0 there: the verifier
 * never walks a branch a known register decides against, and rewrites what
 * it did not walk (sanitize_dead_code, 4.15 on), so an unknown helper in
 * such a branch is never looked up.
 */
static long (*bpf_probe_read_user_str)(void *dst, u32 size,
				       const void *src) = (void *)114;
static long (*bpf_probe_read_kernel_str)(void *dst, u32 size,
					 const void *src) = (void *)115;

/*
 * A load-time constant: an ld_imm64 against the undefined symbol `name`,
 * which the loader patches with the value the tool sets. Taking the address
 * of an extern is what makes clang emit exactly that instruction. The empty
 * asm hides the value from the optimizer: otherwise it knows that the
 * address of an object is never 0 and folds `if (BB_CONST(flag))` to true.
 */
#define BB_CONST(name)                                                         \
	({                                                                     \
		extern char name[];                                            \
		u64 __bb_v = (u64)(unsigned long)name;                         \
		asm volatile("" : "+r"(__bb_v));                               \
		__bb_v;                                                        \
	})

/*
 * Read a tracepoint field whose offset comes from events/<cat>/<ev>/format
 * at run time. The verifier refuses loads from ctx at a variable offset (and
 * in 4.15 even at ctx+const+const), so the field is copied with probe_read.
 */
#define BB_TP_READ(dst, ctx, offconst)                                         \
	bpf_probe_read(&(dst), sizeof(dst),                                    \
		       (const char *)(ctx) + BB_CONST(offconst))

/*
 * The same field read straight from ctx at `off`, a compile-time offset,
 * where the loader found it there with the size of dst (load-time constant
 * `direct` not 0), else as BB_TP_READ does. A load from ctx is one
 * instruction; bpf_probe_read is a helper call that checks the address
 * and guards against a fault, per field, in programs that run for every
 * block request; bpftrace loads such fields from ctx too. (The difference
 * is a few ns a field: within the noise of make bench on a shared host.)
 * The verifier takes a ctx load only at an offset in the instruction
 * itself, hence the compile-time `off`; where the kernel disagrees (32-bit
 * sector_t before 5.2, a future layout), the constant chooses the read of
 * the offset from the format file, and the verifier leaves the branch not
 * taken out.
 */
#define BB_TP_FIELD(dst, ctx, direct, off, offconst)                           \
	do {                                                                   \
		if (BB_CONST(direct))                                          \
			(dst) = *(const __typeof__(dst) *)((const char *)(ctx) + \
							    (off));            \
		else                                                           \
			BB_TP_READ(dst, ctx, offconst);                        \
	} while (0)

/* struct pt_regs as the kprobe context, per architecture */
#if defined(__TARGET_ARCH_x86)
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx,
		si, di, orig_ax, ip, cs, flags, sp, ss;
};
#define PT_REGS_PARM1(x) ((x)->di)
#define PT_REGS_PARM2(x) ((x)->si)
#define PT_REGS_PARM3(x) ((x)->dx)
#define PT_REGS_RC(x) ((x)->ax)
#define PT_REGS_IP(x) ((x)->ip)
#define PT_REGS_ENTRY_RET(x) 0ULL
#define PT_REGS_SP(x) ((x)->sp)
#elif defined(__TARGET_ARCH_arm64)
struct pt_regs {
	unsigned long regs[31], sp, pc, pstate;
};
#define PT_REGS_PARM1(x) ((x)->regs[0])
#define PT_REGS_PARM2(x) ((x)->regs[1])
#define PT_REGS_PARM3(x) ((x)->regs[2])
#define PT_REGS_RC(x) ((x)->regs[0])
#define PT_REGS_IP(x) ((x)->pc)
#define PT_REGS_ENTRY_RET(x) ((x)->regs[30])
#define PT_REGS_SP(x) ((x)->sp)
#elif defined(__TARGET_ARCH_arm)
/* 32-bit ARM: 4-byte registers (uregs[0..15] are r0..r15, then cpsr and
 * ORIG_r0); in BPF's 64-bit world each reads zero-extended. A function's
 * first 4 arguments are in r0..r3 (AAPCS), a system call's 6 in r0..r5. */
struct pt_regs {
	u32 uregs[18];
};
#define PT_REGS_PARM1(x) ((u64)(x)->uregs[0])
#define PT_REGS_PARM2(x) ((u64)(x)->uregs[1])
#define PT_REGS_PARM3(x) ((u64)(x)->uregs[2])
#define PT_REGS_RC(x) ((u64)(x)->uregs[0])
#define PT_REGS_IP(x) ((u64)(x)->uregs[15])
#define PT_REGS_ENTRY_RET(x) ((u64)(x)->uregs[14])
#define PT_REGS_SP(x) ((u64)(x)->uregs[13])
#elif defined(__TARGET_ARCH_riscv)
/* riscv64: arch/riscv/include/asm/ptrace.h; arguments in a0..a7 */
struct pt_regs {
	unsigned long epc, ra, sp, gp, tp, t0, t1, t2, s0, s1, a0, a1, a2, a3,
		a4, a5, a6, a7, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, t3,
		t4, t5, t6, status, badaddr, cause, orig_a0;
};
#define PT_REGS_PARM1(x) ((x)->a0)
#define PT_REGS_PARM2(x) ((x)->a1)
#define PT_REGS_PARM3(x) ((x)->a2)
#define PT_REGS_RC(x) ((x)->a0)
#define PT_REGS_IP(x) ((x)->epc)
#define PT_REGS_ENTRY_RET(x) ((x)->ra)
#define PT_REGS_SP(x) ((x)->sp)
#else
#error "define __TARGET_ARCH_x86, arm64, arm or riscv"
#endif

/*
 * The kernel's long and pointers: 4 bytes on 32-bit ARM, 8 elsewhere. A
 * read of 8 bytes where the kernel keeps 4 takes the next field as the
 * upper half: every read of a kernel pointer, long or register goes through
 * these (zero-extended for unsigned, sign-extended for signed).
 */
#if defined(__TARGET_ARCH_arm)
typedef u32 bb_kulong;
typedef s32 bb_klong;
#else
typedef u64 bb_kulong;
typedef s64 bb_klong;
#endif
#define BB_KREAD_ULONG(src)                                                    \
	({                                                                     \
		bb_kulong __bb_v = 0;                                          \
		bpf_probe_read(&__bb_v, sizeof(__bb_v), (const void *)(src));  \
		(u64)__bb_v;                                                   \
	})
#define BB_KREAD_LONG(src)                                                     \
	({                                                                     \
		bb_klong __bb_v = 0;                                           \
		bpf_probe_read(&__bb_v, sizeof(__bb_v), (const void *)(src));  \
		(s64)__bb_v;                                                   \
	})
/* A tracepoint field the kernel declares long, unsigned long or a pointer */
#define BB_TP_READ_ULONG(ctx, offconst)                                        \
	BB_KREAD_ULONG((const char *)(ctx) + BB_CONST(offconst))
#define BB_TP_READ_LONG(ctx, offconst)                                         \
	BB_KREAD_LONG((const char *)(ctx) + BB_CONST(offconst))
/* A function's return value as a signed long (an error is negative) */
#define PT_REGS_RC_LONG(x) ((s64)(bb_klong)PT_REGS_RC(x))

/*
 * PT_REGS_ENTRY_RET: in a kprobe at a function's entry, its return address
 * where the kernel's stack walk leaves it out, else 0. arm64 keeps it in the
 * link register (x30) until the prologue stores a frame record, and the
 * frame-pointer walk starts at the caller's record, so the stack of such a
 * kprobe lacks the direct caller (stack_add_entry_ret puts it back; where
 * the walk has it, as through ftrace's frame records, it is not doubled).
 * x86's unwinders find it on the stack.
 */

/*
 * Argument n (1-6) of the system call a syscall probe (ksyscall/<name>,
 * or kprobe/sys_<name>) was attached to, on any kernel: where the kernel's
 * syscall functions take the caller's struct pt_regs * (x86_64 4.17+,
 * arm64 4.19+, riscv64 5.19+; never 32-bit ARM) it is read from there,
 * else from ctx itself. The loader
 * sets bb_syscall_wrapper to what the running kernel does.
 */
#if defined(__TARGET_ARCH_x86)
/* x86_64: a syscall's 4th argument is in r10; a function's in cx */
#define BB__ARG_PTR(r, n, w)                                                   \
	((n) == 1 ? &(r)->di : (n) == 2 ? &(r)->si : (n) == 3 ? &(r)->dx :    \
	 (n) == 4 ? ((w) ? &(r)->r10 : &(r)->cx) : (n) == 5 ? &(r)->r8 :        \
		    &(r)->r9)
#elif defined(__TARGET_ARCH_arm)
#define BB__ARG_PTR(r, n, w) (&(r)->uregs[(n) - 1])
#elif defined(__TARGET_ARCH_riscv)
#define BB__ARG_PTR(r, n, w) (&(r)->a0 + (n) - 1)
#else
#define BB__ARG_PTR(r, n, w) (&(r)->regs[(n) - 1])
#endif
/* Read with bpf_probe_read on both paths: a load at a computed offset of
 * ctx is refused by 4.15's verifier ("ctx+const+const"). */
#define BB_SYSCALL_ARG(ctx, n)                                                 \
	({                                                                     \
		bb_kulong __bb_a = 0;                                          \
		int __bb_w = BB_CONST(bb_syscall_wrapper) != 0;                \
		struct pt_regs *__bb_r = __bb_w ?                              \
			(struct pt_regs *)PT_REGS_PARM1(ctx) : (ctx);          \
		bpf_probe_read(&__bb_a, sizeof(__bb_a),                        \
			       BB__ARG_PTR(__bb_r, n, __bb_w));                \
		(u64)__bb_a;                                                   \
	})

/*
 * Counting in maps without losing counts.
 *
 * A map that is full makes bpf_map_update_elem fail with E2BIG: that event
 * is then counted in slot 0 of a one-entry array named "drops" (the tool
 * reports it at exit), not lost in silence. Declare it with BB_DROPS_MAP.
 */
#define BB_E2BIG 7
#define BB_DROPS_MAP() BB_MAP(drops, BPF_MAP_TYPE_ARRAY, sizeof(u32), \
			      sizeof(u64), 1)

static __always_inline void bb_drop(void *drops)
{
	u32 k = 0;
	u64 *d = bpf_map_lookup_elem(drops, &k);

	if (d)
		__sync_fetch_and_add(d, 1);
}

/* bpf_map_update_elem, counting a failure for want of room as a drop. */
static __always_inline long bb_update(void *map, const void *key,
				      const void *value, u64 flags,
				      void *drops)
{
	long r = bpf_map_update_elem(map, key, value, flags);

	if (r == -BB_E2BIG)
		bb_drop(drops);
	return r;
}

/*
 * Add n to the u64 at key in a hash map, creating the slot if it is
 * missing, without losing a racing increment. The old way (look up; if
 * missing, update with n and BPF_NOEXIST) loses the count of whichever CPU
 * comes second to a new slot: its update fails with EEXIST. Here a missing
 * slot is created as 0 (the second creation fails harmlessly), looked up
 * again, and every count goes in with an atomic add. The reader never
 * deletes (it reads deltas: loader/cli/dhist.c), so a slot once made stays.
 */
static __always_inline void bb_hist_add(void *map, const void *key, u64 n,
					void *drops)
{
	u64 zero = 0, *v = bpf_map_lookup_elem(map, key);

	if (!v) {
		bpf_map_update_elem(map, key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(map, key);
		if (!v) {
			bb_drop(drops); /* full */
			return;
		}
	}
	__sync_fetch_and_add(v, n);
}

/* floor(log2(v)) without loops (4.15 has no bounded loops) */
static __always_inline u32 bb_log2(u32 v)
{
	u32 r, shift;

	r = (v > 0xFFFF) << 4; v >>= r;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline u32 bb_log2l(u64 v)
{
	u32 hi = v >> 32;

	if (hi)
		return bb_log2(hi) + 32;
	return bb_log2(v);
}

#endif
