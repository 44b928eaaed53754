/* SPDX-License-Identifier: MIT */
/* Bad: more instructions than Linux 4.15 loads (4096). */
#include "bb_helpers.h"

SEC("kprobe/vfs_read")
int huge(struct pt_regs *ctx)
{
	asm volatile(".rept 4100\n r0 = 0\n .endr" ::: "r0");
	return 0;
}

char _license[] SEC("license") = "GPL";
