/* SPDX-License-Identifier: MIT */
/*
 * What a careless or hostile user tries (issue 24): a closed stdout, bad
 * options and constants, an early failure after tracefs was mounted, an
 * unprivileged user. Each checks the exit status (0, 1 or 2, never a
 * -errno) and what is said.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"
#include "barebpf.h"
#include "kernel.h"
#include "probe.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"

static const char *hostile_requires(void)
{
	return need_root_and_tools();
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* A tool run by the shell with stdout closed: refused at start, with the
 * fix (issue 32: /dev/null used to take fd 1, and the run exited 0 having
 * printed nothing anywhere). */
START_TEST(test_closed_stdout)
{
	static const char *const cmds[] = {
		"features",
		"funccount -d 1 t:syscalls:sys_enter_getppid",
		"biolatency 1 1",
		"trace -d 1 t:syscalls:sys_enter_getppid",
		"profile -f 1",
		"--help",
	};
	char cmd[512], out[4096];
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "{ '%s' %s >&- ; } 2>&1; echo \"rc=$?\"", barebpf(),
			 cmds[i]);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		ck_assert_msg(strstr(out, "rc=1") &&
			      strstr(out, "standard output is closed") &&
			      strstr(out, ">/dev/null to discard"),
			      "%s with stdout closed: %s", cmds[i], out);
	}
}
END_TEST

/* Exit statuses are 0, 1 or 2: `run -c nosuch=1` exited 254 (-ENOENT). */
START_TEST(test_exit_status_const)
{
	char *argv[] = { (char *)barebpf(), "run", "-c", "nosuch=1",
			 OBJDIR "good_tp.bpf.o", NULL };
	char out[4096], err[4096];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	char *unset[] = { (char *)barebpf(), "run", "-d", "1",
			  OBJDIR "maps_iproute2_old.bpf.o", NULL };

	ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
	ck_assert_ptr_nonnull(strstr(err, "barebpf run: "));
	ck_assert_ptr_nonnull(strstr(err, "'nosuch'"));
	/* a constant not given: the option to give it, no function name */
	rc = run(unset, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "`barebpf run -c bb_tgid=VALUE`")
		      && !strstr(err, "obj_"), "exit %d: %s", rc, err);
}
END_TEST

/* An error quotes the user's input: a path with ESC and a byte that is not
 * UTF-8 reaches the terminal escaped, not as a control sequence. */
START_TEST(test_error_quotes_escaped)
{
	char *argv[] = { (char *)barebpf(), "trace",
			 "p:/tmp/bbtest-\033[2J-\xff:f", NULL };
	char out[4096], err[4096];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
	ck_assert_msg(!strchr(err, '\033') && !strchr(err, '\xff'),
		      "raw ESC or 0xff in: %s", err);
	ck_assert_msg(strstr(err, "bbtest-\\x1b[2J-\\xff:f"), "%s", err);
	ck_assert_msg(strstr(err, "barebpf trace: ") == err &&
		      err[strlen(err) - 1] == '\n', "%s", err);
}
END_TEST

/* BAREBPF_RING_PAGES: a size the kernel would refuse is named, with the
 * fix, before anything is attached; a good one runs. */
START_TEST(test_ring_pages_env)
{
	char *argv[] = { (char *)barebpf(), "opensnoop", "-d", "1", NULL };
	char out[4096], err[4096];
	int rc;

	setenv("BAREBPF_RING_PAGES", "3", 1);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	setenv("BAREBPF_RING_PAGES", "8", 1);
	ck_assert_msg(rc == 1 && strstr(err, "BAREBPF_RING_PAGES=3: give pages "
					"per CPU, a power of two"),
		      "exit %d: %s", rc, err);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	unsetenv("BAREBPF_RING_PAGES");
	ck_assert_msg(rc == 0, "exit %d with 8 pages: %s", rc, err);
}
END_TEST

/* An unknown option: the error and one line to --help, prefixed like
 * every message ("barebpf TOOL:"), not the 40 lines of the help. */
