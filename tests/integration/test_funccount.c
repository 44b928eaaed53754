/* SPDX-License-Identifier: MIT */
/*
 * barebpf funccount on this machine's kernel, through tracepoints (it has
 * no kprobes): a child of ours calls getppid() a known number of times,
 * and `funccount -p <child> t:syscalls:sys_enter_getppid` must count
 * exactly that (-p, because other processes of a shared machine call
 * getppid too); -i must start every interval from 0; -d must end the run.
 * vfsstat and funccount on functions must say that kprobes are missing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"

#define TP "t:syscalls:sys_enter_getppid"
#define ROW "syscalls:sys_enter_getppid"

/* A child that, for each byte it reads, calls getppid() the next count
 * of counts (0-terminated), then exits. */
struct child {
	pid_t pid;
	int go;
	char pid_s[16];
};

static void child_start(struct child *c, const int *counts)
{
	int p[2], i;
	char b;

	ck_assert_int_eq(pipe(p), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (!c->pid) {
		close(p[1]);
		for (; *counts; counts++) {
			if (read(p[0], &b, 1) != 1)
				_exit(1);
			for (i = 0; i < *counts; i++)
				if (getppid() < 0)
					_exit(2);
		}
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
	snprintf(c->pid_s, sizeof(c->pid_s), "%d", (int)c->pid);
}

static void child_go(struct child *c)
{
	ck_assert_int_eq(write(c->go, "g", 1), 1);
}

/* The count of ROW in text output: "syscalls:sys_enter_getppid   N". */
static long text_count(const char *out)
{
	const char *l = strstr(out, ROW);

	return l ? strtol(l + strlen(ROW), NULL, 10) : -1;
}

static void start(struct proc *p, char **argv, char *err, size_t len)
{
	spawn(p, argv);
	read_until(p->err, err, len, "Tracing", 30000);
	if (!strstr(err, "Tracing"))
		read_until(p->out, err, len, "Tracing", 30000);
	ck_assert_msg(strstr(err, "Tracing"), "funccount did not start: %s",
		      err);
}

START_TEST(test_funccount_exact)
{
	static const int counts[] = { 1234, 0 };
	static char out[65536], err[4096];
	struct child c;
	struct proc p;
	char *argv[] = { (char *)barebpf(), "funccount", "-p", NULL, TP,
			 NULL };

	child_start(&c, counts);
	argv[3] = c.pid_s;
	spawn(&p, argv);
	read_until(p.out, out, sizeof(out), "Tracing", 30000);
	ck_assert_msg(strstr(out, "Tracing 1 functions for \"" TP "\"... "
			     "Hit Ctrl-C to end."), "no Tracing line: %s", out);
	child_go(&c);
	ck_assert_int_eq(wait_exit(c.pid), 0);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	ck_assert_msg(strstr(out, "\nFUNC                                    "
			     "COUNT\n"), "no bcc header: %s", out);
	ck_assert_msg(text_count(out) == 1234, "counted %ld of 1234 calls:\n"
		      "%s%s", text_count(out), out, err);
	ck_assert_msg(strstr(out, "Detaching...\n"), "no Detaching: %s", out);
}
END_TEST

/* -i: each interval counts from 0. Two batches, seconds apart: their
 * counts show up in separate lines, never their sum, and add up. A batch
 * may straddle an interval's end (500 calls split 58 + 442 once in CI: a
 * descheduled child), so no line may hold more than the larger batch
 * (a count not cleared would: 800), and at least two lines count. */
START_TEST(test_funccount_interval_clears)
{
	static const int counts[] = { 300, 500, 0 };
	static char out[65536], err[4096];
	struct child c;
	struct proc p;
	char *argv[] = { (char *)barebpf(), "funccount", "-j", "-i", "1",
			 "-p", NULL, TP, NULL };
	const char *l;
	long n, sum = 0, lines = 0, max = 0, nonempty = 0;

	child_start(&c, counts);
	argv[6] = c.pid_s;
	start(&p, argv, err, sizeof(err));
	child_go(&c);
	sleep(3);
	child_go(&c);
	ck_assert_int_eq(wait_exit(c.pid), 0);
	sleep(2);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 30000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	for (l = out; (l = strstr(l, "\"count\":")); l++) {
		n = strtol(l + 8, NULL, 10);
		sum += n;
		max = n > max ? n : max;
		nonempty++;
	}
	for (l = out; (l = strstr(l, "{\"time\":")); l++)
		lines++;
	ck_assert_msg(sum == 800, "intervals add up to %ld, not 800: %s", sum,
		      out);
	ck_assert_msg(max <= 500 && nonempty >= 2,
		      "each interval should count from 0: %s", out);
	ck_assert_msg(lines >= 4, "%ld JSON lines in 5 s with -i 1: %s", lines,
		      out);
}
END_TEST

START_TEST(test_funccount_duration_exits)
{
	static char out[65536], err[4096];
	char *argv[] = { (char *)barebpf(), "funccount", "-d", "2", "-p", "1",
			 "t:syscalls:sys_enter_getpp*", NULL };
	double t0 = mono();
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(mono() - t0 < 20, "took %.1f s with -d 2", mono() - t0);
	ck_assert_msg(strstr(out, "FUNC") && strstr(out, "Detaching..."),
		      "output: %s", out);
}
END_TEST

/*
 * A tracepoint that is a kernel tracepoint (not a syscalls/ event) is
 * counted by a raw tracepoint where the kernel has them (4.17): a child
 * of ours forks 321 children, and -p <child> counts exactly its 321
 * sched_process_fork hits (the filter of the hand-made program).
 */
START_TEST(test_funccount_rawtp_exact)
{
	static char out[65536], err[4096];
	struct proc p;
	pid_t c;
	int go[2], i;
	char b, pid_s[16], src[64];
	struct bb_err e;
	uint32_t kv;
	char *argv[] = { (char *)barebpf(), "funccount", "-v", "-p", pid_s,
			 "t:sched:sched_process_fork", NULL };
	const char *row;

	ck_assert_int_eq(pipe(go), 0);
	c = fork();
	ck_assert_int_ge(c, 0);
	if (!c) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		for (i = 0; i < 321; i++) {
			pid_t k = fork();

			if (k < 0)
				_exit(2);
			if (!k)
				_exit(0);
			waitpid(k, NULL, 0);
		}
		_exit(0);
	}
	close(go[0]);
	snprintf(pid_s, sizeof(pid_s), "%d", (int)c);
	spawn(&p, argv);
	read_until(p.out, out, sizeof(out), "Tracing", 30000);
	ck_assert_msg(strstr(out, "Tracing"), "did not start: %s", out);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(wait_exit(c), 0);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	row = strstr(out, "sched:sched_process_fork");
	ck_assert_msg(row && strtol(row + 24, NULL, 10) == 321,
		      "not 321 forks counted:\n%s%s", out, err);
	ck_assert_int_eq(kver_detect(NULL, &kv, src, sizeof(src), &e), 0);
	if (kv >= KVER(4, 17, 0))
		ck_assert_msg(strstr(err, ", 1 raw tracepoints)"),
			      "not through a raw tracepoint: %s", err);
}
END_TEST

/*
 * Every tracepoint (2,305 on 6.18): their perf events took a grace
 * period each to end (53 ms, one after the other under event_mutex: 125 s
 * for t:*:*); raw tracepoints end at once (the syscalls/ events through
 * raw_syscalls, but for the calls this build's musl does not know), so
 * the run must start, count and exit within 15 s, the bound of issue 24
 * (a correctness bound, not a benchmark: 3.5-3.7 s here).
 */
START_TEST(test_funccount_all_tracepoints_exit)
{
	static char out[1 << 20], err[65536];
	char *argv[] = { (char *)barebpf(), "funccount", "--max-probes",
			 "10000", "-d", "1", "t:*:*", NULL };
	double t0 = mono(), took;
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	took = mono() - t0;
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(out, "timer:"), "no timer event counted: %s",
		      out);
	ck_assert_msg(strstr(out, "syscalls:sys_enter_"),
		      "no syscall counted: %s", out);
	ck_assert_msg(took < 15, "t:*:* took %.1f s, more than 15", took);
}
END_TEST

