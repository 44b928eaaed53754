/* SPDX-License-Identifier: MIT */
/* barebpf execsnoop: one line per exec(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "facts.h"
#include "outrec.h"
#include "output.h"
#include "stream.h"
#include "execsnoop_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "execsnoop" };

struct execsnoop_opts {
	int time, timestamp, fails, quote, print_uid, json, name_set, line_set;
	regex_t name, line;
	unsigned long max_args, max_events, uid;
	int uid_set;
	double duration;
};

struct execsnoop_run {
	struct execsnoop_opts *o;
	double t0;
	struct tool_stream s;
	uint64_t from_fork, from_proc, unknown;
};

/* PPid from /proc/PID/status: 0 if unknown */
static unsigned int proc_ppid(unsigned int pid)
{
	char path[64], line[128];
	unsigned int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "PPid:", 5)) {
			ppid = strtoul(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return ppid;
}

/* Argument i, NUL-terminated within its slot */
static const char *arg_at(const struct execsnoop_event *e, unsigned i,
			  char *buf)
{
	memcpy(buf, e->args[i], EXECSNOOP_ARGSIZE);
	buf[EXECSNOOP_ARGSIZE - 1] = 0;
	return buf;
}

void execsnoop_args_text(const struct execsnoop_event *e, unsigned n,
			 int quote, char *out, size_t len)
{
	char buf[EXECSNOOP_ARGSIZE], esc[4 * EXECSNOOP_ARGSIZE];
	size_t k = 0;
	unsigned i;

	for (i = 0; i <= n && k + 8 < len; i++) {
		const char *s = i < n ? arg_at(e, i, buf) : "...";

		if (i == n && !(e->flags & EXECSNOOP_F_TRUNCATED))
			break;
		if (i)
			out[k++] = ' ';
		if (quote)
			out[k++] = '"';
		/* escaped once, here: the column is printed as it is */
		esc_text(esc, sizeof(esc), s, strlen(s));
		for (s = esc; *s && k + 4 < len; s++) {
			if (quote && *s == '"')
				out[k++] = '\\';
			out[k++] = *s;
		}
		if (quote)
			out[k++] = '"';
	}
	out[k] = 0;
}

/*
 * What -l matches, as bcc's does: the raw bytes of the arguments joined by
 * spaces (not the escaped text: a backslash or an ESC in an argument is
 * matched by the same byte in LINE, not by its escape), and "..." after
 * them if there were more (bcc sends it as an argument).
 */
static void args_raw(const struct execsnoop_event *e, unsigned n, char *out,
		     size_t len)
{
	char buf[EXECSNOOP_ARGSIZE];
	size_t k = 0, m;
	unsigned i;

	for (i = 0; i <= n; i++) {
		const char *s = i < n ? arg_at(e, i, buf) : "...";

		if (i == n && !(e->flags & EXECSNOOP_F_TRUNCATED))
			break;
		m = strlen(s);
		if (k + 1 + m + 1 > len)
			break;
		if (i)
			out[k++] = ' ';
		memcpy(out + k, s, m);
		k += m;
	}
	out[k] = 0;
}

/* The record, once: bcc's columns, and the JSON keys. */
enum {
	F_TIME, F_JTIME, F_TS, F_JTS, F_UID, F_COMM, F_PID, F_PPID, F_FROM,
	F_JUID, F_RET, F_ARGS, F_JARGS, F_TRUNC, F_N
};
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", NULL, OUT_STR, -9, 0, 0, 1, EXECSNOOP_COL_TIME,
		     NULL },
	[F_JTIME] = { NULL, "time", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_TS] = { "TIME(s)", NULL, OUT_DBL, -8, 3, 0, 1, EXECSNOOP_COL_TS,
		   NULL },
	[F_JTS] = { NULL, "ts", OUT_DBL, 0, 0, 6, 0, 0, NULL },
	[F_UID] = { "UID", NULL, OUT_UINT, -6, 0, 0, 1, EXECSNOOP_COL_UID,
		    NULL },
	[F_COMM] = { "PCOMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_PPID] = { "PPID", "ppid", OUT_UINT, -7, 0, 0, 0, 0, "?" },
	[F_FROM] = { NULL, "ppid_from", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_JUID] = { NULL, "uid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_RET] = { "RET", "ret", OUT_INT, 3, 0, 0, 0, 0, NULL },
	[F_ARGS] = { "ARGS", NULL, OUT_RAW, 0, 0, 0, 1, 0, NULL },
	[F_JARGS] = { NULL, "args", OUT_STRV, 0, 0, 0, 0, 0, NULL },
	[F_TRUNC] = { NULL, "truncated", OUT_BOOL, 0, 0, 0, 0, 0, NULL },
};

void execsnoop_print_header(FILE *f, unsigned mask)
{
	out_head(f, fields, F_N, mask);
}

void execsnoop_print(FILE *f, const struct execsnoop_event *e,
		     const struct execsnoop_line *l, unsigned mask, int json)
{
	static char line[EXECSNOOP_LINE];
	static char args[EXECSNOOP_MAXARGS][EXECSNOOP_ARGSIZE];
	const char *argv[EXECSNOOP_MAXARGS];
	char comm[sizeof(e->comm) + 1];
	struct out_val v[F_N] = { 0 };
	unsigned i, n = l->nargs;

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].s = v[F_JTIME].s = l->hms;
	v[F_TS].d = v[F_JTS].d = l->ts;
	v[F_UID].u = v[F_JUID].u = e->uid;
	v[F_COMM].s = comm;
	v[F_PID].u = e->pid;
	v[F_PPID].u = l->ppid;
	v[F_PPID].none = v[F_FROM].none = !l->from;
	v[F_FROM].s = l->from;
	v[F_RET].i = e->ret;
	if (json) {
		for (i = 0; i < n; i++)
			argv[i] = arg_at(e, i, args[i]);
		v[F_JARGS].sv = argv;
		v[F_JARGS].n = n;
		v[F_TRUNC].u = !!(e->flags & EXECSNOOP_F_TRUNCATED);
	} else {
		execsnoop_args_text(e, n, l->quote, line, sizeof(line));
		v[F_ARGS].s = line;
	}
	out_row(f, fields, F_N, mask, v, json);
}

