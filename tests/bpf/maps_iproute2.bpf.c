/* SPDX-License-Identifier: MIT */
/*
 * Maps as iproute2 defines them (struct bpf_elf_map, 36 bytes): pinned
 * in the global namespace, and a map of maps whose inner map is found by
 * id and put in slot inner_idx.
 */
#include "bb_helpers.h"

struct bpf_elf_map {
	unsigned int type, size_key, size_value, max_elem, flags;
	unsigned int id, pinning, inner_id, inner_idx;
};

#define PIN_GLOBAL_NS 2

struct bpf_elf_map SEC("maps") inner = {
	.type = BPF_MAP_TYPE_ARRAY, .size_key = 4, .size_value = 8,
	.max_elem = 1, .id = 7, .inner_idx = 1,
};
struct bpf_elf_map SEC("maps") outer = {
	.type = 12 /* ARRAY_OF_MAPS */, .size_key = 4, .size_value = 4,
	.max_elem = 2, .inner_id = 7,
};
struct bpf_elf_map SEC("maps") bbtest_shared = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8,
	.max_elem = 16, .pinning = PIN_GLOBAL_NS,
};

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, one = 1, zero = 0;
	u64 init = 1, *v;
	void *in;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	v = bpf_map_lookup_elem(&bbtest_shared, &tgid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&bbtest_shared, &tgid, &init, BPF_ANY);
	/* through the map of maps: slot 1 holds `inner` */
	in = bpf_map_lookup_elem(&outer, &one);
	if (in) {
		v = bpf_map_lookup_elem(in, &zero);
		if (v)
			__sync_fetch_and_add(v, 1);
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
