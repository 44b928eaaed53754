/* SPDX-License-Identifier: MIT */
/*
 * perf_events_close: every fd closed, from helper tasks that share our file
 * table, none of them left behind, the caller's signal mask as it was.
 * Pipes stand in for perf events (the DISABLE ioctl fails on them, which
 * the close ignores as it would for an event already gone).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "probe_internal.h"

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

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct watch_log {
	int calls, done, total, stop;
};

static int watch_fn(void *ctx, int done, int total)
{
	struct watch_log *w = ctx;

	w->calls++;
	w->done = done;
	w->total = total;
	return w->stop;
}

START_TEST(test_watch_every_fd_closed)
{
	struct watch_log w = { 0, 0, 0, 0 };
	int fds[100], orig[100];

	open_fds(fds, orig, 100);
	ck_assert_int_eq(perf_events_close_watch(fds, 100, watch_fn, &w), 0);
	check_closed(fds, orig, 100);
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, __WALL | WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

/*
 * Closes that wait, as a tracepoint's last perf event does: a loopback TCP
 * socket with SO_LINGER of 1 s whose data the peer does not read waits in
 * close() for the FIN to be acked, which the full window never lets go.
 */
#define SLOW 20
static int slow_sockets(int *fds, int *peers, int n)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	struct linger lg = { 1, 1 };
	static char buf[65536];
	int l, i, small = 4096;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -1;
	setsockopt(l, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(l, n) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &alen) < 0) {
		close(l);
		return -1;
	}
	for (i = 0; i < n; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ck_assert_int_ge(fds[i], 0);
		setsockopt(fds[i], SOL_SOCKET, SO_SNDBUF, &small,
			   sizeof(small));
		ck_assert_int_eq(connect(fds[i], (struct sockaddr *)&a,
					 sizeof(a)), 0);
		peers[i] = accept(l, NULL, NULL);
		ck_assert_int_ge(peers[i], 0);
		while (send(fds[i], buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		ck_assert_int_eq(setsockopt(fds[i], SOL_SOCKET, SO_LINGER,
					    &lg, sizeof(lg)), 0);
	}
	close(l);
	return 0;
}

START_TEST(test_watch_stops)
{
	struct watch_log w = { 0, 0, 0, 1 };
	struct linger now = { 1, 0 };
	int fds[SLOW], peers[SLOW], i, open_left = 0;
	double t0, took;

	if (slow_sockets(fds, peers, SLOW) < 0)
		bbtest_skip("no loopback TCP here");
	t0 = mono();
	ck_assert_int_eq(perf_events_close_watch(fds, SLOW, watch_fn, &w),
			 -EINTR);
	took = mono() - t0;
	/* asked at the first tick, before any close was done */
	ck_assert_int_eq(w.calls, 1);
	ck_assert_int_eq(w.total, SLOW);
	ck_assert_int_eq(w.done, 0);
	/* the closes in flight finished (1 s), no other was started */
	ck_assert_msg(took > 0.5 && took < 1.9, "took %.2f s", took);
	for (i = 0; i < SLOW; i++) {
		if (fds[i] < 0)
			continue;
		open_left++;
		ck_assert_int_ge(fcntl(fds[i], F_GETFD), 0);
		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &now, sizeof(now));
		close(fds[i]);
	}
	ck_assert_int_eq(open_left, SLOW - 16);
	for (i = 0; i < SLOW; i++)
		close(peers[i]);
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, __WALL | WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

/*
 * session_detach_fork, from a process that exits after it (as a tool
 * does): the child closes the link's fd only once that process is gone,
 * from a session of its own. The link's fd is a pipe's write end: its
 * reader sees EOF when the last copy is closed.
 */
START_TEST(test_detach_fork)
{
	int x[2], st[2], status, i;
	pid_t p, c = 0;
	struct pollfd pf;
	char b;

	ck_assert_int_eq(pipe(x), 0);
	ck_assert_int_eq(pipe(st), 0);
	p = fork();
	ck_assert_int_ge(p, 0);
	if (p == 0) {
		struct bb_session s;
		struct bb_link *l = calloc(1, sizeof(*l));

		close(x[0]);
		close(st[0]);
		session_init(&s);
		l->kind = BB_PROG_TRACEPOINT;
		l->pfd = x[1];
		l->prog_fd = -1;
		s.links = l;
		c = session_detach_fork(&s);
		if (write(st[1], &c, sizeof(c)) != sizeof(c) || s.links)
			_exit(1);
		poll(NULL, 0, 300);
		_exit(0);
	}
	close(x[1]);
	close(st[1]);
	ck_assert_int_eq(read(st[0], &c, sizeof(c)), sizeof(c));
	close(st[0]);
	ck_assert_int_gt(c, 0);
	/* (setsid is the child's first step: it may not have taken it yet) */
	for (i = 0; i < 200 && getsid(c) != c; i++)
		poll(NULL, 0, 10);
	ck_assert_int_eq(getsid(c), c);
	/* the child still holds it while the tool has not exited */
	pf.fd = x[0];
	pf.events = POLLIN;
	ck_assert_int_eq(poll(&pf, 1, 150), 0);
	ck_assert_int_eq(waitpid(p, &status, 0), p);
	ck_assert_int_eq(WIFEXITED(status) && WEXITSTATUS(status) == 0, 1);
	/* then closes it */
	ck_assert_int_eq(poll(&pf, 1, 5000), 1);
	ck_assert_int_eq(read(x[0], &b, 1), 0);
	close(x[0]);
}
END_TEST

static Suite *close_suite(void)
{
	Suite *s = suite_create("close");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_fd_closed);
	tcase_add_test(tc, test_skips_minus_one);
	tcase_add_test(tc, test_no_helper_left_mask_kept);
	tcase_add_test(tc, test_watch_every_fd_closed);
	tcase_add_test(tc, test_watch_stops);
	tcase_add_test(tc, test_detach_fork);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(close, close_suite, NULL)
