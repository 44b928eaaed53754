/* SPDX-License-Identifier: MIT */
/* The 5.5 helpers bpf_probe_read_{kernel,user}[_str], one call of each:
 * before 5.5 the loader makes them bpf_probe_read[_str]. */
#include "bb_helpers.h"

SEC("tracepoint/sched/sched_switch")
int reads(void *ctx)
{
	char s[16];
	u64 v = 0;
	long r;

	r = bpf_probe_read_kernel(&v, sizeof(v), ctx);
	r += bpf_probe_read_user(&v, sizeof(v), ctx);
	r += bpf_probe_read_kernel_str(s, sizeof(s), ctx);
	r += bpf_probe_read_user_str(s, sizeof(s), ctx);
	return r + v + s[0];
}

char _license[] SEC("license") = "GPL";
