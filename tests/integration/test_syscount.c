/* SPDX-License-Identifier: MIT */
/*
 * barebpf syscount on this machine's kernel (raw_syscalls tracepoints): a
 * child of ours makes a known number of calls, and `syscount -p <child>`
 * must count exactly that: 1000 getppid; with -L the same count and a
 * time; with -x only the 500 close(-1) (EBADF) and 300 failed opens
 * (ENOENT), never the getppid; with -e ENOENT only the opens; with -P the
 * child's own row; with -c the child's own cgroup (v2) and no -p. Bad options fail with a message; -d ends the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

struct child {
	pid_t pid;
	int go;
	char pid_s[16];
};

/* The child's calls, once it is told to go: 1000 getppid, then 500
 * close(-1) and 300 opens of a file that is not there. */
static void child_calls(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		if (syscall(SYS_getppid) < 0)
			_exit(2);
	for (i = 0; i < 500; i++)
		if (close(-1) == 0 || errno != EBADF)
			_exit(3);
	for (i = 0; i < 300; i++)
		if (open("/nonexistent/barebpf-syscount", O_RDONLY) >= 0)
			_exit(4);
}

/* The child's cgroup (v2) to join before its calls; "" : none. */
static char child_cg[512];

static void child_start(struct child *c)
{
	int p[2];
	char b;
	FILE *f;

	ck_assert_int_eq(pipe(p), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (!c->pid) {
		close(p[1]);
		if (child_cg[0]) {
			char procs[600];

			snprintf(procs, sizeof(procs), "%s/cgroup.procs",
				 child_cg);
			f = fopen(procs, "w");
			if (!f || fprintf(f, "%d", (int)getpid()) < 0 ||
			    fclose(f))
				_exit(5);
		}
		if (read(p[0], &b, 1) != 1)
			_exit(1);
		child_calls();
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
	snprintf(c->pid_s, sizeof(c->pid_s), "%d", (int)c->pid);
}

/* Run syscount (argv, -p CHILD among them) around the child's calls;
 * SIGINT once the child is gone: its one summary in out. */
static void run_around_child(char **argv, struct child *c, char *out,
			     size_t len)
{
	static char err[4096];
	struct proc p;
	size_t n;

	spawn(&p, argv);
	n = read_until(p.out, out, len, "Ctrl+C to quit.", 30000);
	if (!strstr(out, "Ctrl+C to quit."))
		read_until(p.err, err, sizeof(err), "Ctrl+C to quit.", 1000);
	ck_assert_msg(strstr(out, "Ctrl+C to quit.") ||
		      strstr(err, "Ctrl+C to quit."),
		      "syscount did not start: %s%s", out, err);
	ck_assert_int_eq(write(c->go, "g", 1), 1);
	ck_assert_int_eq(wait_exit(c->pid), 0);
	close(c->go);
	kill(p.pid, SIGINT);
	read_more(p.out, out, len, &n, NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_msg(wait_exit(p.pid) == 0, "syscount failed: %s", err);
}

/* The count of row `name` of a text summary ("name   N"), -1 if none. */
static long row_count(const char *out, const char *name)
{
	const char *l;
	size_t n = strlen(name);

	for (l = out; (l = strstr(l, name)); l++)
		if ((l == out || l[-1] == '\n') && l[n] == ' ')
			return strtol(l + n, NULL, 10);
	return -1;
}

START_TEST(test_syscount_exact)
{
	static char out[65536];
	struct child c;
	char *argv[] = { (char *)barebpf(), "syscount", "-p", NULL, NULL };

	child_start(&c);
	argv[3] = c.pid_s;
	run_around_child(argv, &c, out, sizeof(out));
	ck_assert_msg(strstr(out, "Tracing syscalls, printing top 10... "
			     "Ctrl+C to quit.\n"), "no bcc line: %s", out);
	ck_assert_msg(strstr(out, "\nSYSCALL                   COUNT\n"),
		      "no bcc header: %s", out);
	ck_assert_msg(row_count(out, "getppid") == 1000,
		      "counted %ld of 1000 getppid:\n%s",
		      row_count(out, "getppid"), out);
	ck_assert_msg(row_count(out, "close") == 500, "close: %ld of 500:\n%s",
		      row_count(out, "close"), out);
	ck_assert_msg(!strstr(out, "exit_group"), "exit_group never returns:"
		      "\n%s", out);
	ck_assert_msg(strstr(out, "Detaching...\n"), "no Detaching: %s", out);
}
END_TEST

/* -L --syscall getppid -j: the one call, its count exact, a time. */
START_TEST(test_syscount_latency_json)
{
	static char out[65536];
	struct child c;
	char *argv[] = { (char *)barebpf(), "syscount", "-L", "-j",
			 "--syscall", "getppid", "-p", NULL, NULL };
	const char *l;

	child_start(&c);
	argv[7] = c.pid_s;
	run_around_child(argv, &c, out, sizeof(out));
	l = strstr(out, "{\"syscall\":\"getppid\",\"nr\":");
	ck_assert_msg(l, "no getppid object: %s", out);
	ck_assert_msg(strstr(l, ",\"count\":1000,\"total_ns\":"),
		      "not 1000 getppid: %s", out);
	ck_assert_msg(strtoull(strstr(l, "total_ns\":") + 10, NULL, 10) > 0,
		      "no time: %s", out);
	ck_assert_msg(!strstr(out, "\"close\""), "--syscall getppid counted "
		      "close: %s", out);
}
END_TEST

/* -x: only failed calls; -e ENOENT: only those with that error. */
START_TEST(test_syscount_failures)
{
	static char out[65536];
	struct child c;
	char *argv[] = { (char *)barebpf(), "syscount", "-x", "-p", NULL,
			 NULL };
	char *argve[] = { (char *)barebpf(), "syscount", "-e", "ENOENT", "-p",
			  NULL, NULL };
	long opens;

	child_start(&c);
	argv[4] = c.pid_s;
	run_around_child(argv, &c, out, sizeof(out));
	ck_assert_msg(strstr(out, "Tracing failed syscalls"), "%s", out);
	ck_assert_msg(row_count(out, "close") == 500, "close: %ld of 500:\n%s",
		      row_count(out, "close"), out);
	opens = row_count(out, "openat");
	if (opens < 0)
		opens = row_count(out, "open");
	ck_assert_msg(opens == 300, "failed opens: %ld of 300:\n%s", opens,
		      out);
	ck_assert_msg(row_count(out, "getppid") < 0, "-x counted getppid:\n%s",
		      out);

	memset(out, 0, sizeof(out));
	child_start(&c);
	argve[5] = c.pid_s;
	run_around_child(argve, &c, out, sizeof(out));
	opens = row_count(out, "openat");
	if (opens < 0)
		opens = row_count(out, "open");
	ck_assert_msg(opens == 300, "ENOENT opens: %ld of 300:\n%s", opens,
		      out);
	ck_assert_msg(row_count(out, "close") < 0, "-e ENOENT counted close "
		      "(EBADF):\n%s", out);
}
END_TEST

/* -P: the child's row, "PID    COMM" in bcc's 22 columns, 1800 calls
 * and more (its read of the pipe). */
START_TEST(test_syscount_process)
{
	static char out[65536];
	struct child c;
	char *argv[] = { (char *)barebpf(), "syscount", "-P", "-p", NULL,
			 NULL };
	char row[32];
	const char *l;

	child_start(&c);
	argv[4] = c.pid_s;
	run_around_child(argv, &c, out, sizeof(out));
	ck_assert_msg(strstr(out, "\nPID    COMM               COUNT\n"),
		      "no bcc header: %s", out);
	snprintf(row, sizeof(row), "\n%-6s ", c.pid_s);
	l = strstr(out, row);
	ck_assert_msg(l, "no row of %s: %s", c.pid_s, out);
	ck_assert_msg(strtol(l + 23, NULL, 10) >= 1800, "%s", out);
}
END_TEST

/* -c: a cgroup v2 of our own, which the child joins: its 1000 getppid,
 * with no -p, exactly (nothing else is in that cgroup). */
START_TEST(test_syscount_cgroup)
{
	static char out[65536];
	char mnt[256] = "", line[512];
	char *argv[] = { (char *)barebpf(), "syscount", "-c", child_cg, NULL };
	struct child c;
	FILE *f = fopen("/proc/mounts", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s cgroup2", mnt) == 1 &&
		    strstr(line, " cgroup2 "))
			break;
		else
			mnt[0] = 0;
	if (f)
		fclose(f);
	if (!mnt[0])
		bbtest_skip("no cgroup v2 hierarchy mounted");
	snprintf(child_cg, sizeof(child_cg), "%s/bbtest-syscount-%d", mnt,
		 (int)getpid());
	if (mkdir(child_cg, 0755)) {
		child_cg[0] = 0;
		bbtest_skip("cannot make a cgroup under %s", mnt);
	}
	child_start(&c);
	run_around_child(argv, &c, out, sizeof(out));
	ck_assert_int_eq(rmdir(child_cg), 0);
	child_cg[0] = 0;
	ck_assert_msg(row_count(out, "getppid") == 1000,
		      "counted %ld of 1000 getppid in the cgroup:\n%s",
		      row_count(out, "getppid"), out);
	ck_assert_msg(row_count(out, "close") >= 500, "%s", out);
}
END_TEST

START_TEST(test_syscount_bad_options)
{
	static char out[4096], err[4096];
	char *bad_errno[] = { (char *)barebpf(), "syscount", "-e", "EFOO",
			      NULL };
	char *bad_call[] = { (char *)barebpf(), "syscount", "--syscall",
			     "nosuchcall", NULL };
	char *both[] = { (char *)barebpf(), "syscount", "-p", "1", "-t", "1",
			 NULL };

	ck_assert_int_eq(run(bad_errno, out, sizeof(out), err, sizeof(err)),
			 1);
	ck_assert_msg(strstr(err, "'EFOO'"), "%s", err);
	ck_assert_int_eq(run(bad_call, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "'nosuchcall' not found"), "%s", err);
	ck_assert_int_eq(run(both, out, sizeof(out), err, sizeof(err)), 1);
}
END_TEST

/* -i 1 -d 3 -j: summaries each second, the end by itself. */
START_TEST(test_syscount_duration)
{
	static char out[65536], err[4096];
	char *argv[] = { (char *)barebpf(), "syscount", "-j", "-i", "1", "-d",
			 "3", NULL };
	double t0 = mono();
	int rc = run(argv, out, sizeof(out), err, sizeof(err)), lines = 0;
	const char *l;

	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(mono() - t0 < 20, "took %.1f s with -d 3", mono() - t0);
	for (l = out; (l = strstr(l, "{\"time\":")); l++)
		lines++;
	ck_assert_msg(lines == 3, "%d JSON lines for -i 1 -d 3: %s", lines,
		      out);
}
END_TEST

static Suite *syscount_suite(void)
{
	Suite *s = suite_create("syscount");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_syscount_exact);
	tcase_add_test(tc, test_syscount_latency_json);
	tcase_add_test(tc, test_syscount_failures);
	tcase_add_test(tc, test_syscount_process);
	tcase_add_test(tc, test_syscount_cgroup);
	tcase_add_test(tc, test_syscount_bad_options);
	tcase_add_test(tc, test_syscount_duration);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(syscount, syscount_suite, need_root_and_tools)
