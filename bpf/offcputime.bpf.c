/* SPDX-License-Identifier: MIT */
/*
 * offcputime: time blocked per stack, as bcc's offcputime. At
 * sched:sched_switch the task leaving the CPU is the current one: its
 * stacks are taken there and kept with the time in `start`, by thread; the
 * task coming in (next_pid) finds its entry and adds the microseconds it
 * was off CPU to its key (stackkey.h) in `counts`.
 *
 * Constants: filter_tgid, filter_pid (0: all), user_only, kernel_only
 * (threads with or without a user space: a kernel thread's user stack is
 * -EFAULT), min_us, max_us (bcc's -m, -M), tpoff_next_pid, build_id (user
 * stacks into `ustacks`, a build-id stack map then: --build-id).
 */
#include "bb_helpers.h"
#include "offcputime.h"

#define BB_EFAULT 14

struct start_val {
	u64 ts;
	struct stack_key key;
};

BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       OFFCPU_STACKS);
/* one entry, unused, unless build_id (the loader sizes it then) */
BB_MAP(ustacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64), 1);
BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(struct stack_key), sizeof(u64),
       OFFCPU_COUNTS);
BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct start_val),
       OFFCPU_STARTS);
BB_DROPS_MAP();

/* The thread filters, before any stack is taken: a stack taken for a
 * thread left out would fill the stack map (and make collisions) all the
 * same. */
static __always_inline int wanted(u32 pid, u32 tgid)
{
	u32 ft = BB_CONST(filter_tgid), fp = BB_CONST(filter_pid);

	if (pid == 0)
		return 0; /* the idle task: bcc skips it too */
	if (ft && tgid != ft)
		return 0;
	if (fp && pid != fp)
		return 0;
	return 1;
}

/* -u, -k: a kernel thread has no user stack (-EFAULT) */
static __always_inline int wanted_kind(int ustack)
{
	if (BB_CONST(user_only) && ustack == -BB_EFAULT)
		return 0;
	if (BB_CONST(kernel_only) && ustack != -BB_EFAULT)
		return 0;
	return 1;
}

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), delta;
	u32 pid = (u32)id, next = 0;
	struct start_val sv = {}, *sp;

	if (wanted(pid, id >> 32) && BB_CONST(build_id))
		sv.key.ustack = bpf_get_stackid(ctx, &ustacks,
						BPF_F_USER_STACK);
	else if (wanted(pid, id >> 32))
		sv.key.ustack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	if (wanted(pid, id >> 32) && wanted_kind(sv.key.ustack)) {
		sv.ts = now;
		sv.key.pid = pid;
		sv.key.tgid = id >> 32;
		sv.key.kstack = bpf_get_stackid(ctx, &stacks, 0);
		bpf_get_current_comm(sv.key.comm, sizeof(sv.key.comm));
		bb_update(&start, &pid, &sv, BPF_ANY, &drops);
	}
	BB_TP_READ(next, ctx, tpoff_next_pid);
	sp = bpf_map_lookup_elem(&start, &next);
	if (!sp)
		return 0;
	/* a copy on the stack: 4.15 takes no map value as a key */
	sv = *sp;
	bpf_map_delete_elem(&start, &next);
	if (now <= sv.ts)
		return 0;
	delta = (now - sv.ts) / 1000;
	if (delta >= BB_CONST(min_us) && delta <= BB_CONST(max_us))
		bb_hist_add(&counts, &sv.key, delta, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
