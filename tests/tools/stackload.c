/* SPDX-License-Identifier: MIT */
/*
 * Load with known stacks for the profile and offcputime tests (built with
 * frame pointers, no inlining: tests/integration/test_profile.c).
 *   stackload burn SECS   on CPU: three times the work in spin_three as
 *                         in spin_one (a few ms), over and over, for SECS
 *                         seconds
 *   stackload nap         once a line comes on stdin (waited for in poll,
 *                         not read): 20 naps of 100 ms (nanosleep), then
 *                         10 reads of a pipe a child writes every 100 ms;
 *                         then "sleep_us=N pipe_us=M": how long each part
 *                         took (longer than 2 s and 1 s on a busy machine:
 *                         the wakeups wait for a CPU)
 *   stackload brief MS NAME
 *                         renamed NAME (its comm, which the tests pick
 *                         its stacks by): for MS milliseconds, work in
 *                         spin_brief (a few ms) then a 10 ms nap in
 *                         nap_brief, over and over; then exits (the
 *                         exited-process tests: run for less than the
 *                         tools' one-second pass over their counts)
 */
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Work, not time: CPU time in proportion to n even where the task is
 * preempted (the CI machine is busy). */
NOINLINE static void spin(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i;
}

NOINLINE void spin_three(void)
{
	spin(3 * 2000000);
}

NOINLINE void spin_one(void)
{
	spin(2000000);
}

NOINLINE static int burn(double secs)
{
	double end = now() + secs;

	while (now() < end) {
		spin_three();
		spin_one();
	}
	return 0;
}

NOINLINE void nap_sleep(void)
{
	struct timespec ts = { 0, 100000000 };

	nanosleep(&ts, NULL);
}

NOINLINE void nap_pipe(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		exit(3);
}

NOINLINE static int nap(void)
{
	struct pollfd pf = { 0, POLLIN, 0 };
	int p[2], i;
	pid_t child;
	double t0, t1, t2;

	if (poll(&pf, 1, 30000) != 1 || pipe(p))
		return 2;
	t0 = now();
	for (i = 0; i < 20; i++)
		nap_sleep();
	t1 = now();
	child = fork();
	if (child == 0) {
		struct timespec ts = { 0, 100000000 };

		for (i = 0; i < 10; i++) {
			nanosleep(&ts, NULL);
			if (write(p[1], "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < 10; i++)
		nap_pipe(p[0]);
	t2 = now();
	waitpid(child, NULL, 0);
	printf("sleep_us=%.0f pipe_us=%.0f\n", (t1 - t0) * 1e6,
	       (t2 - t1) * 1e6);
	return 0;
}

NOINLINE void spin_brief(void)
{
	spin(1000000);
}

NOINLINE void nap_brief(void)
{
	struct timespec ts = { 0, 10000000 };

	nanosleep(&ts, NULL);
}

NOINLINE static int brief(double ms, const char *name)
{
	double end = now() + ms / 1e3;

	prctl(PR_SET_NAME, name, 0, 0, 0);
	while (now() < end) {
		spin_brief();
		nap_brief();
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "burn"))
		return burn(atof(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "nap"))
		return nap();
	if (argc == 4 && !strcmp(argv[1], "brief"))
		return brief(atof(argv[2]), argv[3]);
	fprintf(stderr, "usage: stackload burn SECS | stackload nap | "
		"stackload brief MS NAME\n");
	return 2;
}
