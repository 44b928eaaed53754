/* SPDX-License-Identifier: MIT */
/*
 * For tests/integration/test_attach.c: count sched:sched_process_exec into
 * slot 0 of an array. The kprobe programs count the same way, so one object
 * serves every attach kind.
 */
#include "bb_helpers.h"

BB_MAP(counts, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 4);

static __always_inline int count(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&counts, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("tracepoint/sched/sched_process_exec")
int count_exec(void *ctx)
{
	return count(0);
}

SEC("kprobe/do_nanosleep")
int count_kprobe(struct pt_regs *ctx)
{
	return count(1);
}

SEC("kretprobe/do_nanosleep")
int count_kretprobe(struct pt_regs *ctx)
{
	return count(2);
}

char _license[] SEC("license") = "GPL";