START_TEST(test_unknown_option)
{
	static const char *const tools[] = { "biolatency", "trace",
					     "funccount", "exporter", "run" };
	char out[8192], err[8192], want[64];
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char *argv[] = { (char *)barebpf(), (char *)tools[i],
				 "--no-such-option", NULL };
		int rc = run(argv, out, sizeof(out), err, sizeof(err));

		ck_assert_msg(rc == 1 || rc == 2, "%s: exit %d", tools[i], rc);
		snprintf(want, sizeof(want), "barebpf %s: unrecognized",
			 tools[i]);
		ck_assert_msg(!strncmp(err, want, strlen(want)), "%s: %s",
			      tools[i], err);
		ck_assert_msg(lines(err) == 2 && strstr(err, "--help`"),
			      "%s: %s", tools[i], err);
		ck_assert_msg(!out[0], "%s printed to stdout: %s", tools[i],
			      out);
	}
}
END_TEST

/* A missing argument too: one line to --help, not the help. */
START_TEST(test_missing_argument)
{
	char *argv[] = { (char *)barebpf(), "funccount", NULL };
	char out[8192], err[8192];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_int_eq(rc, 1);
	ck_assert_msg(lines(err) == 2 && !strstr(err, "usage:") &&
		      strstr(err, "barebpf funccount: a pattern is needed"),
		      "%s", err);
}
END_TEST

/* The tool links (build/biolatency) answer --version as barebpf does. */
START_TEST(test_link_version)
{
	char link[4096], out[256], err[4096];
	char *argv[] = { link, "--version", NULL };
	const char *slash = strrchr(barebpf(), '/');
	int rc;

	ck_assert_ptr_nonnull(slash);
	snprintf(link, sizeof(link), "%.*s/biolatency",
		 (int)(slash - barebpf()), barebpf());
	ck_assert_int_eq(access(link, X_OK), 0);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 0 && !strncmp(out, "barebpf ", 8), "exit %d: %s%s",
		      rc, out, err);
}
END_TEST

/*
 * funccount failing early (a tracepoint pattern that matches nothing)
 * after mounting tracefs unmounts it again: in a private mount namespace
 * of this forked test, with tracefs unmounted first.
 */
START_TEST(test_early_failure_unmounts)
{
	char *argv[] = { (char *)barebpf(), "funccount", "-d", "1",
			 "t:nosuch:*", NULL };
	char out[4096], err[4096];
	struct stat st;
	int rc;

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	umount2("/sys/kernel/debug/tracing", MNT_DETACH);
	umount2("/sys/kernel/debug", MNT_DETACH);
	umount2("/sys/kernel/tracing", MNT_DETACH);
	ck_assert_int_ne(stat("/sys/kernel/tracing/events", &st), 0);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "nosuch"), "exit %d: %s", rc,
		      err);
	ck_assert_msg(stat("/sys/kernel/tracing/events", &st) != 0 &&
		      stat("/sys/kernel/debug/tracing/events", &st) != 0,
		      "tracefs left mounted after: %s", err);
}
END_TEST

/* Run argv as nobody (65534): the exit status, stderr in err. */
static int run_unprivileged(char *const argv[], char *err, size_t len)
{
	char *full[16] = { "setpriv", "--reuid=65534", "--regid=65534",
			   "--clear-groups" };
	char out[4096], path[64] = "";
	int i;

	if (sh("command -v setpriv", path, sizeof(path)) || !path[0])
		return -1;
	full[0] = path;
	for (i = 0; argv[i] && i < 10; i++)
		full[4 + i] = argv[i];
	full[4 + i] = NULL;
	return run(full, out, sizeof(out), err, len);
}

/*
 * As a user, with tracefs mounted root's alone (mode 0700): say that root
 * is needed, not that tracefs is missing from the kernel; and the exporter
 * says it once, not once per collector.
 */
START_TEST(test_unprivileged_user)
{
	char *bio[] = { (char *)barebpf(), "biolatency", NULL };
	char *exp[] = { (char *)barebpf(), "exporter", "--textfile", "/tmp",
			NULL };
	char *many[] = { (char *)barebpf(), "run", "-d", "1",
			 OBJDIR "many_tp.bpf.o", NULL };
	char err[8192];
	struct stat st;
	int rc;

	if (stat("/sys/kernel/tracing", &st) || (st.st_mode & 077))
		bbtest_skip("/sys/kernel/tracing is not mode 0700 here");
	rc = run_unprivileged(bio, err, sizeof(err));
	if (rc < 0)
		bbtest_skip("no setpriv (util-linux)");
	ck_assert_msg(rc == 1 && strstr(err, "root") &&
		      !strstr(err, "CONFIG_FTRACE"), "exit %d: %s", rc, err);
	rc = run_unprivileged(exp, err, sizeof(err));
	ck_assert_msg(rc == 1 && count(err, "tracefs (") == 1, "exit %d: %s", rc,
		      err);
	/* bpf() refused: root's capabilities, not a memlock limit of root's */
	rc = run_unprivileged(many, err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "CAP_BPF and CAP_PERFMON") &&
		      !strstr(err, "if you are root"), "exit %d: %s", rc, err);
}
END_TEST

