/* SPDX-License-Identifier: MIT */
/*
 * syscount's output against bcc's own format strings ("%-22s %8d", with
 * -L " %16.3f" or -m " %16.6f", -P "%-6d %-15s"), its order (by count, by
 * time with -L), -T's cut, names of numbers the table lacks, escaped
 * comms, valid JSON; -e's errno names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "sysnames.h"
#include "syscount_out.h"

static char *render(struct syscount_row *r, int n, int top, unsigned flags,
		    int json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	syscount_print(f, r, n, top, flags, "12:34:56", json);
	fclose(f);
	return out;
}

START_TEST(test_syscount_text_as_bcc)
{
	struct syscount_row r[3] = {
		{ SYS_read, 5, 1500, "" },
		{ SYS_getppid, 1000, 123456789, "" },
		{ 4000, 7, 9, "" }, /* no call of that number */
	};
	char want[1024], *got;

	got = render(r, 3, 10, 0, 0);
	snprintf(want, sizeof(want), "[12:34:56]\n%-22s %8s\n%-22s %8d\n"
		 "%-22s %8d\n%-22s %8d\n\n", "SYSCALL", "COUNT", "getppid",
		 1000, "[unknown: 4000]", 7, "read", 5);
	ck_assert_str_eq(got, want);
	free(got);
	/* -L: by time; -T 2 */
	got = render(r, 3, 2, SYSCOUNT_LATENCY, 0);
	snprintf(want, sizeof(want), "[12:34:56]\n%-22s %8s %16s\n"
		 "%-22s %8d %16.3f\n%-22s %8d %16.3f\n\n", "SYSCALL", "COUNT",
		 "TIME (us)", "getppid", 1000, 123456.789, "read", 5, 1.5);
	ck_assert_str_eq(got, want);
	free(got);
	got = render(r, 1, 10, SYSCOUNT_LATENCY | SYSCOUNT_MS, 0);
	snprintf(want, sizeof(want), "[12:34:56]\n%-22s %8s %16s\n"
		 "%-22s %8d %16.6f\n\n", "SYSCALL", "COUNT", "TIME (ms)",
		 "getppid", 1000, 123.456789);
	ck_assert_str_eq(got, want);
	free(got);
}
END_TEST

START_TEST(test_syscount_process_as_bcc)
{
	struct syscount_row r[2] = {
		{ 4242, 10, 0, "dd" },
		{ 77, 11, 0, "evil\033[2J\nx" },
	};
	char want[1024], *got = render(r, 2, 10, SYSCOUNT_BY_PROCESS, 0);

	snprintf(want, sizeof(want), "[12:34:56]\n%-22s %8s\n%-6d %-15s %8d\n"
		 "%-6d %-15s %8d\n\n", "PID    COMM", "COUNT", 77,
		 "evil\\x1b[2J\\nx", 11, 4242, "dd", 10);
	ck_assert_str_eq(got, want);
	free(got);
}
END_TEST

START_TEST(test_syscount_json)
{
	struct syscount_row r[2] = {
		{ SYS_getppid, 3, 2000, "" },
		{ 5, 1, 0, "a\"b\033" },
	};
	char *got = render(r, 2, 10, SYSCOUNT_LATENCY, 1), name[64];
	char want[256];

	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_int_eq(got[strlen(got) - 1], '\n');
	ck_assert_int_eq(sysnames_name(SYS_getppid, name, sizeof(name)), 0);
	snprintf(want, sizeof(want), "{\"time\":\"12:34:56\",\"syscalls\":"
		 "[{\"syscall\":\"getppid\",\"nr\":%d,\"count\":3,"
		 "\"total_ns\":2000},", SYS_getppid);
	ck_assert_msg(!strncmp(got, want, strlen(want)), "%s", got);
	free(got);
	got = render(r, 2, 10, SYSCOUNT_BY_PROCESS, 1);
	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_msg(strstr(got, "\"processes\":[{\"pid\":"), "%s", got);
	ck_assert_msg(strstr(got, "\"comm\":\"a\\\"b\\u001b\""), "%s", got);
	ck_assert_msg(!strstr(got, "total_ns"), "%s", got);
	free(got);
	got = render(r, 0, 10, 0, 1);
	ck_assert_str_eq(got, "{\"time\":\"12:34:56\",\"syscalls\":[]}\n");
	free(got);
}
END_TEST

START_TEST(test_syscount_errno_names)
{
	ck_assert_int_eq(syscount_errno("ENOENT"), ENOENT);
	ck_assert_int_eq(syscount_errno("EPERM"), EPERM);
	ck_assert_int_eq(syscount_errno("ECONNREFUSED"), ECONNREFUSED);
	ck_assert_int_eq(syscount_errno("2"), 2);
	ck_assert_int_eq(syscount_errno("EFOO"), -EINVAL);
	ck_assert_int_eq(syscount_errno("enoent"), -EINVAL);
	ck_assert_int_eq(syscount_errno("0"), -EINVAL);
	ck_assert_int_eq(syscount_errno(""), -EINVAL);
}
END_TEST

static Suite *syscount_suite(void)
{
	Suite *s = suite_create("syscount");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_syscount_text_as_bcc);
	tcase_add_test(tc, test_syscount_process_as_bcc);
	tcase_add_test(tc, test_syscount_json);
	tcase_add_test(tc, test_syscount_errno_names);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(syscount, syscount_suite, NULL)
