/* SPDX-License-Identifier: MIT */
/* barebpf killsnoop: one line per kill(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "killsnoop_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "killsnoop" };

struct killsnoop_opts {
	int failed, json;
	unsigned long pid, sig;
	int sig_set;
	double duration;
};

struct killsnoop_run {
	const struct killsnoop_opts *o;
	struct tool_stream s;
};

/* bcc: "%-9s %-6d %-16s %-4d %-6d %d" */
enum { F_TIME, F_PID, F_JTID, F_COMM, F_SIG, F_TPID, F_RET, F_N };
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", "time", OUT_STR, -9, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -6, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tgid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_SIG] = { "SIG", "sig", OUT_INT, -4, 0, 0, 0, 0, NULL },
	[F_TPID] = { "TPID", "tpid", OUT_INT, -6, 0, 0, 0, 0, NULL },
	[F_RET] = { "RESULT", "result", OUT_INT, 0, 0, 0, 1, 0, NULL },
};

void killsnoop_print_header(FILE *f)
{
	out_head(f, fields, F_N, 0);
}

void killsnoop_print(FILE *f, const struct killsnoop_event *e,
		     const char *hms, int json)
{
	char comm[sizeof(e->comm) + 1];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].s = hms;
	v[F_PID].u = e->tid;
	v[F_JTID].u = e->pid;
	v[F_COMM].s = comm;
	v[F_SIG].i = e->sig;
	v[F_TPID].i = e->tpid;
	v[F_RET].i = e->ret;
	out_row(f, fields, F_N, 0, v, json);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct killsnoop_run *r = ctx;
	struct killsnoop_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	killsnoop_print(stdout, &e, now_hms(), r->o->json);
	r->s.printed++;
	tool_output_failed();
}

/* 9, KILL, SIGKILL (the names of the signals kill -l lists) */
static int parse_signal(struct tool_ctx *t, const char *s,
			unsigned long *v)
{
	static const char *const names[] = {
		"HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
		"KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM",
		"STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
		"URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR",
		"SYS",
	};
	const char *n = strncasecmp(s, "SIG", 3) ? s : s + 3;
	unsigned i;

	if (parse_ulong(s, v) == 0 && *v <= 64)
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(n, names[i])) {
			*v = i + 1;
			return 0;
		}
	return tool_fail(t, -EINVAL, "-s '%s': not a signal; give a number "
			 "(0 to 64) or a name such as TERM or SIGKILL", s);
}

static int parse_args(struct tool_ctx *t, struct killsnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		{ "failed", no_argument, NULL, 'x' },
		{ "signal", required_argument, NULL, 's' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hxp:s:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'x': o->failed = 1; break;
		case 's':
			if (parse_signal(t, optarg, &o->sig))
				return -EINVAL;
			o->sig_set = 1;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int killsnoop_main(int argc, char **argv)
{
	struct killsnoop_opts o = { 0 };
	struct killsnoop_run r = { .s = {
		"kills", KILLSNOOP_EMITTED, KILLSNOOP_UNTRACKED,
		"tracked: more than 4096 were in progress at once" } };
	struct killsnoop_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	static const char *const sys[] = { "kill" };
	char fn[1][64] = { "" };
	int ret = 1, tps;

	tool_init(&t, "killsnoop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	tps = tool_syscall_way(&t, sys, 1, fn);
	if (tps < 0)
		return 1;
	s.tps = tps;
	s.fn = fn[0];
	s.tid = o.pid;
	s.sig = o.sig_set ? o.sig : 0xffffffff;
	s.failed = o.failed;
	s.on_event = on_event;
	s.ctx = &r;
	if (killsnoop_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing kill()s through %s%s... Hit Ctrl-C to end.\n",
		     tps ? "syscall tracepoints" : "kprobes on ",
		     tps ? "" : fn[0]);
	if (!o.json)
		killsnoop_print_header(stdout);
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_killsnoop = {
	"killsnoop", killsnoop_main,
	"one line per kill(): sender, signal, target, result (syscall "
	"tracepoints)"
};