static unsigned columns(const struct execsnoop_opts *o)
{
	return (o->time ? OUT_BIT(EXECSNOOP_COL_TIME) : 0) |
	       (o->timestamp ? OUT_BIT(EXECSNOOP_COL_TS) : 0) |
	       (o->print_uid ? OUT_BIT(EXECSNOOP_COL_UID) : 0);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct execsnoop_run *r = ctx;
	struct execsnoop_opts *o = r->o;
	static struct execsnoop_event e;
	static char line[EXECSNOOP_LINE];
	char comm[sizeof(e.comm) + 1];
	struct execsnoop_line l;
	unsigned n;

	(void)cpu;
	if (size < EXECSNOOP_HDR) {
		r->s.short_records++;
		return;
	}
	memset(&e, 0, sizeof(e));
	memcpy(&e, data, size < sizeof(e) ? size : sizeof(e));
	r->s.received++;
	n = e.nargs;
	if (n > EXECSNOOP_MAXARGS)
		n = EXECSNOOP_MAXARGS;
	if (EXECSNOOP_HDR + n * EXECSNOOP_ARGSIZE > size) {
		r->s.short_records++;
		return;
	}
	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	if (o->name_set && regexec(&o->name, comm, 0, NULL, 0))
		return;
	if (o->line_set) {
		args_raw(&e, n, line, sizeof(line));
		if (regexec(&o->line, line, 0, NULL, 0))
			return;
	}
	if (o->max_events && r->s.printed >= o->max_events)
		return;
	l.ppid = e.ppid;
	l.from = "fork";
	if (!(e.flags & EXECSNOOP_F_PPID)) {
		l.ppid = proc_ppid(e.pid);
		l.from = l.ppid ? "proc" : NULL;
	}
	if (!l.from)
		r->unknown++;
	else if (*l.from == 'f')
		r->from_fork++;
	else
		r->from_proc++;
	l.hms = now_hms();
	l.ts = e.ts / 1e9 - r->t0;
	l.nargs = n;
	l.quote = o->quote;
	execsnoop_print(stdout, &e, &l, columns(o), o->json);
	r->s.printed++;
	if (o->max_events && r->s.printed >= o->max_events)
		bb_stop = 1;
	tool_output_failed();
}