/* An exporter with args after "exporter", up to its "Exporting" line. */
static void exporter_start(struct proc *p, char **args, char *out,
			   size_t len)
{
	char *argv[16] = { (char *)barebpf(), "exporter" };
	int i;

	for (i = 0; args[i] && i < 13; i++)
		argv[2 + i] = args[i];
	argv[2 + i] = NULL;
	spawn(p, argv);
	read_until(p->out, out, len, "Hit Ctrl-C", 30000);
	ck_assert_msg(strstr(out, "Exporting"), "did not start: %s", out);
}

static void exporter_stop(struct proc *p, char *err, size_t len)
{
	kill(p->pid, SIGINT);
	read_until(p->err, err, len, NULL, 10000);
	ck_assert_msg(wait_exit(p->pid) == 0, "exporter exit: %s", err);
	close(p->out);
	close(p->err);
}

/* Values that cannot work are refused at start: an interval whose
 * milliseconds overflow (the loop then slept until a scrape woke it), a
 * --textfile directory nothing can be created in (root passes access()
 * on /proc: it warned every interval instead). */
START_TEST(test_exporter_bad_values)
{
	char *bigint[] = { (char *)barebpf(), "exporter", "--interval",
			   "2147484", NULL };
	char *proc[] = { (char *)barebpf(), "exporter", "--textfile", "/proc",
			 "--duration", "2", NULL };
	char *allow[] = { (char *)barebpf(), "exporter", "--allow",
			  "10.0.0.1/40", NULL };
	char out[4096], err[4096];
	int rc;

	rc = run(bigint, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "--interval"), "exit %d: %s", rc,
		      err);
	rc = run(proc, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "/proc") && !strstr(out,
		      "Exporting"), "exit %d: %s%s", rc, out, err);
	rc = run(allow, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "prefix"), "exit %d: %s", rc,
		      err);
}
END_TEST

/* --listen :P: said to reach beyond loopback, and a URL that works. */
START_TEST(test_exporter_wildcard)
{
	char listen[32], url[64], out[4096], err[4096] = "";
	char *args[] = { "--listen", listen, NULL };
	struct http_reply r;
	struct proc p;
	int port = free_port();

	snprintf(listen, sizeof(listen), ":%d", port);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/metrics", port);
	exporter_start(&p, args, out, sizeof(out));
	ck_assert_msg(strstr(out, url), "%s", out);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 10), 200);
	exporter_stop(&p, err, sizeof(err));
	ck_assert_msg(strstr(err, "warning: listening on") &&
		      strstr(err, "--allow"), "%s", err);
}
END_TEST

/* --allow: a client outside the list gets no answer; inside, metrics. */
START_TEST(test_exporter_allow)
{
	char listen[32], out[4096], err[4096] = "";
	char *deny[] = { "--listen", listen, "--allow", "10.0.0.0/8",
			 "--allow", "fd00::/8", NULL };
	char *ok[] = { "--listen", listen, "--allow", "10.0.0.0/8",
		       "--allow", "127.0.0.1", NULL };
	struct http_reply r;
	struct proc p;
	int port = free_port(), rc;

	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	exporter_start(&p, deny, out, sizeof(out));
	rc = http_get(port, "/metrics", &r, 10);
	ck_assert_msg(rc < 0, "answered %d to a client not allowed", rc);
	exporter_stop(&p, err, sizeof(err));
	ck_assert_msg(!strstr(err, "warning: listening"), "%s", err);
	exporter_start(&p, ok, out, sizeof(out));
	ck_assert_int_eq(http_get(port, "/metrics", &r, 10), 200);
	ck_assert_ptr_nonnull(strstr(r.body, "barebpf_build_info"));
	exporter_stop(&p, err, sizeof(err));
}
END_TEST

