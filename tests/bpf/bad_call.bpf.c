/* SPDX-License-Identifier: MIT */
/* Bad: a function that is not inlined, i.e. a bpf-to-bpf call (4.16). */
#include "bb_helpers.h"

__attribute__((noinline)) int scale(int x)
{
	return x * 3 + 1;
}

SEC("kprobe/vfs_read")
int on_read(struct pt_regs *ctx)
{
	return scale(PT_REGS_PARM3(ctx));
}

char _license[] SEC("license") = "GPL";
