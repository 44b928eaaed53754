/* SPDX-License-Identifier: MIT */
/*
 * uprobes on this kernel, on tests/tools/ucalls.c (bb_ufunc(i) called for
 * i = 0..N-1 once a line comes on its stdin, returning i * 2):
 *  - trace 'p:BIN:bb_ufunc "%d", arg1' prints every call with its argument;
 *  - funccount BIN:bb_ufunc counts exactly N; funclatency counts N;
 *  - r: with a retval filter prints just the matching returns;
 *  - -p leaves another process's calls out;
 *  - p:c:malloc finds libc and fires;
 *  - through uprobe_events (BAREBPF_UPROBES=tracefs), nothing of ours is
 *    left there after a normal end, SIGINT, SIGTERM, a failed attach, and
 *    a SIGKILL (removed by the next barebpf).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
#include "obj.h"
#include "probe.h"

#define UCALLS BB_BUILD_DIR "/tests/ucalls"
#define N 20

struct ucalls {
	pid_t pid;
	int go; /* its stdin: a line starts the calls */
	int out;
};

static void ucalls_start(struct ucalls *u, int n)
{
	int in[2], o[2];
	char arg[16];

	snprintf(arg, sizeof(arg), "%d", n);
	ck_assert_int_eq(pipe(in), 0);
	ck_assert_int_eq(pipe(o), 0);
	u->pid = fork();
	ck_assert_int_ge(u->pid, 0);
	if (!u->pid) {
		dup2(in[0], 0);
		dup2(o[1], 1);
		close(in[1]);
		close(o[0]);
		execl(UCALLS, UCALLS, arg, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(o[1]);
	u->go = in[1];
	u->out = o[0];
}

/* Let it call, and wait for it to end; what it printed into buf. */
static void ucalls_run_out(struct ucalls *u, char *buf, size_t len)
{
	ck_assert_int_eq(write(u->go, "\n", 1), 1);
	read_until(u->out, buf, len, "done", 20000);
	ck_assert_msg(strstr(buf, "done"), "ucalls: %s", buf);
	ck_assert_int_eq(wait_exit(u->pid), 0);
	close(u->go);
	close(u->out);
}

/* Let it call, and wait for it to end. */
static void ucalls_run(struct ucalls *u)
{
	char buf[256];

	ck_assert_int_eq(write(u->go, "\n", 1), 1);
	read_until(u->out, buf, sizeof(buf), NULL, 20000);
	ck_assert_msg(strstr(buf, "done"), "ucalls: %s", buf);
	ck_assert_int_eq(wait_exit(u->pid), 0);
	close(u->go);
	close(u->out);
}

/* Lines of out holding word (as a whole column). */
static int count_lines(const char *out, const char *word)
{
	const char *l = out;
	int n = 0;

	while (*l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char line[512];

		snprintf(line, sizeof(line), " %.*s ", (int)(len < 500 ? len :
							     500), l);
		n += strstr(line, word) != NULL;
		l += len + (nl != NULL);
	}
	return n;
}

/* Stop p with sig, and all it printed after *n bytes of out. */
static int stop(struct proc *p, int sig, char *out, size_t len, size_t *n)
{
	int st;

	kill(p->pid, sig);
	read_more(p->out, out, len, n, NULL, 10000);
	st = wait_exit(p->pid);
	close(p->out);
	close(p->err);
	return st;
}

START_TEST(test_uprobe_trace_args)
{
	char out[65536], word[64], pidw[32];
	char *argv[] = { (char *)barebpf(), "trace",
			 "p:" UCALLS ":bb_ufunc \"arg=%d\", arg1", NULL };
	struct ucalls u;
	struct proc p;
	size_t n;
	int i;

	ucalls_start(&u, N);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&u);
	snprintf(word, sizeof(word), "arg=%d ", N - 1);
	read_more(p.out, out, sizeof(out), &n, word, 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	snprintf(pidw, sizeof(pidw), " %d ", (int)u.pid);
	ck_assert_msg(count_lines(out, " bb_ufunc ") == N, "%s", out);
	ck_assert_msg(count_lines(out, pidw) == N, "%s", out);
	for (i = 0; i < N; i++) {
		snprintf(word, sizeof(word), " arg=%d ", i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
	}
}
END_TEST

START_TEST(test_uprobe_retval_filter)
{
	char out[65536], word[64];
	char *argv[] = { (char *)barebpf(), "trace",
			 "r:" UCALLS ":bb_ufunc (retval > 30) \"ret=%d\", "
			 "retval", NULL };
	struct ucalls u;
	struct proc p;
	size_t n;
	int i;

	ucalls_start(&u, N);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&u);
	read_more(p.out, out, sizeof(out), &n, "ret=38 ", 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	/* i * 2 > 30: i = 16..19 */
	ck_assert_msg(count_lines(out, " bb_ufunc ") == 4, "%s", out);
	for (i = 16; i < N; i++) {
		snprintf(word, sizeof(word), " ret=%d ", 2 * i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
	}
}
END_TEST

START_TEST(test_uprobe_pid_filter)
{
	char out[65536], pidarg[16], pidw[32], word[64];
	char *argv[] = { (char *)barebpf(), "trace", "-p", pidarg,
			 "p:" UCALLS ":bb_ufunc \"arg=%d\", arg1", NULL };
	struct ucalls a, b;
	struct proc p;
	size_t n;

	ucalls_start(&a, N);
	ucalls_start(&b, N);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)a.pid);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&b);
	ucalls_run(&a);
	snprintf(word, sizeof(word), "arg=%d ", N - 1);
	read_more(p.out, out, sizeof(out), &n, word, 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	snprintf(pidw, sizeof(pidw), " %d ", (int)a.pid);
	ck_assert_msg(count_lines(out, " bb_ufunc ") == N, "%s", out);
	ck_assert_msg(count_lines(out, pidw) == N, "%s", out);
	snprintf(pidw, sizeof(pidw), " %d ", (int)b.pid);
	ck_assert_msg(count_lines(out, pidw) == 0, "%s", out);
}
END_TEST

START_TEST(test_uprobe_libc_malloc)
{
	char out[65536], pidarg[16], pidw[32];
	char *argv[] = { (char *)barebpf(), "trace", "-p", pidarg,
			 "p:c:malloc \"size=%d\", arg1", NULL };
	struct ucalls u;
	struct proc p;
	size_t n;

	ucalls_start(&u, N);
	snprintf(pidarg, sizeof(pidarg), "%d", (int)u.pid);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&u);
	read_more(p.out, out, sizeof(out), &n, " malloc ", 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	snprintf(pidw, sizeof(pidw), " %d ", (int)u.pid);
	ck_assert_msg(count_lines(out, " malloc ") >= 1, "%s", out);
	ck_assert_msg(count_lines(out, pidw) == count_lines(out, " malloc "),
		      "%s", out);
}
END_TEST

/* The count of funccount's row "NAME      COUNT", -1 if none. */
static long row_count(const char *out, const char *name)
{
	const char *l = out;
	size_t n = strlen(name);

	while ((l = strstr(l, name))) {
		if ((l == out || l[-1] == '\n') && l[n] == ' ')
			return strtol(l + n, NULL, 10);
		l += n;
	}
	return -1;
}

/* "Tracing ..." seen on stdout, then a run of ucalls, then SIGINT */
static void counted_run(char *const argv[], char *out, size_t len)
{
	struct ucalls u;
	struct proc p;
	size_t n = 0;

	ucalls_start(&u, N);
	spawn(&p, argv);
	read_more(p.out, out, len, &n, "Ctrl-C", 30000);
	ck_assert_msg(strstr(out, "Tracing"), "did not start: %s", out);
	ucalls_run(&u);
	usleep(200000);
	ck_assert_int_eq(stop(&p, SIGINT, out, len, &n), 0);
}

START_TEST(test_uprobe_funccount)
{
	char out[65536];
	char *argv[] = { (char *)barebpf(), "funccount", UCALLS ":bb_ufunc*",
			 NULL };
	char *argv2[] = { (char *)barebpf(), "funclatency", UCALLS ":bb_ufunc",
			  NULL };

	counted_run(argv, out, sizeof(out));
	ck_assert_msg(strstr(out, "Tracing 2 functions"), "%s", out);
	ck_assert_msg(row_count(out, "bb_ufunc") == N, "%s", out);
	ck_assert_msg(row_count(out, "bb_ufunc_other") == 1, "%s", out);
	counted_run(argv2, out, sizeof(out));
	ck_assert_msg(strstr(out, "count: 20\n"), "%s", out);
}
END_TEST

/* ---- uprobe_events stays clean ---- */

/* Lines of uprobe_events of barebpf process pid. */
static int our_events(pid_t pid)
{
	char tfs[256], *text, group[64];
	int n;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (tracefs_read(tfs, "uprobe_events", &text) < 0)
		return 0;
	snprintf(group, sizeof(group), ":barebpf_%d_", (int)pid);
	n = count_lines(text, group);
	free(text);
	return n;
}

static const char *need_uprobe_events(void)
{
	char tfs[256], path[300];
	const char *why = need_root_and_tools();

	if (why)
		return why;
	if (access(UCALLS, X_OK))
		return "no " UCALLS " (make " UCALLS ")";
	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return "no tracefs";
	snprintf(path, sizeof(path), "%s/uprobe_events", tfs);
	if (access(path, F_OK))
		return "no uprobe_events on this kernel";
	return NULL;
}

/* A trace through uprobe_events, with its line there while it runs. */
static void tracefs_trace(struct proc *p)
{
	char out[4096];
	char *argv[] = { (char *)barebpf(), "trace",
			 "p:" UCALLS ":bb_ufunc", "r:" UCALLS ":bb_ufunc",
			 NULL };

	setenv("BAREBPF_UPROBES", "tracefs", 1);
	spawn(p, argv);
	unsetenv("BAREBPF_UPROBES");
	trace_started(p, argv, out, sizeof(out));
	ck_assert_int_eq(our_events(p->pid), 2);
}

START_TEST(test_uprobe_events_signals)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	char out[4096];
	struct proc p;
	size_t i, n = 0;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		tracefs_trace(&p);
		stop(&p, sigs[i], out, sizeof(out), &n);
		n = 0;
		ck_assert_msg(our_events(p.pid) == 0, "signal %d left events",
			      sigs[i]);
	}
	/* SIGKILL: the next barebpf removes what the dead one left */
	tracefs_trace(&p);
	stop(&p, SIGKILL, out, sizeof(out), &n);
	ck_assert_int_eq(our_events(p.pid), 2);
	{
		char err[4096];
		char *argv[] = { (char *)barebpf(), "funccount", "-d", "0.1",
				 UCALLS ":bb_ufunc", NULL };

		ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)),
				 0);
	}
	ck_assert_int_eq(our_events(p.pid), 0);
}
END_TEST

