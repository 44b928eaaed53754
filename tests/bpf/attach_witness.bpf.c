/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests/integration/test_attach_order.c: `barebpf run` attaches
 * `witness` first (object order), then `other`. Attaching `other` is a
 * perf_event_open of a tracepoint (attr.type 2) by barebpf itself, which
 * `witness` reports: a record sent during the attach, which reaches the
 * output only if the ring was open before the first attach.
 */
#include "bb_helpers.h"

struct witness_rec {
	u32 tgid;
	u32 type; /* perf_event_attr.type of the call */
};

BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1024);
BB_MAP(calls, BPF_MAP_TYPE_ARRAY, 4, 8, 1);

/* sys_enter_*: 8 bytes of common fields, the syscall number, then the
 * arguments as 8-byte words from offset 16 */
SEC("tracepoint/syscalls/sys_enter_perf_event_open")
int witness(void *ctx)
{
	struct witness_rec r = {};
	const void *attr = 0;

	r.tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_probe_read(&attr, sizeof(attr), (char *)ctx + 16);
	bpf_probe_read(&r.type, sizeof(r.type), attr);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int other(void *ctx)
{
	u32 zero = 0;
	u64 *v = bpf_map_lookup_elem(&calls, &zero);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
