/* SPDX-License-Identifier: MIT */
/*
 * biosnoop and slowbio on this machine's kernel, run as a user would:
 * biosnoop on a loop device must print exactly one line per request that
 * /sys/block/<dev>/stat counts, with the right type, size, sector and
 * submitter, and account for every record it could not print; slowbio
 * needs kprobes and must say so where there are none.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"
#include "probe.h"

#define OUT_MAX (4 << 20)

/* Run dd with these arguments to completion; its pid. */
static pid_t dd(const char *args)
{
	char cmd[512];
	pid_t pid;

	/* exec from a forked child so that the pid is dd's own */
	snprintf(cmd, sizeof(cmd), "exec dd %s 2>/dev/null", args);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	return pid;
}

/* Start biosnoop with these arguments; returns once it traces, with what
 * it printed by then in first: stdout up to the header, or with -j stderr
 * up to "Tracing". */
static void start_biosnoop(struct proc *pr, char **argv, int json,
			   char *first, size_t len)
{
	spawn(pr, argv);
	read_until(json ? pr->err : pr->out, first, len,
		   json ? "Tracing" : "LAT(ms)\n", 20000);
	ck_assert_msg(strstr(first, "Tracing"), "biosnoop did not start: %s",
		      first);
}

/* Stop it with SIGINT: its stdout in out, stderr in err, exit status. */
static int stop_biosnoop(struct proc *pr, char *out, size_t olen, char *err,
			 size_t elen)
{
	kill(pr->pid, SIGINT);
	read_until(pr->out, out, olen, NULL, 30000);
	read_until(pr->err, err, elen, NULL, 5000);
	close(pr->out);
	close(pr->err);
	return wait_exit(pr->pid);
}

/*
 * "N I/Os printed, M lost[, up to K not seen]" from stderr. K counts the
 * times the kernel skipped our programs because a BPF program (ours, or
 * another tool's: tests may run side by side) was running on that CPU:
 * then up to K I/Os, of any disk, were not seen, and counts can only be
 * checked within K.
 */
static void summary(const char *err, unsigned long long *printed,
		    unsigned long long *lost, unsigned long long *notseen)
{
	const char *p = strstr(err, "barebpf biosnoop: ");
	int n = 0;

	ck_assert_msg(p, "no summary on stderr: %s", err);
	*notseen = 0;
	/* -v puts other lines with the same prefix before it */
	for (; p; p = strstr(p + 1, "barebpf biosnoop: ")) {
		n = sscanf(p, "barebpf biosnoop: %llu I/Os printed, %llu "
			   "lost, up to %llu not seen", printed, lost, notseen);
		if (n >= 2)
			break;
	}
	ck_assert_msg(n >= 2, "bad summary: %s", err);
	if (*notseen)
		fprintf(stderr, "%s: %llu I/Os may not have been seen\n",
			__func__, *notseen);
}

/*
 * 300 direct 4 KiB reads and 50 direct 8 KiB writes: one line each, no
 * more, no less, each with dd's pid, T, BYTES and its own sector.
 */
