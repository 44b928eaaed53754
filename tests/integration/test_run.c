/* SPDX-License-Identifier: MIT */
/*
 * barebpf run as a user runs it, on this kernel: a libbpf-style object's
 * struct keys printed by their BTF fields (-j), bpf_trace_printk lines
 * relayed, and messages that start with the object's file name.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"

static const char *run_requires(void)
{
	const char *why = need_root_and_tools();

	if (why)
		return why;
	if (access("/sys/kernel/tracing/events/sched/sched_switch", F_OK))
		return "no sched:sched_switch in /sys/kernel/tracing";
	return NULL;
}

/* A process that sleeps in a loop: context switches to count. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (;;)
			usleep(20000);
	}
	return pid;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static char out[1 << 16], err[1 << 14];

#define KEY0 "{\"map\":\"counts\",\"key\":0,\"value\":"
#define KEY1 "{\"map\":\"counts\",\"key\":1,\"value\":"

/* libbpf's uprobe/LIB:FUNC and uretprobe/ sections: c:getppid, called by
 * a child in a loop, counted on entry and on return */
START_TEST(test_run_uprobe_sections)
{
	char tgid[32];
	char *argv[] = { (char *)barebpf(), "run", "-j", "-d", "1", "-c", tgid,
			 OBJDIR "uprobe_libc.bpf.o", NULL };
	unsigned long long in = 0, back = 0;
	const char *p;
	pid_t pid = fork();
	int rc;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (;;) {
			getppid();
			usleep(2000);
		}
	}
	snprintf(tgid, sizeof(tgid), "bb_tgid=%d", (int)pid);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	stop(pid);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	p = strstr(out, KEY0);
	ck_assert_msg(p && sscanf(p + strlen(KEY0), "%llu", &in) == 1, "%s",
		      out);
	p = strstr(out, KEY1);
	ck_assert_msg(p && sscanf(p + strlen(KEY1), "%llu", &back) == 1, "%s",
		      out);
	/* a second of calls every 2 ms; returns count only where their
	 * entry was seen (uprobe_libc.bpf.c: attaching both takes a while
	 * under load, and calls made in between have one without the other) */
	ck_assert_msg(in >= 50 && back >= 25 && back <= in, "%llu %llu: %s",
		      in, back, out);
}
END_TEST

START_TEST(test_run_btf_json)
{
	pid_t pid = sleeper();
	char c[64], want[96];
	char *argv[] = { (char *)barebpf(), "run", "-j", "-d", "1", "-c", c,
			 OBJDIR "btf_maps.bpf.o", NULL };
	int rc;

	snprintf(c, sizeof(c), "bb_tgid=%d", (int)pid);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	stop(pid);
	unlink("/sys/fs/bpf/bbtest_btfpin");
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	snprintf(want, sizeof(want),
		 "{\"map\":\"counts\",\"key\":{\"tgid\":%d,\"tag\":7},\"value\":",
		 (int)pid);
	ck_assert_msg(strstr(out, want), "no '%s' in:\n%s", want, out);
	ck_assert_msg(strstr(out, "{\"map\":\"percpu\",\"key\":0,\"sum\":"),
		      "%s", out);
	ck_assert_msg(strstr(out, "\"stackid\":"), "%s", out);
}
END_TEST

/* User stacks of a stack map, named with the pid the map's key pairs
 * them with: the sleeper's stack, taken at its context switches, is in
 * nanosleep (libc's or this program's own, when static) */
START_TEST(test_run_ustack_pid)
{
	pid_t pid = sleeper();
	char c[64], want[64], *p;
	char *argv[] = { (char *)barebpf(), "run", "-d", "1", "-c", c,
			 OBJDIR "btf_ustack.bpf.o", NULL };
	int rc;

	snprintf(c, sizeof(c), "bb_tgid=%d", (int)pid);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	stop(pid);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	snprintf(want, sizeof(want), " (pid %d):\n", (int)pid);
	p = strstr(out, want);
	ck_assert_msg(p, "no stack named with pid %d in:\n%s", (int)pid, out);
	ck_assert_msg(strstr(p, "nanosleep"), "no nanosleep frame in:\n%s",
		      out);
	ck_assert_msg(!strstr(out, "[user]"), "unnamed user frames:\n%s", out);
}
END_TEST

/* A counter array (bpf_perf_event_read) is left alone and said to be
 * unsupported; the output ring beside it still delivers the samples */
START_TEST(test_run_counter_array)
{
	pid_t pid = sleeper();
	char c[64], want[64];
	char *argv[] = { (char *)barebpf(), "run", "-d", "1", "-c", c,
			 OBJDIR "counters.bpf.o", NULL };
	int rc;

	snprintf(c, sizeof(c), "bb_tgid=%d", (int)pid);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	stop(pid);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "warning: map counters is read with "
				  "bpf_perf_event_read") &&
			      strstr(err, "(unsupported)"), "%s", err);
	ck_assert_msg(!strstr(err, "map events is read"), "%s", err);
	/* samples of events: the sleeper's tgid, 4 bytes little-endian */
	snprintf(want, sizeof(want), ": %02x %02x %02x %02x", pid & 0xff,
		 (pid >> 8) & 0xff, (pid >> 16) & 0xff, (pid >> 24) & 0xff);
	ck_assert_msg(strstr(out, want), "no sample '%s' in:\n%s", want, out);
	/* every read of the unopened counters failed: slot 0 stays 0 */
	ck_assert_msg(strstr(out, "map reads:\n  0: 0\n  1: "), "%s", out);
	ck_assert_msg(!strstr(out, "map reads:\n  0: 0\n  1: 0\n"), "%s", out);
}
END_TEST

START_TEST(test_run_printk)
{
	pid_t pid = sleeper();
	char c[64];
	char *argv[] = { (char *)barebpf(), "run", "-d", "1", "-c", c,
			 OBJDIR "printk.bpf.o", NULL };
	int rc;

	snprintf(c, sizeof(c), "bb_tgid=%d", (int)pid);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	stop(pid);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(out, "printk: ") &&
		      strstr(out, ": bbtest printk 42"), "%s", out);
}
END_TEST

START_TEST(test_run_messages)
{
	static const char want[] = "barebpf run: bad_section.bpf.o: section "
		"xdp is an XDP program; barebpf run attaches kprobe, "
		"kretprobe, ksyscall, uprobe, tracepoint and perf_event programs";
	char *argv[] = { (char *)barebpf(), "run", OBJDIR "bad_section.bpf.o",
			 NULL };

	ck_assert_int_ne(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
}
END_TEST

/* A -c naming no constant is an error with exit status 1 (run_main
 * returned -ENOENT, which the shell saw as 254) */
START_TEST(test_run_unknown_const)
{
	char *argv[] = { (char *)barebpf(), "run", "-d", "1", "-c",
			 "bb_nosuch=1", OBJDIR "printk.bpf.o", NULL };
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "no program uses a constant named "
			     "'bb_nosuch'"), "%s", err);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("tool");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_run_btf_json);
	tcase_add_test(tc, test_run_uprobe_sections);
	tcase_add_test(tc, test_run_printk);
	tcase_add_test(tc, test_run_ustack_pid);
	tcase_add_test(tc, test_run_counter_array);
	tcase_add_test(tc, test_run_messages);
	tcase_add_test(tc, test_run_unknown_const);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(run, run_suite, run_requires)
