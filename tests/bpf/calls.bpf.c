/* SPDX-License-Identifier: MIT */
/*
 * bpf-to-bpf calls (4.16+): a static and a global function in .text,
 * called from two programs of one section (libbpf takes several programs
 * per section), one of them calling through the other.
 */
#include "bb_helpers.h"

BB_MAP(hits, BPF_MAP_TYPE_ARRAY, 4, 8, 4);

static __attribute__((noinline)) int bump(u32 slot, u64 by)
{
	u64 *v = bpf_map_lookup_elem(&hits, &slot);

	if (v)
		__sync_fetch_and_add(v, by);
	return 0;
}

__attribute__((noinline)) int bump_twice(u32 slot)
{
	bump(slot, 1);
	return bump(slot, 1);
}

SEC("tracepoint/sched/sched_switch")
int first(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != BB_CONST(bb_tgid))
		return 0;
	return bump(0, 1);
}

SEC("tracepoint/sched/sched_switch")
int second(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != BB_CONST(bb_tgid))
		return 0;
	return bump_twice(1);
}

char _license[] SEC("license") = "GPL";