/* argv run with stdout and stderr on /dev/null: its peak RSS in KiB. */
static long max_rss_kib(char *const argv[])
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "status %d",
		      status);
	return ru.ru_maxrss;
}

/*
 * features costs what a tool costs (it copied every name of
 * available_filter_functions: 11 MB), and without kprobes does not call
 * functions probe-able.
 */
START_TEST(test_features_cost_and_words)
{
	char *argv[] = { (char *)barebpf(), "features", NULL };
	char out[8192], err[4096];
	long rss = max_rss_kib(argv);

	ck_assert_msg(rss < 4096, "features took %ld KiB", rss);
	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	if (strstr(out, "kprobes:             no"))
		ck_assert_msg(!strstr(out, "(probe-able)"), "%s", out);
	else
		ck_assert_msg(strstr(out, "functions (probe-able):"), "%s",
			      out);
}
END_TEST

/* -v warned that RLIMIT_MEMLOCK could not be raised (in a container
 * without CAP_SYS_RESOURCE) on 5.11+, where it does not apply. */
START_TEST(test_no_memlock_warning_on_memcg)
{
	char *argv[] = { (char *)barebpf(), "funccount", "-v", "-d", "1",
			 "t:syscalls:sys_enter_getppid", NULL };
	char out[8192], err[8192], rel[128];
	unsigned a = 0, b = 0;

	ck_assert_int_eq(sh("uname -r", rel, sizeof(rel)), 0);
	ck_assert_int_eq(sscanf(rel, "%u.%u", &a, &b), 2);
	if (a < 5 || (a == 5 && b < 11))
		bbtest_skip("%s charges BPF memory to RLIMIT_MEMLOCK", rel);
	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(!strstr(err, "RLIMIT_MEMLOCK"), "%s", err);
}
END_TEST

#define TRACING_TRACE "Tracing 1 probe... Hit Ctrl-C to end.\n"
#define TRACING_BIO "Tracing block device I/O... Hit Ctrl-C to end.\n"

/* trace says "Tracing" where every other tool does, on stdout (-j: on
 * stderr, stdout being JSON), before bcc's header. */
START_TEST(test_trace_tracing_line_on_stdout)
{
	char *text[] = { (char *)barebpf(), "trace", "--duration", "1",
			 "t:syscalls:sys_enter_getppid", NULL };
	char *json[] = { (char *)barebpf(), "trace", "-j", "--duration", "1",
			 "t:syscalls:sys_enter_getppid", NULL };
	static char out[1 << 20];
	char err[4096];

	ck_assert_int_eq(run(text, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(!strncmp(out, TRACING_TRACE "PID ",
			       strlen(TRACING_TRACE "PID ")), "stdout: %.200s",
		      out);
	ck_assert_msg(!strstr(err, "Tracing"), "stderr: %s", err);
	ck_assert_int_eq(run(json, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "Tracing 1 probe"), "stderr: %s", err);
	ck_assert_msg(!strstr(out, "Tracing"), "stdout: %.200s", out);
}
END_TEST

/* As bcc's biolatency: an empty line before each interval's histogram. */
START_TEST(test_interval_blank_lines)
{
	char *argv[] = { (char *)barebpf(), "biolatency", "-d", "loop0", "1",
			 "2", NULL };
	char out[8192], err[4096];
	const char *p;
	int blank = 0;

	if (access("/sys/class/block/loop0", F_OK))
		bbtest_skip("no loop0");
	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(!strncmp(out, TRACING_BIO "\n", strlen(TRACING_BIO "\n")),
		      "%s", out);
	for (p = out; (p = strstr(p, "\n\n")); p++)
		blank++;
	ck_assert_msg(blank == 2, "%d empty lines for 2 intervals: %s", blank,
		      out);
}
END_TEST

/* run -v says how 28-byte map definitions were read. */
START_TEST(test_run_says_map_layout)
{
	char *argv[] = { (char *)barebpf(), "run", "-v", "-d", "1", "-c",
			 "bb_tgid=1", OBJDIR "maps_iproute2_old.bpf.o", NULL };
	char out[8192], err[8192];
	int rc;

	rc = run(argv, out, sizeof(out), err, sizeof(err));
	unlink("/sys/fs/bpf/tc/globals/bbtest_old_counts");
	rmdir("/sys/fs/bpf/tc/globals");
	rmdir("/sys/fs/bpf/tc");
	ck_assert_msg(rc == 0 && strstr(err, "read as iproute2's bpf_elf_map "
					"before 4.13 (id, pinning)"),
		      "exit %d: %s", rc, err);
}
END_TEST

/* 65 programs on one tracepoint: the kernel's limit is named, not its
 * errno ("Argument list too long"). */
START_TEST(test_run_too_many_on_one_event)
{
	char *argv[] = { (char *)barebpf(), "run", "-d", "1",
			 OBJDIR "many_tp.bpf.o", NULL };
	char out[8192], err[8192];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 1 && strstr(err, "at most 64 BPF programs on one "
					"event") &&
		      !strstr(err, "Argument list too long"), "exit %d: %s", rc,
		      err);
}
END_TEST

/* Out of descriptors while loading: the limit is named, not the verifier
 * blamed with a log of a program it passed. */
START_TEST(test_run_out_of_fds)
{
	char *argv[] = { (char *)barebpf(), "run", "-d", "1",
			 OBJDIR "many_tp.bpf.o", NULL };
	struct rlimit low = { 40, 40 }, up = { 41, 41 };
	char out[8192], err[8192];
	int rc;

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	/* with CAP_SYS_RESOURCE the tool raises it again (bb_raise_nofile) */
	if (setrlimit(RLIMIT_NOFILE, &up) == 0)
		bbtest_skip("CAP_SYS_RESOURCE: the limit would be raised");
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "out of file descriptors: 65 "
					"programs") &&
		      strstr(err, "ulimit -n") && !strstr(err, "verifier") &&
		      !strstr(err, "refused"), "exit %d: %s", rc, err);
}
END_TEST

