/* SPDX-License-Identifier: MIT */
/* Bad: a constant table in .rodata, which 4.15 cannot map either. */
#include "bb_helpers.h"

static const u64 table[8] = { 1, 3, 5, 7, 11, 13, 17, 19 };

SEC("tracepoint/sched/sched_switch")
int lookup(void *ctx)
{
	u32 i = bpf_get_smp_processor_id() & 7;

	return table[i];
}

char _license[] SEC("license") = "GPL";
