/* SPDX-License-Identifier: MIT */
/*
 * The architecture table (loader/arch.c), every architecture on any host:
 * its pt_regs offsets against struct pt_regs as bpf/bb_helpers.h declares
 * it for each (test_trace_regs*.c), its USDT registers, syscall prefixes,
 * ELF machines and ld.so.cache flags.
 */
#include <elf.h>
#include <string.h>
#include "bbtest.h"
#include "arch.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

extern const int test_regs_x86_64[13], test_regs_arm64[13], test_regs_arm[13],
	test_regs_riscv64[13];
extern const int test_kulong_arm, test_ptregs_size_riscv64;
extern const int test_more_x86_64[4], test_more_riscv64[4], test_more_arm[3],
	test_more_arm64[3];

/* bb_helpers.h's pt_regs and the tool's offsets agree, every arch. */
START_TEST(test_arch_offsets)
{
	const struct bb_arch *a[] = { &bb_arch_x86_64,
					 &bb_arch_arm64, &bb_arch_arm,
					 &bb_arch_riscv64 };
	const int *want[] = { test_regs_x86_64, test_regs_arm64,
			      test_regs_arm, test_regs_riscv64 };
	int i, j;

	/* 32-bit ARM: 4-byte registers and kernel pointers (an 8-byte read
	 * takes the next one as the upper half) */
	ck_assert_int_eq(bb_arch_arm.regsize, 4);
	ck_assert_int_eq(test_kulong_arm, 4);
	ck_assert_ptr_null(bb_arch_arm.sys_prefix);
	ck_assert_int_eq(bb_arch_riscv64.regsize, 8);
	ck_assert_int_eq(test_ptregs_size_riscv64, 36 * 8);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 6; j++) {
			ck_assert_int_eq(a[i]->args[j], want[i][j]);
			ck_assert_int_eq(a[i]->sys_args[j], want[i][6 + j]);
		}
		ck_assert_int_eq(a[i]->ret, want[i][12]);
	}
#if defined(__x86_64__)
	ck_assert_ptr_eq(bb_arch_native(), &bb_arch_x86_64);
#endif
}
END_TEST

/* The syscall number and compat word where bb_helpers.h's pt_regs has them */
START_TEST(test_arch_sysnr)
{
	ck_assert_int_eq(bb_arch_x86_64.sysnr_off, test_more_x86_64[0]);
	ck_assert_int_eq(bb_arch_x86_64.sysnr_size, 8);
	ck_assert_int_eq(bb_arch_x86_64.compat_off, test_more_x86_64[1]);
	ck_assert_int_eq(bb_arch_x86_64.compat, BB_COMPAT_EQ);
	ck_assert_int_eq(bb_arch_riscv64.sysnr_off, test_more_riscv64[0]);
	ck_assert_int_eq(bb_arch_arm.sysnr_off, test_more_arm[0]);
	ck_assert_int_eq(bb_arch_arm64.compat_off, test_more_arm64[0]);
	ck_assert_int_eq(bb_arch_arm64.compat, BB_COMPAT_SET);
	/* arm64's syscallno (280) lies past struct user_pt_regs: after
	 * pstate (264) comes orig_x0 (272), then syscallno */
	ck_assert_int_eq(bb_arch_arm64.sysnr_off, test_more_arm64[0] + 16);
	ck_assert_int_eq(bb_arch_arm.compat, BB_COMPAT_NONE);
	ck_assert_int_eq(bb_arch_riscv64.compat, BB_COMPAT_NONE);
}
END_TEST

static void reg_is(const struct bb_arch *a, const char *name, int off,
		   int width)
{
	const struct bb_arch_reg *r = bb_arch_reg(a, name, strlen(name));

	ck_assert_msg(r != NULL, "%s: no register %s", a->name, name);
	ck_assert_int_eq(r->off, off);
	ck_assert_int_eq(r->width, width);
}

