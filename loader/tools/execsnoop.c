/* SPDX-License-Identifier: MIT */
/* barebpf execsnoop: one line per exec(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "progs.h"
#include "../../bpf/execsnoop.h"

static const char usage[] =
"usage: barebpf execsnoop [-h] [-T] [-t] [-x] [-q] [-U] [-j] [-n NAME]\n"
"                         [-l LINE] [-u UID] [--max-args N] [-M N]\n"
"                         [--duration SECONDS]\n"
"\n"
"Trace new processes via exec() syscalls (execve, execveat): one line\n"
"per exec as it returns, bcc's columns:\n"
"\n"
"  PCOMM  the process name after the exec (before it, if it failed)\n"
"  PID    process id\n"
"  PPID   parent process id: from the fork, if it happened while\n"
"         tracing, else from /proc/PID/status; '?' if the process was\n"
"         gone before that could be read\n"
"  RET    0, or the negative errno of a failed exec (shown with -x)\n"
"  ARGS   the file name the exec was given, then argv[1...], at most\n"
"         --max-args of them, each cut at 127 bytes; '...' if more\n"
"\n"
"It uses the syscalls:sys_enter/exit_execve(at) tracepoints (a successful\n"
"exec ends at sched:sched_process_exec), or, where\n"
"the kernel was built without them (CONFIG_FTRACE_SYSCALLS), kprobes on\n"
"the syscall functions (sys_execve, __x64_sys_execve, ...), from Linux\n"
"4.15 on; BAREBPF_SYSCALLS=kprobes uses the kprobes anyway. The parent\n"
"comes from the sched:sched_process_fork tracepoint (no BTF needed); the\n"
"summary at exit says how many parents came from where. If the reader\n"
"falls behind, the kernel drops records: they are counted and reported.\n"
"A tracing program cannot fault pages in: an argument the process has\n"
"not touched since its fork (a string constant of the program that\n"
"forked) shows empty, as in bcc.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -T, --time            include a time column (HH:MM:SS)\n"
"  -t, --timestamp       include a timestamp column (seconds since start)\n"
"  -x, --fails           include failed exec()s\n"
"  -q, --quote           add \"quotemarks\" around arguments\n"
"  -U, --print-uid       include a UID column\n"
"  -j, --json            one JSON object per exec (lines)\n"
"  -n, --name NAME       only print commands whose name matches NAME\n"
"                        (extended regex)\n"
"  -l, --line LINE       only print commands whose arguments match LINE\n"
"                        (extended regex)\n"
"  -u, --uid UID         only trace this user (number or name)\n"
"      --max-args N      arguments read and shown, at most 20 (default 20)\n"
"  -M, --max-events N    exit after printing N execs\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf execsnoop              # trace all exec() syscalls\n"
"  barebpf execsnoop -x           # include failed exec()s\n"
"  barebpf execsnoop -T           # include time (HH:MM:SS)\n"
"  barebpf execsnoop -t           # include timestamps\n"
"  barebpf execsnoop -q           # add \"quotemarks\" around arguments\n"
"  barebpf execsnoop -n main      # only commands whose name has \"main\"\n"
"  barebpf execsnoop -l tpkg      # only commands whose arguments have \"tpkg\"\n"
"  barebpf execsnoop -u 1000      # only trace UID 1000\n"
"  barebpf execsnoop --max-args 5 # at most 5 arguments\n"
"  barebpf execsnoop -j --duration 60  # JSON lines for a minute\n";
static const struct tool_usage help = { NULL, usage };

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
	uint64_t received, printed, short_records;
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

/* bcc: the arguments joined by spaces, '\n' as "\n", -q quoted */
static void args_text(const struct execsnoop_event *e, unsigned n, int quote,
		      char *out, size_t len)
{
	char buf[EXECSNOOP_ARGSIZE];
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
		for (; *s && k + 4 < len; s++) {
			if (*s == '\n') {
				out[k++] = '\\';
				out[k++] = 'n';
			} else if (quote && *s == '"') {
				out[k++] = '\\';
				out[k++] = '"';
			} else {
				out[k++] = *s;
			}
		}
		if (quote)
			out[k++] = '"';
	}
	out[k] = 0;
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct execsnoop_run *r = ctx;
	struct execsnoop_opts *o = r->o;
	static struct execsnoop_event e;
	char comm[sizeof(e.comm) + 1], buf[EXECSNOOP_ARGSIZE];
	static char line[EXECSNOOP_MAXARGS * (2 * EXECSNOOP_ARGSIZE + 3) + 8];
	unsigned n, ppid, i;
	const char *from;

	(void)cpu;
	if (size < EXECSNOOP_HDR) {
		r->short_records++;
		return;
	}
	memset(&e, 0, sizeof(e));
	memcpy(&e, data, size < sizeof(e) ? size : sizeof(e));
	r->received++;
	n = e.nargs;
	if (n > EXECSNOOP_MAXARGS)
		n = EXECSNOOP_MAXARGS;
	if (EXECSNOOP_HDR + n * EXECSNOOP_ARGSIZE > size) {
		r->short_records++;
		return;
	}
	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	if (o->name_set && regexec(&o->name, comm, 0, NULL, 0))
		return;
	if (o->line_set) {
		args_text(&e, n, 0, line, sizeof(line));
		if (regexec(&o->line, line, 0, NULL, 0))
			return;
	}
	if (o->max_events && r->printed >= o->max_events)
		return;
	ppid = e.ppid;
	from = "fork";
	if (!(e.flags & EXECSNOOP_F_PPID)) {
		ppid = proc_ppid(e.pid);
		from = ppid ? "proc" : NULL;
	}
	if (!from)
		r->unknown++;
	else if (*from == 'f')
		r->from_fork++;
	else
		r->from_proc++;
	if (o->json) {
		printf("{\"time\":\"%s\",\"ts\":%.6f,\"comm\":", now_hms(),
		       e.ts / 1e9 - r->t0);
		json_str(stdout, comm);
		printf(",\"pid\":%u,\"ppid\":", e.pid);
		if (from)
			printf("%u,\"ppid_from\":\"%s\"", ppid, from);
		else
			printf("null,\"ppid_from\":null");
		printf(",\"uid\":%u,\"ret\":%d,\"args\":[", e.uid, e.ret);
		for (i = 0; i < n; i++) {
			if (i)
				putchar(',');
			json_str(stdout, arg_at(&e, i, buf));
		}
		printf("],\"truncated\":%s}\n",
		       e.flags & EXECSNOOP_F_TRUNCATED ? "true" : "false");
	} else {
		char ps[16] = "?";

		if (o->time)
			printf("%-9s", now_hms());
		if (o->timestamp)
			printf("%-8.3f", e.ts / 1e9 - r->t0);
		if (o->print_uid)
			printf("%-6u", e.uid);
		if (from)
			snprintf(ps, sizeof(ps), "%u", ppid);
		args_text(&e, n, o->quote, line, sizeof(line));
		printf("%-16s %-7u %-7s %3d %s\n", comm, e.pid, ps, e.ret,
		       line);
	}
	r->printed++;
	if (o->max_events && r->printed >= o->max_events)
		bb_stop = 1;
	tool_output_failed();
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
	int stats_fd = obj_map(t->obj, "stats")->fd;
	uint64_t untracked = 0, lost;

	tool_detach_drain(t, pb, NULL, NULL);
	lost = tool_ring_lost(t, pb, "stats", EXECSNOOP_EMITTED, r->received, NULL);
	bpf_map_sum_percpu_u64(stats_fd, EXECSNOOP_UNTRACKED, &untracked);
	fprintf(stderr, "barebpf execsnoop: %llu execs printed, %llu lost; "
		"parent from fork %llu, from /proc %llu, unknown %llu\n",
		(unsigned long long)r->printed, (unsigned long long)lost,
		(unsigned long long)r->from_fork,
		(unsigned long long)r->from_proc,
		(unsigned long long)r->unknown);
	if (lost)
		tool_error(t, "warning: %llu execs were not printed: the "
			   "reader fell behind and the kernel dropped their "
			   "records", (unsigned long long)lost);
	if (untracked)
		tool_error(t, "warning: %llu execs were not printed: another "
			   "exec in progress at the same time took their slot "
			   "(one of 512, by thread id), or a thread's exec "
			   "returned as its process' leader",
			   (unsigned long long)untracked);
	if (r->short_records)
		tool_error(t, "warning: %llu records were too short (a "
			   "mismatched build?)",
			   (unsigned long long)r->short_records);
}

