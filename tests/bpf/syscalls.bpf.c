/* SPDX-License-Identifier: MIT */
/*
 * Syscall probes three ways on kill(2): the old spelling (sys_kill),
 * libbpf's ksyscall/, and a return probe; each counts calls of one
 * process, and the signal numbers are summed through BB_SYSCALL_ARG.
 */
#include "bb_helpers.h"

BB_MAP(calls, BPF_MAP_TYPE_ARRAY, 4, 8, 4);

static __always_inline void count(u32 slot, u64 v)
{
	u64 *p = bpf_map_lookup_elem(&calls, &slot);

	if (p)
		__sync_fetch_and_add(p, v);
}

SEC("kprobe/sys_kill")
int old_spelling(struct pt_regs *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 == BB_CONST(bb_tgid))
		count(0, 1);
	return 0;
}

SEC("ksyscall/kill")
int new_spelling(struct pt_regs *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != BB_CONST(bb_tgid))
		return 0;
	count(1, 1);
	/* kill(pid, sig): the signal number summed in slot 3 */
	count(3, BB_SYSCALL_ARG(ctx, 2));
	return 0;
}

SEC("kretsyscall/kill")
int ret_spelling(struct pt_regs *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 == BB_CONST(bb_tgid))
		count(2, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
