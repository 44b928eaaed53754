/* SPDX-License-Identifier: MIT */
/* Writable global data (.bss, .data): 5.2+ only; refused before. */
#include "bb_helpers.h"
#include "bb_libbpf.h"

const volatile u32 target_tgid = 0;
u64 switches = 0;
u64 seeded = 40;

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return 0;
	__sync_fetch_and_add(&switches, 1);
	__sync_fetch_and_add(&seeded, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