static int execsnoop_main(int argc, char **argv)
{
	static const char *const sys[] = { "execve", "execveat" };
	struct execsnoop_opts o = { 0 };
	struct execsnoop_run r = { 0 };
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
	tps = tool_syscall_tracepoints(&t, "execve");
	if (tps < 0)
		goto out_re;
	if (tps) {
		execveat = tool_syscall_tracepoints(&t, "execveat") > 0;
		strcpy(fn[0], "syscalls/sys_enter_execve");
		strcpy(fn[1], "syscalls/sys_enter_execveat");
	} else {
		if (tool_need_kprobes(&t) < 0 ||
		    tool_syscall_funcs(&t, sys, 2, fn) < 0)
			goto out_re;
		if (!fn[0][0]) {
			tool_error(&t, "this kernel has no syscall tracepoints "
				   "and no execve function in /proc/kallsyms");
			goto out_re;
		}
		execveat = fn[1][0] != 0;
	}
	if (t.verbose)
		fprintf(stderr, "exec()s through %s\n", tps ?
			"the syscall tracepoints" : "kprobes");
	s.tps = tps;
	s.execveat = execveat;
	s.fn = (const char (*)[64])fn;
	s.filter_uid = o.uid_set ? o.uid : 0xffffffff;
	s.fails = o.fails;
	s.max_args = o.max_args;
	s.on_event = on_event;
	s.ctx = &r;
	if (execsnoop_start(&t, &s, &pb) < 0)
		goto out;

	r.t0 = now_mono();
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing exec()s through %s%s... Hit Ctrl-C to end.\n",
		     tps ? "syscall tracepoints" : "kprobes on ",
		     tps ? "" : fn[0]);
	if (!o.json) {
		if (o.time)
			printf("%-9s", "TIME");
		if (o.timestamp)
			printf("%-8s", "TIME(s)");
		if (o.print_uid)
			printf("%-6s", "UID");
		printf("%-16s %-7s %-7s %3s %s\n", "PCOMM", "PID", "PPID",
		       "RET", "ARGS");
	}
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
