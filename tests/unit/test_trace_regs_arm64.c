/* SPDX-License-Identifier: MIT */
/* As test_trace_regs.c, for arm64's struct user_pt_regs. */
#include <stddef.h>

#pragma GCC diagnostic ignored "-Wunused-variable"
#define __TARGET_ARCH_arm64
#include "bb_helpers.h"

const int test_regs_arm64[13] = {
	offsetof(struct pt_regs, regs[0]), offsetof(struct pt_regs, regs[1]),
	offsetof(struct pt_regs, regs[2]), offsetof(struct pt_regs, regs[3]),
	offsetof(struct pt_regs, regs[4]), offsetof(struct pt_regs, regs[5]),
	offsetof(struct pt_regs, regs[0]), offsetof(struct pt_regs, regs[1]),
	offsetof(struct pt_regs, regs[2]), offsetof(struct pt_regs, regs[3]),
	offsetof(struct pt_regs, regs[4]), offsetof(struct pt_regs, regs[5]),
	offsetof(struct pt_regs, regs[0]),
};
/* the compat word (pstate), USDT's sp and x30 */
const int test_more_arm64[3] = {
	offsetof(struct pt_regs, pstate), offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, regs[30]),
};
