/* SPDX-License-Identifier: MIT */
/* barebpf exitsnoop: one line per process exit, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "exitsnoop_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "exitsnoop" };

struct exitsnoop_opts {
	int failed, json, stamp, per_thread;
	unsigned long pid;
	double duration;
};

struct exitsnoop_run {
	const struct exitsnoop_opts *o;
	int have_age;
	struct tool_stream s;
};

/* bcc: "%-13s" then "%-16s %-7d %-7d %-7d %-7.2f " then the exit text */
enum { F_TIME, F_JTIME, F_COMM, F_PID, F_PPID, F_TID, F_AGE, F_JCODE,
       F_JSIG, F_EXIT, F_N };
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", NULL, OUT_STR, -13, 0, 0, 1, 1, NULL },
	[F_JTIME] = { NULL, "timestamp", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_COMM] = { "PCOMM", "task", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_PPID] = { "PPID", "ppid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_TID] = { "TID", "tid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_AGE] = { "AGE(s)", "age", OUT_DBL, -7, 2, 9, 0, 0, "-" },
	[F_JCODE] = { NULL, "exit_code", OUT_INT, 0, 0, 0, 0, 0, NULL },
	[F_JSIG] = { NULL, "sig_info", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	/* the last: no space after it (bcc's header has one: "%-10s") */
	[F_EXIT] = { "EXIT_CODE", NULL, OUT_STR, 0, 0, 0, 1, 0, NULL },
};

void exitsnoop_print_header(FILE *f, const char *tz)
{
	struct out_field fl[F_N];
	char title[32];

	memcpy(fl, fields, sizeof(fl));
	snprintf(title, sizeof(title), "TIME-%s", tz ? tz : "");
	fl[F_TIME].head = title;
	out_head(f, fl, F_N, tz ? OUT_BIT(1) : 0);
}

void exitsnoop_exit_text(char *buf, size_t n, int exit_code)
{
	static const char *const names[] = {
		"HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
		"KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM",
		"STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
		"URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR",
		"SYS",
	};
	unsigned info = exit_code & 0xff, sig = info & 0x7f;
	const char *name = "unknown";
	int len = 0;

	if (!info) {
		snprintf(buf, n, exit_code >> 8 ? "code %d" : "0",
			 exit_code >> 8);
		return;
	}
	if (sig >= 1 && sig <= sizeof(names) / sizeof(names[0]))
		name = names[sig - 1];
	else if (sig == 34 || sig == 64) /* Python's SIGRTMIN, SIGRTMAX */
		name = sig == 34 ? "RTMIN" : "RTMAX";
	buf[0] = 0;
	if (sig)
		len = snprintf(buf, n, "signal %u (%s)", sig, name);
	if (info & 0x80 && len >= 0 && (size_t)len < n)
		snprintf(buf + len, n - len, "%s", ", core dumped");
}

void exitsnoop_print(FILE *f, const struct exitsnoop_event *e,
		     const char *hms, const char *iso, int have_age, int json)
{
	char comm[sizeof(e->comm) + 1], code[64];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	exitsnoop_exit_text(code, sizeof(code), e->exit_code);
	v[F_TIME].s = hms ? hms : "";
	v[F_JTIME].s = iso ? iso : "";
	v[F_COMM].s = comm;
	v[F_PID].u = e->pid;
	v[F_PPID].u = e->ppid;
	v[F_TID].u = e->tid;
	if (have_age && e->start && e->exit >= e->start)
		v[F_AGE].d = (e->exit - e->start) / 1e9;
	else
		v[F_AGE].none = 1;
	v[F_EXIT].s = code;
	v[F_JCODE].i = e->exit_code >> 8;
	v[F_JSIG].u = e->exit_code & 0xff;
	out_row(f, fields, F_N, hms ? OUT_BIT(1) : 0, v, json);
}

/* the wall clock as bcc prints it: local "HH:MM:SS.mmm", and ISO */
static void now_ms(char *hms, size_t nh, char *iso, size_t ni)
{
	struct timespec ts;
	struct tm tm;
	char s[32];
	unsigned ms;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	ms = (unsigned)(ts.tv_nsec / 1000000) % 1000;
	strftime(s, sizeof(s), "%H:%M:%S", &tm);
	snprintf(hms, nh, "%.20s.%03u", s, ms);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso, ni, "%.30s.%03u", s, ms);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct exitsnoop_run *r = ctx;
	struct exitsnoop_event e;
	char hms[32], iso[48];

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	now_ms(hms, sizeof(hms), iso, sizeof(iso));
	exitsnoop_print(stdout, &e, r->o->stamp ? hms : NULL, iso,
			r->have_age, r->o->json);
	r->s.printed++;
	tool_output_failed();
}

enum { OPT_PER_THREAD = TOOL_OPT_FIRST_OWN };

static int parse_args(struct tool_ctx *t, struct exitsnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "timestamp", no_argument, NULL, 't' },
		{ "failed", no_argument, NULL, 'x' },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "htxp:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 't': o->stamp = 1; break;
		case 'x': o->failed = 1; break;
		case OPT_PER_THREAD: o->per_thread = 1; break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int exitsnoop_main(int argc, char **argv)
{
	struct exitsnoop_opts o = { 0 };
	struct exitsnoop_run r = { .s = {
		"exits", EXITSNOOP_EMITTED, -1, NULL } };
	struct exitsnoop_settings s = { 0 };
	struct exitsnoop_info info;
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	char tz[16];
	time_t now = time(NULL);
	struct tm lt;
	int ret = 1;

	tool_init(&t, "exitsnoop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	s.pid = o.pid;
	s.per_thread = o.per_thread;
	s.failed = o.failed;
	s.on_event = on_event;
	s.ctx = &r;
	if (exitsnoop_start(&t, &s, &pb, &info) < 0)
		goto out;
	r.have_age = info.have_start;
	if (!info.have_start)
		tool_error(&t, "AGE(s) is \"-\": the start time's place in "
			   "task_struct is unknown: %s", info.start_why);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing process exits "
		     "through sched:sched_process_exit... Hit Ctrl-C to "
		     "end.\n");
	localtime_r(&now, &lt);
	strftime(tz, sizeof(tz), "%Z", &lt);
	if (!o.json)
		exitsnoop_print_header(stdout, o.stamp ? tz : NULL);
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_exitsnoop = {
	"exitsnoop", exitsnoop_main,
	"one line per process exit: exit code or signal, age, parent "
	"(sched_process_exit)"
};
