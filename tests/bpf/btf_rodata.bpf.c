/* SPDX-License-Identifier: MIT */
/*
 * Read-only global data and a __kconfig extern, the libbpf way: loaded
 * as a frozen .rodata map from 5.2, inlined as immediates before (and
 * the extern always). -c target_tgid=PID sets the setting.
 */
#include "bb_helpers.h"
#include "bb_libbpf.h"

const volatile u32 target_tgid = 0;
const volatile u64 big = 0x123456789abcdefULL;
const volatile u8 tag = 5;
extern u32 LINUX_KERNEL_VERSION __kconfig;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, u32);
	__type(value, u64);
} out SEC(".maps");

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, k;
	u64 v;

	if (tgid != target_tgid)
		return 0;
	k = 0;
	v = big;
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
	k = 1;
	v = tag;
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
	k = 2;
	v = LINUX_KERNEL_VERSION;
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
	k = 3;
	v = tgid;
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
