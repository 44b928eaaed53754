/* SPDX-License-Identifier: MIT */
/*
 * The architecture table (arch.h). The pt_regs offsets are those of the
 * struct pt_regs bpf/bb_helpers.h declares: the kernel's on x86_64, arm
 * and riscv64, struct user_pt_regs on arm64 (test_arch.c compares them).
 */
#include <string.h>
#include "arch.h"

#define EM_X86_64_ 62
#define EM_ARM_ 40
#define EM_AARCH64_ 183
#define EM_RISCV_ 243
#define NREGS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* x86_64: each register by its 64, 32, 16 and 8-bit names */
#define X86(q, d, w, b, off)                                                   \
	{ q, off, 8 }, { d, off, 4 }, { w, off, 2 }, { b, off, 1 }
static const struct bb_arch_reg x86_regs[] = {
	X86("rax", "eax", "ax", "al", 80), X86("rbx", "ebx", "bx", "bl", 40),
	X86("rcx", "ecx", "cx", "cl", 88), X86("rdx", "edx", "dx", "dl", 96),
	X86("rsi", "esi", "si", "sil", 104),
	X86("rdi", "edi", "di", "dil", 112),
	X86("rbp", "ebp", "bp", "bpl", 32),
	X86("rsp", "esp", "sp", "spl", 152),
	X86("r8", "r8d", "r8w", "r8b", 72), X86("r9", "r9d", "r9w", "r9b", 64),
	X86("r10", "r10d", "r10w", "r10b", 56),
	X86("r11", "r11d", "r11w", "r11b", 48),
	X86("r12", "r12d", "r12w", "r12b", 24),
	X86("r13", "r13d", "r13w", "r13b", 16),
	X86("r14", "r14d", "r14w", "r14b", 8),
	X86("r15", "r15d", "r15w", "r15b", 0),
};

/* arm64: x0..x30 (w0..w30 their low halves), sp after them */
#define A64(n) { "x" #n, (n) * 8, 8 }, { "w" #n, (n) * 8, 4 }
static const struct bb_arch_reg arm64_regs[] = {
	A64(0), A64(1), A64(2), A64(3), A64(4), A64(5), A64(6), A64(7),
	A64(8), A64(9), A64(10), A64(11), A64(12), A64(13), A64(14), A64(15),
	A64(16), A64(17), A64(18), A64(19), A64(20), A64(21), A64(22),
	A64(23), A64(24), A64(25), A64(26), A64(27), A64(28), A64(29),
	A64(30), { "sp", 31 * 8, 8 },
};

/* 32-bit ARM: uregs[18], 4 bytes each */
static const struct bb_arch_reg arm_regs[] = {
	{ "r0", 0, 4 }, { "r1", 4, 4 }, { "r2", 8, 4 }, { "r3", 12, 4 },
	{ "r4", 16, 4 }, { "r5", 20, 4 }, { "r6", 24, 4 }, { "r7", 28, 4 },
	{ "r8", 32, 4 }, { "r9", 36, 4 }, { "r10", 40, 4 }, { "fp", 44, 4 },
	{ "r11", 44, 4 }, { "ip", 48, 4 }, { "r12", 48, 4 }, { "sp", 52, 4 },
	{ "r13", 52, 4 }, { "lr", 56, 4 }, { "r14", 56, 4 },
};

/* riscv64: epc, then x1..x31 by their ABI names */
static const struct bb_arch_reg riscv_regs[] = {
	{ "ra", 8, 8 }, { "sp", 16, 8 }, { "gp", 24, 8 }, { "tp", 32, 8 },
	{ "t0", 40, 8 }, { "t1", 48, 8 }, { "t2", 56, 8 }, { "s0", 64, 8 },
	{ "fp", 64, 8 }, { "s1", 72, 8 }, { "a0", 80, 8 }, { "a1", 88, 8 },
	{ "a2", 96, 8 }, { "a3", 104, 8 }, { "a4", 112, 8 }, { "a5", 120, 8 },
	{ "a6", 128, 8 }, { "a7", 136, 8 }, { "s2", 144, 8 }, { "s3", 152, 8 },
	{ "s4", 160, 8 }, { "s5", 168, 8 }, { "s6", 176, 8 }, { "s7", 184, 8 },
	{ "s8", 192, 8 }, { "s9", 200, 8 }, { "s10", 208, 8 },
	{ "s11", 216, 8 }, { "t3", 224, 8 }, { "t4", 232, 8 },
	{ "t5", 240, 8 }, { "t6", 248, 8 },
};

/*
 * A system call's own arguments sit in the pt_regs its wrapper gets: the
 * 4th in r10 on x86_64, where the function call ABI has rcx. The syscall
 * number: orig_ax (8 bytes at 120). A 32-bit (ia32) task's cs (136) is
 * __USER32_CS: the syscalls/ events leave its calls out
 * (in_ia32_syscall), and so does funccount (but for int $0x80 from 64-bit
 * code, whose cs is the 64-bit one).
 */
const struct bb_arch bb_arch_x86_64 = {
	.name = "x86_64", .elf_name = "x86_64", .machine = EM_X86_64_,
	.regsize = 8, .sys_prefix = "__x64_sys_",
	.compat_sys_prefix = "__ia32_sys_", .multiarch = "x86_64-linux-gnu",
	.ldcache = { 0x0300, 0x0300 }, /* FLAG_X8664_LIB64 */
	.args = { 112, 104, 96, 88, 72, 64 },     /* di si dx cx r8 r9 */
	.sys_args = { 112, 104, 96, 56, 72, 64 }, /* di si dx r10 r8 r9 */
	.ret = 80,                                /* ax */
	.sysnr_off = 120, .sysnr_size = 8,
	.compat = BB_COMPAT_EQ, .compat_off = 136, .compat_val = 0x23,
	.regs = x86_regs, .nregs = NREGS(x86_regs),
};

