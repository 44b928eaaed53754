/* SPDX-License-Identifier: MIT */
/*
 * A program whose functions the uprobe tests probe (tests/integration/
 * test_uprobe.c, vm-tests/cases/uprobe.sh, bench/bench.sh):
 *   ucalls N        once a line comes on stdin, calls bb_ufunc(i) for
 *                   i = 0..N-1 (and malloc(i + 1) each), then
 *                   bb_ufunc_other(1, 2), prints "done N" and exits
 *   ucalls go N     the same without waiting
 *   ucalls loop N   bb_ufunc N times as fast as it can, then "ns/call X"
 * bb_ufunc(i) returns i * 2: noinline and used, so each call is a call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, used))

volatile long bb_sink;

NOINLINE int bb_ufunc(int i)
{
	bb_sink += i;
	return i * 2;
}

NOINLINE long bb_ufunc_other(long a, long b)
{
	return a + b;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		void *p = malloc((size_t)i + 1);

		bb_sink += bb_ufunc((int)i);
		free(p);
	}
	bb_sink += bb_ufunc_other(1, 2);
	printf("done %ld\n", n);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char line[64];
	double t0;
	long n, i;

	if (argc == 3 && !strcmp(argv[1], "loop")) {
		n = atol(argv[2]);
		t0 = now();
		for (i = 0; i < n; i++)
			bb_ufunc((int)i);
		printf("ns/call %.1f\n", (now() - t0) * 1e9 / (n ? n : 1));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "go")) {
		calls(atol(argv[2]));
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ucalls N | go N | loop N\n");
		return 2;
	}
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	calls(atol(argv[1]));
	return 0;
}
