/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier gives up on it (E2BIG): a copy of
 * vm-tests/bpf/vmtest_explode.bpf.c on a tracepoint, for this kernel.
 */
#include "bb_helpers.h"

SEC("tracepoint/syscalls/sys_enter_getppid")
int explode(void *ctx)
{
	asm volatile(
		"r6 = 1\n"
		"r7 = 0\n"
		".rept 10\n"
		"call 7\n" /* bpf_get_prandom_u32 */
		"r6 <<= 1\n"
		"if r0 > 0x7fffffff goto +1\n"
		"r6 += 1\n"
		".endr\n"
		".rept 1100\n"
		"r7 = 0x1234567890abcdef ll\n"
		".endr\n"
		"if r6 != 0x1234567 goto +1\n"
		"r6 = 0\n"
		::: "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7");
	return 0;
}

char _license[] SEC("license") = "GPL";