/* USDT operands' registers, at the offsets bb_helpers.h's pt_regs has */
START_TEST(test_arch_regs)
{
	reg_is(&bb_arch_x86_64, "rdi", test_regs_x86_64[0], 8);
	reg_is(&bb_arch_x86_64, "esi", test_regs_x86_64[1], 4);
	reg_is(&bb_arch_x86_64, "r10w", test_regs_x86_64[9], 2);
	reg_is(&bb_arch_x86_64, "al", test_regs_x86_64[12], 1);
	reg_is(&bb_arch_x86_64, "rsp", test_more_x86_64[2], 8);
	reg_is(&bb_arch_x86_64, "r15b", test_more_x86_64[3], 1);
	reg_is(&bb_arch_arm64, "x0", test_regs_arm64[0], 8);
	reg_is(&bb_arch_arm64, "w3", test_regs_arm64[3], 4);
	reg_is(&bb_arch_arm64, "x30", test_more_arm64[2], 8);
	reg_is(&bb_arch_arm64, "sp", test_more_arm64[1], 8);
	reg_is(&bb_arch_arm, "r2", test_regs_arm[2], 4);
	reg_is(&bb_arch_arm, "sp", test_more_arm[1], 4);
	reg_is(&bb_arch_arm, "lr", test_more_arm[2], 4);
	reg_is(&bb_arch_riscv64, "a1", test_regs_riscv64[1], 8);
	reg_is(&bb_arch_riscv64, "ra", test_more_riscv64[1], 8);
	reg_is(&bb_arch_riscv64, "sp", test_more_riscv64[2], 8);
	reg_is(&bb_arch_riscv64, "t6", test_more_riscv64[3], 8);
	/* names of another architecture, or none */
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_x86_64, "x0", 2));
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_arm64, "x31", 3));
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_arm64, "x01", 3));
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_arm, "a0", 2));
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_riscv64, "rax", 3));
	/* a prefix of a name is not the name */
	ck_assert_ptr_null(bb_arch_reg(&bb_arch_x86_64, "rdi", 2));
}
END_TEST

START_TEST(test_arch_machines)
{
	ck_assert_ptr_eq(bb_arch_of_machine(EM_X86_64), &bb_arch_x86_64);
	ck_assert_ptr_eq(bb_arch_of_machine(EM_AARCH64), &bb_arch_arm64);
	ck_assert_ptr_eq(bb_arch_of_machine(EM_ARM), &bb_arch_arm);
	ck_assert_ptr_eq(bb_arch_of_machine(EM_RISCV), &bb_arch_riscv64);
	ck_assert_ptr_null(bb_arch_of_machine(EM_386));
	ck_assert_str_eq(bb_arch_arm64.elf_name, "aarch64");
	ck_assert_str_eq(bb_arch_arm.multiarch, "arm-linux-gnueabihf");
	ck_assert_int_eq(bb_arch_x86_64.ldcache[0], 0x0300);
	/* 32-bit ARM takes hard- and soft-float libraries */
	ck_assert_int_eq(bb_arch_arm.ldcache[0], 0x0900);
	ck_assert_int_eq(bb_arch_arm.ldcache[1], 0);
#if defined(__x86_64__)
	ck_assert_ptr_eq(bb_arch_native(), &bb_arch_x86_64);
#endif
}
END_TEST

/* The syscall function prefixes, in the order every caller tries them */
START_TEST(test_arch_sys_prefixes)
{
	const char *p[16];
	int n;

	n = bb_arch_sys_prefixes(p, 16, 0, 1);
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(p[0], "__x64_sys_");
	ck_assert_str_eq(p[1], "__arm64_sys_");
	ck_assert_str_eq(p[2], "__riscv_sys_");
	ck_assert_str_eq(p[3], "SyS_");
	ck_assert_str_eq(p[4], "sys_");
	n = bb_arch_sys_prefixes(p, 16, 1, 0);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(p[1], "__ia32_sys_");
	/* never past max */
	ck_assert_int_eq(bb_arch_sys_prefixes(p, 2, 1, 1), 2);
}
END_TEST

static Suite *arch_suite(void)
{
	Suite *s = suite_create("arch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_arch_offsets);
	tcase_add_test(tc, test_arch_sysnr);
	tcase_add_test(tc, test_arch_regs);
	tcase_add_test(tc, test_arch_machines);
	tcase_add_test(tc, test_arch_sys_prefixes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(arch, arch_suite, NULL)
