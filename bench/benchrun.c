/* SPDX-License-Identifier: MIT */
/*
 * benchrun: run a tracing tool the way an operator does and time it.
 *
 *   benchrun OUT PATTERN HOLD -- command args...
 *
 * Starts the command with stdout and stderr on one pipe (copied to OUT),
 * and measures from just before exec to the first line containing
 * PATTERN (the tool's "Tracing" line: it is attached). Then waits HOLD
 * milliseconds (or, given @PATH, until PATH exists), sends SIGINT and
 * measures until the process has exited. SIGINT is sent again every
 * second: bpftrace 0.17 loses one that comes just after its BEGIN probe
 * ran and waits for the next event (on an idle disk: for ever).
 * Prints "START_MS EXIT_MS MAXRSS_KIB": peak RSS from wait4's rusage.
 * With HOLD "exit", PATTERN is ignored and the command is left to end by
 * itself: START_MS is then fork to exit (the floor any start stands on:
 * `barebpf --version`), EXIT_MS 0.
 * A shell cannot time this finely: its own fork and read cost
 * milliseconds.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	char buf[65536], line[4096];
	size_t ll = 0;
	double t0, t1 = -1, t2 = -1, t3;
	struct rusage ru;
	const char *until = NULL;
	int p[2], status, hold, whole = 0;
	FILE *out;
	pid_t pid;

	if (argc < 6 || strcmp(argv[4], "--")) {
		fprintf(stderr, "usage: benchrun OUT PATTERN HOLD_MS|@PATH -- cmd...\n");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (out) /* the caller greps it while we run */
		setvbuf(out, NULL, _IONBF, 0);
	hold = atoi(argv[3]);
	if (!strcmp(argv[3], "exit"))
		whole = 1;
	if (argv[3][0] == '@')
		until = argv[3] + 1;
	if (!out || pipe(p) < 0)
		return perror("benchrun"), 2;
	t0 = now_ms();
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execvp(argv[5], argv + 5);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { p[0], POLLIN, 0 };
		int tmo = -1;
		ssize_t n, i;

		/* a tool that never says it is attached: stop it after 120 s */
		if (t1 < 0 && t2 < 0 && now_ms() - t0 > 120e3) {
			t2 = now_ms();
			kill(pid, SIGINT);
		}
		if (t1 < 0)
			tmo = 1000;
		if (t1 >= 0 && t2 < 0) {
			tmo = until ? (access(until, F_OK) ? 10 : 0)
				    : (int)(t1 + hold - now_ms());
			if (tmo <= 0) {
				t2 = now_ms();
				kill(pid, SIGINT);
				continue;
			}
		}
		if (t2 >= 0)
			tmo = 1000;
		if (poll(&pfd, 1, tmo) == 0) {
			if (t2 >= 0)
				kill(pid, SIGINT);
			continue;
		}
		n = read(p[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		fwrite(buf, 1, n, out);
		for (i = 0; i < n && t1 < 0; i++) {
			if (buf[i] == '\n' || ll == sizeof(line) - 1) {
				line[ll] = 0;
				ll = 0;
				if (!whole && strstr(line, argv[2]))
					t1 = now_ms();
			} else {
				line[ll++] = buf[i];
			}
		}
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return perror("wait4"), 2;
	t3 = now_ms();
	fclose(out);
	if (whole) {
		printf("%.2f 0 %ld\n", t3 - t0, ru.ru_maxrss);
		return 0;
	}
	if (t1 < 0 || t2 < 0) {
		fprintf(stderr, "benchrun: %s never printed '%s' (see %s)\n",
			argv[5], argv[2], argv[1]);
		return 1;
	}
	printf("%.1f %.1f %ld\n", t1 - t0, t3 - t2, ru.ru_maxrss);
	return 0;
}
