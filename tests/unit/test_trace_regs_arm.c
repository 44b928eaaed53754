/* SPDX-License-Identifier: MIT */
/* As test_trace_regs.c, for 32-bit ARM's struct pt_regs (uregs[18]) and
 * -1: an argument on the stack (arm: a function's 5th and 6th). */
#include <stddef.h>

#pragma GCC diagnostic ignored "-Wunused-variable"
#define __TARGET_ARCH_arm
#include "bb_helpers.h"

const int test_regs_arm[13] = {
	offsetof(struct pt_regs, uregs[0]), offsetof(struct pt_regs, uregs[1]),
	offsetof(struct pt_regs, uregs[2]), offsetof(struct pt_regs, uregs[3]),
	-1, -1,
	offsetof(struct pt_regs, uregs[0]), offsetof(struct pt_regs, uregs[1]),
	offsetof(struct pt_regs, uregs[2]), offsetof(struct pt_regs, uregs[3]),
	offsetof(struct pt_regs, uregs[4]), offsetof(struct pt_regs, uregs[5]),
	offsetof(struct pt_regs, uregs[0]),
};
/* bb_kulong: the size of the kernel's long and pointers there */
const int test_kulong_arm = sizeof(bb_kulong);
/* the syscall number (r7), USDT's sp (r13) and lr (r14) */
const int test_more_arm[3] = {
	offsetof(struct pt_regs, uregs[7]), offsetof(struct pt_regs, uregs[13]),
	offsetof(struct pt_regs, uregs[14]),
};
