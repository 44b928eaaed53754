/* SPDX-License-Identifier: MIT */
/*
 * exitsnoop on this kernel's sched:sched_process_exit: each of a known set
 * of children of this test (exit 0, 3 and 255, killed by SIGKILL and by
 * SIGSEGV with core dumps off, one named with ESC and a newline) is
 * reported once with its pid, this test as its parent and bcc's exit
 * text; -x keeps the failed ones; -p a process: its exit, with
 * --per-thread its threads' too; with BAREBPF_FIELDS=discover the
 * fields are found where the kernel's BTF places them.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define NKIDS 6

/* child i: how it ends */
static pid_t kid(int i)
{
	static const int codes[NKIDS] = { 0, 3, 255, -SIGKILL, -SIGSEGV, 7 };
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	usleep(20000);
	if (i == 5 && prctl(PR_SET_NAME, "bb\033[31m\nx", 0, 0, 0))
		_exit(1);
	if (codes[i] >= 0)
		_exit(codes[i]);
	struct rlimit no = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no);
	signal(-codes[i], SIG_DFL);
	kill(getpid(), -codes[i]);
	_exit(1);
}

/* exitsnoop with args (NULL-ended, 4 at most) while the children end;
 * its stdout in out, stderr in err */
static void snoop(char *const *args, char *out, size_t len, char *err,
		  size_t elen, pid_t *kids)
{
	char *argv[8] = { (char *)barebpf(), "exitsnoop" };
	struct proc pr;
	size_t n = 0, e = 0;
	int i;

	for (i = 0; args[i] && i < 4; i++)
		argv[2 + i] = args[i];
	argv[2 + i] = NULL;
	err[0] = out[0] = 0;
	spawn(&pr, argv);
	/* -j says it on stderr; the text has the header after it */
	if (!strcmp(args[0], "-j"))
		read_more(pr.err, err, elen, &e, "Tracing", 30000);
	else
		read_more(pr.out, out, len, &n, "EXIT_CODE", 30000);
	ck_assert_msg(strstr(err, "Tracing") || strstr(out, "EXIT_CODE"),
		      "exitsnoop did not start: %s", err);
	for (i = 0; i < NKIDS; i++)
		kids[i] = kid(i);
	for (i = 0; i < NKIDS; i++)
		wait_exit(kids[i]);
	usleep(300000);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, len, &n, NULL, 20000);
	read_more(pr.err, err, elen, &e, NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
}

static int count(const char *out, const char *want)
{
	int n = 0;

	while ((out = strstr(out, want))) {
		n++;
		out++;
	}
	return n;
}

static const char *const jexit[NKIDS] = {
	"\"exit_code\":0,\"sig_info\":0}", "\"exit_code\":3,\"sig_info\":0}",
	"\"exit_code\":255,\"sig_info\":0}", "\"exit_code\":0,\"sig_info\":9}",
	"\"exit_code\":0,\"sig_info\":11}", "\"exit_code\":7,\"sig_info\":0}",
};

/* task_way: NULL, or BAREBPF_EXITSNOOP_TASK's (the exiting task from the
 * raw tracepoint's argument, as where bpf_get_current_task needs the JIT,
 * which is off) */
static void each_exit_json(const char *task_way)
{
	char *args[] = { "-j", "-v", NULL };
	static char out[1 << 20];
	char err[16384], want[256];
	pid_t kids[NKIDS];
	int i;

	if (task_way)
		setenv("BAREBPF_EXITSNOOP_TASK", task_way, 1);
	snoop(args, out, sizeof(out), err, sizeof(err), kids);
	unsetenv("BAREBPF_EXITSNOOP_TASK");
	if (task_way)
		ck_assert_msg(strstr(err, "the exiting task: the raw "
				     "tracepoint"), "%s", err);
	for (i = 0; i < NKIDS; i++) {
		snprintf(want, sizeof(want), "\"pid\":%d,\"ppid\":%d,"
			 "\"tid\":%d,\"age\":", (int)kids[i], (int)getpid(),
			 (int)kids[i]);
		ck_assert_msg(count(out, want) == 1, "not one %s in %s", want,
			      out);
		/* its line: the age, then the exit */
		const char *l = strstr(out, want), *nl = strchr(l, '\n');
		ck_assert_msg(nl && strstr(l, jexit[i]) &&
			      strstr(l, jexit[i]) < nl, "child %d: no %s in "
			      "%.*s", i, jexit[i], (int)(nl - l), l);
		double age = atof(l + strlen(want));
		ck_assert_msg(age >= 0.015 && age < 5, "child %d: age %f", i,
			      age);
	}
	ck_assert_msg(count(out, "\"task\":\"bb\\u001b[31m\\nx\"") == 1,
		      "no escaped name in %s", out);
	ck_assert_msg(strstr(err, "task_struct.exit_code at offset"), "%s",
		      err);
}

