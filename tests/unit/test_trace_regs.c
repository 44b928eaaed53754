/* SPDX-License-Identifier: MIT */
/*
 * The offsets trace's tool uses for arg1..arg6 and retval, taken from the
 * struct pt_regs the BPF side declares (bpf/bb_helpers.h), for both
 * architectures: test_trace_spec.c compares them with trace_arch_*. This
 * file includes the BPF header alone (its helper pointers clash with the
 * library's names).
 */
#include <stddef.h>

#pragma GCC diagnostic ignored "-Wunused-variable"
#define __TARGET_ARCH_x86
#include "bb_helpers.h"

/* args, system call args, retval */
const int test_regs_x86_64[13] = {
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, r10),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, ax),
};
/* what loader/arch.c says of x86_64 beyond the arguments: the syscall
 * number (orig_ax), the compat word (cs), USDT's %rsp and %r15 */
const int test_more_x86_64[4] = {
	offsetof(struct pt_regs, orig_ax), offsetof(struct pt_regs, cs),
	offsetof(struct pt_regs, sp), offsetof(struct pt_regs, r15),
};
