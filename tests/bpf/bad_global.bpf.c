/* SPDX-License-Identifier: MIT */
/* Bad: writes a global variable (.bss), which needs Linux 5.2. */
#include "bb_helpers.h"

static int counter;

SEC("tracepoint/sched/sched_switch")
int count_switches(void *ctx)
{
	counter++;
	return 0;
}

char _license[] SEC("license") = "GPL";