/*
 * The old kernels' records (EXECSNOOP_CHUNK, execsnoop.bpf.c): the chunks
 * of one event come one after the other on one CPU; put together per CPU
 * (a slot per CPU, 64 at most: beyond, CPUs share a slot and a mix of two
 * events is dropped as a short record).
 */
#define CHUNK_SLOTS 64
static struct {
	unsigned int tid, next;
	unsigned char ev[sizeof(struct execsnoop_event)];
} chunk_slot[CHUNK_SLOTS];

static void on_chunk(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct execsnoop_run *r = ctx;
	struct execsnoop_chunk c;
	unsigned off;

	if (size < sizeof(c)) {
		r->s.short_records++;
		return;
	}
	memcpy(&c, data, sizeof(c));
	cpu &= CHUNK_SLOTS - 1;
	off = c.idx * EXECSNOOP_CHUNK;
	if (c.size > sizeof(chunk_slot[cpu].ev) || off >= c.size ||
	    (c.idx && (chunk_slot[cpu].tid != c.tid ||
		       chunk_slot[cpu].next != c.idx))) {
		r->s.short_records++;
		chunk_slot[cpu].next = 0;
		return;
	}
	chunk_slot[cpu].tid = c.tid;
	chunk_slot[cpu].next = c.idx + 1;
	memcpy(chunk_slot[cpu].ev + off, c.data,
	       c.size - off < EXECSNOOP_CHUNK ? c.size - off : EXECSNOOP_CHUNK);
	if (off + EXECSNOOP_CHUNK >= c.size) {
		chunk_slot[cpu].next = 0;
		on_event(ctx, cpu, chunk_slot[cpu].ev, c.size);
	}
}