START_TEST(test_biosnoop_one_line_per_io)
{
	static char out[OUT_MAX];
	char first[4096], err[4096], args[256], *line, *save;
	char *argv[] = { (char *)barebpf(), "biosnoop", "-d", loopdev, NULL };
	static unsigned char rsec[300], wsec[50];
	unsigned long long before, after, printed, lost, notseen;
	int lines = 0, reads = 0, writes = 0, other = 0;
	pid_t rpid, wpid;
	struct proc pr;

	loop_setup();
	start_biosnoop(&pr, argv, 0, first, sizeof(first));
	/* the header comes with the "Tracing" line, before any I/O */
	ck_assert_msg(strstr(first, "\nTIME(s)     COMM           PID    DISK"
			     "    T SECTOR     BYTES   LAT(ms)\n"),
		      "no bcc header in '%s'", first);
	before = completed(loopdev);
	snprintf(args, sizeof(args), "if=/dev/%s of=/dev/null bs=4k count=300 "
		 "iflag=direct", loopdev);
	rpid = dd(args);
	snprintf(args, sizeof(args), "if=/dev/zero of=/dev/%s bs=8k count=50 "
		 "oflag=direct", loopdev);
	wpid = dd(args);
	after = completed(loopdev);
	ck_assert_int_eq(stop_biosnoop(&pr, out, sizeof(out), err,
				       sizeof(err)), 0);
	loop_teardown();

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char comm[32], disk[32], t;
		unsigned long long sector, bytes;
		unsigned int pid;
		double ts, lat;

		/* stdout holds the I/O lines only, after the header */
		ck_assert_msg(sscanf(line, "%lf %31s %u %31s %c %llu %llu %lf",
				     &ts, comm, &pid, disk, &t, &sector, &bytes,
				     &lat) == 8, "bad line: '%s'", line);
		ck_assert_str_eq(disk, loopdev); /* -d */
		lines++;
		if (t == 'R' && bytes == 4096 && pid == (unsigned)rpid &&
		    !strcmp(comm, "dd") && sector % 8 == 0 &&
		    sector / 8 < 300) {
			reads++;
			rsec[sector / 8]++;
		} else if (t == 'W' && bytes == 8192 &&
			   pid == (unsigned)wpid && !strcmp(comm, "dd") &&
			   sector % 16 == 0 && sector / 16 < 50) {
			writes++;
			wsec[sector / 16]++;
		} else {
			other++;
			fprintf(stderr, "not from the workload: '%s'\n", line);
		}
	}
	summary(err, &printed, &lost, &notseen);
	ck_assert_uint_eq(printed, lines);
	ck_assert_uint_eq(lost, 0);
	ck_assert_int_eq(other, 0);
	ck_assert_uint_ge(after - before, 350);
	ck_assert_msg((unsigned long long)lines <= after - before &&
		      lines + notseen >= after - before,
		      "biosnoop printed %d lines, /sys/block/%s/stat counts %llu",
		      lines, loopdev, after - before);
	for (lines = 0; lines < 300; lines++)
		ck_assert_msg(rsec[lines] == 1 || (!rsec[lines] && notseen),
			      "read of sector %d seen %d times", lines * 8,
			      rsec[lines]);
	for (lines = 0; lines < 50; lines++)
		ck_assert_msg(wsec[lines] == 1 || (!wsec[lines] && notseen),
			      "write of sector %d seen %d times", lines * 16,
			      wsec[lines]);
	if (!notseen) {
		ck_assert_int_eq(reads, 300);
		ck_assert_int_eq(writes, 50);
		ck_assert_uint_eq(after - before, 350);
	}
}
END_TEST

/* -j -Q --duration: JSON lines with the submitter's pid, then exit. */
/*
 * A task names itself (prctl): a comm holding ESC and a newline must not
 * reach the terminal raw nor break the line (issue 20). 5 direct reads by
 * a child so named: 5 lines with its comm escaped, no raw ESC.
 */
START_TEST(test_biosnoop_escapes_comm)
{
	static char out[OUT_MAX];
	char first[4096], err[4096], *lines = out, *l;
	char *argv[] = { (char *)barebpf(), "biosnoop", "-d", loopdev, NULL };
	struct proc pr;
	int n = 0;
	pid_t pid;

	loop_setup();
	start_biosnoop(&pr, argv, 0, first, sizeof(first));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char dev[80];
		void *buf;
		int fd, i;

		snprintf(dev, sizeof(dev), "/dev/%s", loopdev);
		fd = open(dev, O_RDONLY | O_DIRECT);
		if (fd < 0 || posix_memalign(&buf, 4096, 4096) ||
		    prctl(PR_SET_NAME, "bb\033[31m\nx", 0, 0, 0))
			_exit(1);
		for (i = 0; i < 5; i++)
			if (pread(fd, buf, 4096, (off_t)i * 8192) != 4096)
				_exit(2);
		_exit(0);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	usleep(200000);
	ck_assert_int_eq(stop_biosnoop(&pr, out, sizeof(out), err,
				       sizeof(err)), 0);
	loop_teardown();
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in:\n%s", out);
	while ((l = strstr(lines, " bb\\x1b[31m\\nx "))) {
		n++;
		lines = l + 1;
	}
	ck_assert_msg(n == 5, "%d lines with the escaped comm, want 5:\n%s", n,
		      out);
}
END_TEST

