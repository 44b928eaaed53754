/* SPDX-License-Identifier: MIT */
/*
 * What must be refused at start rather than found out later, or never
 * (issue 32): intervals a tool cannot honour, which spun a CPU and made it
 * deaf to signals; a stop signal always stops. Each runs the binary under
 * `timeout -s KILL`, so that a hang fails the test instead of hanging it,
 * and checks the exit status and what is said.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

static const char *refuse_requires(void)
{
	return need_root_and_tools();
}

/* `barebpf ARGS` under `timeout -s KILL secs`, stderr with stdout into
 * out; the exit status (137: killed by the timeout). */
static int bb_sh(int secs, const char *args, char *out, size_t len)
{
	char cmd[1024];
	const char *rc;
	int st = -1;

	snprintf(cmd, sizeof(cmd), "{ timeout -s KILL %d '%s' %s; } 2>&1; "
		 "echo \"rc=$?\"", secs, barebpf(), args);
	ck_assert_int_eq(sh(cmd, out, len), 0);
	rc = strrchr(out, '=');
	ck_assert_msg(rc && sscanf(rc + 1, "%d", &st) == 1, "%s", out);
	return st;
}

/* Intervals below a millisecond: refused with the range, at once.
 * Before: biolatency and funccount spun at 100 % CPU until killed (the
 * next tick, 1e-12 s after the last, was the same double), the exporter
 * too, deaf to SIGINT. */
START_TEST(test_tiny_interval_refused)
{
	static const char *const cmds[] = {
		"biolatency 1e-12 3",
		"funccount -i 1e-12 -d 1 t:syscalls:sys_enter_getppid",
		"exporter --interval 1e-300 --duration 2",
		"vfsstat --duration 1e-9",
	};
	char out[4096];
	size_t i;
	int st;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		st = bb_sh(10, cmds[i], out, sizeof(out));
		ck_assert_msg(st == 1 && strstr(out, "from 0.001 to 1e+09"),
			      "%s: exit %d: %s", cmds[i], st, out);
	}
}
END_TEST

/* The smallest interval taken runs, and a stop signal ends it within a
 * second, SIGINT or SIGTERM. */
START_TEST(test_smallest_interval_stops)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	char *argv[] = { (char *)barebpf(), "funccount", "-i", "0.001",
			 "t:syscalls:sys_enter_getppid", NULL };
	struct proc p;
	double t0;
	size_t i;
	int st;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char buf[4096];

		spawn(&p, argv);
		read_until(p.out, buf, sizeof(buf), "Tracing", 10000);
		usleep(500000);
		t0 = mono();
		kill(p.pid, sigs[i]);
		read_rest(p.out, 5000);
		st = wait_exit(p.pid);
		read_until(p.err, buf, sizeof(buf), NULL, 1000);
		close(p.out);
		close(p.err);
		ck_assert_msg(st == 0 && mono() - t0 < 2,
			      "signal %d: exit %d after %.2f s: %s", sigs[i], st,
			      mono() - t0, buf);
	}
}
END_TEST

/* An object that is a FIFO: refused as not a regular file, at once.
 * Before: `run FIFO` blocked in open() until killed. */
START_TEST(test_run_fifo_refused)
{
	char fifo[64], args[128], out[4096];
	int st;

	snprintf(fifo, sizeof(fifo), "/tmp/bbtest-fifo-%d", (int)getpid());
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(args, sizeof(args), "run -d 1 %s", fifo);
	st = bb_sh(10, args, out, sizeof(out));
	unlink(fifo);
	ck_assert_msg(st == 1 && strstr(out, "not a regular file"),
		      "exit %d: %s", st, out);
}
END_TEST

/* A write that fails fails the run, on every way out: the help, the
 * version and the tool list returned 0 into /dev/full; a tool's output too.
 */
START_TEST(test_full_output_fails)
{
	static const char *const cmds[] = {
		"--help", "--version", "--list-tools", "biolatency --help",
		"trace --help", "features",
		"funccount -d 1 t:syscalls:sys_enter_getppid",
	};
	char args[256], out[4096];
	size_t i;
	int st;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(args, sizeof(args), "%s >/dev/full", cmds[i]);
		st = bb_sh(20, args, out, sizeof(out));
		ck_assert_msg(st == 1 && strstr(out, "writing the output failed "
						"(No space left on device)"),
			      "%s: exit %d: %s", cmds[i], st, out);
	}
}
END_TEST

