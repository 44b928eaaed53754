/* SPDX-License-Identifier: GPL-2.0 */
/*
 * breakdown: where the time of a slow call of MAIN went, child by child
 * (timing.py of latency-investigation-timing.txt, without BTF).
 *
 * Every probed function has a kprobe and a kretprobe. 4.15 offers no
 * attach cookie and no bpf_get_func_ip (a kretprobe's ip is the
 * trampoline), so a program cannot tell which function it was attached
 * to: each function gets its own pair of slot programs, bd_e<n> and
 * bd_r<n>, whose id n is a compile-time constant. Slots are tiny: they
 * leave n in a per-CPU scratch word (kprobe programs do not nest on a
 * CPU) and tail-call the one entry or return program, so that the body
 * is not copied BD_MAX_FUNCS times into the binary.
 *
 * Per task, a stack of frames {function id, entry time, time in probed
 * callees}; a function already active on the task (recursion) only counts
 * a call, so a function has at most one frame and the stack at most
 * BD_MAX_FUNCS. A missed return (kretprobe maxactive exhausted) must not
 * corrupt it: a return finds its function's frame (pos[]) below frames
 * whose returns never came, and drops those by lowering the depth
 * (counted, BD_DROPPED, and in the record), with no loop; an entry with
 * a stack pointer at or above MAIN's entry means MAIN's own return was
 * missed: that call is dropped (BD_STALE).
 *
 * Constants: min_ns (records for MAIN calls at least this long),
 * filter_tgid (0: all), comm0, comm1 (the -n name as two little-endian
 * words; 0: any), kstack (take MAIN's kernel stack).
 */
#include "bb_helpers.h"
#include "breakdown.h"

/* every variable index is masked: 4.15's verifier loses the bounds of
 * 32-bit arithmetic (d - 1 zero-extended is "unbounded") */
#define M(i) ((i) & (BD_MAX_FUNCS - 1))

BB_MAP(tasks, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct bd_task), 10240);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       BD_NSTATS);
BB_MAP(cur, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_MAP(jmp, BPF_MAP_TYPE_PROG_ARRAY, sizeof(u32), sizeof(u32), 2);
BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       1024);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count_n(u32 k, u64 n)
{
	u64 *v = bpf_map_lookup_elem(&stats, &k);

	if (v)
		*v += n; /* per-CPU: no other writer */
}
#define count(k) count_n(k, 1)

static __always_inline u32 cur_fid(void)
{
	u32 k = 0, *f = bpf_map_lookup_elem(&cur, &k);

	return f ? *f & (BD_MAX_FUNCS - 1) : 0;
}

static __always_inline int main_entry(struct pt_regs *ctx, u32 tid, u64 id,
				      u64 now)
{
	struct bd_task z;

	__builtin_memset(&z, 0, sizeof(z));
	if (BB_CONST(filter_tgid) && (u32)(id >> 32) != BB_CONST(filter_tgid))
		return 0;
	if (BB_CONST(comm0) || BB_CONST(comm1)) {
		u64 w[2] = {};

		bpf_get_current_comm(w, sizeof(w));
		if (w[0] != BB_CONST(comm0) || w[1] != BB_CONST(comm1))
			return 0;
	}
	z.sp = PT_REGS_SP(ctx);
	z.entry_ret = PT_REGS_ENTRY_RET(ctx);
	z.start[0] = now;
	z.depth = 1;
	z.act[0] = 1;
	z.stackid = -1;
	if (BB_CONST(kstack))
		z.stackid = bpf_get_stackid(ctx, &stacks, 0);
	if (bpf_map_update_elem(&tasks, &tid, &z, BPF_ANY))
		count(BD_NO_ROOM);
	return 0;
}

/* Is f active on the task: its frame still on the stack? Frames above
 * a missed return are dropped by lowering depth alone, so act[] of a
 * dropped function may be stale: the frame must still be there. */
static __always_inline int active(struct bd_task *t, u32 f, u32 d)
{
	u32 i = t->pos[f];

	return t->act[f] && i < d && t->fid[M(i)] == f;
}

