/* SPDX-License-Identifier: MIT */
/*
 * funccount's syscall numbers of the syscalls/ events: this build's table
 * (scripts/sysnr.sh, from musl) against the numbers of the host's own
 * headers (the unit tests run on the build's architecture), the kernel's
 * renames, and the lookup on a table shaped like arm's.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include "bbtest.h"
#include "mods.h"
#include "sysnames.h"

static int nr_of(const char *event, int *exit)
{
	return funccount_sysnr(event, exit, NULL, NULL);
}

START_TEST(test_sysnr_host_numbers)
{
	int exit = -1;

	ck_assert_int_eq(nr_of("syscalls:sys_enter_getppid", &exit),
			 __NR_getppid);
	ck_assert_int_eq(exit, 0);
	ck_assert_int_eq(nr_of("syscalls:sys_exit_getppid", &exit),
			 __NR_getppid);
	ck_assert_int_eq(exit, 1);
	ck_assert_int_eq(nr_of("sys_enter_read", &exit), __NR_read);
	ck_assert_int_eq(nr_of("sys_exit_write", &exit), __NR_write);
	ck_assert_int_eq(nr_of("sys_enter_openat", &exit), __NR_openat);
	ck_assert_int_eq(nr_of("sys_enter_clone", &exit), __NR_clone);
	ck_assert_int_eq(nr_of("sys_enter_bpf", &exit), __NR_bpf);
#ifdef __NR_landlock_restrict_self
	ck_assert_int_eq(nr_of("sys_enter_landlock_restrict_self", &exit),
			 __NR_landlock_restrict_self);
#endif
	ck_assert_int_gt(funccount_sysnr_count(), __NR_bpf);
}
END_TEST

/* The kernel's names (SYSCALL_DEFINE) of calls musl names otherwise. */
START_TEST(test_sysnr_renames)
{
	int exit = -1;

	ck_assert_int_eq(nr_of("sys_enter_newfstat", &exit), __NR_fstat);
	ck_assert_int_eq(nr_of("sys_exit_newuname", &exit), __NR_uname);
	ck_assert_int_eq(exit, 1);
	ck_assert_int_eq(nr_of("sys_enter_umount", &exit), __NR_umount2);
#ifdef __NR_stat
	ck_assert_int_eq(nr_of("sys_enter_newstat", &exit), __NR_stat);
	ck_assert_int_eq(nr_of("sys_enter_newlstat", &exit), __NR_lstat);
#endif
#if defined(__NR_sendfile) && !defined(__NR_sendfile64)
	ck_assert_int_eq(nr_of("sys_enter_sendfile64", &exit), __NR_sendfile);
#endif
#ifdef __NR_newfstatat
	ck_assert_int_eq(nr_of("sys_enter_newfstatat", &exit),
			 __NR_newfstatat);
#endif
}
END_TEST

static int has_newuname(const char *call, void *arg)
{
	(void)arg;
	return !strcmp(call, "newuname");
}

/* Nothing that is not a syscalls/ event of a known call has a number;
 * an event uname beside newuname (arm's OABI calls) is an older call. */
START_TEST(test_sysnr_none)
{
	int exit = -1;

	ck_assert_int_eq(nr_of("sys_enter_", &exit), -ENOENT);
	ck_assert_int_eq(nr_of("sys_enter_getpp", &exit), -ENOENT);
	ck_assert_int_eq(nr_of("sys_enter_getppidx", &exit), -ENOENT);
	ck_assert_int_eq(nr_of("sys_enter_nosuch_call", &exit), -ENOENT);
	ck_assert_int_eq(nr_of("sched:sched_switch", &exit), -ENOENT);
	ck_assert_int_eq(nr_of("syscalls:sys_entr_read", &exit), -ENOENT);
	ck_assert_int_eq(funccount_sysnr("sys_enter_uname", &exit, NULL,
					 NULL), __NR_uname);
	ck_assert_int_eq(funccount_sysnr("sys_enter_uname", &exit,
					 has_newuname, NULL), -ENOENT);
	ck_assert_int_eq(funccount_sysnr("sys_enter_newuname", &exit,
					 has_newuname, NULL), __NR_uname);
}
END_TEST

/* Numbers without a call (""), and two names of one number. */
START_TEST(test_sysnr_find)
{
	static const char tab[] = "restart_syscall\0exit\0\0\0creat\0"
		"arm_sync_file_range sync_file_range2\0last\0";

	ck_assert_int_eq(sysnames_find(tab, 7, "restart_syscall"), 0);
	ck_assert_int_eq(sysnames_find(tab, 7, "exit"), 1);
	ck_assert_int_eq(sysnames_find(tab, 7, "creat"), 4);
	ck_assert_int_eq(sysnames_find(tab, 7, "arm_sync_file_range"),
			 5);
	ck_assert_int_eq(sysnames_find(tab, 7, "sync_file_range2"), 5);
	ck_assert_int_eq(sysnames_find(tab, 7, "sync_file_range"),
			 -ENOENT);
	ck_assert_int_eq(sysnames_find(tab, 7, "last"), 6);
	ck_assert_int_eq(sysnames_find(tab, 6, "last"), -ENOENT);
	ck_assert_int_eq(sysnames_find(tab, 7, ""), -ENOENT);
	ck_assert_int_eq(sysnames_find(tab, 7, "exi"), -ENOENT);
}
END_TEST

/* A number's first name; "" and -ENOENT for a number without a call or
 * out of the table; the host's numbers as musl's. */
START_TEST(test_sysnames_at)
{
	static const char tab[] = "restart_syscall\0exit\0\0\0creat\0"
		"arm_sync_file_range sync_file_range2\0last\0";
	char b[32], small[4];

	ck_assert_int_eq(sysnames_at(tab, 7, 0, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "restart_syscall");
	ck_assert_int_eq(sysnames_at(tab, 7, 5, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "arm_sync_file_range");
	ck_assert_int_eq(sysnames_at(tab, 7, 6, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "last");
	ck_assert_int_eq(sysnames_at(tab, 7, 2, b, sizeof(b)), -ENOENT);
	ck_assert_str_eq(b, "");
	ck_assert_int_eq(sysnames_at(tab, 7, 7, b, sizeof(b)), -ENOENT);
	ck_assert_int_eq(sysnames_at(tab, 7, -1, b, sizeof(b)), -ENOENT);
	ck_assert_int_eq(sysnames_at(tab, 7, 4, small, sizeof(small)), 0);
	ck_assert_str_eq(small, "cre");
	ck_assert_int_eq(sysnames_name(__NR_getppid, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "getppid");
	ck_assert_int_eq(sysnames_name(__NR_read, b, sizeof(b)), 0);
	ck_assert_str_eq(b, "read");
	ck_assert_int_eq(sysnames_number("getppid"), __NR_getppid);
	ck_assert_int_eq(sysnames_name(sysnames_count(), b, sizeof(b)),
			 -ENOENT);
}
END_TEST

static Suite *sysnr_suite(void)
{
	Suite *s = suite_create("sysnr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sysnr_host_numbers);
	tcase_add_test(tc, test_sysnr_renames);
	tcase_add_test(tc, test_sysnr_none);
	tcase_add_test(tc, test_sysnr_find);
	tcase_add_test(tc, test_sysnames_at);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(sysnr, sysnr_suite, NULL)
