/* SPDX-License-Identifier: MIT */
/* No license section and a GPL-only helper: the kernel refuses it. */
#include "bb_helpers.h"

SEC("tracepoint/sched/sched_switch")
int reads(void *ctx)
{
	u64 v = 0;

	bpf_probe_read(&v, sizeof(v), ctx);
	return v == 1;
}
