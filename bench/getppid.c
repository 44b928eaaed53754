/* SPDX-License-Identifier: MIT */
/*
 * getppid N [PIDFILE [kill]]: write our pid to PIDFILE, then call getppid() N times (the system call itself: glibc does
 * not cache it) and print "CALLS_PER_SECOND": the load that event
 * streaming is measured with (make bench). With "kill", the call is
 * kill(our pid, 0) (killsnoop's load: no signal is sent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	struct timespec a, b;
	double s;
	FILE *f;

	if (argc > 2 && (f = fopen(argv[2], "w"))) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}

	clock_gettime(CLOCK_MONOTONIC, &a);
	if (argc > 3 && !strcmp(argv[3], "kill"))
		for (i = 0; i < n; i++)
			syscall(SYS_kill, getpid(), 0);
	else
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("%.0f\n", n / s);
	return 0;
}
