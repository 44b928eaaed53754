/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program (about 2250 instructions) the verifier gives up on: 10 random
 * branches, each doubling r6 or doubling it and adding one, so that each
 * of the 1024 paths reaches the end with its own constant in r6, which the
 * last branch reads (so precision tracking, 5.3+, cannot forget it
 * either). Nothing is pruned, and each path is 1100 more instructions:
 * 1.1 million processed, beyond the verifier's limit (131072 before 5.2, 1
 * million since), which then stops with E2BIG. Few states per instruction:
 * 4.15 compares every new state with every saved one, and 2^24 short
 * paths took it more than 400 s under TCG. The 64-bit loads make 4.15's
 * log of it about 4.8 MB: more than the 4 MiB step of the log buffer, so
 * that the next size (16 MiB, refused by 4.15 with EINVAL) once left the
 * user with no log at all.
 */
#include "bb_helpers.h"

SEC("kprobe/blk_mq_start_request")
int explode(struct pt_regs *ctx)
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