/*
 * The tools of issue 30, each as a user mistreats it: stdout closed
 * (exit 0), `| head -n 2` (dies of SIGPIPE, soon), Ctrl-C twice at once
 * (exit 0, within seconds), run as nobody (exit 1, root said). Each argv
 * prints every 0.2 s, a line holding its fifth word each time (oomkill
 * only its Tracing line: no | head); "--duration 1" is added for the
 * closed stdout.
 */
static const char *const sched_tools[][5] = {
	{ "syscount", "-i", "0.2", NULL, "\n[" },
	{ "hardirqs", "0.2", NULL, NULL, "\nHARDIRQ" },
	{ "softirqs", "0.2", NULL, NULL, "\nSOFTIRQ" },
	{ "oomkill", NULL, NULL, NULL, "Tracing OOM kills" },
};

static void hostile_pipe_head(char *const argv[])
{
	struct proc p;
	char ch, err[4096] = "";
	int nl = 0, rc;

	spawn(&p, argv);
	while (nl < 2 && read(p.out, &ch, 1) == 1)
		nl += ch == '\n';
	ck_assert_msg(nl == 2, "%s: no two lines", argv[1]);
	close(p.out);
	read_until(p.err, err, sizeof(err), NULL, 10000);
	rc = wait_exit(p.pid);
	ck_assert_msg(rc == 128 + SIGPIPE, "%s | head: exit %d: %s", argv[1],
		      rc, err);
	ck_assert_msg(!strstr(err, "failed"), "%s: %s", argv[1], err);
	close(p.err);
}