/* -u: a number, or a name in /etc/passwd */
static int parse_uid(const char *s, unsigned long *uid)
{
	char line[512];
	size_t len = strlen(s);
	FILE *f;

	if (parse_ulong(s, uid) == 0)
		return 0;
	f = fopen("/etc/passwd", "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + len;

		if (strncmp(line, s, len) || *p != ':')
			continue;
		p = strchr(p + 1, ':');
		if (p && parse_ulong(strtok(p + 1, ":"), uid) == 0) {
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

static int compile(struct tool_ctx *t, regex_t *re, const char *opt,
		   const char *s)
{
	if (regcomp(re, s, REG_EXTENDED | REG_NOSUB))
		return tool_fail(t, -EINVAL,
				 "%s '%s': not a valid extended regular "
				 "expression", opt, s);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct execsnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "time", no_argument, NULL, 'T' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "fails", no_argument, NULL, 'x' },
		{ "quote", no_argument, NULL, 'q' },
		{ "print-uid", no_argument, NULL, 'U' },
		{ "name", required_argument, NULL, 'n' },
		{ "line", required_argument, NULL, 'l' },
		{ "uid", required_argument, NULL, 'u' },
		{ "max-args", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ "max-events", required_argument, NULL, 'M' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	o->max_args = EXECSNOOP_MAXARGS;
	while ((c = tool_getopt(t, argc, argv, "hTtxqUjn:l:u:M:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->time = 1; break;
		case 't': o->timestamp = 1; break;
		case 'x': o->fails = 1; break;
		case 'q': o->quote = 1; break;
		case 'U': o->print_uid = 1; break;
		case 'n':
			if (o->name_set || compile(t, &o->name, "-n", optarg))
				return -EINVAL;
			o->name_set = 1;
			break;
		case 'l':
			if (o->line_set || compile(t, &o->line, "-l", optarg))
				return -EINVAL;
			o->line_set = 1;
			break;
		case 'u':
			if (parse_uid(optarg, &o->uid) < 0 ||
			    o->uid >= 0xffffffffUL)
				return tool_fail(t, -EINVAL,
						 "-u '%s': not a UID nor a "
						 "user in /etc/passwd", optarg);
			o->uid_set = 1;
			break;
		case TOOL_OPT_FIRST_OWN:
			if (parse_ulong(optarg, &o->max_args) < 0 ||
			    !o->max_args || o->max_args > EXECSNOOP_MAXARGS)
				return tool_fail(t, -EINVAL,
						 "--max-args '%s': give 1 "
						 "to %d", optarg,
						 EXECSNOOP_MAXARGS);
			break;
		case 'M':
			if (opt_count(t, "-M", "execs", optarg, &o->max_events))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static void finish(struct tool_ctx *t, struct execsnoop_run *r,
		   struct bb_perfbuf *pb)
{
	char more[128];

	tool_stream_finish(t, &r->s, pb, NULL, NULL);
	snprintf(more, sizeof(more), "; parent from fork %llu, from /proc "
		 "%llu, unknown %llu", (unsigned long long)r->from_fork,
		 (unsigned long long)r->from_proc,
		 (unsigned long long)r->unknown);
	tool_stream_report(t, &r->s, more, NULL);
}

static int execsnoop_main(int argc, char **argv)
{
	static const char *const sys[] = { "execve", "execveat" };
	struct execsnoop_opts o = { 0 };
	struct execsnoop_run r = { .s = {
		"execs", EXECSNOOP_EMITTED, EXECSNOOP_UNTRACKED,
		"printed: another exec in progress at the same time took "
		"their slot (one of 512, by thread id), or a thread's exec "
		"returned as its process' leader" } };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	struct tool_timer tm;
	char fn[2][64];
	struct execsnoop_settings s = { 0 };
	int ret = 1, tps, execveat;

	tool_init(&t, "execsnoop");
	if (parse_args(&t, &o, argc, argv))
		goto out_re;
	r.o = &o;
	tool_signals();
	tps = tool_syscall_way(&t, sys, 2, fn);
	if (tps < 0)
		goto out_re;
	if (tps) {
		execveat = tool_syscall_tracepoints(&t, "execveat") > 0;
		strcpy(fn[0], "syscalls/sys_enter_execve");
		strcpy(fn[1], "syscalls/sys_enter_execveat");
	} else {
		execveat = fn[1][0] != 0;
	}
	if (t.verbose)
		fprintf(stderr, "exec()s through %s\n", tps ?
			"the syscall tracepoints" : "kprobes");
	s.old = execsnoop_sends_chunks();
	if (t.verbose && s.old)
		fprintf(stderr, "no bpf_probe_read_str (4.11): arguments read "
			"%d bytes at a time\n", EXECSNOOP_ARGSIZE);
	s.tps = tps;
	s.execveat = execveat;
	s.fn = (const char (*)[64])fn;
	s.filter_uid = o.uid_set ? o.uid : 0xffffffff;
	s.fails = o.fails;
	s.max_args = o.max_args;
	s.on_event = s.old ? on_chunk : on_event;
	s.ctx = &r;
	if (execsnoop_start(&t, &s, &pb) < 0)
		goto out;

	r.t0 = bb_now_mono();
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing exec()s through %s%s... Hit Ctrl-C to end.\n",
		     tps ? "syscall tracepoints" : "kprobes on ",
		     tps ? "" : fn[0]);
	if (!o.json)
		execsnoop_print_header(stdout, columns(&o));
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		;
	finish(&t, &r, pb);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
out_re:
	if (o.name_set)
		regfree(&o.name);
	if (o.line_set)
		regfree(&o.line);
	return ret;
}

const struct tool tool_execsnoop = {
	"execsnoop", execsnoop_main,
	"one line per exec(): process, parent, return, arguments (syscall "
	"tracepoints)"
};
