/* SPDX-License-Identifier: MIT */
/* Bad: a program in a section barebpf does not know. */
#include "bb_helpers.h"

SEC("xdp")
int drop_all(void *ctx)
{
	return 1;
}

char _license[] SEC("license") = "GPL";
