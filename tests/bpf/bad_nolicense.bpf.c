/* SPDX-License-Identifier: MIT */
/* Bad: no license section. */
#include "bb_helpers.h"

SEC("kprobe/vfs_read")
int on_read(struct pt_regs *ctx)
{
	return 0;
}
