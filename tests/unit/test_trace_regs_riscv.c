/* SPDX-License-Identifier: MIT */
/* As test_trace_regs.c, for riscv64's struct pt_regs. */
#include <stddef.h>

#pragma GCC diagnostic ignored "-Wunused-variable"
#define __TARGET_ARCH_riscv
#include "bb_helpers.h"

const int test_regs_riscv64[13] = {
	offsetof(struct pt_regs, a0), offsetof(struct pt_regs, a1),
	offsetof(struct pt_regs, a2), offsetof(struct pt_regs, a3),
	offsetof(struct pt_regs, a4), offsetof(struct pt_regs, a5),
	offsetof(struct pt_regs, a0), offsetof(struct pt_regs, a1),
	offsetof(struct pt_regs, a2), offsetof(struct pt_regs, a3),
	offsetof(struct pt_regs, a4), offsetof(struct pt_regs, a5),
	offsetof(struct pt_regs, a0),
};
/* the kernel's pt_regs: 36 registers of 8 bytes (arch/riscv ptrace.h) */
const int test_ptregs_size_riscv64 = sizeof(struct pt_regs);
/* the syscall number (a7), USDT's ra, sp and t6 */
const int test_more_riscv64[4] = {
	offsetof(struct pt_regs, a7), offsetof(struct pt_regs, ra),
	offsetof(struct pt_regs, sp), offsetof(struct pt_regs, t6),
};