/*
 * arm64: the syscall number is syscallno (s32 at 280, after regs[31], sp,
 * pc, pstate, orig_x0). A 32-bit (AArch32) task's pstate (264) has
 * PSR_MODE32_BIT: the syscalls/ events leave its calls out
 * (is_compat_task), and so does funccount.
 */
const struct bb_arch bb_arch_arm64 = {
	.name = "arm64", .elf_name = "aarch64", .machine = EM_AARCH64_,
	.regsize = 8, .sys_prefix = "__arm64_sys_",
	.multiarch = "aarch64-linux-gnu",
	.ldcache = { 0x0a00, 0x0a00 }, /* FLAG_AARCH64_LIB64 */
	.args = { 0, 8, 16, 24, 32, 40 }, /* x0..x5 */
	.sys_args = { 0, 8, 16, 24, 32, 40 },
	.ret = 0,                         /* x0 */
	.sysnr_off = 280, .sysnr_size = 4,
	.compat = BB_COMPAT_SET, .compat_off = 264, .compat_val = 0x10,
	.regs = arm64_regs, .nregs = NREGS(arm64_regs),
};

/*
 * 32-bit ARM (AAPCS): a function's first four arguments in r0..r3, the
 * rest on the stack; a system call's six in r0..r5, and no wrappers. The
 * syscall number: r7 (uregs[7], at 28), the EABI's register for it.
 * syscall_get_nr() reads thread_info's copy instead, which a program
 * cannot find on every kernel; the two differ only after a sigreturn (r7
 * restored) or a tracer's change of the number.
 */
const struct bb_arch bb_arch_arm = {
	.name = "arm", .elf_name = "arm", .machine = EM_ARM_, .regsize = 4,
	.multiarch = "arm-linux-gnueabihf",
	.ldcache = { 0x0900, 0 }, /* FLAG_ARM_LIBHF, soft float */
	.args = { 0, 4, 8, 12, -1, -1 },  /* r0..r3 */
	.sys_args = { 0, 4, 8, 12, 16, 20 }, /* r0..r5 */
	.ret = 0,                         /* r0 */
	.sysnr_off = 28, .sysnr_size = 4,
	.regs = arm_regs, .nregs = NREGS(arm_regs),
};

/*
 * riscv64: the syscall number is a7 (after epc, ra, sp, gp, tp, t0-t2, s0,
 * s1, a0-a6: at 136), of which syscall_get_nr() takes the low 32 bits. A
 * compat (rv32) task's calls are not told apart.
 */
const struct bb_arch bb_arch_riscv64 = {
	.name = "riscv64", .elf_name = "riscv", .machine = EM_RISCV_,
	.regsize = 8, .sys_prefix = "__riscv_sys_",
	.multiarch = "riscv64-linux-gnu",
	/* RISCV_FLOAT_ABI_DOUBLE, _SOFT */
	.ldcache = { 0x1000, 0x0f00 },
	.args = { 80, 88, 96, 104, 112, 120 }, /* a0..a5 */
	.sys_args = { 80, 88, 96, 104, 112, 120 },
	.ret = 80,                             /* a0 */
	.sysnr_off = 136, .sysnr_size = 4,
	.regs = riscv_regs, .nregs = NREGS(riscv_regs),
};

const struct bb_arch *const bb_archs[] = {
	&bb_arch_x86_64, &bb_arch_arm64, &bb_arch_arm, &bb_arch_riscv64, NULL
};

const struct bb_arch *bb_arch_native(void)
{
#if defined(__x86_64__)
	return &bb_arch_x86_64;
#elif defined(__aarch64__)
	return &bb_arch_arm64;
#elif defined(__arm__)
	return &bb_arch_arm;
#elif defined(__riscv) && __riscv_xlen == 64
	return &bb_arch_riscv64;
#else
#error "add this architecture to loader/arch.c (docs/ARCHITECTURE.md)"
#endif
}

const struct bb_arch *bb_arch_of_machine(int machine)
{
	int i;

	for (i = 0; bb_archs[i]; i++)
		if (bb_archs[i]->machine == machine)
			return bb_archs[i];
	return NULL;
}

const struct bb_arch_reg *bb_arch_reg(const struct bb_arch *a, const char *s,
				      size_t len)
{
	int i;

	for (i = 0; i < a->nregs; i++)
		if (strlen(a->regs[i].name) == len &&
		    !memcmp(a->regs[i].name, s, len))
			return &a->regs[i];
	return NULL;
}

int bb_arch_sys_prefixes(const char **pre, int max, int compat, int old)
{
	static const char *const olds[] = { "SyS_", "sys_" };
	int i, n = 0;

	for (i = 0; bb_archs[i]; i++) {
		if (bb_archs[i]->sys_prefix && n < max)
			pre[n++] = bb_archs[i]->sys_prefix;
		if (compat && bb_archs[i]->compat_sys_prefix && n < max)
			pre[n++] = bb_archs[i]->compat_sys_prefix;
	}
	for (i = 0; old && i < 2 && n < max; i++)
		pre[n++] = olds[i];
	return n;
}
