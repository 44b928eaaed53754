/* SPDX-License-Identifier: MIT */
/* bpf_trace_printk, relayed by barebpf run from trace_pipe. */
#include "bb_helpers.h"

SEC("tracepoint/sched/sched_switch")
int say(void *ctx)
{
	char fmt[] = "bbtest printk %d\n";

	if (bpf_get_current_pid_tgid() >> 32 != BB_CONST(bb_tgid))
		return 0;
	bpf_trace_printk(fmt, sizeof(fmt), 42);
	return 0;
}

char _license[] SEC("license") = "GPL";
