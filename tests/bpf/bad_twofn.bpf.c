/* SPDX-License-Identifier: MIT */
/* Bad: two functions in one program section. */
#include "bb_helpers.h"

SEC("kprobe/vfs_write") __attribute__((noinline)) int twice(int x)
{
	return x * 2;
}

SEC("kprobe/vfs_write")
int on_write(struct pt_regs *ctx)
{
	return twice(PT_REGS_PARM3(ctx));
}

char _license[] SEC("license") = "GPL";