/*
 * The syscalls/ events have no raw tracepoint of their own: they are
 * counted by number through raw_syscalls' sys_enter and sys_exit (4.17).
 * A child of ours calls getppid() 2345 times: -p <child> counts exactly
 * 2345 at the entry and 2345 at the exit, and -v says both went raw.
 */
START_TEST(test_funccount_rawsys_exact)
{
	static const int counts[] = { 2345, 0 };
	static char out[65536], err[8192];
	struct child c;
	struct proc p;
	struct bb_err e;
	uint32_t kv;
	char src[64];
	char *argv[] = { (char *)barebpf(), "funccount", "-v", "-p", NULL,
			 "t:syscalls:sys_*_getppid", NULL };
	const char *enter, *exit;

	child_start(&c, counts);
	argv[4] = c.pid_s;
	spawn(&p, argv);
	read_until(p.out, out, sizeof(out), "Tracing", 30000);
	ck_assert_msg(strstr(out, "Tracing 2 functions"), "did not start: %s",
		      out);
	child_go(&c);
	ck_assert_int_eq(wait_exit(c.pid), 0);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	enter = strstr(out, "syscalls:sys_enter_getppid ");
	exit = strstr(out, "syscalls:sys_exit_getppid ");
	ck_assert_msg(enter && strtol(enter + 27, NULL, 10) == 2345,
		      "not 2345 entries counted:\n%s%s", out, err);
	ck_assert_msg(exit && strtol(exit + 26, NULL, 10) == 2345,
		      "not 2345 exits counted:\n%s%s", out, err);
	ck_assert_int_eq(kver_detect(NULL, &kv, src, sizeof(src), &e), 0);
	if (kv >= KVER(4, 17, 0))
		ck_assert_msg(strstr(err, ", 2 raw tracepoints)\n") &&
			      strstr(err, "\n2 syscalls/ events counted by "
				     "number through the raw tracepoints "
				     "sys_enter and sys_exit\n"),
			      "not through raw tracepoints: %s", err);
}
END_TEST

