/* SPDX-License-Identifier: MIT */
/*
 * The hostile checks of test_hostile.c for the network tools (issue 29):
 * a closed stdout, bad values, an unknown option, an unprivileged user,
 * no kprobes (this host: a plain refusal, nothing left in tracefs); where
 * the kernel has kprobes, `| head` and Ctrl-C twice (the QEMU cases
 * tcpconnect-lo and tcpaccept-lo run them where this host cannot).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"
#include "kernel.h"
#include "probe.h"

static const char *const tools[] = { "tcpconnect", "tcpaccept" };
#define NTOOLS (sizeof(tools) / sizeof(tools[0]))

/* kprobe_events as it is now, into buf ("" if none) */
static void kprobe_events(const char *tfs, char *buf, size_t len)
{
	char path[300];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/kprobe_events", tfs);
	buf[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

START_TEST(test_closed_stdout)
{
	char cmd[512], out[4096];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		snprintf(cmd, sizeof(cmd), "{ '%s' %s --duration 1 >&- ; } "
			 "2>&1; echo \"rc=$?\"", barebpf(), tools[i]);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		ck_assert_msg(strstr(out, "rc=1") &&
			      strstr(out, "standard output is closed"),
			      "%s with stdout closed: %s", tools[i], out);
	}
}
END_TEST

/* each bad value: exit 1, a message naming it, nothing on stdout */
START_TEST(test_bad_values)
{
	static const char *const bad[][4] = {
		{ "tcpconnect", "-P", "0", "'0' is not a port" },
		{ "tcpconnect", "-P", "80,70000", "'70000' is not a port" },
		{ "tcpconnect", "-P", "80,,x", "'' is not a port" },
		{ "tcpconnect", "-u", "bob", "-u 'bob': not a user id" },
		{ "tcpconnect", "-4", "-6", "-4 and -6 exclude each other" },
		{ "tcpconnect", "-p", "x1", "-p" },
		{ "tcpaccept", "-P", "65536", "'65536' is not a port" },
		{ "tcpaccept", "-6", "-4", "-4 and -6 exclude each other" },
		{ "tcpaccept", "--duration", "-1", "--duration" },
		{ "tcpaccept", "extra", NULL, "extra" },
	};
	char out[4096], err[4096];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { (char *)barebpf(), (char *)bad[i][0],
				 (char *)bad[i][1], (char *)bad[i][2], NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		ck_assert_msg(rc == 1 && strstr(err, bad[i][3]) && !out[0],
			      "%s %s %s: exit %d: %s%s", bad[i][0], bad[i][1],
			      bad[i][2] ? bad[i][2] : "", rc, out, err);
	}
}
END_TEST

START_TEST(test_unknown_option)
{
	char out[8192], err[8192], want[64];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i],
				 "--no-such-option", NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		snprintf(want, sizeof(want), "barebpf %s: unrecognized",
			 tools[i]);
		ck_assert_msg(rc == 1 && !strncmp(err, want, strlen(want)) &&
			      strstr(err, "--help`") && !out[0],
			      "%s: exit %d: %s", tools[i], rc, err);
	}
}
END_TEST

/* --help: bcc's examples, exit 0 */
START_TEST(test_help_examples)
{
	char out[16384], err[4096];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i], "--help",
				 NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		ck_assert_msg(rc == 0 && strstr(out, "examples:") &&
			      strstr(out, "-P 80,81") && strstr(out, "--btf"),
			      "%s --help: exit %d: %s", tools[i], rc, out);
	}
}
END_TEST

/* Without kprobes (this host): said plainly, exit 1, no header, nothing
 * left in kprobe_events. With them: a second's run, bcc's header, exit
 * 0, and again nothing left. */
START_TEST(test_needs_kprobes)
{
	char out[4096], err[8192], tfs[256], before[8192], after[8192];
	size_t i;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i],
				 "--duration", "1", NULL };
		int rc;

		kprobe_events(tfs, before, sizeof(before));
		rc = run(argv, out, sizeof(out), err, sizeof(err));
		kprobe_events(tfs, after, sizeof(after));
		ck_assert_msg(!strcmp(before, after), "%s left kprobe_events "
			      "changed: %s", tools[i], after);
		if (kprobes_available(tfs)) {
			ck_assert_msg(rc == 0 && strstr(out, "PID") &&
				      strstr(out, i ? "LPORT" : "DPORT"),
				      "%s: exit %d: %s%s", tools[i], rc, out,
				      err);
			continue;
		}
		ck_assert_msg(rc == 1 && strstr(err, "no kprobe_events") &&
			      strstr(err, "needs kprobes") && !out[0],
			      "%s: exit %d: %s%s", tools[i], rc, out, err);
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
				 (char *)tools[i], NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		ck_assert_msg(rc == 1 && strstr(err, "root"),
			      "%s as a user: exit %d: %s", tools[i], rc, err);
	}
}
END_TEST

/* Two SIGINTs at once: a clean exit 0 (kprobes needed) */
START_TEST(test_sigint_twice)
{
	char out[65536], err[4096], tfs[256];
	size_t i;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (!kprobes_available(tfs))
		bbtest_skip("no kprobes on this kernel (the QEMU cases "
			    "tcpconnect-lo and tcpaccept-lo stop the tools "
			    "with SIGINT)");
	for (i = 0; i < NTOOLS; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i], NULL };
		struct proc pr;
		int rc;

		spawn(&pr, argv);
		read_until(pr.out, out, sizeof(out), "Tracing", 20000);
		ck_assert_msg(strstr(out, "Tracing"), "%s did not start",
			      tools[i]);
		kill(pr.pid, SIGINT);
		kill(pr.pid, SIGINT);
		read_until(pr.out, out, sizeof(out), NULL, 20000);
		read_until(pr.err, err, sizeof(err), NULL, 5000);
		rc = wait_exit(pr.pid);
		close(pr.out);
		close(pr.err);
		ck_assert_msg(rc == 0, "%s: exit %d after two SIGINTs: %s",
			      tools[i], rc, err);
	}
}
END_TEST

static Suite *hostile_net_suite(void)
{
	Suite *s = suite_create("hostile_net");
	TCase *tc = tcase_create("net");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_closed_stdout);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_unknown_option);
	tcase_add_test(tc, test_help_examples);
	tcase_add_test(tc, test_needs_kprobes);
	tcase_add_test(tc, test_unprivileged_user);
	tcase_add_test(tc, test_sigint_twice);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(hostile_net, hostile_net_suite, need_root_and_tools)
