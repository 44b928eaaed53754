/* SPDX-License-Identifier: MIT */
/*
 * Two perf event arrays: `counters`, read with bpf_perf_event_read (a
 * loader would open a hardware or software counter per CPU in it), and
 * `events`, written with bpf_perf_event_output. barebpf run must take
 * only `events` as its output ring and leave `counters` alone, saying
 * so (tests/unit/test_objkinds.c, tests/integration/test_run.c).
 */
#include "bb_helpers.h"

BB_MAP(counters, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 128);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 128);
BB_MAP(reads, BPF_MAP_TYPE_ARRAY, 4, 8, 2);

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, slot;
	u64 v, *p;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	/* no counter is open: the read fails (a negative errno as u64) */
	v = bpf_perf_event_read(&counters, BPF_F_CURRENT_CPU);
	slot = (s64)v < 0 ? 1 : 0;
	p = bpf_map_lookup_elem(&reads, &slot);
	if (p)
		__sync_fetch_and_add(p, 1);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &tgid,
			      sizeof(tgid));
	return 0;
}

char _license[] SEC("license") = "GPL";