static void hostile_sigint_twice(char *const argv[], const char *mark)
{
	struct proc p;
	char out[65536] = "", err[4096] = "";
	size_t n;
	double t0;
	int rc;

	spawn(&p, argv);
	n = read_until(p.out, out, sizeof(out), mark, 30000);
	ck_assert_msg(strstr(out, mark), "%s did not print: %s", argv[1], out);
	kill(p.pid, SIGINT);
	kill(p.pid, SIGINT);
	t0 = mono();
	read_more(p.out, out, sizeof(out), &n, NULL, 10000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	rc = wait_exit(p.pid);
	ck_assert_msg(rc == 0 && mono() - t0 < 10, "%s: exit %d after %.1f s: "
		      "%s", argv[1], rc, mono() - t0, err);
	close(p.out);
	close(p.err);
}

START_TEST(test_sched_tools_hostile)
{
	char cmd[512], out[4096], err[8192];
	size_t i;
	int rc, k;

	for (i = 0; i < sizeof(sched_tools) / sizeof(sched_tools[0]); i++) {
		char *argv[8] = { (char *)barebpf() };

		for (k = 0; k < 4 && sched_tools[i][k]; k++)
			argv[k + 1] = (char *)sched_tools[i][k];
		snprintf(cmd, sizeof(cmd), "{ '%s' %s --duration 1 >&- ; } "
			 "2>&1; "
			 "echo \"rc=$?\"", barebpf(), sched_tools[i][0]);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		/* refused at start, as every tool (test_closed_stdout) */
		ck_assert_msg(strstr(out, "rc=1") &&
			      strstr(out, "standard output is closed"),
			      "%s with stdout closed: %s", argv[1], out);
		if (strcmp(argv[1], "oomkill"))
			hostile_pipe_head(argv);
		hostile_sigint_twice(argv, sched_tools[i][4]);
		rc = run_unprivileged(argv, err, sizeof(err));
		if (rc < 0)
			continue; /* no setpriv */
		ck_assert_msg(rc == 1 && (strstr(err, "root") ||
					  strstr(err, "CAP_BPF")),
			      "%s as nobody: exit %d: %s", argv[1], rc, err);
	}
}
END_TEST

/* A comm holding ESC and a newline (prctl), in syscount -P's row:
 * escaped, in text and in JSON. */
START_TEST(test_syscount_hostile_comm)
{
	static char out[65536];
	char pid_s[16], b;
	char *argv[] = { (char *)barebpf(), "syscount", "-P", "-p", pid_s,
			 NULL, NULL };
	struct proc p;
	int go[2], i;
	size_t n;
	pid_t c;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(pipe(go), 0);
		c = fork();
		ck_assert_int_ge(c, 0);
		if (!c) {
			close(go[1]);
			if (prctl(PR_SET_NAME, "bb\033[31m\nx", 0, 0, 0) ||
			    read(go[0], &b, 1) != 1)
				_exit(1);
			_exit(getppid() > 0 ? 0 : 2);
		}
		close(go[0]);
		snprintf(pid_s, sizeof(pid_s), "%d", (int)c);
		argv[5] = i ? "-j" : NULL;
		spawn(&p, argv);
		n = read_until(i ? p.err : p.out, out, sizeof(out),
			       "Ctrl+C to quit.", 30000);
		ck_assert_int_eq(write(go[1], "g", 1), 1);
		close(go[1]);
		ck_assert_int_eq(wait_exit(c), 0);
		kill(p.pid, SIGINT);
		n = 0;
		read_more(p.out, out, sizeof(out), &n, NULL, 10000);
		ck_assert_int_eq(wait_exit(p.pid), 0);
		close(p.out);
		close(p.err);
		ck_assert_msg(!strchr(out, '\033'), "a raw ESC in:\n%s", out);
		ck_assert_msg(strstr(out, i ? "\"comm\":\"bb\\u001b[31m\\nx\"" :
				     " bb\\x1b[31m\\nx "), "%s", out);
	}
}
END_TEST

/*
 * The tools of issue 31 (file systems, page cache, memory) as a careless
 * user runs them: stdout closed; piped into `head -n 1` (they die of
 * SIGPIPE at their second line, not at the end of their count, those
 * that print every interval); Ctrl-C twice in a row (one clean exit, 0);
 * as nobody (root is named). Each ends by itself within a second.
 */
static const struct {
	const char *cmd;
	int periodic; /* prints every interval: dies of SIGPIPE in | head */
} fs_tools[] = {
	{ "bitesize -j 0.2 5", 1 },
	{ "biotop -C 0.2 5", 1 },
	{ "drsnoop -d 1", 0 },
};

