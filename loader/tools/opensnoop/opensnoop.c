/* SPDX-License-Identifier: MIT */
/* barebpf opensnoop: one line per open(), bcc's columns. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "tool.h"
#include "facts.h"
#include "outrec.h"
#include "stream.h"
#include "opensnoop_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "opensnoop" };

static const struct {
	const char *name;
	unsigned long bits;
} open_flags[] = {
	{ "O_WRONLY", O_WRONLY }, { "O_RDWR", O_RDWR },
	{ "O_CREAT", O_CREAT }, { "O_EXCL", O_EXCL },
	{ "O_NOCTTY", O_NOCTTY }, { "O_TRUNC", O_TRUNC },
	{ "O_APPEND", O_APPEND }, { "O_NONBLOCK", O_NONBLOCK },
	{ "O_DSYNC", O_DSYNC }, { "O_SYNC", O_SYNC },
	{ "O_DIRECT", O_DIRECT }, { "O_DIRECTORY", O_DIRECTORY },
	{ "O_NOFOLLOW", O_NOFOLLOW }, { "O_NOATIME", O_NOATIME },
	{ "O_CLOEXEC", O_CLOEXEC }, { "O_PATH", O_PATH },
	{ "O_TMPFILE", O_TMPFILE },
};
#define NFLAGS (int)(sizeof(open_flags) / sizeof(open_flags[0]))

struct opensnoop_opts {
	int timestamp, print_uid, failed, json, extended, uid_set;
	unsigned long pid, tid, uid, flags, max_events;
	const char *name;
	double duration;
};

struct opensnoop_run {
	const struct opensnoop_opts *o;
	uint64_t first_ts;
	struct tool_stream s;
};

/* The record, once: bcc's columns, and the JSON keys. */
enum {
	F_TIME, F_TS, F_JPID, F_JTID, F_JUID, F_UID, F_PID, F_TID, F_COMM,
	F_FD, F_ERR, F_FLAGS, F_JFLAGS, F_PATH, F_N
};
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME(s)", NULL, OUT_DBL, -14, 9, 0, 1,
		     OPENSNOOP_COL_TIME, NULL },
	[F_TS] = { NULL, "ts", OUT_DBL, 0, 0, 9, 0, 0, NULL },
	[F_JPID] = { NULL, "pid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_JUID] = { NULL, "uid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_UID] = { "UID", NULL, OUT_UINT, -6, 0, 0, 1, OPENSNOOP_COL_UID,
		    NULL },
	[F_PID] = { "PID", NULL, OUT_UINT, -6, 0, 0, 0, OPENSNOOP_COL_PID,
		    NULL },
	[F_TID] = { "TID", NULL, OUT_UINT, -6, 0, 0, 0, OPENSNOOP_COL_TID,
		    NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_FD] = { "FD", "fd", OUT_INT, 4, 0, 0, 0, 0, NULL },
	[F_ERR] = { "ERR", "err", OUT_INT, 3, 0, 0, 0, 0, NULL },
	/* bcc: "%08o " under a "%-9s" header */
	[F_FLAGS] = { "FLAGS", NULL, OUT_OCT, -8, 8, 0, 0,
		      OPENSNOOP_COL_FLAGS, NULL },
	[F_JFLAGS] = { NULL, "flags", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_PATH] = { "PATH", "path", OUT_STR, 0, 0, 0, 1, 0, NULL },
};

void opensnoop_print_header(FILE *f, unsigned mask)
{
	out_head(f, fields, F_N, mask);
}

void opensnoop_print(FILE *f, const struct opensnoop_event *e,
		     uint64_t first_ts, unsigned mask, int json)
{
	char comm[sizeof(e->comm) + 1];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].d = v[F_TS].d = (e->ts - first_ts) / 1e9;
	v[F_JPID].u = v[F_PID].u = e->pid;
	v[F_JTID].u = v[F_TID].u = e->tid;
	v[F_JUID].u = v[F_UID].u = e->uid;
	v[F_COMM].s = comm;
	v[F_FD].i = e->ret >= 0 ? e->ret : -1;
	v[F_ERR].i = e->ret >= 0 ? 0 : -e->ret;
	v[F_FLAGS].u = v[F_JFLAGS].u = e->flags;
	v[F_PATH].s = e->fname;
	out_row(f, fields, F_N, mask, v, json);
}

