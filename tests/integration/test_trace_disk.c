/* SPDX-License-Identifier: MIT */
/*
 * trace -d DISK keeps only calls by tasks whose latest bio went to DISK:
 * a dd reading the loop device is traced, a cat that never touches it is
 * not, though both call read().
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (; (text = strstr(text, needle)); text++)
		n++;
	return n;
}

START_TEST(test_trace_disk_filter)
{
	static char out[1 << 20];
	char err[4096], cmd[256];
	char *argv[] = { (char *)barebpf(), "trace", "-j", "-d", loopdev,
			 "t:syscalls:sys_enter_read", NULL };
	struct proc p;
	int dd, cat;

	loop_setup();
	spawn(&p, argv);
	read_until(p.err, err, sizeof(err), "Tracing", 30000);
	ck_assert_msg(strstr(err, "Tracing"), "trace did not start: %s", err);
	/* dd's first read comes before its first bio: 20 reads, >= 19 kept */
	snprintf(cmd, sizeof(cmd), "dd if=/dev/%s of=/dev/null bs=4k count=20 "
		 "iflag=direct 2>/dev/null && cat /proc/version /proc/cpuinfo "
		 "/proc/meminfo >/dev/null", loopdev);
	ck_assert_int_eq(system(cmd), 0);
	usleep(300 * 1000);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 20000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	close(p.out);
	close(p.err);
	loop_teardown();
	dd = count(out, "\"comm\":\"dd\"");
	cat = count(out, "\"comm\":\"cat\"");
	ck_assert_msg(dd >= 19 && dd <= 21, "%d dd reads traced for 20: %s",
		      dd, out);
	ck_assert_msg(cat == 0, "%d reads of cat traced (it queued no bio "
		      "to %s)", cat, loopdev);
	/* every line is one of dd's: nothing else did I/O to the disk */
	ck_assert_int_eq(count(out, "{\"pid\":"), dd);
}
END_TEST

static Suite *trace_disk_suite(void)
{
	Suite *s = suite_create("trace_disk");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_trace_disk_filter);
	suite_add_tcase(s, tc);
	return s;
}

static const char *need_tracepoints(void)
{
	const char *why = need_root_and_tools();

	if (why)
		return why;
	if (access("/sys/kernel/tracing/events/syscalls/sys_enter_read", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_read",
		   F_OK))
		return "no syscalls:sys_enter_read tracepoint (tracefs not "
		       "mounted, or CONFIG_FTRACE_SYSCALLS off)";
	return NULL;
}

BBTEST_SUITE(trace_disk, trace_disk_suite, need_tracepoints)