START_TEST(test_fs_tools_hostile)
{
	char cmd[1024], bash[1200], out[8192], err[8192], tool[64];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(fs_tools) / sizeof(fs_tools[0]); i++) {
		char *argv[] = { (char *)barebpf(), tool, NULL };
		struct proc pr;

		sscanf(fs_tools[i].cmd, "%63s", tool);
		snprintf(cmd, sizeof(cmd), "{ timeout 20 '%s' %s >&- ; } "
			 "2>&1; echo \"rc=$?\"", barebpf(), fs_tools[i].cmd);
		ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
		/* refused at start, as every tool (test_closed_stdout) */
		ck_assert_msg(strstr(out, "rc=1") &&
			      strstr(out, "standard output is closed"),
			      "%s with stdout closed: %s", tool, out);
		snprintf(cmd, sizeof(cmd), "timeout 20 '%s' %s 2>/dev/null | "
			 "head -n 1 >/dev/null; echo \"rc=${PIPESTATUS[0]}\"",
			 barebpf(), fs_tools[i].cmd);
		snprintf(bash, sizeof(bash), "bash -c '%s'", cmd);
		ck_assert_int_eq(sh(bash, out, sizeof(out)), 0);
		/* 141: killed by SIGPIPE (124 if timeout had to stop it); a
		 * tool with nothing more to say ends by itself (0) */
		ck_assert_msg(strstr(out, "rc=141") || (!fs_tools[i].periodic &&
							strstr(out, "rc=0")),
			      "%s | head: %s", tool, out);
		/* Ctrl-C twice, at once: one clean exit */
		spawn(&pr, argv);
		read_until(strstr(fs_tools[i].cmd, " -j ") ? pr.err : pr.out, err,
			   sizeof(err), "Ctrl-C", 20000);
		kill(pr.pid, SIGINT);
		kill(pr.pid, SIGINT);
		read_until(pr.err, err, sizeof(err), NULL, 10000);
		read_until(pr.out, out, sizeof(out), NULL, 10000);
		close(pr.out);
		close(pr.err);
		rc = wait_exit(pr.pid);
		ck_assert_msg(rc == 0, "%s: exit %d after two SIGINTs: %s",
			      tool, rc, err);
		rc = run_unprivileged(argv, err, sizeof(err));
		if (rc < 0)
			continue; /* no setpriv: said by test_unprivileged_user */
		ck_assert_msg(rc == 1 && strstr(err, "root"), "%s as nobody: "
			      "exit %d: %s", tool, rc, err);
	}
}
END_TEST

/* cachestat needs kprobes: where the kernel has none (this host), it
 * says so plainly, exits 1 and prints no header; where it has them, it
 * runs a second and prints bcc's header and one line. */
START_TEST(test_cachestat_needs_kprobes)
{
	char *argv[] = { (char *)barebpf(), "cachestat", "1", "1", NULL };
	char out[4096], err[4096], tfs[256];
	int rc;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	if (kprobes_available(tfs)) {
		ck_assert_msg(rc == 0 && strstr(out, "HITRATIO") &&
			      lines(out) == 2, "exit %d: %s%s", rc, out, err);
		return;
	}
	ck_assert_msg(rc == 1 && strstr(err, "no kprobe_events") &&
		      strstr(err, "needs kprobes") && !out[0],
		      "exit %d: %s%s", rc, out, err);
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("hostile");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_closed_stdout);
	tcase_add_test(tc, test_exit_status_const);
	tcase_add_test(tc, test_ring_pages_env);
	tcase_add_test(tc, test_error_quotes_escaped);
	tcase_add_test(tc, test_unknown_option);
	tcase_add_test(tc, test_missing_argument);
	tcase_add_test(tc, test_link_version);
	tcase_add_test(tc, test_early_failure_unmounts);
	tcase_add_test(tc, test_unprivileged_user);
	tcase_add_test(tc, test_exporter_bad_values);
	tcase_add_test(tc, test_exporter_wildcard);
	tcase_add_test(tc, test_exporter_allow);
	tcase_add_test(tc, test_features_cost_and_words);
	tcase_add_test(tc, test_no_memlock_warning_on_memcg);
	tcase_add_test(tc, test_trace_tracing_line_on_stdout);
	tcase_add_test(tc, test_interval_blank_lines);
	tcase_add_test(tc, test_run_says_map_layout);
	tcase_add_test(tc, test_run_too_many_on_one_event);
	tcase_add_test(tc, test_run_out_of_fds);
	tcase_add_test(tc, test_sched_tools_hostile);
	tcase_add_test(tc, test_syscount_hostile_comm);
	tcase_add_test(tc, test_fs_tools_hostile);
	tcase_add_test(tc, test_cachestat_needs_kprobes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(hostile, hostile_suite, hostile_requires)
