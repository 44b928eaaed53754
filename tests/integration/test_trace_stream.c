/* SPDX-License-Identifier: MIT */
/*
 * trace -j streaming a getppid() loop at its full rate (issue 24 item 16:
 * 1.7-6 % of 1,000,000 events lost), with the default settings. Whether a
 * run loses events depends on how this shared machine schedules the
 * reader, so the two things that decide it are tested instead, each free
 * of that noise:
 *  - the ring holds a burst: with trace stopped (no reader progress at
 *    all), a burst of 80 % of what a default ring holds of 72-byte samples
 *    is printed whole once it goes on (with 192-byte samples, before, a
 *    ring held 37.5 % of it);
 *  - the reader is faster than the loop: trace spends less CPU time per
 *    event (taking it from the ring, formatting and writing it) than the
 *    loop spends per call making it, by a margin (before: 1.15 times more,
 *    0.35 s for 1,000,000 events against the loop's 0.32 s);
 *  - and the pipe trace writes to is 1 MiB: a batch does not fill it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"

#define TP "t:syscalls:sys_enter_getppid"
/* the sample of an event of TP: perf header 8, u32 size, 60-byte record */
#define SAMPLE 72

struct loop {
	pid_t pid;
	int go;
};

/* A child that calls getppid() n times once told to (on one CPU if cpu
 * >= 0), then exits. */
