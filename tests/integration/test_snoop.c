/* SPDX-License-Identifier: MIT */
/*
 * execsnoop and opensnoop on this machine's kernel (its syscall
 * tracepoints), run as a user would: a known script makes N execs (and
 * one that fails) or N opens of a known path (and of a missing one), and
 * the tools must print exactly those, with their parent, arguments, fd
 * and error. Other processes on the machine exec and open too: every
 * check is on a marker only this test uses.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "jsoncheck.h"
#include "kernel.h"
#include "probe.h"

#define OUT_MAX (1 << 20)
#define N_EXEC 7
#define N_OPEN 9

static char out[OUT_MAX], err[65536];

/* Start a tool; returns once it says "Tracing" (stdout, or stderr). */
static void start_tool(struct proc *pr, char **argv, int on_err)
{
	char *first = on_err ? err : out;

	spawn(pr, argv);
	read_until(on_err ? pr->err : pr->out, first, 4096, "Tracing", 20000);
	ck_assert_msg(strstr(first, "Tracing"), "%s did not start: %s",
		      argv[1], first);
	(on_err ? out : err)[0] = 0;
}

/* Send sig (0: it exits by itself); all its output in out, err. */
static int stop_tool(struct proc *pr, int sig)
{
	if (sig)
		kill(pr->pid, sig);
	size_t o = strlen(out), e = strlen(err);

	read_until(pr->out, out + o, sizeof(out) - o, NULL, 30000);
	read_until(pr->err, err + e, sizeof(err) - e, NULL, 5000);
	close(pr->out);
	close(pr->err);
	return wait_exit(pr->pid);
}

/* Run a script (sh -c text) to completion; its pid. */
static pid_t run_script(const char *text)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		execl("/bin/sh", "sh", "-c", text, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	return pid;
}

/* The lines of out that hold marker, in lines[] (at most max). */
static int lines_with(char *text, const char *marker, char **lines, int max)
{
	int n = 0;
	char *l, *save = NULL;

	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (strstr(l, marker) && n < max)
			lines[n++] = l;
	return n;
}

static void no_losses(const char *tool, const char *what)
{
	char want[128];

	snprintf(want, sizeof(want), "barebpf %s: ", tool);
	ck_assert_msg(strstr(err, want), "no summary: %s", err);
	snprintf(want, sizeof(want), " %s printed, 0 lost", what);
	ck_assert_msg(strstr(err, want), "records lost: %s", err);
}

/*
 * execsnoop -x: the script's N execs of /bin/echo, each with the script
 * as parent (a fork seen while tracing) and its arguments, and its
 * failed exec of a missing file with -2 (ENOENT) in RET.
 */
START_TEST(test_execsnoop_text)
{
	char marker[64], script[512], want[256], *lines[64];
	char *argv[] = { (char *)barebpf(), "execsnoop", "-x", "-l", marker,
			 NULL };
	struct proc pr;
	pid_t sp;
	int n, i, k, ok = 0, failed = 0, seen[N_EXEC] = { 0 };

	/* the script's own text spells the marker with quotes, so that its
	 * exec does not match */
	snprintf(marker, sizeof(marker), "bbx%dm", (int)getpid());
	snprintf(script, sizeof(script),
		 "i=0; while [ $i -lt %d ]; do /bin/echo bbx%d\"m\"-$i "
		 "'two words' >/dev/null; i=$((i + 1)); done; "
		 "/nonexistent/bbx%d\"m\" x 2>/dev/null; exit 0", N_EXEC,
		 (int)getpid(), (int)getpid());
	start_tool(&pr, argv, 0);
	sp = run_script(script);
	usleep(300000);
	ck_assert_int_eq(stop_tool(&pr, SIGINT), 0);
	ck_assert_msg(strstr(out, "PCOMM            PID     PPID    RET ARGS"),
		      "no bcc header: %s", out);
	n = lines_with(out, marker, lines, 64);
	for (i = 0; i < n; i++) {
		char comm[32], args[256];
		int pid, ppid, ret;

		ck_assert_msg(sscanf(lines[i], "%31s %d %d %d %255[^\n]", comm,
				     &pid, &ppid, &ret, args) == 5,
			      "bad line: %s", lines[i]);
		if (ret == 0) {
			/* each once, in any order: the rings are read one
			 * CPU after the other */
			for (k = 0; k < N_EXEC; k++) {
				snprintf(want, sizeof(want), "/bin/echo %s-%d "
					 "two words", marker, k);
				if (!strcmp(args, want))
					break;
			}
			ck_assert_msg(k < N_EXEC && !seen[k] &&
				      !strcmp(comm, "echo") && ppid == sp,
				      "exec: '%s' (want echo, PPID %d, "
				      "'/bin/echo %s-N two words' once each)",
				      lines[i], (int)sp, marker);
			seen[k] = 1;
			ok++;
		} else {
			snprintf(want, sizeof(want), "/nonexistent/%s x",
				 marker);
			/* sh forks, and the child's exec fails */
			ck_assert_msg(ret == -2 && ppid == sp &&
				      !strcmp(comm, "sh") && !strcmp(args, want),
				      "failed exec: '%s' (want sh, PPID %d, RET -2, "
				      "'%s')", lines[i], (int)sp, want);
			failed++;
		}
	}
	ck_assert_msg(ok == N_EXEC, "%d execs of echo, expected %d:\n%s", ok,
		      N_EXEC, out);
	ck_assert_int_eq(failed, 1);
	no_losses("execsnoop", "execs");
}
END_TEST

