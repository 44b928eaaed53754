/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests/integration/test_perfbuf.c: one perf event array sample per
 * getppid() call on the machine, carrying the caller and a sequence number.
 */
#include "bb_helpers.h"

struct emit_rec {
	u32 tgid;
	u32 tid;
	u64 seq;
};

BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 128);
BB_MAP(seq, BPF_MAP_TYPE_ARRAY, 4, 8, 1);

SEC("tracepoint/syscalls/sys_enter_getppid")
int emit_getppid(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid();
	struct emit_rec rec = {};
	u32 zero = 0;
	u64 *s;

	s = bpf_map_lookup_elem(&seq, &zero);
	if (!s)
		return 0;
	/* no fetch-and-add result before 5.12 (-mcpu=v2): add, then read */
	__sync_fetch_and_add(s, 1);
	rec.tgid = id >> 32;
	rec.tid = (u32)id;
	rec.seq = *s;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &rec,
			      sizeof(rec));
	return 0;
}

char _license[] SEC("license") = "GPL";