START_TEST(test_biosnoop_json_duration)
{
	static char out[OUT_MAX];
	char first[4096], err[4096], args[256], want[160], *line, *save;
	char *argv[] = { (char *)barebpf(), "biosnoop", "-j", "-Q", "-d",
			 loopdev, "--duration", "3", NULL };
	unsigned long long printed, lost, notseen;
	int n = 0;
	pid_t pid;
	struct proc pr;

	loop_setup();
	start_biosnoop(&pr, argv, 1, first, sizeof(first));
	snprintf(args, sizeof(args), "if=/dev/%s of=/dev/null bs=16k count=20 "
		 "iflag=direct", loopdev);
	pid = dd(args);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0); /* exits by itself */
	loop_teardown();

	snprintf(want, sizeof(want), "\"pid\":%d,\"disk\":\"%s\",\"t\":\"R\"",
		 (int)pid, loopdev);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(line[0] == '{' && line[strlen(line) - 1] == '}',
			      "not a JSON object: '%s'", line);
		ck_assert_msg(strstr(line, want), "no '%s' in '%s'", want, line);
		ck_assert_msg(strstr(line, "\"comm\":\"dd\""), "%s", line);
		ck_assert_msg(strstr(line, "\"bytes\":16384,"), "%s", line);
		ck_assert_msg(strstr(line, "\"que_ms\":"), "%s", line);
		ck_assert_msg(strstr(line, "\"lat_ms\":"), "%s", line);
		n++;
	}
	summary(err, &printed, &lost, &notseen);
	ck_assert_msg(n == 20 || (n < 20 && n + notseen >= 20), "%d lines", n);
	ck_assert_uint_eq(printed, n);
	ck_assert_uint_eq(lost, 0);
}
END_TEST

/*
 * A reader that cannot keep up (stopped) loses records: the kernel drops
 * them. Every record our programs emitted must then be either printed or
 * counted as lost (-v says how many were emitted), and the programs must
 * have seen the requests /sys/block/<dev>/stat counts.
 *
 * The last within a thousandth: on 6.18 (this build machine) the kernel
 * now and then completes a request without running block_rq_complete's
 * programs and without counting a miss (bpf recursion_misses stays 0).
 * Seen 0-12 times in 20,000 reads, in 8 of 110 runs, with or without a
 * stopped reader, the base build too; ftrace's own block_rq_complete
 * event saw every one of them, each completed in softirq over another
 * task (PID 1's thread). The perf tracepoint path returns early, counting
 * nothing, when perf_trace_buf_alloc() finds its recursion context taken:
 * the likely place, not proven. No tool can count what the kernel does
 * not hand it; the test says how many when it happens.
 */
