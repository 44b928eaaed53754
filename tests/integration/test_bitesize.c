/* SPDX-License-Identifier: MIT */
/*
 * bitesize on this machine's kernel, run as a user would: on a loop
 * device, a child that names itself reads known sizes with O_DIRECT; its
 * histogram must hold exactly those reads in their buckets, and its name
 * reach the output escaped.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

/* A child named comm reads n blocks of size bytes from the loop device
 * with O_DIRECT, each at its own offset; returns its pid once done. */
static pid_t direct_reads(const char *comm, int n, size_t size)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char dev[80];
		void *buf;
		int fd, i;

		snprintf(dev, sizeof(dev), "/dev/%s", loopdev);
		fd = open(dev, O_RDONLY | O_DIRECT);
		if (fd < 0 || posix_memalign(&buf, 4096, size) ||
		    prctl(PR_SET_NAME, comm, 0, 0, 0))
			_exit(1);
		for (i = 0; i < n; i++)
			if (pread(fd, buf, size, (off_t)i * size) !=
			    (ssize_t)size)
				_exit(2);
		_exit(0);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	return pid;
}

/* The count of bucket "lo -> ..." in the histogram after "Process Name =
 * comm" in out (-1: no such histogram). */
static long bucket(const char *out, const char *comm, unsigned lo)
{
	char head[128];
	const char *p, *end;
	unsigned long l, h, c;

	snprintf(head, sizeof(head), "\nProcess Name = %s\n", comm);
	p = strstr(out, head);
	if (!p)
		return -1;
	p += strlen(head);
	end = strstr(p, "\nProcess Name = ");
	while ((p = strchr(p, '\n')) && (!end || p < end)) {
		p++;
		if (sscanf(p, "%lu -> %lu : %lu", &l, &h, &c) == 3 && l == lo)
			return (long)c;
	}
	return 0;
}

/* The sum of the counts of comm's histogram. */
static long total(const char *out, const char *comm)
{
	long sum = 0, c;
	unsigned lo;

	for (lo = 0; lo < (1u << 30); lo = lo ? lo * 2 : 2)
		if ((c = bucket(out, comm, lo)) > 0)
			sum += c;
	return sum;
}

/*
 * 40 reads of 4 KiB, 20 of 16 KiB and 10 of 64 KiB by "bb_bitesz": the
 * buckets 4 -> 7, 16 -> 31 and 64 -> 127 hold 40, 20 and 10, nothing
 * else; -c names that command alone; SIGINT prints the histogram.
 */
START_TEST(test_bitesize_buckets)
{
	static char out[1 << 16];
	char first[4096], err[4096];
	char *argv[] = { (char *)barebpf(), "bitesize", "-d", loopdev, "-c",
			 "bb_bitesz", NULL };
	struct proc pr;

	loop_setup();
	spawn(&pr, argv);
	read_until(pr.out, first, sizeof(first), "Ctrl-C to end.\n", 20000);
	ck_assert_msg(strstr(first, "Tracing block I/O"), "did not start: %s",
		      first);
	direct_reads("bb_bitesz", 40, 4096);
	direct_reads("bb_bitesz", 20, 16384);
	direct_reads("bb_bitesz", 10, 65536);
	direct_reads("bb_other", 5, 4096); /* not this comm: not counted */
	kill(pr.pid, SIGINT);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	loop_teardown();
	ck_assert_msg(strstr(out, "Kbytes              : count     "
			     "distribution"), "%s", out);
	ck_assert_msg(bucket(out, "bb_bitesz", 4) == 40, "%s", out);
	ck_assert_msg(bucket(out, "bb_bitesz", 16) == 20, "%s", out);
	ck_assert_msg(bucket(out, "bb_bitesz", 64) == 10, "%s", out);
	ck_assert_msg(total(out, "bb_bitesz") == 70, "%s", out);
	ck_assert_msg(!strstr(out, "bb_other"), "-c let another in: %s", out);
	ck_assert_msg(!strstr(err, "warning"), "%s", err);
}
END_TEST

/*
 * -j with an interval and a count: exits by itself after 3 JSON lines,
 * whose counts of a named reader add up to its reads; a name holding ESC
 * and a newline comes out escaped, never raw.
 */
START_TEST(test_bitesize_json_interval_count)
{
	static char out[1 << 16];
	char err[4096], *line, *save;
	char *argv[] = { (char *)barebpf(), "bitesize", "-j", "-d", loopdev,
			 "1", "3", NULL };
	const char *esc = "bb\033[31m\nx";
	struct proc pr;
	int lines = 0;
	long n = 0;

	loop_setup();
	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Ctrl-C to end.\n", 20000);
	ck_assert_msg(strstr(err, "Tracing block I/O"), "did not start: %s",
		      err);
	direct_reads(esc, 12, 8192);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	loop_teardown();
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in: %s", out);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "{\"comm\":\"bb\\u001b[31m\\nx\","
				       "\"hist\":{\"unit\":\"Kbytes\","
				       "\"buckets\":[{\"lo\":8,\"hi\":15,"
				       "\"count\":");

		ck_assert_msg(!strncmp(line, "{\"time\":\"", 9) &&
			      line[strlen(line) - 1] == '}', "%s", line);
		lines++;
		if (p)
			n += strtol(strrchr(p, ':') + 1, NULL, 10);
	}
	ck_assert_int_eq(lines, 3);
	ck_assert_int_eq(n, 12);
}
END_TEST

START_TEST(test_bitesize_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "bitesize", "-d", "nosuchdisk9",
		       NULL };
	char *a2[] = { (char *)barebpf(), "bitesize", "-c", "", NULL };
	char *a3[] = { (char *)barebpf(), "bitesize", "1", "2", "3", NULL };
	char *a4[] = { (char *)barebpf(), "bitesize", "--help", NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unknown disk 'nosuchdisk9'"), "%s", err);
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-c: an empty process name"), "%s", err);
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "'3'"), "%s", err);
	ck_assert_int_eq(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(out, "examples:\n  barebpf bitesize"), "%s", out);
}
END_TEST

static Suite *bitesize_suite(void)
{
	Suite *s = suite_create("bitesize");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bitesize_buckets);
	tcase_add_test(tc, test_bitesize_json_interval_count);
	tcase_add_test(tc, test_bitesize_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(bitesize, bitesize_suite, need_root_and_tools)
