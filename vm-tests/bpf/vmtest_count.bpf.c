/* SPDX-License-Identifier: MIT */
/*
 * For the vm-tests `run` case: one kprobe, one kretprobe and one tracepoint
 * program, each counting its hits in its own slot of an array, so that
 * `barebpf run` can be checked against a known workload (N direct reads of
 * nullb0 = N blk_mq_start_request calls = N block_rq_complete events).
 */
#include "bb_helpers.h"

BB_MAP(counts, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 3);

static __always_inline int count(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&counts, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("kprobe/blk_mq_start_request")
int start_entry(struct pt_regs *ctx)
{
	return count(0);
}

SEC("kretprobe/blk_mq_start_request")
int start_return(struct pt_regs *ctx)
{
	return count(1);
}

SEC("tracepoint/block/block_rq_complete")
int rq_complete(void *ctx)
{
	return count(2);
}

char _license[] SEC("license") = "GPL";
