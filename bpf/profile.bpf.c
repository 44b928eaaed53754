/* SPDX-License-Identifier: MIT */
/*
 * profile: a perf_event program (one perf event per CPU sampling at -F
 * HZ, loader/mods/profile.c) counting samples by thread, command and
 * kernel and user stack (stackkey.h), as bcc's profile.
 *
 * Constants: filter_tgid (0: every process), kstack, ustack (take that
 * stack), idle (count the idle task, pid 0: bcc's -I), build_id (user
 * stacks into `ustacks`, which the loader then makes a build-id stack map:
 * --build-id, stackkey.h).
 */
#include "bb_helpers.h"
#include "profile.h"

BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       PROFILE_STACKS);
/* one entry, unused, unless build_id (the loader sizes it then) */
BB_MAP(ustacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64), 1);
BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(struct stack_key), sizeof(u64),
       PROFILE_COUNTS);
BB_DROPS_MAP();

/* The context is struct bpf_perf_event_data (its pt_regs first): only
 * handed to bpf_get_stackid, never read here. */
SEC("bb_perf_event")
int do_sample(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tgid = id >> 32, filter = BB_CONST(filter_tgid);
	struct stack_key key = {};

	if (filter && tgid != filter)
		return 0;
	if ((u32)id == 0 && !BB_CONST(idle))
		return 0;
	key.pid = (u32)id;
	key.tgid = tgid;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.kstack = -1;
	key.ustack = -1;
	if (BB_CONST(kstack))
		key.kstack = bpf_get_stackid(ctx, &stacks, 0);
	if (BB_CONST(ustack) && BB_CONST(build_id))
		key.ustack = bpf_get_stackid(ctx, &ustacks, BPF_F_USER_STACK);
	else if (BB_CONST(ustack))
		key.ustack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	bb_hist_add(&counts, &key, 1, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
