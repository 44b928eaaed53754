/* SPDX-License-Identifier: MIT */
/*
 * pingpong N: two processes pass a byte back and forth N times over two
 * pipes, each waiting for the other: 2N wakeups and context switches, the
 * load runqlat's cost is measured with (make bench). Prints round trips
 * per second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, i;
	int a[2], b[2];
	struct timespec t0, t1;
	char c = 0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waitpid(pid, NULL, 0);
	printf("%.0f\n", n / ((t1.tv_sec - t0.tv_sec) +
			      (t1.tv_nsec - t0.tv_nsec) / 1e9));
	return 0;
}