static void loop_start(struct loop *c, long n, int cpu)
{
	int p[2];
	char b;

	ck_assert_int_eq(pipe(p), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (!c->pid) {
		long i;

		close(p[1]);
		if (cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(2);
		}
		if (read(p[0], &b, 1) != 1)
			_exit(1);
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
}

/* Run the loop to its end, reading fd (if >= 0) meanwhile: its lines
 * added to *lines. The loop's CPU time in seconds. */
static double loop_run(struct loop *c, int fd, unsigned long *lines)
{
	static char buf[1 << 16];
	struct rusage ru;
	pid_t r;
	int st;

	ck_assert_int_eq(write(c->go, "g", 1), 1);
	close(c->go);
	while (!(r = wait4(c->pid, &st, fd < 0 ? 0 : WNOHANG, &ru))) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t n;
		char *w;

		if (poll(&pfd, 1, 10) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		ck_assert_int_gt(n, 0);
		for (w = buf; (w = memchr(w, '\n', buf + n - w)); w++)
			(*lines)++;
	}
	ck_assert_int_eq(r, c->pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* utime + stime of pid, in seconds. */
static double cpu_secs(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	ck_assert_ptr_nonnull(p);
	/* after the comm: state, then fields 4..13, utime (14), stime (15) */
	ck_assert_int_eq(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u "
				"%*u %*u %llu %llu", &ut, &st), 2);
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

/* Lines read from fd until want of them came, or quiet_ms of silence. */
static unsigned long count_lines(int fd, unsigned long have,
				 unsigned long want, int quiet_ms)
{
	static char buf[1 << 16];

	while (have < want) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t r;
		char *w;

		if (poll(&pfd, 1, quiet_ms) <= 0)
			break;
		r = read(fd, buf, sizeof(buf));
		if (r <= 0)
			break;
		for (w = buf; (w = memchr(w, '\n', buf + r - w)); w++)
			have++;
	}
	return have;
}

/* Stop trace, read the rest of its output and its stderr: the lines. */
static unsigned long trace_end(struct proc *p, unsigned long lines,
			       char *err, size_t elen)
{
	size_t ne = 0;

	kill(p->pid, SIGINT);
	lines = count_lines(p->out, lines, (unsigned long)-1, 20000);
	read_more(p->err, err, elen, &ne, NULL, 10000);
	ck_assert_msg(wait_exit(p->pid) == 0, "exit status; stderr: %s", err);
	close(p->out);
	close(p->err);
	return lines;
}

static void trace_on(struct proc *p, const struct loop *c, char *pid,
		     size_t plen)
{
	char *argv[] = { (char *)barebpf(), "trace", "-j", "-p", pid, TP,
			 NULL };
	char head[64];

	snprintf(pid, plen, "%d", (int)c->pid);
	/* the default ring size, whatever the caller's environment */
	unsetenv("BAREBPF_RING_PAGES");
	spawn(p, argv);
	trace_started(p, argv, head, sizeof(head));
}

/* The records of SAMPLE bytes a default ring holds on this machine (as
 * loader/cli/attach.c sizes it: trace asks for 64 pages). */
static unsigned long ring_bytes(void)
{
	struct sysinfo si;
	long page = sysconf(_SC_PAGESIZE);
	int pages;

	ck_assert_int_eq(sysinfo(&si), 0);
	pages = perfbuf_pages_scaled(64, (uint64_t)si.totalram * si.mem_unit,
				     bb_ncpus_possible(), page);
	return (unsigned long)pages * page;
}

static unsigned long ring_records(void)
{
	return ring_bytes() / SAMPLE;
}

/* The perf rings of size bytes (and the control page) pid has mapped. */
static int rings_of(pid_t pid, unsigned long size)
{
	unsigned long a, b;
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[perf_event]") &&
		    sscanf(line, "%lx-%lx", &a, &b) == 2 &&
		    b - a == size + (unsigned long)sysconf(_SC_PAGESIZE))
			n++;
	fclose(f);
	return n;
}

START_TEST(test_trace_stream_ring_holds_burst)
{
	unsigned long n = ring_records() * 8 / 10, lines;
	unsigned long big = ring_bytes();
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	char err[4096], pid[16];
	struct loop c;
	struct proc p;
	int i;

	/* one CPU: one ring takes the whole burst */
	loop_start(&c, (long)n, 0);
	trace_on(&p, &c, pid, sizeof(pid));
	/* trace said it is tracing with small rings; they take their full
	 * size in its first moments (perfbuf_grow_to), one a CPU */
	for (i = 0; i < 200 && rings_of(p.pid, big) < ncpu; i++)
		usleep(10000);
	ck_assert_msg(rings_of(p.pid, big) == ncpu,
		      "%d rings of %lu bytes after 2 s, not one a CPU (%d)",
		      rings_of(p.pid, big), big, ncpu);
	ck_assert_int_eq(kill(p.pid, SIGSTOP), 0);
	loop_run(&c, -1, NULL);
	ck_assert_int_eq(kill(p.pid, SIGCONT), 0);
	lines = count_lines(p.out, 0, n, 5000);
	lines = trace_end(&p, lines, err, sizeof(err));
	ck_assert_msg(!strstr(err, "lost"), "a burst of %lu events, %lu "
		      "printed; stderr: %s", n, lines, err);
	ck_assert_msg(lines == n, "a burst of %lu events, %lu printed; "
		      "stderr: %s", n, lines, err);
}
END_TEST

START_TEST(test_trace_stream_reader_outpaces_loop)
{
	enum { CALLS = 1000000 };
	unsigned long lines = 0;
	double t0, reader, loop;
	char err[4096], pid[16];
	struct loop c;
	struct proc p;

	loop_start(&c, CALLS, -1);
	trace_on(&p, &c, pid, sizeof(pid));
	t0 = cpu_secs(p.pid);
	/* read as `| cat` would, while the loop runs */
	loop = loop_run(&c, p.out, &lines);
	lines = count_lines(p.out, lines, CALLS, 5000);
	/* every event read (or lost): the reader's time is all spent */
	reader = cpu_secs(p.pid) - t0;
	lines = trace_end(&p, lines, err, sizeof(err));
	fprintf(stderr, "trace_stream: %lu of %d events printed; reader "
		"%.2f s of CPU, the loop %.2f s\n", lines, CALLS, reader, loop);
	ck_assert_msg(lines >= CALLS / 2, "%lu of %d events printed: the "
		      "reader's time is not that of a stream; stderr: %s",
		      lines, CALLS, err);
	/* per event: less than four fifths of the loop's time per call
	 * (measured here: 0.55-0.6 of it; 1.15-1.2 times it before) */
	ck_assert_msg(reader / lines * 1.25 < loop / CALLS,
		      "the reader spent %.0f ns of CPU per event, the loop "
		      "%.0f ns per call: it cannot keep up at full rate",
		      reader / lines * 1e9, loop / CALLS * 1e9);
}
END_TEST

/* A batch of output (64 KiB) does not fill the pipe: trace asks for 1 MiB
 * (the default 64 KiB made every write wait for the pipe's reader). */
START_TEST(test_trace_stream_pipe_enlarged)
{
	char err[4096], pid[16];
	struct loop c;
	struct proc p;

	loop_start(&c, 1, -1);
	trace_on(&p, &c, pid, sizeof(pid));
	ck_assert_int_eq(fcntl(p.out, F_GETPIPE_SZ), 1024 * 1024);
	loop_run(&c, -1, NULL);
	ck_assert_uint_eq(trace_end(&p, 0, err, sizeof(err)), 1);
}
END_TEST

static Suite *trace_stream_suite(void)
{
	Suite *s = suite_create("trace_stream");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_trace_stream_ring_holds_burst);
	tcase_add_test(tc, test_trace_stream_reader_outpaces_loop);
	tcase_add_test(tc, test_trace_stream_pipe_enlarged);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_stream, trace_stream_suite, need_root_and_getppid)
