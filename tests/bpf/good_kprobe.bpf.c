/* SPDX-License-Identifier: MIT */
/* A good object with every kprobe section form the loader accepts. */
#include "bb_helpers.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64), 10240);
BB_MAP(lat, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64), 64);

SEC("kprobe/blk_queue_enter")
int enter(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &id, &ts, BPF_ANY);
	return 0;
}

SEC("kretprobe/blk_queue_enter")
int enter_ret(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), *tsp, *v;
	u32 slot;

	tsp = bpf_map_lookup_elem(&start, &id);
	if (!tsp)
		return 0;
	slot = bb_log2l((bpf_ktime_get_ns() - *tsp) / BB_CONST(bb_unit_ns));
	if (slot > 63)
		slot = 63;
	v = bpf_map_lookup_elem(&lat, &slot);
	if (v)
		*v += 1;
	bpf_map_delete_elem(&start, &id);
	return 0;
}

SEC("kprobe")
int any_entry(struct pt_regs *ctx)
{
	u64 id = PT_REGS_PARM1(ctx) + BB_CONST(bb_unit_ns);

	return bpf_map_delete_elem(&start, &id) & 0;
}

SEC("kretprobe")
int any_return(struct pt_regs *ctx)
{
	return PT_REGS_RC(ctx) == 0;
}

char _license[] SEC("license") = "GPL";
