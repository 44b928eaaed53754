/* SPDX-License-Identifier: MIT */
/* No license section and no GPL-only helper: the kernel loads it. */
#include "bb_helpers.h"

BB_MAP(switches, BPF_MAP_TYPE_ARRAY, 4, 8, 1);

SEC("tracepoint/sched/sched_switch")
int count(void *ctx)
{
	u32 k = 0;
	u64 *v = bpf_map_lookup_elem(&switches, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
