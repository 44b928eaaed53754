/* SPDX-License-Identifier: MIT */
/*
 * The hostile checks of test_hostile.c for the scheduler and system tools
 * (issue 30) and the network tools (issue 29): a closed stdout, `| head`,
 * Ctrl-C twice, an unknown option, an unprivileged user. Each tool is run
 * as TOOLS lists it (without a run: no `| head` check).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

/* each tool, then a run that prints at least 3 lines within a second */
static const char *const tools[][2] = {
	{ "runqlat", "runqlat -L 0.2" },
	{ "cpudist", "cpudist -L 0.2" },
	/* a shell's own kill -0 checks, 20 of them */
	{ "killsnoop", "killsnoop & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 "
		       "14 15 16 17 18 19 20; do sleep 0.1; kill -0 1; done" },
	/* each sleep's exit */
	{ "exitsnoop", "exitsnoop & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 "
		       "14 15 16 17 18 19 20; do sleep 0.1; done" },
	/* connections refused by a closed port: 2 changes, a session each */
	{ "tcpstates", "tcpstates & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 "
		       "14 15 16 17 18 19 20; do sleep 0.1; bash -c "
		       "': </dev/tcp/127.0.0.1/1' 2>/dev/null; done" },
	{ "tcplife", "tcplife & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
		     "15 16 17 18 19 20; do sleep 0.1; bash -c "
		     "': </dev/tcp/127.0.0.1/1' 2>/dev/null; done" },
	{ "tcpretrans", NULL },
	/* each refused SYN: a NO_SOCKET drop, its stack (many lines) */
	{ "tcpdrop", "tcpdrop & for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
		     "15 16 17 18 19 20; do sleep 0.1; bash -c "
		     "': </dev/tcp/127.0.0.1/1' 2>/dev/null; done" },
};
#define NTOOLS (sizeof(tools) / sizeof(tools[0]))

START_TEST(test_closed_stdout)
{
	char cmd[512], out[4096];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		snprintf(cmd, sizeof(cmd), "{ '%s' %s --duration 1 >&- ; } "
			 "2>&1; echo \"rc=$?\"", barebpf(), tools[i][0]);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		/* refused at start, as every tool (test_hostile.c) */
		ck_assert_msg(strstr(out, "rc=1") &&
			      strstr(out, "standard output is closed"),
			      "%s with stdout closed: %s", tools[i][0], out);
	}
}
END_TEST

/* `| head -n 3`: the tool ends at its next write (SIGPIPE), in seconds */
START_TEST(test_head)
{
	char cmd[512], out[4096];
	struct timespec t0, t1;
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		if (!tools[i][1])
			continue;
		snprintf(cmd, sizeof(cmd), "timeout 20 sh -c \"( '%s' %s ) | "
			 "head -n 3 >/dev/null; echo rc=\\$?\" 2>&1",
			 barebpf(), tools[i][1]);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ck_assert_msg(strstr(out, "rc=0") && t1.tv_sec - t0.tv_sec < 15,
			      "%s | head: %s (%ld s)", tools[i][1], out,
			      (long)(t1.tv_sec - t0.tv_sec));
	}
}
END_TEST

/* Two SIGINTs at once: a clean exit 0, the output of the end printed */
START_TEST(test_sigint_twice)
{
	char out[65536], err[4096];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i][0], NULL };
		struct proc pr;
		int rc;

		spawn(&pr, argv);
		read_until(pr.out, out, sizeof(out), "Tracing", 20000);
		ck_assert_msg(strstr(out, "Tracing"), "%s did not start",
			      tools[i][0]);
		kill(pr.pid, SIGINT);
		kill(pr.pid, SIGINT);
		read_until(pr.out, out, sizeof(out), NULL, 20000);
		read_until(pr.err, err, sizeof(err), NULL, 5000);
		rc = wait_exit(pr.pid);
		close(pr.out);
		close(pr.err);
		ck_assert_msg(rc == 0, "%s: exit %d after two SIGINTs: %s",
			      tools[i][0], rc, err);
	}
}
END_TEST

START_TEST(test_unknown_option)
{
	char out[8192], err[8192], want[64];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i][0],
				 "--no-such-option", NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		snprintf(want, sizeof(want), "barebpf %s: unrecognized",
			 tools[i][0]);
		ck_assert_msg(rc == 1 && !strncmp(err, want, strlen(want)) &&
			      strstr(err, "--help`") && !out[0],
			      "%s: exit %d: %s", tools[i][0], rc, err);
	}
}
END_TEST

/* As a user: root is needed, said in one message, exit 1 */
START_TEST(test_unprivileged_user)
{
	char path[64] = "", out[4096], err[8192];
	struct stat st;
	size_t i;

	if (sh("command -v setpriv", path, sizeof(path)) || !path[0])
		bbtest_skip("no setpriv (util-linux)");
	if (stat("/sys/kernel/tracing", &st) || (st.st_mode & 077))
		bbtest_skip("/sys/kernel/tracing is not mode 0700 here");
	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { path, "--reuid=65534", "--regid=65534",
				 "--clear-groups", (char *)barebpf(),
				 (char *)tools[i][0], NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		ck_assert_msg(rc == 1 && strstr(err, "root"),
			      "%s as a user: exit %d: %s", tools[i][0], rc,
			      err);
	}
}
END_TEST

static Suite *hostile_sched_suite(void)
{
	Suite *s = suite_create("hostile_sched");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_closed_stdout);
	tcase_add_test(tc, test_head);
	tcase_add_test(tc, test_sigint_twice);
	tcase_add_test(tc, test_unknown_option);
	tcase_add_test(tc, test_unprivileged_user);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(hostile_sched, hostile_sched_suite, need_root_and_tools)
