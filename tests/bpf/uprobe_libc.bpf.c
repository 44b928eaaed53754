/* SPDX-License-Identifier: MIT */
/*
 * For tests/integration/test_run.c: libbpf-style uprobe sections on libc,
 * by its short name (found as trace finds it), counting getppid() calls
 * into slot 0 and their returns into slot 1.
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

SEC("uprobe/c:getppid")
int getppid_entry(struct pt_regs *ctx)
{
	return count(0);
}

SEC("uretprobe/c:getppid")
int getppid_return(struct pt_regs *ctx)
{
	return count(1);
}

char _license[] SEC("license") = "GPL";
