/* SPDX-License-Identifier: MIT */
/*
 * A good object for the loader tests: a tracepoint program with maps and
 * load-time constants (32-bit, 64-bit and a format-file offset).
 */
#include "bb_helpers.h"

BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 1024);
BB_MAP(hist, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 64);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 64);

SEC("tracepoint/sched/sched_switch")
int tp_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32;
	u32 prev_pid = 0, slot;
	u64 one = 1, *v;

	if (BB_CONST(bb_tgid) && tgid != (u32)BB_CONST(bb_tgid))
		return 0;
	BB_TP_READ(prev_pid, ctx, bb_prev_pid_off);
	v = bpf_map_lookup_elem(&counts, &prev_pid);
	if (v)
		__sync_fetch_and_add(v, BB_CONST(bb_step));
	else
		bpf_map_update_elem(&counts, &prev_pid, &one, BPF_ANY);
	slot = bb_log2l(bpf_ktime_get_ns() & 0xffffffffffULL);
	if (slot > 63)
		slot = 63;
	v = bpf_map_lookup_elem(&hist, &slot);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
u32 _version SEC("version") = 0;