SEC("kprobe")
int bd_entry(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u32 tid = (u32)id, fid = cur_fid(), d, p;
	struct bd_task *t = bpf_map_lookup_elem(&tasks, &tid);

	/*
	 * Not inside that MAIN call: it returned unseen. A child tail-called
	 * by MAIN (a jump) enters at MAIN's own stack pointer; MAIN again at
	 * that stack pointer is a new call (recursion is deeper).
	 */
	if (t && t->depth && PT_REGS_SP(ctx) + !fid > t->sp) {
		count(BD_STALE);
		bpf_map_delete_elem(&tasks, &tid);
		t = 0;
	}
	if (!t)
		return fid ? 0 : main_entry(ctx, tid, id, now);
	d = t->depth;
	if (d == 0 || d >= BD_MAX_FUNCS)
		return 0;
	t->c[fid].calls++;
	if (active(t, fid, d)) {
		t->act[fid]++; /* recursion: the outermost call is timed */
		return 0;
	}
	p = t->fid[M(d - 1)];
	if (t->c[fid].calls == 1)
		t->c[fid].parent = p;
	else if (t->c[fid].parent != p)
		t->c[fid].parent = BD_MIXED;
	t->act[fid] = 1;
	t->pos[fid] = d;
	t->fid[M(d)] = fid;
	t->start[M(d)] = now;
	t->callee[M(d)] = 0;
	t->depth = d + 1;
	return 0;
}

SEC("kprobe")
int bd_return(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), dur;
	u32 tid = (u32)id, fid = cur_fid(), d, i;
	struct bd_task *t = bpf_map_lookup_elem(&tasks, &tid), r;
	struct bd_child *c;

	if (!t)
		return 0;
	d = t->depth;
	if (!active(t, fid, d))
		return 0; /* entered before we attached, or dropped */
	if (t->act[fid] > 1) {
		t->act[fid]--;
		return 0;
	}
	i = t->pos[fid];
	dur = now - t->start[M(i)];
	/* before any call: 4.9's verifier cannot spill a pointer into a map
	 * value at a variable offset (&t->act[fid]), and reads it back as a
	 * number */
	t->act[fid] = 0;
	t->depth = i;
	if (d - 1 > i) {
		/* the frames above fid's never saw their return */
		t->drops += d - 1 - i;
		count_n(BD_DROPPED, d - 1 - i);
	}
	if (fid) {
		c = &t->c[fid];
		c->total += dur;
		if (dur > c->max)
			c->max = dur;
		if (i)
			t->callee[M(i - 1)] += dur;
		return 0;
	}
	count(BD_MAIN_CALLS);
	if (dur < BB_CONST(min_ns)) {
		bpf_map_delete_elem(&tasks, &tid);
		return 0;
	}
	/*
	 * The record is sent from the stack: 4.9's helpers take stack memory
	 * only (a map value from 4.11). Copied whole (424 bytes: the slot's
	 * frame is the whole BPF stack, see slot()), before the delete.
	 */
	bpf_probe_read(&r, sizeof(r), t);
	bpf_map_delete_elem(&tasks, &tid);
	count(BD_SLOW);
	r.ts = now;
	r.dur = dur;
	r.self = dur - r.callee[0];
	r.pid = id >> 32;
	r.tid = tid;
	bpf_get_current_comm(r.comm, sizeof(r.comm));
	count(BD_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}

/* One pair per function id: n in the scratch word, then the body (the
 * kretprobe section is what makes the loader attach a return probe).
 *
 * A slot's frame is the whole BPF stack, its key at the bottom (504 bytes
 * down: the most clang gives this frame; the interpreter rounds up to 512).
 * In the interpreter a tail-called program runs in its caller's frame,
 * which the verifier sizes to 512 for a program that tail-calls; since
 * may_goto (6.9) do_misc_fixups overwrites that with the program's own
 * depth, so a 4-byte slot got a 32-byte frame and bd_entry's 464 bytes
 * (its record zeroed on the stack) overwrote the kernel stack below it:
 * a return to address 0 in the kprobe handler (armv7 6.12, riscv64 7.x,
 * where bpf_jit_enable is 0; vm-tests/stress/bdcrash-*). */
static __always_inline int slot(struct pt_regs *ctx, u32 n, u32 ret)
{
	u32 k[(512 - 8) / sizeof(u32)], *f;

	k[0] = 0;
	f = bpf_map_lookup_elem(&cur, k);
	if (f) {
		*f = n;
		bpf_tail_call(ctx, &jmp, ret);
	}
	return 0;
}

#define BD_SLOT(n)                                                             \
	SEC("kprobe") int bd_e##n(struct pt_regs *ctx)                         \
	{                                                                      \
		return slot(ctx, n, 0);                                        \
	}                                                                      \
	SEC("kretprobe") int bd_r##n(struct pt_regs *ctx)                      \
	{                                                                      \
		return slot(ctx, n, 1);                                        \
	}

BD_SLOT(0)
BD_SLOT(1)
BD_SLOT(2)
BD_SLOT(3)
BD_SLOT(4)
BD_SLOT(5)
BD_SLOT(6)
BD_SLOT(7)

char _license[] SEC("license") = "GPL";