/*
 * A 32-bit task's calls on a 64-bit x86 kernel: the syscalls/ events
 * leave them out (in_ia32_syscall; their numbers are another table's:
 * ia32 getppid, 64, is x86_64's semget), and so must their count through
 * raw_syscalls (a 32-bit task's cs). tests/tools/compat32 waits in read(0)
 * for the go, then calls getppid() 777 times and exits: nothing of it
 * may be counted.
 */
START_TEST(test_funccount_rawsys_compat)
{
	static char out[65536], err[8192];
	static const char path[] = BB_BUILD_DIR "/tests/compat32";
	char *argv[] = { (char *)barebpf(), "funccount", "-v", "--max-probes",
			 "2000", "-p", NULL, "t:syscalls:sys_*", NULL };
	char pid_s[16], exe[256], link[64];
	struct proc p;
	int go[2], i;
	ssize_t len;
	pid_t c;

#ifndef __x86_64__
	bbtest_skip("32-bit x86 tasks: an x86_64 kernel's");
#endif
	if (access(path, X_OK))
		bbtest_skip("no %s (the compiler cannot build -m32)", path);
	ck_assert_int_eq(pipe(go), 0);
	c = fork();
	ck_assert_int_ge(c, 0);
	if (!c) {
		dup2(go[0], 0);
		close(go[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	/* its calls count from its read on: after the exec */
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)c);
	for (i = 0; i < 200; i++) {
		len = readlink(link, exe, sizeof(exe) - 1);
		exe[len > 0 ? len : 0] = 0;
		if (strstr(exe, "compat32"))
			break;
		usleep(10000);
	}
	if (!strstr(exe, "compat32")) {
		kill(c, SIGKILL);
		wait_exit(c);
		bbtest_skip("compat32 did not start (no IA32_EMULATION?)");
	}
	snprintf(pid_s, sizeof(pid_s), "%d", (int)c);
	argv[6] = pid_s;
	spawn(&p, argv);
	read_until(p.out, out, sizeof(out), "Tracing", 30000);
	ck_assert_msg(strstr(out, "Tracing"), "did not start: %s", out);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(wait_exit(c), 0);
	kill(p.pid, SIGINT);
	read_until(p.out, out, sizeof(out), NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	ck_assert_msg(strstr(out, "Detaching..."), "no end: %s%s", out, err);
	ck_assert_msg(!strstr(out, "syscalls:sys_"),
		      "a 32-bit task's calls counted:\n%s%s", out, err);
}
END_TEST

/*
 * Every syscalls/ event (720 on 6.18): a perf event each took a grace
 * period to end, under event_mutex (19-27 s here, issue 24); by number
 * through raw_syscalls, only the calls newer than this build's musl
 * (perf events still) wait: the run must start, count and exit within
 * 15 s, the bound of issue 24.
 */
START_TEST(test_funccount_syscalls_exit)
{
	static char out[1 << 20], err[65536];
	char *argv[] = { (char *)barebpf(), "funccount", "--max-probes",
			 "10000", "-d", "1", "t:syscalls:*", NULL };
	double t0 = mono(), took;
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	took = mono() - t0;
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(out, "syscalls:sys_enter_"),
		      "no syscall counted: %s", out);
	ck_assert_msg(took < 15, "t:syscalls:* took %.1f s, more than 15",
		      took);
}
END_TEST

START_TEST(test_funccount_bad_input)
{
	static char out[4096], err[4096];
	char *lib[] = { (char *)barebpf(), "funccount", "nosuchlib_x:f*", NULL };
	char *usdt[] = { (char *)barebpf(), "funccount", "u:c:probe", NULL };
	char *tp[] = { (char *)barebpf(), "funccount", "t:nosuch:event_xyz",
		       NULL };
	char *kp[] = { (char *)barebpf(), "funccount", "vfs_read", NULL };
	char *vfs[] = { (char *)barebpf(), "vfsstat", "1", "1", NULL };
	char tfs[256], path[300];

	ck_assert_int_eq(run(lib, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "cannot find library or program "
			     "'nosuchlib_x'"), "%s", err);
	ck_assert_int_eq(run(usdt, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "no USDT probes"), "%s", err);
	ck_assert_int_eq(run(tp, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "no tracepoint matches"), "%s", err);
	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	snprintf(path, sizeof(path), "%s/kprobe_events", tfs);
	if (access(path, F_OK) == 0)
		bbtest_skip("this kernel has kprobes: funccount's and vfsstat's "
			    "message for a kernel without them is not checked "
			    "(the VM cases run them with kprobes)");
	ck_assert_int_eq(run(kp, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "no kprobe_events"), "%s", err);
	ck_assert_int_eq(run(vfs, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "no kprobe_events"), "%s", err);
}
END_TEST

static const char *need_tp(void)
{
	const char *why = need_root_and_tools();
	char tfs[256], path[300];

	if (why)
		return why;
	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return "no tracefs";
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid",
		 tfs);
	if (access(path, F_OK))
		return "no syscalls:sys_enter_getppid tracepoint "
		       "(CONFIG_FTRACE_SYSCALLS)";
	return NULL;
}

static Suite *funccount_suite(void)
{
	Suite *s = suite_create("funccount");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_funccount_exact);
	tcase_add_test(tc, test_funccount_interval_clears);
	tcase_add_test(tc, test_funccount_duration_exits);
	tcase_add_test(tc, test_funccount_bad_input);
	tcase_add_test(tc, test_funccount_rawtp_exact);
	tcase_add_test(tc, test_funccount_all_tracepoints_exit);
	tcase_add_test(tc, test_funccount_rawsys_exact);
	tcase_add_test(tc, test_funccount_rawsys_compat);
	tcase_add_test(tc, test_funccount_syscalls_exit);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(funccount, funccount_suite, need_tp)
