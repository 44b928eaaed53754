/* SPDX-License-Identifier: MIT */
/*
 * For tests/integration/test_uprobe.c: libbpf's uprobe sections, counting
 * entries into slot 0 and returns into slot 1 (the test gives each its
 * own target at attach).
 */
#include "bb_helpers.h"

BB_MAP(counts, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 2);

static __always_inline int count(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&counts, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("uprobe//bin/true:main")
int count_entry(struct pt_regs *ctx)
{
	return count(0);
}

SEC("uretprobe//bin/true:main")
int count_return(struct pt_regs *ctx)
{
	return count(1);
}

char _license[] SEC("license") = "GPL";
