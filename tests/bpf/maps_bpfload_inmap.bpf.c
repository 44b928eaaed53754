/* SPDX-License-Identifier: MIT */
/*
 * Maps of maps as samples/bpf's test_map_in_map_kern.c and
 * map_perf_test_kern.c define them for bpf_load (4.12+): the outer
 * maps' value_size left 0 (bpf_load created every map of maps with 4),
 * the inner map named by inner_map_idx, its index in section maps.
 */
#include "bb_helpers.h"

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int inner_map_idx, numa_node;
};

struct bpf_map_def SEC("maps") port_a = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	.max_entries = 4,
};
struct bpf_map_def SEC("maps") a_of_port_a = {
	.type = 12 /* ARRAY_OF_MAPS */, .key_size = 4,
	.inner_map_idx = 0, /* port_a */
	.max_entries = 2,
};
struct bpf_map_def SEC("maps") h_of_port_a = {
	.type = 13 /* HASH_OF_MAPS */, .key_size = 4,
	.inner_map_idx = 0, /* port_a */
	.max_entries = 2,
};

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	u64 *v;
	void *in;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	in = bpf_map_lookup_elem(&a_of_port_a, &zero);
	if (in && (v = bpf_map_lookup_elem(in, &zero)))
		__sync_fetch_and_add(v, 1);
	in = bpf_map_lookup_elem(&h_of_port_a, &tgid);
	if (in && (v = bpf_map_lookup_elem(in, &zero)))
		__sync_fetch_and_add(v, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
