/* SPDX-License-Identifier: MIT */
/*
 * stack_add_entry_ret (loader/kernel/stack.c): the return address of a function
 * probed at its entry goes back into its kernel stack (arm64's frame walk
 * leaves the direct caller out), once, and never past the map's depth.
 */
#include <string.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"

START_TEST(test_inserted_after_the_probed_function)
{
	uint64_t ips[8] = { 0x100, 0x300, 0x400 };

	ck_assert_int_eq(stack_add_entry_ret(ips, 3, 8, 0x200), 4);
	ck_assert_uint_eq(ips[0], 0x100);
	ck_assert_uint_eq(ips[1], 0x200);
	ck_assert_uint_eq(ips[2], 0x300);
	ck_assert_uint_eq(ips[3], 0x400);
}
END_TEST

START_TEST(test_not_doubled)
{
	/* the walk has it already (x86, or arm64 through ftrace's records) */
	uint64_t ips[4] = { 0x100, 0x200, 0x300 };

	ck_assert_int_eq(stack_add_entry_ret(ips, 3, 4, 0x200), 3);
	ck_assert_uint_eq(ips[1], 0x200);
	ck_assert_uint_eq(ips[2], 0x300);
}
END_TEST

START_TEST(test_none_or_no_stack)
{
	uint64_t ips[4] = { 0x100, 0x300 };

	ck_assert_int_eq(stack_add_entry_ret(ips, 2, 4, 0), 2); /* x86: 0 */
	ck_assert_uint_eq(ips[1], 0x300);
	ck_assert_int_eq(stack_add_entry_ret(ips, 0, 4, 0x200), 0);
	ck_assert_int_eq(stack_add_entry_ret(ips, -14, 4, 0x200), -14);
	ck_assert_uint_eq(ips[1], 0x300);
}
END_TEST

START_TEST(test_only_the_probed_function)
{
	uint64_t ips[4] = { 0x100 };

	ck_assert_int_eq(stack_add_entry_ret(ips, 1, 4, 0x200), 2);
	ck_assert_uint_eq(ips[1], 0x200);
}
END_TEST

START_TEST(test_full_stack_drops_the_outermost)
{
	uint64_t ips[3] = { 0x100, 0x300, 0x400 };

	ck_assert_int_eq(stack_add_entry_ret(ips, 3, 3, 0x200), 3);
	ck_assert_uint_eq(ips[0], 0x100);
	ck_assert_uint_eq(ips[1], 0x200);
	ck_assert_uint_eq(ips[2], 0x300);
}
END_TEST

static Suite *stack_suite(void)
{
	Suite *s = suite_create("stack");
	TCase *tc = tcase_create("entry_ret");

	tcase_add_test(tc, test_inserted_after_the_probed_function);
	tcase_add_test(tc, test_not_doubled);
	tcase_add_test(tc, test_none_or_no_stack);
	tcase_add_test(tc, test_only_the_probed_function);
	tcase_add_test(tc, test_full_stack_drops_the_outermost);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(stack, stack_suite, NULL)
