/* SPDX-License-Identifier: MIT */
/*
 * perf_events_close: every fd closed, from helper tasks that share our file
 * table, none of them left behind, the caller's signal mask as it was.
 * Pipes stand in for perf events (the DISABLE ioctl fails on them, which
 * the close ignores as it would for an event already gone).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "probe.h"

/* n open fds (ends of pipes), in fds and a copy of them in orig */
static void open_fds(int *fds, int *orig, int n)
{
	int i, p[2];

	for (i = 0; i < n; i += 2) {
		ck_assert_int_eq(pipe(p), 0);
		fds[i] = p[0];
		if (i + 1 < n)
			fds[i + 1] = p[1];
		else
			close(p[1]);
	}
	for (i = 0; i < n; i++)
		orig[i] = fds[i];
}

static void check_closed(const int *fds, const int *orig, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ck_assert_msg(fds[i] == -1, "entry %d of %d not set to -1", i,
			      n);
		if (orig[i] < 0)
			continue;
		errno = 0;
		ck_assert_msg(fcntl(orig[i], F_GETFD) == -1 && errno == EBADF,
			      "fd %d (entry %d of %d) still open", orig[i], i,
			      n);
	}
}

START_TEST(test_every_fd_closed)
{
	static const int sizes[] = { 1, 2, 3, 16, 17, 100 };
	int fds[100], orig[100];
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		open_fds(fds, orig, sizes[k]);
		perf_events_close(fds, sizes[k]);
		check_closed(fds, orig, sizes[k]);
	}
}
END_TEST

START_TEST(test_skips_minus_one)
{
	int fds[6], orig[6], spare;

	open_fds(fds, orig, 6);
	/* an fd the list does not name (-1 in its place) stays open */
	spare = fds[2];
	fds[2] = -1;
	orig[2] = -1;
	perf_events_close(fds, 6);
	ck_assert_int_eq(fcntl(spare, F_GETFD) >= 0, 1);
	close(spare);
	check_closed(fds, orig, 6);
}
END_TEST

START_TEST(test_no_helper_left_mask_kept)
{
	int fds[40], orig[40];
	sigset_t before, after;

	sigemptyset(&before);
	sigaddset(&before, SIGUSR1);
	sigaddset(&before, SIGTERM);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, &before, NULL), 0);
	open_fds(fds, orig, 40);
	perf_events_close(fds, 40);
	check_closed(fds, orig, 40);
	ck_assert_int_eq(sigprocmask(SIG_SETMASK, NULL, &after), 0);
	ck_assert_int_eq(sigismember(&after, SIGUSR1), 1);
	ck_assert_int_eq(sigismember(&after, SIGTERM), 1);
	ck_assert_int_eq(sigismember(&after, SIGINT), 0);
	/* every helper reaped: no child of any kind is left to wait for */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, __WALL | WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	sigemptyset(&before);
	sigprocmask(SIG_SETMASK, &before, NULL);
}
END_TEST

static Suite *close_suite(void)
{
	Suite *s = suite_create("close");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_fd_closed);
	tcase_add_test(tc, test_skips_minus_one);
	tcase_add_test(tc, test_no_helper_left_mask_kept);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(close, close_suite, NULL)
