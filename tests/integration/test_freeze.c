/* SPDX-License-Identifier: MIT */
/*
 * freeze and qenter on this machine's kernel. They need kprobes; a kernel
 * without them (this 6.18) must get a plain sentence and a non-zero exit,
 * never a half-attached run. Bad arguments fail before anything is loaded.
 * (Their programs pass this kernel's verifier in test_tools.c; the real
 * runs are in vm-tests/cases/freeze-*.sh and qenter-*.sh.)
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "kernel.h"
#include "probe.h"

static const char *barebpf(void)
{
	const char *p = getenv("BAREBPF");

	return p ? p : BB_BUILD_DIR "/barebpf";
}

/* Run argv to completion: exit status, stdout and stderr (each cut at
 * len - 1 bytes). */
static int run(char *const argv[], char *out, char *err, size_t len)
{
	int o[2], e[2], st, n, done = 0;
	size_t no = 0, ne = 0;
	pid_t pid;

	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	while (done < 2) {
		struct pollfd p[2] = { { o[0], POLLIN, 0 }, { e[0], POLLIN, 0 } };

		if (poll(p, 2, 30000) <= 0)
			break;
		done = 0;
		for (n = 0; n < 2; n++) {
			char *buf = n ? err : out;
			size_t *used = n ? &ne : &no;
			ssize_t r;

			if (p[n].fd < 0 || !(p[n].revents & (POLLIN | POLLHUP))) {
				done += p[n].fd < 0;
				continue;
			}
			r = read(p[n].fd, buf + *used, len - 1 - *used);
			if (r <= 0) {
				done++;
				if (n)
					e[0] = -1;
				else
					o[0] = -1;
				continue;
			}
			*used += r;
		}
	}
	out[no] = 0;
	err[ne] = 0;
	if (o[0] >= 0)
		close(o[0]);
	if (e[0] >= 0)
		close(e[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *need_root_and_barebpf(void)
{
	if (geteuid())
		return "needs root (tracefs)";
	if (access(barebpf(), X_OK))
		return "build/barebpf is not built (run make first)";
	return NULL;
}

/* Without kprobes: say so, exit non-zero. With them: run a second. */
static void expect_needs_kprobes(const char *tool, const char *started)
{
	char out[8192], err[8192], tfs[256];
	char *argv[] = { (char *)barebpf(), (char *)tool, NULL };
	char *timed[] = { (char *)barebpf(), (char *)tool, "--duration", "1",
			  NULL };

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (kprobes_available(tfs)) {
		ck_assert_int_eq(run(timed, out, err, sizeof(out)), 0);
		ck_assert_msg(strstr(out, started), "%s: stdout: %s", tool, out);
		return;
	}
	ck_assert_int_eq(run(argv, out, err, sizeof(out)), 1);
	ck_assert_msg(strstr(err, "this kernel has no kprobe_events") &&
		      strstr(err, "this tool needs kprobes"),
		      "%s: stderr: %s", tool, err);
	ck_assert_str_eq(out, "");
}

START_TEST(test_freeze_without_kprobes)
{
	expect_needs_kprobes("freeze", "Tracing blk-mq queue freezes");
}
END_TEST

START_TEST(test_qenter_without_kprobes)
{
	expect_needs_kprobes("qenter", "Tracing queue entry");
}
END_TEST

START_TEST(test_bad_arguments)
{
	static const struct {
		const char *args[4], *want;
	} cases[] = {
		{ { "qenter", "0" }, "interval must be a number of seconds" },
		{ { "qenter", "1", "0" }, "count must be a whole number" },
		{ { "qenter", "-M", "0" }, "--maxactive needs a number" },
		{ { "qenter", "-d", "nosuchdisk9" }, "unknown disk 'nosuchdisk9'" },
		{ { "freeze", "extra" }, "unexpected argument 'extra'" },
		{ { "freeze", "-d", "nosuchdisk9" }, "unknown disk 'nosuchdisk9'" },
		{ { "freeze", "--duration", "-1" }, "--duration needs a number" },
	};
	char out[8192], err[8192];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { (char *)barebpf() };
		int j;

		for (j = 0; j < 4 && cases[i].args[j]; j++)
			argv[j + 1] = (char *)cases[i].args[j];
		ck_assert_int_ne(run(argv, out, err, sizeof(out)), 0);
		ck_assert_msg(strstr(err, cases[i].want), "%s %s: stderr: %s",
			      cases[i].args[0], cases[i].args[1], err);
	}
}
END_TEST

START_TEST(test_help)
{
	char out[16384], err[8192];
	char *f[] = { (char *)barebpf(), "freeze", "--help", NULL };
	char *q[] = { (char *)barebpf(), "qenter", "-h", NULL };

	ck_assert_int_eq(run(f, out, err, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: barebpf freeze"));
	ck_assert_ptr_nonnull(strstr(out, "examples:"));
	ck_assert_int_eq(run(q, out, err, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: barebpf qenter"));
	ck_assert_ptr_nonnull(strstr(out, "examples:"));
}
END_TEST

static Suite *freeze_tools_suite(void)
{
	Suite *s = suite_create("freeze_tools");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_freeze_without_kprobes);
	tcase_add_test(tc, test_qenter_without_kprobes);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_help);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(freeze_tools, freeze_tools_suite, need_root_and_barebpf)
