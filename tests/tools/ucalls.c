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
 * Each call of bb_ufunc from calls() also passes USDT probes (sdt.h, the
 * notes sys/sdt.h makes):
 *   bb:hello    (int i, char *name)   name: "zero", "one", "two" by i % 3
 *   bb:mixed    (int 7, long -1000 * i in memory, short -i)
 *   bb:twice    (int i, long 100 * i) at two sites that keep the values
 *               in different places: registers for even i, memory for odd
 *   bb:indexed  (long (i % 3 + 1) * i, int i): the first an element of
 *               an array, x86's DISP(%BASE,%INDEX,SCALE) operand
 *   bb:guarded  (long i * 3, int i)   behind a semaphore: fires only
 *               while a tracer raises it; "guarded K" says how often it
 *               was up before "done N"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sdt.h"

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

static const char *const names[] = { "zero", "one", "two" };
static long guarded;
BB_SDT_SEMA(bb, guarded);

NOINLINE void bb_usdt(long i)
{
	volatile long mem = -1000 * i; /* "m": a memory operand */
	short neg = (short)-i;

	/* a probe reads only what is in memory: a page of .rodata nothing
	 * touched yet is not, and a string there would read as "" */
	bb_sink += strlen(names[i % 3]);

	BB_SDT2(bb, hello, "nor", (int)i, "r", (uintptr_t)names[i % 3]);
	BB_SDT3(bb, mixed, "n", 7, "m", mem, "nor", neg);
	if (i % 2) {
		volatile int vi = (int)i;
		volatile long vh = 100 * i;

		BB_SDT2(bb, twice, "m", vi, "m", vh);
	} else {
		BB_SDT2(bb, twice, "r", (int)i, "r", 100 * i);
	}
	{
		long tbl[3] = { i, 2 * i, 3 * i };

		BB_SDT2(bb, indexed, "m", tbl[i % 3], "nor", (int)i);
	}
	if (BB_SDT_ENABLED(bb, guarded)) {
		guarded++;
		BB_SDT2_S(bb, guarded, "nor", i * 3, "nor", (int)i);
	}
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
		bb_usdt(i);
		free(p);
	}
	bb_sink += bb_ufunc_other(1, 2);
	if (guarded)
		printf("guarded %ld\n", guarded);
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
