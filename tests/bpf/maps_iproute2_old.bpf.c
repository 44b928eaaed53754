/* SPDX-License-Identifier: MIT */
/*
 * Maps as iproute2 before 4.13 defined them: struct bpf_elf_map of 7
 * fields, 28 bytes like bpf_load's bpf_map_def, whose 7th field is
 * pinning where bpf_load's is numa_node. PIN_GLOBAL_NS (2) read as node 2
 * was refused ("cannot create map ... Invalid argument").
 */
#include "bb_helpers.h"

struct bpf_elf_map {
	unsigned int type, size_key, size_value, max_elem, flags;
	unsigned int id, pinning;
};

#define PIN_GLOBAL_NS 2

struct bpf_elf_map SEC("maps") bbtest_old_counts = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8,
	.max_elem = 1024, .id = 1, .pinning = PIN_GLOBAL_NS,
};
struct bpf_elf_map SEC("maps") scratch = {
	.type = BPF_MAP_TYPE_ARRAY, .size_key = 4, .size_value = 8,
	.max_elem = 1, .id = 2,
};

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	u64 init = 1, *v;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	v = bpf_map_lookup_elem(&bbtest_old_counts, &tgid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&bbtest_old_counts, &tgid, &init, BPF_ANY);
	v = bpf_map_lookup_elem(&scratch, &zero);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
