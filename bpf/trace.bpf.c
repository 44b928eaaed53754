/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace: one perf event array record per call of a probed kernel function
 * or tracepoint, with the values its probe asks for, if its conditions
 * hold, and if asked the kernel and user stacks.
 *
 * Everything a probe wants is a load-time constant (see trace.h): the tool
 * loads a copy of trace_kprobe (kprobes and kretprobes alike) or trace_tp
 * per probe. Linux 4.15 has no loops and no bpf-to-bpf calls, so the slots
 * and conditions are unrolled; a slot or condition whose constants say
 * "unused" is a branch the verifier decides from a known register and
 * never walks. The record (2 KiB) lives in a per-CPU array: the stack has
 * 512 bytes.
 */
#include "bb_helpers.h"
#include "taskdev.h"
#include "trace.h"

BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       TRACE_STACK_ENTRIES);
BB_MAP(stacks1, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       TRACE_STACK_ENTRIES);
BB_MAP(stack_gen, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_MAP(counters, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TRACE_NCOUNTERS);
BB_MAP(scratch, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32),
       sizeof(struct trace_event), 1);

/* a map pointer must be a constant: one call per map */
static __always_inline int stackid(void *ctx, u32 which, u64 flags)
{
	if (which)
		return bpf_get_stackid(ctx, &stacks1, flags);
	return bpf_get_stackid(ctx, &stacks, flags);
}

/* Sign or zero extension (TRACE_EXT) of the low bytes of v. */
static __always_inline u64 extend(u64 v, u64 ext)
{
	u64 sh = TRACE_EXT_SHIFT(ext);

	v <<= sh;
	if (TRACE_EXT_SIGNED(ext))
		return (u64)((s64)v >> sh);
	return v >> sh;
}

/*
 * A string from kernel or user memory. Before 5.5 there is only
 * bpf_probe_read_str, which reads either (it copies under KERNEL_DS). From
 * 5.5 the plain helper is what the kernel keeps for old programs (on some
 * architectures it is gone, or it cannot reach user memory); the split
 * helpers say which space they read, so the likely one is tried first
 * and the other if it faults: on x86_64 and arm64 a pointer belongs to
 * one space only, so the wrong one fails instead of reading garbage.
 */
static __always_inline int read_str(char *dst, u32 size, const void *src,
				    int user_first)
{
	long r;

	if (!BB_CONST(split_helpers))
		return bpf_probe_read_str(dst, size, src);
	if (user_first) {
		r = bpf_probe_read_user_str(dst, size, src);
		if (r < 0)
			r = bpf_probe_read_kernel_str(dst, size, src);
	} else {
		r = bpf_probe_read_kernel_str(dst, size, src);
		if (r < 0)
			r = bpf_probe_read_user_str(dst, size, src);
	}
	return r;
}

/*
 * Linux 4.15 to 5.0 forget the value of a constant the compiler spills to
 * the stack and loads again (they track spilled pointers only), and an
 * offset or size of unknown value is refused. So each constant is read
 * (BB_CONST: one ld_imm64) where it is used, not kept across a helper
 * call, and every offset and size is masked to a range the verifier
 * accepts whatever it knows: a known constant stays exact through the
 * mask, an unknown one stays in bounds (the record has TRACE_STR_MAX bytes
 * of slack past str[]).
 */
#define STROFF(x) ((x) & (TRACE_STR_AREA - 1))
#define STRSIZE(x) ((((x) - 1) & (TRACE_STR_MAX - 1)) + 1)

static __always_inline void zero64(char *dst)
{
	u64 *z = (u64 *)dst;

	z[0] = 0; z[1] = 0; z[2] = 0; z[3] = 0;
	z[4] = 0; z[5] = 0; z[6] = 0; z[7] = 0;
}