START_TEST(test_each_exit_json)
{
	each_exit_json(NULL);
}
END_TEST

START_TEST(test_each_exit_json_raw_tracepoint)
{
	each_exit_json("tracepoint");
}
END_TEST

/* bcc's text, -x: the failed ones, each once */
START_TEST(test_failed_text)
{
	static const char *const text[NKIDS] = { NULL, "code 3\n",
		"code 255\n", "signal 9 (KILL)\n", "signal 11 (SEGV)\n",
		"code 7\n" };
	char *args[] = { "-x", NULL };
	static char out[1 << 20];
	char err[16384], want[256];
	pid_t kids[NKIDS];
	int i;

	snoop(args, out, sizeof(out), err, sizeof(err), kids);
	ck_assert_msg(strstr(out, "PCOMM            PID     PPID    TID     "
			      "AGE(s)  EXIT_CODE\n"), "no header: %s", out);
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in %s", out);
	for (i = 0; i < NKIDS; i++) {
		snprintf(want, sizeof(want), " %-7d %-7d %-7d ", (int)kids[i],
			 (int)getpid(), (int)kids[i]);
		const char *l = strstr(out, want);

		if (!text[i]) {
			ck_assert_msg(!l, "exit 0 with -x: %s", out);
			continue;
		}
		ck_assert_msg(l && count(out, want) == 1, "not one '%s' in %s",
			      want, out);
		ck_assert_msg(!strncmp(strchr(l + strlen(want), ' ') +
				       strspn(strchr(l + strlen(want), ' '),
					      " "), text[i], strlen(text[i])),
			      "child %d: not %s in %.80s", i, text[i], l);
	}
	ck_assert_msg(count(out, "bb\\x1b[31m\\nx ") == 1, "%s", out);
}
END_TEST

/* the offsets lines of -v */
static void offsets(const char *err, char *dst, size_t len)
{
	const char *l = err;

	dst[0] = 0;
	while ((l = strstr(l, "task_struct."))) {
		const char *e = strstr(l, " bytes)");

		if (!e)
			break;
		strncat(dst, l, e - l < (long)(len - strlen(dst) - 2) ?
			(size_t)(e - l) : 0);
		strcat(dst, "\n");
		l = e;
	}
}

/* task_way: as each_exit_json's, for the discovery's program */
static void discovery_agrees(const char *task_way)
{
	char *args[] = { "-j", "-v", NULL };
	static char out[1 << 20];
	char err[16384], btf[1024], disc[1024], want[256];
	pid_t kids[NKIDS];
	struct stat st;

	if (stat("/sys/kernel/btf/vmlinux", &st))
		bbtest_skip("no /sys/kernel/btf/vmlinux to compare with");
	snoop(args, out, sizeof(out), err, sizeof(err), kids);
	offsets(err, btf, sizeof(btf));
	ck_assert_msg(count(btf, "\n") == 4 && !strstr(err, "discovered"),
		      "not 4 fields from the BTF: %s", err);
	setenv("BAREBPF_FIELDS", "discover", 1);
	if (task_way)
		setenv("BAREBPF_EXITSNOOP_TASK", task_way, 1);
	snoop(args, out, sizeof(out), err, sizeof(err), kids);
	unsetenv("BAREBPF_FIELDS");
	unsetenv("BAREBPF_EXITSNOOP_TASK");
	offsets(err, disc, sizeof(disc));
	ck_assert_msg(count(err, "discovered: ") == 4, "%s", err);
	ck_assert_str_eq(disc, btf);
	/* and the discovered offsets read the same exits */
	snprintf(want, sizeof(want), "\"pid\":%d,\"ppid\":%d,", (int)kids[4],
		 (int)getpid());
	ck_assert_msg(strstr(out, want) && count(out, jexit[4]) >= 1, "%s",
		      out);
}

