/* SPDX-License-Identifier: MIT */
/*
 * trace's probe language on this machine's kernel, through tracepoints (it
 * has no kprobes): a child of ours makes known system calls, and trace
 * must print exactly their arguments and return values, keep exactly the
 * subset a filter names, and read strings from user memory (syscall
 * arguments), from the record (__data_loc) and in place (char arrays).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"

#define N_RD 5    /* opens for reading */
#define N_WR 3    /* opens for writing, creating */
#define N_BAD 4   /* opens of a missing file */
#define N_CALLS 6 /* getppid() calls */

static char path[64], missing[64], link_path[64];

struct child {
	pid_t pid;
	int go;
};

/* A child that runs fn once told to, then exits. */
static void child_start(struct child *c, void (*fn)(void))
{
	int p[2];
	char b;

	ck_assert_int_eq(pipe(p), 0);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (!c->pid) {
		close(p[1]);
		prctl(PR_SET_NAME, "bbtrace-child");
		if (read(p[0], &b, 1) != 1)
			_exit(1);
		fn();
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
}

/*
 * trace -p CHILD ARGS... (or without -p if pid is 0): start it, run the
 * child, wait until the output is quiet, SIGINT; stdout in out. Returns
 * trace's exit status.
 */
static int trace_child(const char *const *args, void (*fn)(void), int by_pid,
		       char *out, size_t len, pid_t *child)
{
	char *argv[16], pid[16], err[4096];
	struct child c;
	struct proc p;
	size_t n = 0;
	int i = 0;

	child_start(&c, fn);
	*child = c.pid;
	snprintf(pid, sizeof(pid), "%d", (int)c.pid);
	argv[i++] = (char *)barebpf();
	argv[i++] = "trace";
	if (by_pid) {
		argv[i++] = "-p";
		argv[i++] = pid;
	}
	for (; *args && i < 15; args++)
		argv[i++] = (char *)*args;
	argv[i] = NULL;
	spawn(&p, argv);
	n = trace_started(&p, argv, out, len); /* the header, if text */
	ck_assert_int_eq(write(c.go, "g", 1), 1);
	close(c.go);
	ck_assert_int_eq(wait_exit(c.pid), 0);
	/* the events, then quiet: all of them are in */
	n += read_until(p.out, out + n, len - n, NULL, 1500);
	kill(p.pid, SIGINT);
	n += read_until(p.out, out + n, len - n, NULL, 20000);
	read_until(p.err, err, sizeof(err), NULL, 5000);
	close(p.out);
	close(p.err);
	ck_assert_msg(!strstr(err, "lost"), "stderr: %s", err);
	return wait_exit(p.pid);
}

/* Lines of text that end with suffix. */
static int count_suffix(const char *text, const char *suffix)
{
	size_t sl = strlen(suffix);
	const char *l = text, *e;
	int n = 0;

	for (; *l; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		n += (size_t)(e - l) >= sl && !strncmp(e - sl, suffix, sl);
	}
	return n;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void do_opens(void)
{
	int i, fd;

	for (i = 0; i < N_WR; i++) {
		fd = syscall(SYS_openat, AT_FDCWD, path,
			     O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < N_RD; i++) {
		fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
		if (fd >= 0)
			close(fd);
		/* noise the filters must leave out */
		fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < N_BAD; i++)
		syscall(SYS_openat, AT_FDCWD, missing, O_RDONLY);
}

/* A user string, a filter on a string, on flags and on a return value. */
START_TEST(test_trace_openat_args)
{
	static char out[1 << 20];
	char strcmp_probe[160], want[160];
	const char *args[] = { strcmp_probe,
		"t:syscalls:sys_enter_openat ((args->flags & 0x40) == 0x40 && "
		"args->dfd == -100) \"creat %d %x\", args->dfd, args->flags",
		"t:syscalls:sys_exit_openat (args->ret < 0) \"ret=%d\", "
		"args->ret", NULL };
	pid_t child;

	snprintf(path, sizeof(path), "/tmp/bbtrace-%d", (int)getpid());
	snprintf(missing, sizeof(missing), "/tmp/bbtrace-missing-%d",
		 (int)getpid());
	snprintf(strcmp_probe, sizeof(strcmp_probe),
		 "t:syscalls:sys_enter_openat (STRCMP(\"%s\", args->filename)) "
		 "\"%%s %%x\", args->filename, args->flags", path);
	ck_assert_int_eq(trace_child(args, do_opens, 1, out, sizeof(out),
				     &child), 0);
	unlink(path);
	ck_assert_msg(!strncmp(out, "PID     TID     COMM            FUNC   "
			       "          -\n", 51), "header: %.200s", out);
	snprintf(want, sizeof(want), " sys_enter_openat %s 0", path);
	ck_assert_msg(count_suffix(out, want) == N_RD, "%d of '%s' for %d:\n%s",
		      count_suffix(out, want), want, N_RD, out);
	snprintf(want, sizeof(want), " sys_enter_openat %s 241", path);
	ck_assert_msg(count_suffix(out, want) == N_WR, "%d of '%s':\n%s",
		      count_suffix(out, want), want, out);
	ck_assert_msg(count_suffix(out, " sys_enter_openat creat -100 241") ==
		      N_WR, "%s", out);
	ck_assert_msg(count_suffix(out, " sys_exit_openat  ret=-2") == N_BAD,
		      "%s", out);
	/* every event is one of those, by the child */
	ck_assert_int_eq(count_lines(out), 1 + N_RD + 2 * N_WR + N_BAD);
	snprintf(want, sizeof(want), "\n%-7d %-7d bbtrace-child   sys_",
		 (int)child, (int)child);
	{
		const char *l = out;
		int n = 0;

		while ((l = strstr(l, want))) {
			n++;
			l++;
		}
		ck_assert_msg(n == count_lines(out) - 1, "%d lines by the "
			      "child:\n%s", n, out);
	}
}
END_TEST

/* dfd as the format declares it: "int" (in 8 bytes), or NULL */
static const char *dfd_type(char *buf, size_t len)
{
	char tfs[256], p[320], fmt[4096];
	const char *f;
	FILE *fp;
	size_t n;

	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return NULL;
	snprintf(p, sizeof(p), "%s/events/syscalls/sys_enter_openat/format",
		 tfs);
	fp = fopen(p, "r");
	if (!fp)
		return NULL;
	n = fread(fmt, 1, sizeof(fmt) - 1, fp);
	fclose(fp);
	fmt[n] = 0;
	f = strstr(fmt, "field:");
	for (; f; f = strstr(f + 1, "field:"))
		if (len > 64 && sscanf(f, "field:%63[^;];", buf) == 1 &&
		    strlen(buf) > 4 && !strcmp(buf + strlen(buf) - 4, " dfd")) {
			buf[strlen(buf) - 4] = 0;
			return buf;
		}
	return NULL;
}

/*
 * Numbers compared as C compares them: an int dfd (AT_FDCWD, -100) is
 * converted to long against 4294967196 and -4294967396 (never equal), to
 * unsigned int against 0xffffff9c (equal), and is greater than INT64_MIN.
 */
START_TEST(test_trace_filter_constants)
{
	static char out[1 << 20];
	const char *args[] = {
		"t:syscalls:sys_enter_openat (args->dfd == 4294967196) "
		"\"big %d\", args->dfd",
		"t:syscalls:sys_enter_openat (args->dfd == -4294967396) "
		"\"neg %d\", args->dfd",
		"t:syscalls:sys_enter_openat (args->dfd > "
		"-9223372036854775808) \"min %d\", args->dfd",
		"t:syscalls:sys_enter_openat (args->dfd == 0xffffff9c) "
		"\"hex %d\", args->dfd", NULL };
	const int all = N_WR + 2 * N_RD + N_BAD;
	char type[80];
	pid_t child;

	if (!dfd_type(type, sizeof(type)) || strcmp(type, "int"))
		bbtest_skip("sys_enter_openat's dfd is not declared int here "
			    "(%s)", dfd_type(type, sizeof(type)) ? type : "?");
	snprintf(path, sizeof(path), "/tmp/bbtrace-%d", (int)getpid());
	snprintf(missing, sizeof(missing), "/tmp/bbtrace-missing-%d",
		 (int)getpid());
	ck_assert_int_eq(trace_child(args, do_opens, 1, out, sizeof(out),
				     &child), 0);
	unlink(path);
	ck_assert_msg(count_suffix(out, " sys_enter_openat big -100") == 0,
		      "%s", out);
	ck_assert_msg(count_suffix(out, " sys_enter_openat neg -100") == 0,
		      "%s", out);
	ck_assert_msg(count_suffix(out, " sys_enter_openat min -100") == all,
		      "%d of %d:\n%s", count_suffix(out, " sys_enter_openat "
		      "min -100"), all, out);
	ck_assert_msg(count_suffix(out, " sys_enter_openat hex -100") == all,
		      "%s", out);
	ck_assert_int_eq(count_lines(out), 1 + 2 * all);
}
END_TEST

static void do_getppid(void)
{
	int i;

	for (i = 0; i < N_CALLS; i++)
		syscall(SYS_getppid);
}

/* A return value and the ids of the caller, exactly. */
START_TEST(test_trace_getppid_ret_and_ids)
{
	static char out[1 << 20];
	const char *args[] = { "-T",
		"t:syscalls:sys_exit_getppid \"ppid=%d\", args->ret",
		"t:syscalls:sys_enter_getppid \"%d %d %u %u\", $pid, $tgid, "
		"$uid, $gid", NULL };
	char want[128];
	pid_t child;

	ck_assert_int_eq(trace_child(args, do_getppid, 1, out, sizeof(out),
				     &child), 0);
	ck_assert_msg(!strncmp(out, "TIME     PID     TID     COMM", 28),
		      "header: %.200s", out);
	snprintf(want, sizeof(want), " sys_exit_getppid ppid=%d",
		 (int)getpid());
	ck_assert_msg(count_suffix(out, want) == N_CALLS, "'%s':\n%s", want,
		      out);
	snprintf(want, sizeof(want), " sys_enter_getppid %d %d %u %u",
		 (int)child, (int)child, (unsigned)getuid(),
		 (unsigned)getgid());
	ck_assert_msg(count_suffix(out, want) == N_CALLS, "'%s':\n%s", want,
		      out);
	ck_assert_int_eq(count_lines(out), 1 + 2 * N_CALLS);
	/* -T: HH:MM:SS first */
	ck_assert_msg(out[strchr(out, '\n') - out + 3] == ':' &&
		      out[strchr(out, '\n') - out + 6] == ':', "%s", out);
}
END_TEST

/* -j -t: the message and its values as JSON, seconds since the start. */
START_TEST(test_trace_json_args)
{
	static char out[1 << 20];
	const char *args[] = { "-j", "-t", "-M", "3",
		"t:syscalls:sys_exit_getppid \"ppid=%d %x\", args->ret, "
		"args->ret", NULL };
	char want[160], tail[128];
	pid_t child;
	const char *l;
	int n = 0;

	ck_assert_int_eq(trace_child(args, do_getppid, 1, out, sizeof(out),
				     &child), 0);
	snprintf(want, sizeof(want), "{\"pid\":%d,\"tid\":%d,\"comm\":"
		 "\"bbtrace-child\",\"func\":\"sys_exit_getppid\",\"ts\":",
		 (int)child, (int)child);
	snprintf(tail, sizeof(tail), ",\"msg\":\"ppid=%d %x\",\"args\":[%d,%d]}\n",
		 (int)getpid(), (int)getpid(), (int)getpid(), (int)getpid());
	for (l = out; (l = strstr(l, want)); l++) {
		const char *eol = strchr(l, '\n');
		char *end;
		double ts = strtod(l + strlen(want), &end);

		ck_assert_msg(ts >= 0 && ts < 60, "%s", l);
		ck_assert_ptr_nonnull(eol);
		ck_assert_msg(!strncmp(end, tail, strlen(tail)) &&
			      end + strlen(tail) == eol + 1, "%s", l);
		n++;
	}
	ck_assert_msg(n == 3, "-M 3: %d events:\n%s", n, out);
	ck_assert_int_eq(count_lines(out), 3);
}
END_TEST

static void do_execs(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		pid_t p = fork();

		if (!p) {
			execl(link_path, link_path, (char *)NULL);
			_exit(127);
		}
		waitpid(p, NULL, 0);
	}
}

/* A __data_loc string: the file name sched_process_exec records. */
START_TEST(test_trace_exec_data_loc)
{
	static char out[1 << 20];
	char probe[200], want[100];
	const char *args[] = { probe, NULL };
	pid_t child;

	snprintf(link_path, sizeof(link_path), "/tmp/bbtrace-true-%d",
		 (int)getpid());
	unlink(link_path);
	ck_assert_int_eq(symlink("/bin/true", link_path), 0);
	snprintf(probe, sizeof(probe), "t:sched:sched_process_exec "
		 "(STRCMP(\"%s\", args->filename)) \"%%s\", args->filename",
		 link_path);
	ck_assert_int_eq(trace_child(args, do_execs, 0, out, sizeof(out),
				     &child), 0);
	unlink(link_path);
	snprintf(want, sizeof(want), " sched_process_exec %s", link_path);
	ck_assert_msg(count_suffix(out, want) == 3, "%s", out);
	ck_assert_int_eq(count_lines(out), 4);
}
END_TEST

static void do_sleeps(void)
{
	int i;

	for (i = 0; i < 5; i++)
		usleep(2000);
}

/* A char array read in place: the name of the task switched out. */
START_TEST(test_trace_switch_char_array)
{
	static char out[1 << 20];
	const char *args[] = { "t:sched:sched_switch \"[%s]\", args->prev_comm",
			       NULL };
	pid_t child;
	int n;

	ck_assert_int_eq(trace_child(args, do_sleeps, 1, out, sizeof(out),
				     &child), 0);
	n = count_suffix(out, " sched_switch     [bbtrace-child]");
	ck_assert_msg(n >= 5 && n == count_lines(out) - 1, "%d:\n%s", n, out);
}
END_TEST

/* Refusals at start: the message names the field; exit 1, no output. */
START_TEST(test_trace_args_refused)
{
	static const char *const cases[][2] = {
		{ "t:syscalls:sys_enter_openat \"%d\", args->fname",
		  "'args->fname': tracepoint syscalls:sys_enter_openat has no "
		  "field fname on this kernel (its fields: __syscall_nr, dfd, "
		  "filename, flags, mode)" },
		{ "t:syscalls:sys_enter_openat \"%s\", args->__syscall_nr",
		  "'args->__syscall_nr': a number, not a pointer" },
		{ "t:syscalls:sys_enter_openat \"%d\", arg1", "'arg1': a "
		  "tracepoint has fields, not arguments: args->NAME" },
		{ "t:syscalls:sys_enter_openat (arg1 ||)", "')': expected a "
		  "value here" },
	};
	char out[4096], err[4096];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { (char *)barebpf(), "trace",
				 (char *)cases[i][0], NULL };

		ck_assert_int_eq(run(argv, out, sizeof(out), err,
				     sizeof(err)), 1);
		ck_assert_msg(strstr(err, cases[i][1]), "'%s': %s",
			      cases[i][0], err);
		ck_assert_str_eq(out, "");
	}
}
END_TEST

static const char *need_syscall_tracepoints(void)
{
	const char *why = need_root_and_tools();
	char tfs[256], p[300];

	if (why)
		return why;
	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return "no tracefs";
	snprintf(p, sizeof(p), "%s/events/syscalls/sys_enter_openat", tfs);
	if (access(p, F_OK))
		return "no syscalls tracepoints (CONFIG_FTRACE_SYSCALLS)";
	return NULL;
}

static Suite *trace_args_suite(void)
{
	Suite *s = suite_create("trace_args");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_trace_openat_args);
	tcase_add_test(tc, test_trace_filter_constants);
	tcase_add_test(tc, test_trace_getppid_ret_and_ids);
	tcase_add_test(tc, test_trace_json_args);
	tcase_add_test(tc, test_trace_exec_data_loc);
	tcase_add_test(tc, test_trace_switch_char_array);
	tcase_add_test(tc, test_trace_args_refused);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_args, trace_args_suite, need_syscall_tracepoints)