static unsigned columns(const struct opensnoop_opts *o)
{
	return (o->timestamp ? OUT_BIT(OPENSNOOP_COL_TIME) : 0) |
	       (o->print_uid ? OUT_BIT(OPENSNOOP_COL_UID) : 0) |
	       OUT_BIT(o->tid ? OPENSNOOP_COL_TID : OPENSNOOP_COL_PID) |
	       (o->extended ? OUT_BIT(OPENSNOOP_COL_FLAGS) : 0);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct opensnoop_run *r = ctx;
	const struct opensnoop_opts *o = r->o;
	struct opensnoop_event e;
	char comm[sizeof(e.comm) + 1];

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	e.fname[sizeof(e.fname) - 1] = 0;
	if ((o->failed && e.ret >= 0) || (o->name && !strstr(comm, o->name)))
		return;
	if (o->max_events && r->s.printed >= o->max_events)
		return;
	if (!r->first_ts)
		r->first_ts = e.ts;
	opensnoop_print(stdout, &e, r->first_ts, columns(o), o->json);
	r->s.printed++;
	if (o->max_events && r->s.printed >= o->max_events)
		bb_stop = 1;
	tool_output_failed();
}

static int parse_flag(struct tool_ctx *t, struct opensnoop_opts *o,
		      const char *s)
{
	int i;

	for (i = 0; i < NFLAGS; i++)
		if (!strcasecmp(s, open_flags[i].name) ||
		    !strcasecmp(s, open_flags[i].name + 2)) {
			o->flags |= open_flags[i].bits;
			return 0;
		}
	tool_error(t, "-f '%s': not a flag; one of:", s);
	for (i = 0; i < NFLAGS; i++)
		fprintf(stderr, " %s", open_flags[i].name);
	fputc('\n', stderr);
	return -EINVAL;
}

static int parse_id(struct tool_ctx *t, const char *opt, const char *s,
		    unsigned long *v)
{
	if (parse_ulong(s, v) < 0 || !*v || *v >= 0xffffffffUL)
		return tool_fail(t, -EINVAL,
				 "%s '%s': give a positive number", opt, s);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct opensnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		{ "print-uid", no_argument, NULL, 'U' },
		{ "failed", no_argument, NULL, 'x' },
		TOOL_LONGOPT_PID,
		{ "tid", required_argument, NULL, 't' },
		{ "uid", required_argument, NULL, 'u' },
		{ "name", required_argument, NULL, 'n' },
		{ "extended_fields", no_argument, NULL, 'e' },
		{ "flag_filter", required_argument, NULL, 'f' },
		{ "max-events", required_argument, NULL, 'M' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTUxjp:t:u:n:ef:d:M:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'U': o->print_uid = 1; break;
		case 'x': o->failed = 1; break;
		case 'e': o->extended = 1; break;
		case 'n': o->name = optarg; break;
		case 'p':
			if (parse_id(t, "-p", optarg, &o->pid))
				return -EINVAL;
			break;
		case 't':
			if (parse_id(t, "-t", optarg, &o->tid))
				return -EINVAL;
			break;
		case 'u':
			if (parse_ulong(optarg, &o->uid) < 0 ||
			    o->uid >= 0xffffffffUL)
				return tool_fail(t, -EINVAL,
						 "-u '%s': give a UID",
						 optarg);
			o->uid_set = 1;
			break;
		case 'f':
			if (parse_flag(t, o, optarg))
				return -EINVAL;
			break;
		case 'd':
			if (opt_seconds(t, "-d", optarg, &o->duration))
				return -EINVAL;
			break;
		case 'M':
			if (opt_count(t, "-M", "opens", optarg, &o->max_events))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int opensnoop_main(int argc, char **argv)
{
	static const char *const sys[] = { "openat", "open", "openat2" };
	struct opensnoop_opts o = { 0 };
	struct opensnoop_run r = { .s = {
		"opens", OPENSNOOP_EMITTED, OPENSNOOP_UNTRACKED,
		"tracked: more than 10240 were in progress at once" } };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	char fn[3][64], ex[3][64];
	struct opensnoop_settings s = { 0 };
	int ret = 1, tps, i;

	tool_init(&t, "opensnoop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	tps = tool_syscall_way(&t, sys, 3, fn);
	if (tps < 0)
		return 1;
	for (i = 0; tps && i < 3; i++) {
		int have = tool_syscall_tracepoints(&t, sys[i]) > 0;

		snprintf(fn[i], 64, "%ssyscalls/sys_enter_%s",
			 have ? "" : "-", sys[i]);
		snprintf(ex[i], 64, "syscalls/sys_exit_%s", sys[i]);
	}
	s.tps = tps;
	s.fn = (const char (*)[64])fn;
	s.ex = (const char (*)[64])ex;
	s.pid = o.pid;
	s.tid = o.tid;
	s.filter_uid = o.uid_set ? o.uid : 0xffffffff;
	s.flags = o.flags;
	s.on_event = on_event;
	s.ctx = &r;
	if (opensnoop_start(&t, &s, &pb) < 0)
		goto out;

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing open()s through %s%s... Hit Ctrl-C to end.\n",
		     tps ? "syscall tracepoints" : "kprobes on ",
		     tps ? "" : fn[0]);
	if (!o.json)
		opensnoop_print_header(stdout, columns(&o));
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_opensnoop = {
	"opensnoop", opensnoop_main,
	"one line per open(): process, fd, error, path (syscall tracepoints)"
};