/* A failed attach (a process that is not there) after the line was
 * added, and an ordinary end (-d) */
START_TEST(test_uprobe_events_errors)
{
	char out[4096], err[4096];
	char *bad[] = { (char *)barebpf(), "trace", "-p", "999999999",
			"p:" UCALLS ":bb_ufunc", NULL };
	char *ok[] = { (char *)barebpf(), "funccount", "-d", "0.2",
		       UCALLS ":bb_ufunc*", NULL };
	struct proc p;

	setenv("BAREBPF_UPROBES", "tracefs", 1);
	spawn(&p, bad);
	read_more(p.err, err, sizeof(err), &(size_t){ 0 }, NULL, 20000);
	ck_assert_int_ne(wait_exit(p.pid), 0);
	close(p.out);
	close(p.err);
	ck_assert_int_eq(our_events(p.pid), 0);
	spawn(&p, ok);
	read_more(p.out, out, sizeof(out), &(size_t){ 0 }, NULL, 20000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	close(p.out);
	close(p.err);
	unsetenv("BAREBPF_UPROBES");
	ck_assert_msg(strstr(out, "Tracing 2 functions"), "%s", out);
	ck_assert_int_eq(our_events(p.pid), 0);
}
END_TEST

/*
 * The library: an object's uprobe/ and uretprobe/ sections (as run loads
 * them), the entry through its section's provider on BIN:bb_ufunc, the
 * return at a file offset for one process only.
 */
START_TEST(test_uprobe_library)
{
	char path[4096];
	struct bb_err err = { "" };
	struct bb_session s;
	struct bb_obj *obj;
	struct ucalls a, b;
	uint64_t off, v[2];
	uint32_t kver, k;
	char src[64], *buf;
	size_t len;
	FILE *f = fopen(BB_BUILD_DIR "/tests/bpf/uprobe_count.bpf.o", "rb");

	ck_assert_ptr_nonnull(f);
	buf = malloc(1 << 20);
	len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	bb_raise_memlock(NULL);
	ck_assert_int_eq(kver_detect(NULL, &kver, src, sizeof(src), &err), 0);
	ck_assert_msg(obj_open(&obj, buf, len, "uprobe_count", &err) == 0,
		      "%s", err.msg);
	ck_assert_int_eq(obj_prog(obj, "count_entry")->kind, BB_PROG_UPROBE);
	ck_assert_str_eq(obj_prog(obj, "count_return")->target,
			 "/bin/true:main");
	ck_assert_msg(obj_load(obj, kver, &err) == 0, "%s", err.msg);
	ucalls_start(&a, N);
	ucalls_start(&b, N);
	session_init(&s);
	ck_assert_msg(session_attach(&s, obj_prog(obj, "count_entry"),
				     UCALLS ":bb_ufunc", 0, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(uprobe_resolve(UCALLS ":bb_ufunc", 0, path,
					sizeof(path), &off, &err), 0);
	ck_assert_msg(session_attach_uprobe(&s, obj_prog(obj, "count_return"),
					    path, off, 1, a.pid, "bb_ufunc",
					    &err) == 0, "%s", err.msg);
	ucalls_run(&a);
	ucalls_run(&b);
	for (k = 0; k < 2; k++)
		ck_assert_int_eq(bpf_map_lookup_elem(obj_map(obj, "counts")->fd,
						     &k, &v[k]), 0);
	session_detach_all(&s);
	ck_assert_uint_eq(v[0], 2 * N); /* both processes */
	ck_assert_uint_eq(v[1], N);     /* only a */
	obj_close(obj);
	free(buf);
}
END_TEST

/*
 * USDT probes (tests/tools/sdt.h's notes in ucalls): bb:hello's int and
 * string, bb:mixed's constant, memory operand and signed short, each call
 * printed once with its values; names as u:BIN:PROBE and
 * u:BIN:PROVIDER:PROBE.
 */
START_TEST(test_usdt_args)
{
	char out[65536], word[64], pidw[32];
	static const char *const names[] = { "zero", "one", "two" };
	char *argv[] = { (char *)barebpf(), "trace",
			 "u:" UCALLS ":hello \"h=%d %s\", arg1, arg2",
			 "u:" UCALLS ":bb:mixed \"m=%d %ld %d\", arg1, arg2, "
			 "arg3",
			 "u:" UCALLS ":indexed \"x=%ld %d\", arg1, arg2",
			 NULL };
	struct ucalls u;
	struct proc p;
	size_t n;
	int i;

	ucalls_start(&u, N);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&u);
	snprintf(word, sizeof(word), "x=%d %d", ((N - 1) % 3 + 1) * (N - 1),
		 N - 1);
	read_more(p.out, out, sizeof(out), &n, word, 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	snprintf(pidw, sizeof(pidw), " %d ", (int)u.pid);
	ck_assert_msg(count_lines(out, " hello ") == N, "%s", out);
	ck_assert_msg(count_lines(out, " mixed ") == N, "%s", out);
	ck_assert_msg(count_lines(out, " indexed ") == N, "%s", out);
	ck_assert_msg(count_lines(out, pidw) == 3 * N, "%s", out);
	for (i = 0; i < N; i++) {
		snprintf(word, sizeof(word), " h=%d %s ", i, names[i % 3]);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
		snprintf(word, sizeof(word), " m=7 %d %d ", -1000 * i, -i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
		/* an array's element: x86's DISP(%BASE,%INDEX,SCALE) */
		snprintf(word, sizeof(word), " x=%d %d ", (i % 3 + 1) * i, i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
	}
}
END_TEST

/* bb:twice: two sites that keep the arguments in different places (a
 * program copy each), one probe in the FUNC column */
START_TEST(test_usdt_sites)
{
	char out[65536], word[64];
	char *argv[] = { (char *)barebpf(), "trace",
			 "u:" UCALLS ":twice \"t=%d %ld\", arg1, arg2", NULL };
	struct ucalls u;
	struct proc p;
	size_t n;
	int i;

	ucalls_start(&u, N);
	spawn(&p, argv);
	n = trace_started(&p, argv, out, sizeof(out));
	ucalls_run(&u);
	snprintf(word, sizeof(word), "t=%d %d", N - 1, 100 * (N - 1));
	read_more(p.out, out, sizeof(out), &n, word, 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	ck_assert_msg(count_lines(out, " twice ") == N, "%s", out);
	for (i = 0; i < N; i++) {
		snprintf(word, sizeof(word), " t=%d %d ", i, 100 * i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
	}
}
END_TEST

/*
 * bb:guarded fires only while its semaphore is up: not at all untraced,
 * every call while trace holds it (the kernel raises it, 4.20+), through
 * the uprobe PMU and through uprobe_events' PATH:OFF(REF) alike; and
 * nothing is left up or behind afterwards.
 */
static void usdt_guarded(const char *how)
{
	char out[65536], uout[256], word[64];
	char *argv[] = { (char *)barebpf(), "trace",
			 "u:" UCALLS ":bb:guarded (arg2 >= 10) \"g=%ld %d\", "
			 "arg1, arg2", NULL };
	struct ucalls u;
	struct proc p;
	size_t n;
	int i;

	ucalls_start(&u, N);
	ucalls_run_out(&u, uout, sizeof(uout));
	ck_assert_msg(!strstr(uout, "guarded"), "untraced: %s", uout);
	if (how)
		setenv("BAREBPF_UPROBES", how, 1);
	ucalls_start(&u, N);
	spawn(&p, argv);
	unsetenv("BAREBPF_UPROBES");
	n = trace_started(&p, argv, out, sizeof(out));
	/* through uprobe_events: its line, with (0xREF), is ours */
	if (how)
		ck_assert_int_eq(our_events(p.pid), 1);
	ucalls_run_out(&u, uout, sizeof(uout));
	snprintf(word, sizeof(word), "guarded %d\n", N);
	ck_assert_msg(strstr(uout, word), "%s", uout);
	snprintf(word, sizeof(word), "g=%d %d", 3 * (N - 1), N - 1);
	read_more(p.out, out, sizeof(out), &n, word, 5000);
	ck_assert_int_eq(stop(&p, SIGINT, out, sizeof(out), &n), 0);
	ck_assert_msg(count_lines(out, " guarded ") == N - 10, "%s", out);
	for (i = 10; i < N; i++) {
		snprintf(word, sizeof(word), " g=%d %d ", 3 * i, i);
		ck_assert_msg(count_lines(out, word) == 1, "%s: %s", word, out);
	}
	ck_assert_int_eq(our_events(p.pid), 0);
	ucalls_start(&u, N);
	ucalls_run_out(&u, uout, sizeof(uout));
	ck_assert_msg(!strstr(uout, "guarded"), "after: %s", uout);
}

START_TEST(test_usdt_semaphore)
{
	usdt_guarded(NULL);
}
END_TEST

START_TEST(test_usdt_semaphore_events)
{
	usdt_guarded("tracefs");
}
END_TEST

/* A probe the file does not have: the error names those it has; an
 * argument it does not have, how many it has. */
START_TEST(test_usdt_errors)
{
	char out[4096], err[4096];
	char *bad[] = { (char *)barebpf(), "trace", "u:" UCALLS ":nosuch",
			NULL };
	char *prov[] = { (char *)barebpf(), "trace", "u:" UCALLS ":xx:hello",
			 NULL };
	char *arg[] = { (char *)barebpf(), "trace",
			"u:" UCALLS ":hello \"%d\", arg3", NULL };

	ck_assert_int_ne(run(bad, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "no USDT probe nosuch in ") &&
		      strstr(err, "/tests/ucalls (its probes: bb:hello, "
			     "bb:mixed, bb:twice, bb:indexed, bb:guarded)"),
		      "%s", err);
	ck_assert_int_ne(run(prov, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "no USDT probe xx:hello in "), "%s", err);
	ck_assert_int_ne(run(arg, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "'arg3': USDT probe hello has 2 arguments"),
		      "%s", err);
}
END_TEST

/*
 * A detach that waits on the kernel (here each uprobe's perf event ends
 * with an RCU wait: 59 of libc's str* took 6.4 s): a stop signal during it
 * ends the tool at once, saying which child finishes in the background;
 * that child holds neither of our pipes, and removes every uprobe_events
 * line of ours once the closes are done. Not a terminal: no progress line.
 */
START_TEST(test_uprobe_detach_background)
{
	char out[8192], err[8192], *m;
	char *argv[] = { (char *)barebpf(), "funccount", "c:str*", NULL };
	struct pollfd pf;
	struct proc p;
	size_t n = 0;
	int st, i, nev;
	pid_t bg;
	double t0;

	setenv("BAREBPF_UPROBES", "tracefs", 1);
	spawn(&p, argv);
	unsetenv("BAREBPF_UPROBES");
	read_until(p.out, out, sizeof(out), "Ctrl-C", 30000);
	ck_assert_msg(strstr(out, "Tracing"), "did not start: %s", out);
	nev = our_events(p.pid);
	ck_assert_int_gt(nev, 0);
	kill(p.pid, SIGINT);
	usleep(1000000);
	if (waitpid(p.pid, &st, WNOHANG) == p.pid)
		bbtest_skip("the detach of %d uprobes took less than 1 s", nev);
	t0 = mono();
	kill(p.pid, SIGINT);
	for (i = 0; i < 300 && waitpid(p.pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	ck_assert_msg(i < 300, "still running 3 s after the second SIGINT");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	/* EOF on both pipes at once: the child has /dev/null */
	read_more(p.err, err, sizeof(err), &n, NULL, 2000);
	ck_assert_msg(mono() - t0 < 3, "stderr open %.1f s after the signal",
		      mono() - t0);
	pf.fd = p.err;
	pf.events = POLLIN;
	ck_assert_int_eq(poll(&pf, 1, 0), 1);
	ck_assert_int_eq(read(p.err, err + n, 1), 0);
	read_rest(p.out, 100);
	pf.fd = p.out;
	ck_assert_int_eq(poll(&pf, 1, 0), 1);
	ck_assert_int_eq(read(p.out, out, 1), 0);
	close(p.out);
	close(p.err);
	m = strstr(err, "barebpf funccount: finishing the detach in the "
			"background (pid ");
	ck_assert_msg(m, "no background line: %s", err);
	bg = atoi(m + strlen("barebpf funccount: finishing the detach in the "
			     "background (pid "));
	ck_assert_int_gt(bg, 0);
	ck_assert_msg(!strstr(err, "Detaching... "), "progress: %s", err);
	/* the child's end: no line of ours left, the child gone */
	for (i = 0; i < 600 && (our_events(p.pid) || kill(bg, 0) == 0); i++) {
		char path[64], stat[512];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)bg);
		f = fopen(path, "r");
		if (f && fgets(stat, sizeof(stat), f) && strstr(stat, ") Z ") &&
		    !our_events(p.pid)) {
			fclose(f);
			break; /* a zombie that nobody reaps: it is done */
		}
		if (f)
			fclose(f);
		usleep(100000);
	}
	ck_assert_msg(i < 600, "after 60 s: %d events of ours, child %s",
		      our_events(p.pid), kill(bg, 0) ? "gone" : "running");
}
END_TEST

/*
 * On a terminal the same detach shows its progress after a second, in
 * place, and ends the line with the total once done: stderr on a pty.
 */
START_TEST(test_uprobe_detach_progress)
{
	char err[16384], *m, *last = NULL, *q;
	char *argv[] = { (char *)barebpf(), "funccount", "-v", "-d", "1",
			 "c:str*", NULL };
	int master, slave, o[2], st, done, total, ms = 0;
	size_t n = 0;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	ck_assert_int_ge(master, 0);
	ck_assert_int_eq(grantpt(master), 0);
	ck_assert_int_eq(unlockpt(master), 0);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	ck_assert_int_ge(slave, 0);
	ck_assert_int_eq(pipe(o), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(o[1], 1);
		dup2(slave, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(slave);
	close(o[1]);
	/* until the exit closes the last slave fd (EIO) */
	read_more(master, err, sizeof(err), &n, NULL, 30000);
	st = wait_exit(pid);
	read_rest(o[0], 100);
	close(o[0]);
	close(master);
	ck_assert_msg(st == 0, "status %d: %s", st, err);
	m = strstr(err, "detached ");
	ck_assert_msg(m && sscanf(m, "detached %*d probes in %d ms", &ms) == 1,
		      "no -v line 'detached N probes in X ms': %s", err);
	if (ms < 1300)
		bbtest_skip("the detach took %d ms: too fast to see", ms);
	for (m = err; (m = strstr(m, "\rDetaching... ")); m++)
		last = m;
	ck_assert_msg(last, "a detach of %d ms and no progress: %s", ms, err);
	ck_assert_int_eq(sscanf(last, "\rDetaching... %d/%d", &done, &total),
			 2);
	ck_assert_int_eq(done, total);
	ck_assert_int_gt(total, 0);
	/* the hint overwritten with blanks, then the end of the line */
	q = strchr(last + 1, '\n');
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(!memchr(last, '(', q - last), "%s", last);
	/* an earlier one, while it went on, gave the hint */
	ck_assert_msg(strstr(err, "(Ctrl-C: finish in the background)"), "%s",
		      err);
}
END_TEST

static Suite *uprobe_suite(void)
{
	Suite *s = suite_create("uprobe");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_uprobe_trace_args);
	tcase_add_test(tc, test_uprobe_retval_filter);
	tcase_add_test(tc, test_uprobe_pid_filter);
	tcase_add_test(tc, test_uprobe_libc_malloc);
	tcase_add_test(tc, test_uprobe_funccount);
	tcase_add_test(tc, test_uprobe_library);
	tcase_add_test(tc, test_uprobe_events_signals);
	tcase_add_test(tc, test_uprobe_events_errors);
	tcase_add_test(tc, test_usdt_args);
	tcase_add_test(tc, test_usdt_sites);
	tcase_add_test(tc, test_usdt_semaphore);
	tcase_add_test(tc, test_usdt_semaphore_events);
	tcase_add_test(tc, test_usdt_errors);
	tcase_add_test(tc, test_uprobe_detach_background);
	tcase_add_test(tc, test_uprobe_detach_progress);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(uprobe, uprobe_suite, need_uprobe_events)
