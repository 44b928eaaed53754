/* SPDX-License-Identifier: MIT */
/*
 * biotop on this machine's kernel, run as a user would: on a loop device,
 * a child that names itself reads and then writes known sizes with
 * O_DIRECT; the rows of its pid must add up to exactly those requests and
 * bytes, reads as R and writes as W, on that disk, under its name.
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

/* A child named comm: nr direct reads, then nw direct writes, of size
 * bytes each; returns its pid once done. */
static pid_t direct_io(const char *comm, int nr, int nw, size_t size)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char dev[80];
		void *buf;
		int fd, i;

		snprintf(dev, sizeof(dev), "/dev/%s", loopdev);
		fd = open(dev, O_RDWR | O_DIRECT);
		if (fd < 0 || posix_memalign(&buf, 4096, size) ||
		    prctl(PR_SET_NAME, comm, 0, 0, 0))
			_exit(1);
		memset(buf, 0, size);
		for (i = 0; i < nr + nw; i++)
			if ((i < nr ? pread(fd, buf, size, (off_t)i * size) :
			     pwrite(fd, buf, size, (off_t)i * size)) !=
			    (ssize_t)size)
				_exit(2);
		_exit(0);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	return pid;
}

/* Sum "io" and "kbytes" of the JSON rows of pid and direction d. */
static void sum_rows(char *out, pid_t pid, const char *comm, char d,
		     long *io, long *kb)
{
	char want[128], *line, *save;

	*io = *kb = 0;
	snprintf(want, sizeof(want), "\"pid\":%d,\"comm\":\"%s\",\"d\":\"%c\","
		 "\"maj\":", (int)pid, comm, d);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p;

		ck_assert_msg(line[0] == '{' && line[strlen(line) - 1] == '}',
			      "not a JSON line: %s", line);
		if (!strstr(line, want))
			continue;
		ck_assert_msg(strstr(line, loopdev), "%s", line);
		p = strstr(line, "\"io\":");
		*io += strtol(p + 5, NULL, 10);
		p = strstr(line, "\"kbytes\":");
		*kb += strtol(p + 9, NULL, 10);
	}
}

/*
 * 30 reads and 12 writes of 8 KiB: 30 requests of 240 Kbytes as R and 12
 * of 96 as W under the child's pid, over the intervals of a -j run.
 */
START_TEST(test_biotop_counts_a_process)
{
	static char out[1 << 18], copy[1 << 18];
	char err[4096];
	char *argv[] = { (char *)barebpf(), "biotop", "-j", "-d", loopdev,
			 "-r", "1000", "1", NULL };
	struct proc pr;
	long io, kb;
	pid_t pid;

	loop_setup();
	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Ctrl-C to end\n", 20000);
	ck_assert_msg(strstr(err, "Tracing... Output every 1 secs."),
		      "did not start: %s", err);
	pid = direct_io("bb_biotop", 30, 12, 8192);
	sleep(1);
	kill(pr.pid, SIGINT);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	loop_teardown();
	memcpy(copy, out, sizeof(out)); /* sum_rows cuts it in lines */
	sum_rows(copy, pid, "bb_biotop", 'R', &io, &kb);
	ck_assert_msg(io == 30 && kb == 240, "R: %ld I/O, %ld Kbytes: %.2000s",
		      io, kb, out);
	memcpy(copy, out, sizeof(out));
	sum_rows(copy, pid, "bb_biotop", 'W', &io, &kb);
	ck_assert_msg(io == 12 && kb == 96, "W: %ld I/O, %ld Kbytes: %.2000s",
		      io, kb, out);
}
END_TEST

/* -C, -p of the child and a count: bcc's head and columns, no screen
 * clearing, only that pid's rows, an exit by itself. */
START_TEST(test_biotop_text_pid_count)
{
	static char out[1 << 16];
	char err[4096], pidarg[16], *p;
	char *argv[] = { (char *)barebpf(), "biotop", "-C", "-p", pidarg,
			 "-d", loopdev, "1", "3", NULL };
	struct proc pr;
	pid_t pid;
	int rows = 0;

	loop_setup();
	/* the child reads once biotop traces its pid: told through a pipe */
	{
		int go[2];

		ck_assert_int_eq(pipe(go), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (!pid) {
			char dev[80], c;
			void *buf;
			int fd, i;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(3);
			snprintf(dev, sizeof(dev), "/dev/%s", loopdev);
			fd = open(dev, O_RDONLY | O_DIRECT);
			if (fd < 0 || posix_memalign(&buf, 4096, 4096) ||
			    prctl(PR_SET_NAME, "bb_biotop_p", 0, 0, 0))
				_exit(1);
			for (i = 0; i < 20; i++)
				if (pread(fd, buf, 4096, (off_t)i * 4096) !=
				    4096)
					_exit(2);
			_exit(0);
		}
		close(go[0]);
		snprintf(pidarg, sizeof(pidarg), "%d", (int)pid);
		spawn(&pr, argv);
		read_until(pr.out, out, sizeof(out), "Ctrl-C to end\n", 20000);
		ck_assert_msg(strstr(out, "Tracing"), "did not start: %s", out);
		ck_assert_int_eq(write(go[1], "g", 1), 1);
		close(go[1]);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	direct_io("bb_other", 5, 0, 4096); /* not that pid */
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	loop_teardown();
	ck_assert_msg(!strchr(out, '\033'), "-C cleared the screen: %s", out);
	ck_assert_msg(strstr(out, " loadavg: ") &&
		      strstr(out, "\nPID     COMM             D MAJ MIN DISK"
			     "       I/O  Kbytes  AVGms\n"), "%s", out);
	for (p = out; (p = strstr(p, "\nPID     COMM")); p++)
		rows++;
	ck_assert_msg(rows == 3, "%d headers for 3 intervals: %s", rows, out);
	ck_assert_msg(strstr(out, " bb_biotop_p ") && !strstr(out, "bb_other"),
		      "%s", out);
	ck_assert_msg(strstr(out, "   20      80 "), "%s", out);
}
END_TEST

START_TEST(test_biotop_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "biotop", "-s", "size", NULL };
	char *a2[] = { (char *)barebpf(), "biotop", "-r", "0", NULL };
	char *a3[] = { (char *)barebpf(), "biotop", "-p", "x", NULL };
	char *a4[] = { (char *)barebpf(), "biotop", "-d", "nosuchdisk9",
		       NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-s: no sort 'size'"), "%s", err);
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-r needs a number of rows"), "%s", err);
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-p needs a process id"), "%s", err);
	ck_assert_int_ne(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unknown disk 'nosuchdisk9'"), "%s", err);
}
END_TEST

static Suite *biotop_suite(void)
{
	Suite *s = suite_create("biotop");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_biotop_counts_a_process);
	tcase_add_test(tc, test_biotop_text_pid_count);
	tcase_add_test(tc, test_biotop_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(biotop, biotop_suite, need_root_and_tools)