/*
 * -j, -q, --max-args, a count (-M) and a process forked before the run:
 * its parent must come from /proc ("ppid_from":"proc"), the others' from
 * the fork.
 */
START_TEST(test_execsnoop_json)
{
	char marker[64], script[512], pre[128], *lines[64], ppid[64];
	char *argv[] = { (char *)barebpf(), "execsnoop", "-j", "-l", marker,
			 "--max-args", "3", "-M", "4", NULL };
	struct proc pr;
	pid_t early, sp;
	int n, i, go[2], early_seen = 0, echoes = 0;

	snprintf(marker, sizeof(marker), "bbj%dm", (int)getpid());
	/* forked now, execs once the tool traces */
	snprintf(pre, sizeof(pre), "sleep 0.5 # %s-early", marker);
	ck_assert_int_eq(pipe(go), 0);
	early = fork();
	ck_assert_int_ge(early, 0);
	if (!early) {
		char c;
		int null = open("/dev/null", O_WRONLY);

		close(go[1]);
		dup2(null, 1);
		if (read(go[0], &c, 1) == 1)
			execl("/bin/sh", "sh", "-c", pre, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	start_tool(&pr, argv, 1);
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	close(go[1]);
	ck_assert_int_eq(wait_exit(early), 0);
	snprintf(script, sizeof(script),
		 "for i in 1 2 3 4 5; do /bin/echo bbj%d\"m\"-$i a b c d "
		 ">/dev/null; done", (int)getpid());
	sp = run_script(script);
	/* -M 4: it exits by itself */
	ck_assert_int_eq(stop_tool(&pr, 0), 0);
	n = lines_with(out, marker, lines, 64);
	ck_assert_msg(n == 4, "%d lines, expected 4 (-M 4):\n%s", n, out);
	/*
	 * The rings are read one CPU after the other, so the lines come in
	 * any order, and -M 4 prints whichever 4 execs it reads first: the
	 * early one once, and 3 distinct echoes of the script.
	 */
	for (i = 0; i < 4; i++) {
		char want[128];
		int k, found = 0;

		if (strstr(lines[i], "-early\"],")) {
			snprintf(ppid, sizeof(ppid),
				 "\"ppid\":%d,\"ppid_from\":\"proc\"",
				 (int)getpid());
			ck_assert_msg(!early_seen++ && strstr(lines[i], ppid) &&
				      strstr(lines[i], "-early\"],\"truncated\""
					     ":false"),
				      "the early exec: %s (want %s, once)",
				      lines[i], ppid);
			continue;
		}
		snprintf(ppid, sizeof(ppid), "\"ppid\":%d,\"ppid_from\":\"fork\"",
			 (int)sp);
		for (k = 1; k <= 5 && !found; k++) {
			snprintf(want, sizeof(want), "\"args\":[\"/bin/echo\","
				 "\"%s-%d\",\"a\"],\"truncated\":true}",
				 marker, k);
			if (strstr(lines[i], want)) {
				found = k;
				ck_assert_msg(!(echoes & (1 << k)),
					      "exec %d twice: %s", k, out);
				echoes |= 1 << k;
			}
		}
		ck_assert_msg(found && strstr(lines[i], ppid) &&
			      strstr(lines[i], "\"comm\":\"echo\""),
			      "line %d: %s (want %s and an echo of the script)",
			      i, lines[i], ppid);
	}
	ck_assert_msg(early_seen == 1, "no early exec:\n%s", out);
	ck_assert_msg(strstr(err, "4 execs printed"), "%s", err);
}
END_TEST

START_TEST(test_execsnoop_bad_arguments)
{
	char o[4096], e[4096];
	char *a1[] = { (char *)barebpf(), "execsnoop", "--max-args", "21",
		       NULL };
	char *a2[] = { (char *)barebpf(), "execsnoop", "-n", "(", NULL };
	char *a3[] = { (char *)barebpf(), "execsnoop", "-u", "no-such-user-x",
		       NULL };

	ck_assert_int_ne(run(a1, o, sizeof(o), e, sizeof(e)), 0);
	ck_assert_msg(strstr(e, "--max-args '21': give 1 to 20"), "%s", e);
	ck_assert_int_ne(run(a2, o, sizeof(o), e, sizeof(e)), 0);
	ck_assert_msg(strstr(e, "regular expression"), "%s", e);
	ck_assert_int_ne(run(a3, o, sizeof(o), e, sizeof(e)), 0);
	ck_assert_msg(strstr(e, "no-such-user-x"), "%s", e);
}
END_TEST

/*
 * opensnoop -p (this process): its N opens of a known file with their fd,
 * and one of a missing path with FD -1 and ERR 2 (ENOENT).
 */
START_TEST(test_opensnoop_text)
{
	char pid[32], path[128], missing[128], want[256], *lines[64];
	char *argv[] = { (char *)barebpf(), "opensnoop", "-p", pid, NULL };
	struct proc pr;
	int i, n, fd = -1;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(path, sizeof(path), "/tmp/bbopen-%d", (int)getpid());
	snprintf(missing, sizeof(missing), "/nonexistent/bbopen-%d",
		 (int)getpid());
	close(open(path, O_WRONLY | O_CREAT, 0600));
	start_tool(&pr, argv, 0);
	for (i = 0; i < N_OPEN; i++) {
		fd = open(path, O_RDONLY);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	ck_assert_int_lt(open(missing, O_RDONLY), 0);
	usleep(300000);
	ck_assert_int_eq(stop_tool(&pr, SIGINT), 0);
	unlink(path);
	ck_assert_msg(strstr(out, "PID    COMM               FD ERR PATH\n"),
		      "no bcc header: %s", out);
	n = lines_with(out, path + 4, lines, 64);
	ck_assert_msg(n == N_OPEN + 1, "%d lines for %d opens:\n%s", n,
		      N_OPEN + 1, out);
	snprintf(want, sizeof(want), "%-6s ", pid);
	for (i = 0; i < n; i++) {
		char comm[32], p[256];
		int fdp, errp;

		ck_assert_msg(!strncmp(lines[i], want, strlen(want)) &&
			      sscanf(lines[i] + 7, "%31s %d %d %255s", comm,
				     &fdp, &errp, p) == 4,
			      "bad line: %s", lines[i]);
		if (i < N_OPEN)
			ck_assert_msg(fdp == fd && errp == 0 &&
				      !strcmp(p, path), "open %d: %s (want fd "
				      "%d, %s)", i, lines[i], fd, path);
		else
			ck_assert_msg(fdp == -1 && errp == 2 &&
				      !strcmp(p, missing), "missing: %s",
				      lines[i]);
	}
	no_losses("opensnoop", "opens");
}
END_TEST

/* -j -e -f O_WRONLY -d 2: only the opens for writing, with their flags;
 * it exits by itself. */
START_TEST(test_opensnoop_json_flags)
{
	char pid[32], path[128], want[256], *lines[64];
	char *argv[] = { (char *)barebpf(), "opensnoop", "-j", "-e", "-p",
			 pid, "-f", "O_WRONLY", "-d", "2", NULL };
	struct proc pr;
	int i, n, fd;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(path, sizeof(path), "/tmp/bbopenw-%d", (int)getpid());
	start_tool(&pr, argv, 1);
	for (i = 0; i < 2 * N_OPEN; i++) {
		fd = open(path, i % 2 ? O_RDONLY : O_WRONLY | O_CREAT, 0600);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	ck_assert_int_eq(stop_tool(&pr, 0), 0);
	unlink(path);
	n = lines_with(out, path, lines, 64);
	ck_assert_msg(n == N_OPEN, "%d lines for %d opens for writing:\n%s",
		      n, N_OPEN, out);
	snprintf(want, sizeof(want), "\"err\":0,\"flags\":%d,\"path\":\"%s\"}",
		 O_WRONLY | O_CREAT, path);
	for (i = 0; i < n; i++)
		ck_assert_msg(strstr(lines[i], want), "%s (want %s)", lines[i],
			      want);
	no_losses("opensnoop", "opens");
}
END_TEST

/*
 * A path is the process' to choose: one holding a newline and ESC must
 * not forge a line of its own nor reach the terminal raw (issue 20).
 * Text: exactly one line for the open, the newline as \n and ESC as \x1b,
 * a backslash as \\ and U+202E as \u{202e} (issue 32).
 */
START_TEST(test_opensnoop_escapes)
{
	char pid[32], dir[64], etc[80], path[160], want[256], *lines[64];
	char *argv[] = { (char *)barebpf(), "opensnoop", "-p", pid, NULL };
	struct proc pr;
	int fd, n;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	/* the directories of the forged line: "/tmp/bbesc-N\n12345 ..." */
	snprintf(dir, sizeof(dir), "/tmp/bbesc-%d\n12345  fake   3   0 ",
		 (int)getpid());
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	/* and a backslash with an n after it, and U+202E (right-to-left
	 * override): \\n, not a newline's escape; \u{202e}, not raw */
	snprintf(path, sizeof(path), "%s/shadow\033[31m\\n\xe2\x80\xae", etc);
	ck_assert_int_eq(mkdir(dir, 0700) | mkdir(etc, 0700), 0);
	start_tool(&pr, argv, 0);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	usleep(300000);
	ck_assert_int_eq(stop_tool(&pr, SIGINT), 0);
	unlink(path);
	rmdir(etc);
	rmdir(dir);
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in the output:\n%s", out);
	ck_assert_msg(!strstr(out, "\xe2\x80\xae"), "a raw U+202E in:\n%s", out);
	snprintf(want, sizeof(want), "/tmp/bbesc-%d\\n12345  fake   3   0 "
		 "/etc/shadow\\x1b[31m\\\\n\\u{202e}\n", (int)getpid());
	ck_assert_msg(strstr(out, want), "no escaped path '%s' in:\n%s", want,
		      out);
	n = lines_with(out, "12345  fake", lines, 64);
	ck_assert_msg(n == 1 && strstr(lines[0], "/tmp/bbesc-"),
		      "%d lines hold the path's second half:\n%s", n, out);
	no_losses("opensnoop", "opens");
}
END_TEST

/*
 * execsnoop -j with an argument holding 0xff (not UTF-8) and ESC: every
 * line a valid JSON text (strict UTF-8), the bytes escaped as \u00NN.
 */
START_TEST(test_execsnoop_json_escapes)
{
	char marker[64], arg[128], *lines[64], *l, *save = NULL;
	char *argv[] = { (char *)barebpf(), "execsnoop", "-j", "-l", marker,
			 NULL };
	struct proc pr;
	pid_t pid;
	int n = 0;

	snprintf(marker, sizeof(marker), "bbesc%dm", (int)getpid());
	snprintf(arg, sizeof(arg), "%s\377\033[31mx", marker);
	start_tool(&pr, argv, 1);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/bin/echo", "echo", arg, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	usleep(300000);
	ck_assert_int_eq(stop_tool(&pr, SIGINT), 0);
	ck_assert_msg(!strchr(out, '\033'), "a raw ESC in the output:\n%s", out);
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(!json_check(l, strlen(l)), "not JSON: %s", l);
		if (strstr(l, marker) && n < 64)
			lines[n++] = l;
	}
	ck_assert_msg(n == 1, "%d lines for the exec", n);
	snprintf(arg, sizeof(arg), "\"%s\\u00ff\\u001b[31mx\"", marker);
	ck_assert_msg(strstr(lines[0], arg), "%s (want %s)", lines[0], arg);
}
END_TEST

/*
 * -l matches the raw bytes of the arguments, as bcc's does, not their
 * escaped text: an argument holding ESC and a backslash is found by a
 * pattern holding those bytes (a regex: "\\[" and "\\\\" for '[' and '\'),
 * and a pattern of the escaped text ("\x1b", "\\") finds nothing.
 */
START_TEST(test_execsnoop_line_raw)
{
	char marker[64], arg[128], raw[128], esc[128];
	char *ra[] = { (char *)barebpf(), "execsnoop", "-l", raw, NULL };
	char *ea[] = { (char *)barebpf(), "execsnoop", "-l", esc, NULL };
	struct proc pr, pe;
	pid_t pid;

	snprintf(marker, sizeof(marker), "bbraw%dm", (int)getpid());
	snprintf(arg, sizeof(arg), "%s\033[1m\\q", marker);
	snprintf(raw, sizeof(raw), "%s\033\\[1m\\\\q", marker);
	snprintf(esc, sizeof(esc), "%s\\\\x1b\\[1m\\\\\\\\q", marker);
	start_tool(&pe, ea, 0);
	start_tool(&pr, ra, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/bin/echo", "echo", arg, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	usleep(300000);
	ck_assert_int_eq(stop_tool(&pr, SIGINT), 0);
	/* the escaped line: what a pattern of the escaped text would match */
	snprintf(arg, sizeof(arg), "%s\\x1b[1m\\\\q", marker);
	ck_assert_msg(strstr(out, arg), "the raw pattern missed the exec "
		      "(want a line with %s):\n%s", arg, out);
	out[0] = err[0] = 0;
	ck_assert_int_eq(stop_tool(&pe, SIGINT), 0);
	ck_assert_msg(!strstr(out, marker), "a pattern of the escaped text "
		      "matched:\n%s", out);
}
END_TEST

START_TEST(test_opensnoop_bad_arguments)
{
	char o[4096], e[4096];
	char *a1[] = { (char *)barebpf(), "opensnoop", "-f", "O_NOPE", NULL };
	char *a2[] = { (char *)barebpf(), "opensnoop", "-p", "x", NULL };

	ck_assert_int_ne(run(a1, o, sizeof(o), e, sizeof(e)), 0);
	ck_assert_msg(strstr(e, "-f 'O_NOPE': not a flag"), "%s", e);
	ck_assert_int_ne(run(a2, o, sizeof(o), e, sizeof(e)), 0);
	ck_assert_msg(strstr(e, "-p 'x'"), "%s", e);
}
END_TEST

/*
 * BAREBPF_SYSCALLS=kprobes forces the fallback: on a kernel without
 * kprobes (this one) the tools must say so and fail; with kprobes, run.
 */
START_TEST(test_snoop_forced_kprobes)
{
	static const char *const tools[] = { "execsnoop", "opensnoop" };
	char o[4096], e[4096], tfs[256];
	int i, rc;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	setenv("BAREBPF_SYSCALLS", "kprobes", 1);
	for (i = 0; i < 2; i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i],
				 "--duration", "1", NULL };

		rc = run(argv, o, sizeof(o), e, sizeof(e));
		if (kprobes_available(tfs)) {
			ck_assert_msg(rc == 0 && strstr(o, "through kprobes"),
				      "%s: exit %d: %s", tools[i], rc, e);
			continue;
		}
		ck_assert_msg(rc != 0 && strstr(e, "no kprobe_events"),
			      "%s: exit %d: %s", tools[i], rc, e);
	}
	unsetenv("BAREBPF_SYSCALLS");
}
END_TEST

static Suite *snoop_suite(void)
{
	Suite *s = suite_create("snoop");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_execsnoop_text);
	tcase_add_test(tc, test_execsnoop_json);
	tcase_add_test(tc, test_execsnoop_bad_arguments);
	tcase_add_test(tc, test_opensnoop_text);
	tcase_add_test(tc, test_opensnoop_json_flags);
	tcase_add_test(tc, test_opensnoop_bad_arguments);
	tcase_add_test(tc, test_opensnoop_escapes);
	tcase_add_test(tc, test_execsnoop_json_escapes);
	tcase_add_test(tc, test_execsnoop_line_raw);
	tcase_add_test(tc, test_snoop_forced_kprobes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(snoop, snoop_suite, need_root_and_tools)