/* --svg's file is opened at start: a path that cannot be written fails at
 * once, not after the whole wait; a full disk is said as such, not as an
 * I/O error. Before: 5 s of profile, then the message; /dev/full said
 * "Input/output error". */
START_TEST(test_svg_checked_at_start)
{
	static const char *const tools[] = { "profile", "offcputime" };
	char args[256], out[8192];
	double t0;
	size_t i;
	int st;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		snprintf(args, sizeof(args), "%s --svg /nonexistent-bbtest/x.svg 5 >/dev/null",
			 tools[i]);
		t0 = mono();
		st = bb_sh(20, args, out, sizeof(out));
		ck_assert_msg(st == 1 && mono() - t0 < 3 &&
			      strstr(out, "--svg /nonexistent-bbtest/x.svg: No "
				     "such file or directory"),
			      "%s: exit %d after %.1f s: %s", tools[i], st,
			      mono() - t0, out);
		snprintf(args, sizeof(args), "%s --svg /dev/full 1 >/dev/null",
			 tools[i]);
		st = bb_sh(20, args, out, sizeof(out));
		ck_assert_msg(st == 1 && strstr(out, "--svg /dev/full: No space "
						"left on device"),
			      "%s: exit %d: %s", tools[i], st, out);
	}
}
END_TEST

/* Map sizes the kernel cannot take: refused, not cut to 32 bits. Before:
 * --stack-storage-size 4294967297 ran with a stack map of 1 entry. */
START_TEST(test_map_sizes_refused)
{
	static const char *const cmds[] = {
		"profile --stack-storage-size 4294967297 1",
		"profile --hash-storage-size 4294967297 1",
		"profile --stack-storage-size 2147483649 1",
		"offcputime --stack-storage-size 4294967297 1",
	};
	char args[256], out[8192];
	size_t i;
	int st;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(args, sizeof(args), "%s >/dev/null", cmds[i]);
		st = bb_sh(20, args, out, sizeof(out));
		ck_assert_msg(st == 1 && strstr(out, "from 1 to 2147483648"),
			      "%s: exit %d: %s", cmds[i], st, out);
	}
}
END_TEST

/* A pid that is not there: refused the same way by every tool and option
 * that filters on one, as trace -p on a uprobe was. Before: profile -p,
 * offcputime -p/-t, trace -p/-L on a tracepoint ran, printed nothing and
 * exited 0. A pid that is there still runs. */
START_TEST(test_missing_pid_refused)
{
	static const char *const cmds[] = {
		"profile -p %d 1",
		"offcputime -p %d 1",
		"offcputime -t %d 1",
		"trace -p %d --duration 1 t:syscalls:sys_enter_getppid",
		"trace -L %d --duration 1 t:syscalls:sys_enter_getppid",
		"trace -p %d --duration 1 r:/bin/sh:main",
		"funccount -p %d -d 1 t:syscalls:sys_enter_getppid",
	};
	char fmt[256], args[256], out[8192], want[64];
	pid_t gone = fork();
	size_t i;
	int st;

	ck_assert_int_ge(gone, 0);
	if (!gone)
		_exit(0);
	ck_assert_int_eq(wait_exit(gone), 0); /* reaped: no such pid now */
	snprintf(want, sizeof(want), "no process %d: it is not running",
		 (int)gone);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(fmt, sizeof(fmt), "%s >/dev/null", cmds[i]);
		snprintf(args, sizeof(args), fmt, (int)gone);
		st = bb_sh(20, args, out, sizeof(out));
		ck_assert_msg(st == 1 && strstr(out, want), "%s: exit %d: %s",
			      args, st, out);
	}
	snprintf(args, sizeof(args), "offcputime -p %d 0.5 >/dev/null",
		 (int)getpid());
	st = bb_sh(20, args, out, sizeof(out));
	ck_assert_msg(st == 0, "%s: exit %d: %s", args, st, out);
}
END_TEST

static Suite *refuse_suite(void)
{
	Suite *s = suite_create("refuse");
	TCase *tc = tcase_create("refuse");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_tiny_interval_refused);
	tcase_add_test(tc, test_smallest_interval_stops);
	tcase_add_test(tc, test_run_fifo_refused);
	tcase_add_test(tc, test_full_output_fails);
	tcase_add_test(tc, test_svg_checked_at_start);
	tcase_add_test(tc, test_map_sizes_refused);
	tcase_add_test(tc, test_missing_pid_refused);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(refuse, refuse_suite, refuse_requires)