/* Where slot i's value lies: base + off (+ disp, + an index). */
static __always_inline const char *slot_src(void *ctx, struct trace_event *e,
					    u64 base, u64 off, u64 disp,
					    u64 idx, u64 shift)
{
	const char *regs = 0;
	u64 a;

	if (base == TRACE_BASE_REC)
		return (const char *)e + (off & 63);
	if (base == TRACE_BASE_UMEM) {
		a = BB_KREAD_ULONG((const char *)ctx + off) + disp;
		if (idx)
			a += BB_KREAD_ULONG((const char *)ctx + idx - 1)
			     << (shift & 3);
		return (const char *)a;
	}
	if (base != TRACE_BASE_REGS)
		return (const char *)ctx + off;
	/* a syscall wrapper (__x64_sys_*): its first argument is the
	 * pt_regs of the system call */
	regs = (const char *)BB_KREAD_ULONG((const char *)ctx +
					    BB_CONST(regs_off));
	return regs + off;
}

/*
 * Slot i: the value at base + off, and the string it leads to. Fields are
 * copied with probe_read: 4.15 refuses context loads at offsets that are
 * not immediates, and every offset here comes from a constant.
 */
#define SLOT(i)                                                                \
	if (BB_CONST(s##i##_base)) {                                           \
		const char *src = slot_src(ctx, e, BB_CONST(s##i##_base),      \
					   BB_CONST(s##i##_off),               \
					   BB_CONST(s##i##_disp),              \
					   BB_CONST(s##i##_idx),               \
					   BB_CONST(s##i##_shift));            \
		const char *sp;                                                \
		char *dst;                                                     \
		u64 v = 0;                                                     \
                                                                               \
		if (BB_CONST(s##i##_dref))                                     \
			src = (const char *)BB_KREAD_ULONG(src) +              \
			      BB_CONST(s##i##_dref) - 1;                       \
                                                                               \
		if (BB_CONST(s##i##_base) == TRACE_BASE_CONST)                 \
			v = BB_CONST(s##i##_off);                              \
		else if (BB_CONST(s##i##_base) == TRACE_BASE_UMEM)             \
			bpf_probe_read_user(&v,                                \
				((BB_CONST(s##i##_size) - 1) & 7) + 1, src);   \
		else                                                           \
			bpf_probe_read(&v,                                     \
				((BB_CONST(s##i##_size) - 1) & 7) + 1, src);   \
		v = extend(extend(v, BB_CONST(s##i##_ext1)),                   \
			   BB_CONST(s##i##_ext2));                             \
		e->val[i] = v;                                                 \
		if (BB_CONST(s##i##_str)) {                                    \
			dst = e->str + STROFF(BB_CONST(s##i##_stroff));        \
			if (BB_CONST(s##i##_zero))                             \
				zero64(dst);                                   \
			if (BB_CONST(s##i##_str) == TRACE_STR_INLINE)          \
				sp = src;                                      \
			else if (BB_CONST(s##i##_str) == TRACE_STR_LOC)        \
				sp = (const char *)ctx +                       \
				     BB_CONST(s##i##_strbase) + (v & 0xffff);  \
			else                                                   \
				sp = (const char *)v;                          \
			e->str_ret[i] = read_str(                              \
				dst, STRSIZE(BB_CONST(s##i##_strsize)), sp,    \
				BB_CONST(s##i##_str) == TRACE_STR_UPTR);       \
		}                                                              \
	}

/* Condition j, 1 if it holds (before its negation): the slot's value,
 * masked, against k; or its string against w0..w7. */
#define FC(j, name) BB_CONST(f##j##_##name)
#define TEST(j)                                                                \
	({                                                                     \
		u64 v = e->val[FC(j, slot) & (TRACE_NSLOTS - 1)] &             \
			FC(j, mask);                                           \
		const u64 *h;                                                  \
		u64 r = 0;                                                     \
                                                                               \
		switch (FC(j, op)) {                                           \
		case TRACE_OP_EQ:                                              \
			r = v == FC(j, k);                                     \
			break;                                                 \
		case TRACE_OP_LTS:                                             \
			r = (s64)v < (s64)FC(j, k);                            \
			break;                                                 \
		case TRACE_OP_LES:                                             \
			r = (s64)v <= (s64)FC(j, k);                           \
			break;                                                 \
		case TRACE_OP_LTU:                                             \
			r = v < FC(j, k);                                      \
			break;                                                 \
		case TRACE_OP_LEU:                                             \
			r = v <= FC(j, k);                                     \
			break;                                                 \
		case TRACE_OP_STREQ:                                           \
			h = (const u64 *)(e->str + STROFF(FC(j, stroff)));     \
			r = h[0] == FC(j, w0) && h[1] == FC(j, w1) &&          \
			    h[2] == FC(j, w2) && h[3] == FC(j, w3) &&          \
			    h[4] == FC(j, w4) && h[5] == FC(j, w5) &&          \
			    h[6] == FC(j, w6) && h[7] == FC(j, w7);            \
			break;                                                 \
		}                                                              \
		r ^ FC(j, neg);                                                \
	})

#define TERM(j)                                                                \
	if (FC(j, op)) {                                                       \
		u64 t = TEST(j);                                               \
                                                                               \
		any |= t;                                                      \
		all &= t;                                                      \
	}

static __always_inline int trace(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), ug, any = 0, all = 1;
	u32 tgid = id >> 32, key = 0;
	struct trace_event *e;
	u64 *cnt;

	if (BB_CONST(filter_tgid) && tgid != BB_CONST(filter_tgid))
		return 0;
	if (BB_CONST(filter_tid) && (u32)id != BB_CONST(filter_tid))
		return 0;
	if (BB_CONST(self_tgid) && tgid == BB_CONST(self_tgid))
		return 0;
	if (BB_CONST(filter_dev) && taskdev_get() != BB_CONST(filter_dev))
		return 0;
	e = bpf_map_lookup_elem(&scratch, &key);
	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	e->ip = 0;
	e->entry_ret = 0;
	if (BB_CONST(is_kprobe)) {
		e->ip = PT_REGS_IP((struct pt_regs *)ctx);
		e->entry_ret = PT_REGS_ENTRY_RET((struct pt_regs *)ctx);
	}
	e->tgid = tgid;
	e->tid = (u32)id;
	ug = bpf_get_current_uid_gid();
	e->uid = (u32)ug;
	e->gid = ug >> 32;
	/*
	 * Only where $cpu is tested or printed by the program: from 7.x a
	 * kernel whose JIT supports per-CPU instructions inlines this helper
	 * with one, and then refuses the program when the JIT is off
	 * (riscv64 7.2 as Debian ships it: "program requires BPF JIT
	 * compiler"). The record goes out on this CPU's ring
	 * (BPF_F_CURRENT_CPU), so the reader knows the CPU anyway.
	 */
	e->cpu = BB_CONST(want_cpu) ? bpf_get_smp_processor_id() : 0;
	e->probe = BB_CONST(probe_id);
	e->kstack = -1;
	e->ustack = -1;
	e->stack_map = 0;
	e->pad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));

	SLOT(0);
	SLOT(1);
	SLOT(2);
	SLOT(3);
	SLOT(4);
	SLOT(5);
	SLOT(6);
	SLOT(7);
	TERM(0)
	TERM(1)
	TERM(2)
	TERM(3)
	if (BB_CONST(filter_or) ? !any : !all)
		return 0;

	if (BB_CONST(kstack) || BB_CONST(ustack)) {
		u32 *gen = bpf_map_lookup_elem(&stack_gen, &key);

		e->stack_map = gen ? *gen & 1 : 0;
	}
	if (BB_CONST(kstack))
		e->kstack = stackid(ctx, e->stack_map, 0);
	if (BB_CONST(ustack))
		e->ustack = stackid(ctx, e->stack_map, BPF_F_USER_STACK);
	/*
	 * Count what is sent: before 5.4 bpf_perf_event_output does not say
	 * when the ring was full, and PERF_RECORD_LOST only shows once a
	 * later record fits. emitted - received is the loss, whatever the
	 * kernel.
	 */
	cnt = bpf_map_lookup_elem(&counters, &key);
	if (cnt)
		*cnt += 1;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e,
			      ((BB_CONST(rec_size) - 1) &
			       (TRACE_EVENT_SIZE - 1)) + 1);
	return 0;
}

/*
 * Before 4.11 (trace_kprobe_old): helpers take the stack only, so the
 * record is built there (TRACE_OLD_EVENT_SIZE bytes, cleared first: a
 * helper reads only what was written), and there is no
 * bpf_probe_read_str (the loader makes it a bpf_probe_read of the same
 * size). The verifier of 4.9 knows an ld_imm64 as a constant and follows
 * only the branch a constant takes, and takes the stack pointer plus a
 * known constant; but a constant through any other arithmetic (a mask, a
 * shift) is unknown to it, and helper sizes and stack offsets must be
 * known. So sizes and offsets here are the constants themselves, unmasked
 * (the tool keeps them in bounds; the loader makes them movs of an
 * immediate, obj_set_const_mov), a condition's value is at valoff.
 */
#define SLOT_OLD(i)                                                            \
	if (BB_CONST(s##i##_base)) {                                           \
		const char *src = slot_src(ctx, e, BB_CONST(s##i##_base),      \
					   BB_CONST(s##i##_off),               \
					   BB_CONST(s##i##_disp),              \
					   BB_CONST(s##i##_idx),               \
					   BB_CONST(s##i##_shift));            \
		const char *sp;                                                \
		char *dst;                                                     \
                                                                               \
		if (BB_CONST(s##i##_dref))                                     \
			src = (const char *)BB_KREAD_ULONG(src) +              \
			      BB_CONST(s##i##_dref) - 1;                       \
		tmp = 0;                                                       \
		if (BB_CONST(s##i##_base) == TRACE_BASE_CONST)                 \
			tmp = BB_CONST(s##i##_off);                            \
		else                                                           \
			bpf_probe_read(&tmp, BB_CONST(s##i##_size), src);      \
		tmp = extend(extend(tmp, BB_CONST(s##i##_ext1)),               \
			     BB_CONST(s##i##_ext2));                           \
		e->val[i] = tmp;                                               \
		if (BB_CONST(s##i##_str)) {                                    \
			dst = e->str + BB_CONST(s##i##_stroff);                \
			if (BB_CONST(s##i##_zero))                             \
				zero64(dst);                                   \
			if (BB_CONST(s##i##_str) == TRACE_STR_INLINE)          \
				sp = src;                                      \
			else if (BB_CONST(s##i##_str) == TRACE_STR_LOC)        \
				sp = (const char *)ctx +                       \
				     BB_CONST(s##i##_strbase) +                \
				     (tmp & 0xffff);                           \
			else                                                   \
				sp = (const char *)tmp;                        \
			e->str_ret[i] = bpf_probe_read_str(                    \
				dst, BB_CONST(s##i##_strsize), sp);            \
		}                                                              \
	}

/*
 * STRCMP before 4.11: the string was read as a fixed size, with what
 * follows its NUL; so word k of it is compared in its first slen bytes
 * only (the string and its NUL: equal there is equal as strings).
 */
static __always_inline u64 wmask(u64 slen, u64 k)
{
	if (slen >= 8 * k + 8)
		return ~0ULL;
	if (slen <= 8 * k)
		return 0;
	return (1ULL << (8 * (slen - 8 * k))) - 1;
}
#define WEQ(j, k) ((h[k] & wmask(FC(j, slen), k)) == FC(j, w##k))

#define TEST_OLD(j)                                                            \
	({                                                                     \
		u64 v = *(const u64 *)((const char *)e + FC(j, valoff)) &     \
			FC(j, mask);                                           \
		const u64 *h;                                                  \
		u64 r = 0;                                                     \
                                                                               \
		switch (FC(j, op)) {                                           \
		case TRACE_OP_EQ:                                              \
			r = v == FC(j, k);                                     \
			break;                                                 \
		case TRACE_OP_LTS:                                             \
			r = (s64)v < (s64)FC(j, k);                            \
			break;                                                 \
		case TRACE_OP_LES:                                             \
			r = (s64)v <= (s64)FC(j, k);                           \
			break;                                                 \
		case TRACE_OP_LTU:                                             \
			r = v < FC(j, k);                                      \
			break;                                                 \
		case TRACE_OP_LEU:                                             \
			r = v <= FC(j, k);                                     \
			break;                                                 \
		case TRACE_OP_STREQ:                                           \
			h = (const u64 *)(e->str + FC(j, stroff));             \
			r = WEQ(j, 0) && WEQ(j, 1) && WEQ(j, 2) &&             \
			    WEQ(j, 3) && WEQ(j, 4) && WEQ(j, 5) &&             \
			    WEQ(j, 6) && WEQ(j, 7);                            \
			break;                                                 \
		}                                                              \
		r ^ FC(j, neg);                                                \
	})

#define TERM_OLD(j)                                                            \
	if (FC(j, op)) {                                                       \
		u64 t = TEST_OLD(j);                                           \
                                                                               \
		any |= t;                                                      \
		all &= t;                                                      \
	}

static __always_inline int trace_old(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), ug, any = 0, all = 1, tmp = 0;
	u64 buf[TRACE_OLD_EVENT_SIZE / 8];
	struct trace_event *e = (struct trace_event *)buf;
	u32 tgid = id >> 32, key = 0;
	u64 *cnt;
	int k;

	if (BB_CONST(filter_tgid) && tgid != BB_CONST(filter_tgid))
		return 0;
	if (BB_CONST(filter_tid) && (u32)id != BB_CONST(filter_tid))
		return 0;
	if (BB_CONST(self_tgid) && tgid == BB_CONST(self_tgid))
		return 0;
	if (BB_CONST(filter_dev) && taskdev_get() != BB_CONST(filter_dev))
		return 0;
#pragma unroll
	for (k = 0; k < TRACE_OLD_EVENT_SIZE / 8; k++)
		buf[k] = 0;
	e->ts = bpf_ktime_get_ns();
	if (BB_CONST(is_kprobe)) {
		e->ip = PT_REGS_IP((struct pt_regs *)ctx);
		e->entry_ret = PT_REGS_ENTRY_RET((struct pt_regs *)ctx);
	}
	e->tgid = tgid;
	e->tid = (u32)id;
	ug = bpf_get_current_uid_gid();
	e->uid = (u32)ug;
	e->gid = ug >> 32;
	e->cpu = BB_CONST(want_cpu) ? bpf_get_smp_processor_id() : 0;
	e->probe = BB_CONST(probe_id);
	e->kstack = -1;
	e->ustack = -1;
	bpf_get_current_comm(e->comm, sizeof(e->comm));

	SLOT_OLD(0);
	SLOT_OLD(1);
	SLOT_OLD(2);
	SLOT_OLD(3);
	SLOT_OLD(4);
	SLOT_OLD(5);
	SLOT_OLD(6);
	SLOT_OLD(7);
	TERM_OLD(0)
	TERM_OLD(1)
	TERM_OLD(2)
	TERM_OLD(3)
	if (BB_CONST(filter_or) ? !any : !all)
		return 0;

	if (BB_CONST(kstack) || BB_CONST(ustack)) {
		u32 *gen = bpf_map_lookup_elem(&stack_gen, &key);

		e->stack_map = gen ? *gen & 1 : 0;
	}
	if (BB_CONST(kstack))
		e->kstack = stackid(ctx, e->stack_map, 0);
	if (BB_CONST(ustack))
		e->ustack = stackid(ctx, e->stack_map, BPF_F_USER_STACK);
	cnt = bpf_map_lookup_elem(&counters, &key);
	if (cnt)
		*cnt += 1;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e,
			      BB_CONST(rec_size));
	return 0;
}

SEC("kprobe")
int trace_kprobe_old(void *ctx)
{
	return trace_old(ctx);
}

/*
 * One program for kprobes, kretprobes and tracepoints: the tool loads a
 * copy per probe as the kind it needs (obj_prog_load_copy). Its code
 * reads its context only through probe_read and helpers, except where
 * is_kprobe (0 for a tracepoint copy) allows.
 */
SEC("kprobe")
int trace_kprobe(void *ctx)
{
	return trace(ctx);
}

char _license[] SEC("license") = "GPL";
