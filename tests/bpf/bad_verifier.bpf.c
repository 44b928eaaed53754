/* SPDX-License-Identifier: MIT */
/*
 * A well-formed object the verifier must refuse: a stack read below the
 * 512-byte frame (written in asm: clang would not emit it from C).
 */
#include "bb_helpers.h"

BB_MAP(unused, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 1);

SEC("tracepoint/sched/sched_switch")
int oob_read(void *ctx)
{
	u64 r;

	asm volatile("%0 = *(u64 *)(r10 - 520)" : "=r"(r));
	return r;
}

char _license[] SEC("license") = "GPL";
