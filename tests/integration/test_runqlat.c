/* SPDX-License-Identifier: MIT */
/*
 * runqlat and cpudist on this kernel's scheduler tracepoints. A child blocked in
 * read() on a pipe is woken once per byte the test writes; what runqlat
 * counts for it must equal what the kernel counts itself: the child's
 * context switches (voluntary + involuntary, /proc/PID/status) between
 * two moments it is blocked, as each switch out is followed by one switch
 * in, and each switch in ends one run-queue wait. Then the same child's
 * latency with a CPU hog pinned beside it must land in higher buckets.
 * cpudist counts a slice at each switch out (on CPU: b - a), or a time
 * off CPU at each switch in after a switch out it saw (-O: b - a - 1, the
 * child's last switch out before the tool started not seen).
 */
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A child on CPU 0 reading one byte at a time until EOF, each answered
 * on *rfd: the writer waits for it, so that every byte wakes the child
 * once however busy the host is (50 bytes 2 ms apart were read in one
 * wake-up on a loaded host: 1 switch, where the test wants 10 or more). */
static pid_t reader(int *wfd, int *rfd)
{
	int p[2], q[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pipe(q), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[1]);
		close(q[0]);
		pin_cpu0();
		while (read(p[0], &c, 1) == 1 && write(q[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(p[0]);
	close(q[1]);
	*wfd = p[1];
	*rfd = q[0];
	return pid;
}

/* Wait until pid sleeps (state S), then its context switches so far. */
static unsigned long switches_asleep(pid_t pid)
{
	char path[64], buf[4096], *p;
	unsigned long v = 0, nv = 0;
	int i, sleeping = 0;
	FILE *f;

	for (i = 0; i < 200 && !sleeping; i++) {
		msleep(10);
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
			sleeping = p[2] == 'S';
		fclose(f);
	}
	ck_assert_msg(sleeping, "child %d never blocked", (int)pid);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(buf, sizeof(buf), f)) {
		sscanf(buf, "voluntary_ctxt_switches: %lu", &v);
		sscanf(buf, "nonvoluntary_ctxt_switches: %lu", &nv);
	}
	fclose(f);
	return v + nv;
}

/* "warning: N event(s) not seen" (another BPF program on that CPU) */
static unsigned long skipped(const char *err)
{
	const char *q = strstr(err, "warning: ");
	char *e;
	unsigned long v;

	if (!q)
		return 0;
	v = strtoul(q + 9, &e, 10);
	return e != q + 9 && !strncmp(e, " event(s) not seen", 18) ? v : 0;
}

/* The sum of the counts of histogram `section` ("tid = 42"; NULL: the
 * only one) of runqlat's text. */
static unsigned long hist_total(const char *out, const char *section)
{
	const char *p = section ? strstr(out, section) : out, *end;
	unsigned long lo, hi, n, sum = 0;
	char line[256];
	int len;

	if (!p)
		return 0;
	p = strstr(p, "distribution\n");
	if (!p)
		return 0;
	for (p += 13; *p && *p != '\n'; p = end + 1) {
		end = strchr(p, '\n');
		if (!end)
			break;
		len = end - p < 255 ? end - p : 255;
		memcpy(line, p, len);
		line[len] = 0;
		if (sscanf(line, " %lu -> %lu : %lu", &lo, &hi, &n) == 3)
			sum += n;
	}
	return sum;
}

/* tool with how (and -p CHILD with "-p", cpudist -O with off); off: what
 * it counts is one less than the switches */
static void counts_exactly_of(const char *tool, const char *how, int off)
{
	char out[65536], err[4096], pid[16], section[64];
	char *argv[] = { (char *)barebpf(), (char *)tool, NULL, NULL, NULL,
			 NULL };
	unsigned long a, b, counted, miss;
	struct proc pr;
	int wfd, rfd, i;
	pid_t child = reader(&wfd, &rfd);
	char c;

	snprintf(pid, sizeof(pid), "%d", (int)child);
	argv[2] = (char *)how;
	if (!strcmp(how, "-p"))
		argv[3] = pid;
	if (off)
		argv[argv[3] ? 4 : 3] = "-O";
	/* asleep before the tool starts: its start-up switches (a move to
	 * CPU 0) are not the tool's to count */
	switches_asleep(child);
	spawn(&pr, argv);
	read_until(pr.out, out, sizeof(out), "Tracing", 20000);
	ck_assert_msg(strstr(out, "Tracing"), "runqlat did not start");
	a = switches_asleep(child);
	for (i = 0; i < 50; i++) {
		ck_assert_int_eq(write(wfd, "x", 1), 1);
		ck_assert_int_eq(read(rfd, &c, 1), 1);
		msleep(2);
	}
	b = switches_asleep(child);
	kill(pr.pid, SIGINT);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
	close(wfd);
	close(rfd);
	ck_assert_int_eq(wait_exit(child), 0);
	snprintf(section, sizeof(section), "\ntid = %d\n", (int)child);
	counted = hist_total(out, strcmp(how, "-p") ? section : NULL);
	miss = skipped(err);
	/* fewer than 50 where bytes came faster than the child ran */
	ck_assert_uint_ge(b - a, 10);
	ck_assert_msg(counted <= b - a - off && b - a - off - counted <= miss,
		      "%s %s%s counted %lu, the kernel %lu switches "
		      "(%lu runs skipped; stderr: %.300s): %.1500s", tool,
		      how, off ? " -O" : "", counted, b - a, miss, err,
		      strstr(out, section) ? strstr(out, section) : out);
}

static void counts_exactly(const char *how)
{
	counts_exactly_of("runqlat", how, 0);
}

/* -L: counted at the switch in, by thread */
START_TEST(test_counts_every_wait_by_thread)
{
	counts_exactly("-L");
}
END_TEST

/* -p: counted when the task leaves the CPU, by its process */
START_TEST(test_counts_every_wait_of_a_process)
{
	counts_exactly("-p");
}
END_TEST

/*
 * Real-time round robin at priority 1: above every ordinary task, so that
 * what other jobs on the host run on CPU 0 neither delays the worker alone
 * nor competes with the hog (with nice levels, a busy host gave a median of
 * 2048 us alone and 16 us beside the hog); beside a hog of the same
 * priority, the worker waits out the hog's time slice.
 */
static void rr1(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	ck_assert_int_eq(sched_setscheduler(0, SCHED_RR, &sp), 0);
}

/* On CPU 0: 4 ms of CPU time, then a 1 ms sleep, until killed. */
static pid_t worker(void)
{
	pid_t pid = fork();
	struct timespec t0, t;

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	pin_cpu0();
	rr1();
	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		       t.tv_nsec - t0.tv_nsec < 4000000L);
		msleep(1);
	}
}