START_TEST(test_biosnoop_counts_lost)
{
	static char out[OUT_MAX];
	char first[4096], err[8192], args[256], *p;
	char *argv[] = { (char *)barebpf(), "biosnoop", "-v", "-d", loopdev,
			 NULL };
	unsigned long long before, after, printed, lost, notseen, lines = 0;
	unsigned long long emitted, received, dropped, n, unseen;
	struct proc pr;
	int rc;

	loop_setup();
	/* rings are scaled to the memory (16 MiB a CPU here, more than this
	 * test writes): the ring biosnoop has by itself, 128 pages */
	setenv("BAREBPF_RING_PAGES", "128", 1);
	start_biosnoop(&pr, argv, 0, first, sizeof(first));
	unsetenv("BAREBPF_RING_PAGES");
	before = completed(loopdev);
	kill(pr.pid, SIGSTOP);
	/* far more than 128 pages of ring per CPU hold (about 6,000) */
	snprintf(args, sizeof(args), "if=/dev/%s of=/dev/null bs=512 "
		 "count=20000 iflag=direct", loopdev);
	dd(args);
	after = completed(loopdev);
	kill(pr.pid, SIGCONT);
	rc = stop_biosnoop(&pr, out, sizeof(out), err, sizeof(err));
	loop_teardown();
	ck_assert_msg(rc == 0, "biosnoop exited with %d: %s", rc, err);

	for (p = strstr(out, loopdev); p; p = strstr(p + 1, loopdev))
		lines++;
	summary(err, &printed, &lost, &notseen);
	p = strstr(err, "records: ");
	ck_assert_msg(p && sscanf(p, "records: %llu emitted, %llu received, "
				  "%llu dropped", &emitted, &received,
				  &dropped) == 3, "no -v records line: %s", err);
	ck_assert_uint_eq(printed, lines);
	ck_assert_uint_eq(received, printed);
	ck_assert_msg(lost > 0, "nothing lost with a stopped reader: %s", err);
	ck_assert_msg(printed + lost == emitted,
		      "%llu printed + %llu lost, but %llu emitted", printed,
		      lost, emitted);
	ck_assert_msg(dropped <= lost, "the kernel dropped %llu, we count "
		      "%llu lost", dropped, lost);
	n = after - before;
	ck_assert_msg(emitted <= n, "%llu emitted, /sys/block/%s/stat counts "
		      "%llu", emitted, loopdev, n);
	unseen = n - emitted;
	if (unseen > notseen)
		fprintf(stderr, "%s: %llu of %llu completions did not reach "
			"our programs (%llu counted as skipped)\n", __func__,
			unseen, n, notseen);
	ck_assert_msg(unseen <= notseen + n / 1000,
		      "%llu printed + %llu lost, /sys/block/%s/stat counts "
		      "%llu", printed, lost, loopdev, n);
	ck_assert_msg(strstr(err, "warning:") && strstr(err, "not printed"),
		      "no warning about lost I/Os: %s", err);
}
END_TEST

START_TEST(test_biosnoop_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "biosnoop", "-d", "nosuchdisk9", NULL };
	char *a2[] = { (char *)barebpf(), "biosnoop", "5", NULL };
	char *a3[] = { (char *)barebpf(), "biosnoop", "--duration", "0", NULL };
	char *a4[] = { (char *)barebpf(), "slowbio", "ten", NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unknown disk 'nosuchdisk9'"), "%s", err);
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unexpected argument '5'"), "%s", err);
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "--duration"), "%s", err);
	ck_assert_int_ne(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "min_latency_us"), "%s", err);
}
END_TEST

/* This kernel has no kprobes: slowbio must say so plainly and fail. */
START_TEST(test_slowbio_without_kprobes)
{
	char out[4096], err[4096], tfs[256];
	char *argv[] = { (char *)barebpf(), "slowbio", "--duration", "1", NULL };
	int rc;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	if (kprobes_available(tfs)) {
		/* a kernel with kprobes: it must run instead */
		ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
		ck_assert_msg(strstr(out, "Tracing"), "%s", out);
		return;
	}
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(err, "no kprobe_events"), "stderr: %s", err);
	ck_assert_msg(strstr(err, "needs kprobes"), "stderr: %s", err);
	ck_assert_msg(!strstr(out, "Tracing"), "stdout: %s", out);
}
END_TEST

static Suite *biosnoop_suite(void)
{
	Suite *s = suite_create("biosnoop");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_biosnoop_one_line_per_io);
	tcase_add_test(tc, test_biosnoop_json_duration);
	tcase_add_test(tc, test_biosnoop_escapes_comm);
	tcase_add_test(tc, test_biosnoop_counts_lost);
	tcase_add_test(tc, test_biosnoop_bad_arguments);
	tcase_add_test(tc, test_slowbio_without_kprobes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(biosnoop, biosnoop_suite, need_root_and_tools)