START_TEST(test_discovery_agrees_with_btf)
{
	discovery_agrees(NULL);
}
END_TEST

START_TEST(test_discovery_agrees_raw_tracepoint)
{
	discovery_agrees("tracepoint");
}
END_TEST

static void *thread_exit(void *arg)
{
	(void)arg;
	return NULL;
}

/* -p CHILD [--per-thread]: its two threads' exits and its own, or its own */
static void threads(int per_thread, char *out, size_t len, pid_t *child)
{
	char me[16], err[4096];
	char *argv[] = { (char *)barebpf(), "exitsnoop", "-j", "-p", me,
			 per_thread ? "--per-thread" : NULL, NULL };
	struct proc pr;
	size_t n = 0, e = 0;
	int go[2];
	char c = 0;

	ck_assert_int_eq(pipe(go), 0);
	*child = fork();
	ck_assert_int_ge(*child, 0);
	if (!*child) {
		pthread_t t[2];

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pthread_create(&t[0], NULL, thread_exit, NULL);
		pthread_create(&t[1], NULL, thread_exit, NULL);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
		_exit(5);
	}
	close(go[0]);
	snprintf(me, sizeof(me), "%d", (int)*child);
	spawn(&pr, argv);
	read_more(pr.err, err, sizeof(err), &e, "Tracing", 30000);
	ck_assert_msg(strstr(err, "Tracing"), "exitsnoop did not start: %s",
		      err);
	ck_assert_int_eq(write(go[1], &c, 1), 1);
	close(go[1]);
	ck_assert_int_eq(wait_exit(*child), 5);
	usleep(300000);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, len, &n, NULL, 20000);
	read_more(pr.err, err, sizeof(err), &e, NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
}

START_TEST(test_pid_and_threads)
{
	static char out[65536];
	char want[128];
	pid_t child;

	threads(1, out, sizeof(out), &child);
	snprintf(want, sizeof(want), "\"pid\":%d,", (int)child);
	ck_assert_msg(count(out, want) == 3 && count(out, "\n") == 3,
		      "not 3 exits of %d's threads: %s", (int)child, out);
	snprintf(want, sizeof(want), "\"tid\":%d,", (int)child);
	ck_assert_msg(count(out, want) == 1 &&
		      count(out, "\"exit_code\":5,") == 1, "%s", out);
	threads(0, out, sizeof(out), &child);
	snprintf(want, sizeof(want), "\"pid\":%d,\"ppid\":%d,\"tid\":%d,",
		 (int)child, (int)getpid(), (int)child);
	ck_assert_msg(count(out, "\n") == 1 && count(out, want) == 1 &&
		      count(out, "\"exit_code\":5,") == 1, "%s", out);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char out[8192], err[4096];
	char *a1[] = { (char *)barebpf(), "exitsnoop", "-p", "x", NULL };
	char *a2[] = { (char *)barebpf(), "exitsnoop", "extra", NULL };
	char *a3[] = { (char *)barebpf(), "exitsnoop", "--btf",
		       "/nonexistent", NULL };
	char *a4[] = { (char *)barebpf(), "exitsnoop", "--help", NULL };

	ck_assert_int_eq(run(a1, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_int_eq(run(a2, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_int_eq(run(a3, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "/nonexistent"), "%s", err);
	ck_assert_int_eq(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(out, "examples:"));
}
END_TEST

static Suite *exitsnoop_suite(void)
{
	Suite *s = suite_create("exitsnoop");
	TCase *tc = tcase_create("exit");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_each_exit_json);
	tcase_add_test(tc, test_each_exit_json_raw_tracepoint);
	tcase_add_test(tc, test_failed_text);
	tcase_add_test(tc, test_discovery_agrees_with_btf);
	tcase_add_test(tc, test_discovery_agrees_raw_tracepoint);
	tcase_add_test(tc, test_pid_and_threads);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exitsnoop, exitsnoop_suite, need_root_and_tools)
