/* SPDX-License-Identifier: MIT */
/*
 * Maps as samples/bpf's bpf_load.c defines them (4.12+): 28 bytes with
 * inner_map_idx and numa_node; map-in-map; bpf_load's tail-call slots
 * (kprobe/<N> goes to slot N of the program array).
 */
#include "bb_helpers.h"

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int inner_map_idx, numa_node;
};

struct bpf_map_def SEC("maps") inner = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	.max_entries = 4,
};
struct bpf_map_def SEC("maps") outer = {
	.type = 12 /* ARRAY_OF_MAPS */, .key_size = 4, .value_size = 4,
	.max_entries = 2, .inner_map_idx = 0,
};
struct bpf_map_def SEC("maps") counts = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
	.max_entries = 64, .numa_node = 0,
};
struct bpf_map_def SEC("maps") progs = {
	.type = 3 /* PROG_ARRAY */, .key_size = 4, .value_size = 4,
	.max_entries = 4,
};

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	u64 one = 1, *v;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	v = bpf_map_lookup_elem(&counts, &tgid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &tgid, &one, BPF_ANY);
	if (bpf_map_lookup_elem(&outer, &zero))
		bpf_map_update_elem(&counts, &zero, &one, BPF_ANY);
	return 0;
}

SEC("kprobe/1")
int slot_one(struct pt_regs *ctx)
{
	return 1;
}

SEC("kprobe/vfs_read")
int on_read(struct pt_regs *ctx)
{
	bpf_tail_call(ctx, &progs, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
