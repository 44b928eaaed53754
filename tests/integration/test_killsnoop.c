/* SPDX-License-Identifier: MIT */
/*
 * killsnoop on this kernel's syscall tracepoints: each of a known set of
 * kill()s this test makes (a signal that is handled, a check with signal
 * 0, one to a process that does not exist, a SIGKILL) is reported once
 * with its signal, target and result; -x keeps the failed one, -s the
 * one signal; a sender named with ESC and a newline is escaped.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

/* A child that waits for signals, SIGUSR1 ignored. */
static pid_t target(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGUSR1, SIG_IGN);
		for (;;)
			pause();
	}
	return pid;
}

/* A pid that no process has now (nor will within the test). */
static pid_t no_such_pid(void)
{
	pid_t p;

	for (p = 4000000; p > 300; p -= 7919)
		if (kill(p, 0) < 0 && errno == ESRCH)
			return p;
	return 0;
}

/* Run killsnoop -p (this process) with up to 3 more args, make the four
 * kills, stop it; its stdout in out. */
static void snoop(const char *a1, const char *a2, const char *a3, char *out,
		  size_t len, pid_t *tp, pid_t *gone)
{
	char me[16], err[4096];
	char *argv[8] = { (char *)barebpf(), "killsnoop", "-p", me,
			  (char *)a1, (char *)a2, (char *)a3, NULL };
	struct proc pr;
	struct timespec ts = { 0, 200000000L };
	size_t n = 0;

	snprintf(me, sizeof(me), "%d", (int)getpid());
	*tp = target();
	*gone = no_such_pid();
	ck_assert_int_gt(*gone, 0);
	spawn(&pr, argv);
	/* -j says it on stderr; the text has the header after it */
	if (a1 && !strcmp(a1, "-j")) {
		read_until(pr.err, err, sizeof(err), "Tracing", 20000);
		ck_assert_msg(strstr(err, "Tracing"), "killsnoop did not start");
	} else {
		read_more(pr.out, out, len, &n, "RESULT", 20000);
		ck_assert_msg(strstr(out, "RESULT"), "killsnoop did not start");
	}
	ck_assert_int_eq(kill(*tp, SIGUSR1), 0);
	ck_assert_int_eq(kill(*tp, 0), 0);
	ck_assert_int_eq(kill(*gone, SIGTERM), -1);
	ck_assert_int_eq(kill(*tp, SIGKILL), 0);
	ck_assert_int_eq(wait_exit(*tp), 128 + SIGKILL);
	nanosleep(&ts, NULL);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, len, &n, NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
}

static int lines_with(const char *out, const char *want)
{
	int n = 0;

	while ((out = strstr(out, want))) {
		n++;
		out++;
	}
	return n;
}

START_TEST(test_each_kill_once)
{
	char out[65536], want[256];
	pid_t tp, gone;
	int me = getpid();

	snoop("-j", NULL, NULL, out, sizeof(out), &tp, &gone);
	snprintf(want, sizeof(want), "\"pid\":%d,\"tgid\":%d,\"comm\":", me,
		 me);
	/* and the SIGINT that stops killsnoop, seen before it stops */
	ck_assert_msg(lines_with(out, want) == 5 &&
		      lines_with(out, "\"sig\":2,") == 1,
		      "not 4 kills and a SIGINT by %d: %s", me, out);
	snprintf(want, sizeof(want), "\"sig\":10,\"tpid\":%d,\"result\":0}",
		 (int)tp);
	ck_assert_msg(lines_with(out, want) == 1, "no %s in %s", want, out);
	snprintf(want, sizeof(want), "\"sig\":0,\"tpid\":%d,\"result\":0}",
		 (int)tp);
	ck_assert_msg(lines_with(out, want) == 1, "no %s in %s", want, out);
	snprintf(want, sizeof(want), "\"sig\":15,\"tpid\":%d,\"result\":-3}",
		 (int)gone);
	ck_assert_msg(lines_with(out, want) == 1, "no %s in %s", want, out);
	snprintf(want, sizeof(want), "\"sig\":9,\"tpid\":%d,\"result\":0}",
		 (int)tp);
	ck_assert_msg(lines_with(out, want) == 1, "no %s in %s", want, out);
}
END_TEST

/* bcc's text: "TIME PID COMM SIG TPID RESULT", -x: the failed one only */
START_TEST(test_failed_only_text)
{
	char out[65536], want[256];
	pid_t tp, gone;

	snoop("-x", NULL, NULL, out, sizeof(out), &tp, &gone);
	ck_assert_msg(strstr(out, "TIME      PID    COMM             SIG  "
			      "TPID   RESULT\n"), "no bcc header: %s", out);
	/* the comm is this test program's, whatever its name */
	snprintf(want, sizeof(want), " %-4d %-6d %d\n", 15, (int)gone, -3);
	ck_assert_msg(lines_with(out, "\n") == 3 && strstr(out, want),
		      "not one line ending '%s': %s", want, out);
	snprintf(want, sizeof(want), "  %-6d ", (int)getpid());
	ck_assert_msg(strstr(out, want), "no sender %d: %s", (int)getpid(), out);
}
END_TEST

/* -s USR1 (a name): that kill alone */
START_TEST(test_one_signal)
{
	char out[65536], want[128];
	pid_t tp, gone;

	snoop("-j", "-s", "SIGUSR1", out, sizeof(out), &tp, &gone);
	snprintf(want, sizeof(want), "\"sig\":10,\"tpid\":%d,\"result\":0}",
		 (int)tp);
	ck_assert_msg(lines_with(out, "\"sig\":") == 1 && strstr(out, want),
		      "not only %s: %s", want, out);
}
END_TEST

/* A sender named with ESC and a newline: escaped, one line */
START_TEST(test_escapes_comm)
{
	char out[65536], err[4096];
	char *argv[] = { (char *)barebpf(), "killsnoop", "-s", "0", NULL };
	struct proc pr;
	pid_t pid;

	size_t n = 0;

	spawn(&pr, argv);
	read_more(pr.out, out, sizeof(out), &n, "RESULT", 20000);
	ck_assert_msg(strstr(out, "RESULT"), "killsnoop did not start");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (prctl(PR_SET_NAME, "bb\033[31m\nx", 0, 0, 0))
			_exit(1);
		_exit(kill(getppid(), 0) ? 2 : 0);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	usleep(200000);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, sizeof(out), &n, NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in:\n%s", out);
	ck_assert_msg(lines_with(out, " bb\\x1b[31m\\nx ") == 1,
		      "no escaped comm in:\n%s", out);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "killsnoop", "-s", "NOPE", NULL };
	char *a2[] = { (char *)barebpf(), "killsnoop", "extra", NULL };
	char *a3[] = { (char *)barebpf(), "killsnoop", "--help", NULL };

	ck_assert_int_eq(run(a1, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-s 'NOPE': not a signal"), "%s", err);
	ck_assert_int_eq(run(a2, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_int_eq(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(out, "examples:"));
}
END_TEST

static Suite *killsnoop_suite(void)
{
	Suite *s = suite_create("killsnoop");
	TCase *tc = tcase_create("kill");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_each_kill_once);
	tcase_add_test(tc, test_failed_only_text);
	tcase_add_test(tc, test_one_signal);
	tcase_add_test(tc, test_escapes_comm);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(killsnoop, killsnoop_suite, need_root_and_tools)