/* A busy loop on CPU 0, round robin beside the worker (rr1). */
static pid_t hog(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	pin_cpu0();
	rr1();
	for (;;)
		__asm__ volatile("");
}

/* The "lo" of the bucket that holds the median wait of runqlat -j's
 * histogram; *n: how many waits. */
static unsigned long median_lo(const char *out, unsigned long *n)
{
	unsigned long lo[64], cnt[64], sum = 0, acc = 0;
	const char *p = out;
	int k = 0, i;

	while (k < 64 && (p = strstr(p, "{\"lo\":"))) {
		if (sscanf(p, "{\"lo\":%lu,\"hi\":%*u,\"count\":%lu", &lo[k],
			   &cnt[k]) == 2)
			sum += cnt[k++];
		p++;
	}
	*n = sum;
	for (i = 0; i < k; i++) {
		acc += cnt[i];
		if (acc * 2 >= sum)
			return lo[i];
	}
	return 0;
}

static unsigned long measure(pid_t w, unsigned long *n)
{
	char out[65536], err[4096], pid[16];
	char *argv[] = { (char *)barebpf(), "runqlat", "-j", "-p", pid,
			 "--duration", "2", NULL };
	struct proc pr;

	snprintf(pid, sizeof(pid), "%d", (int)w);
	spawn(&pr, argv);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0); /* exits by itself */
	close(pr.out);
	close(pr.err);
	return median_lo(out, n);
}

START_TEST(test_hog_raises_latency)
{
	unsigned long alone, shared, n1, n2;
	pid_t w = worker(), h;

	alone = measure(w, &n1);
	h = hog();
	shared = measure(w, &n2);
	kill(h, SIGKILL);
	kill(w, SIGKILL);
	wait_exit(h);
	wait_exit(w);
	/* about one wait per 5 ms alone; with the hog, one per time slice
	 * of its (100 ms: about 19 in the 2 s) */
	ck_assert_msg(n1 >= 50 && n2 >= 8, "%lu and %lu waits", n1, n2);
	ck_assert_msg(shared > alone, "median wait bucket from %lu us alone "
		      "to %lu us beside a CPU hog", alone, shared);
	fprintf(stderr, "runqlat: median bucket %lu us alone (%lu waits), "
		"%lu us beside a hog (%lu)\n", alone, n1, shared, n2);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "runqlat", "-p", "0", NULL };
	char *a2[] = { (char *)barebpf(), "runqlat", "1", "2", "3", NULL };
	char *a3[] = { (char *)barebpf(), "runqlat", "--bogus", NULL };
	char *a4[] = { (char *)barebpf(), "runqlat", "--help", NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "-p needs a process id"));
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "runqlat"));
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "--help"));
	ck_assert_int_eq(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(out, "examples:"));
}
END_TEST

/* cpudist: a slice per switch out, by thread */
START_TEST(test_cpudist_slices_by_thread)
{
	counts_exactly_of("cpudist", "-L", 0);
}
END_TEST

/* cpudist -O -p: a time off CPU per switch in, counted by process */
START_TEST(test_cpudist_offcpu_of_a_process)
{
	counts_exactly_of("cpudist", "-p", 1);
}
END_TEST

START_TEST(test_cpudist_offcpu_by_thread)
{
	counts_exactly_of("cpudist", "-L", 1);
}
END_TEST

static Suite *cpudist_suite(void)
{
	Suite *s = suite_create("cpudist");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cpudist_slices_by_thread);
	tcase_add_test(tc, test_cpudist_offcpu_of_a_process);
	tcase_add_test(tc, test_cpudist_offcpu_by_thread);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(cpudist, cpudist_suite, need_root_and_tools)

static Suite *runqlat_suite(void)
{
	Suite *s = suite_create("runqlat");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_counts_every_wait_by_thread);
	tcase_add_test(tc, test_counts_every_wait_of_a_process);
	tcase_add_test(tc, test_hog_raises_latency);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(runqlat, runqlat_suite, need_root_and_tools)
