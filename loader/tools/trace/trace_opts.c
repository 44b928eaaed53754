/* SPDX-License-Identifier: MIT */
/* barebpf trace's options and usage (trace.c runs the rest). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_tool.h"

static const char usage_line[] =
"usage: barebpf trace [-h] [-p PID] [-L TID] [-v] [-Z STRING_SIZE] [-S]\n"
"                     [-M MAX_EVENTS] [-t] [-T] [-C] [-n NAME] [-f MSG]\n"
"                     [-K] [-U] [-d DISK] [-j] [--duration SECS]\n"
"                     [--maxactive N] [--btf FILE] probe [probe ...]\n";

static const char usage[] =
"\n"
"Attach to kernel and user functions and tracepoints and print a line\n"
"per call, with a message made of arguments, return values or fields, if\n"
"a filter holds (bcc's trace, without LLVM: the probes set the constants\n"
"of one embedded BPF program).\n"
"\n"
"probe:  TYPE:FUNCTION [(FILTER)] [\"FORMAT\"[, VALUE]...]\n"
"  p::FUNC, FUNC       a kernel function's entry (FUNC may be a glob,\n"
"                      'blk_*freeze*'); needs kprobes\n"
"  r::FUNC             its return\n"
"  p:LIB:FUNC          a user-space function's entry (a uprobe; also\n"
"                      LIB:FUNC): LIB is a path (/usr/bin/x) or a\n"
"                      library's name (c is libc, found as bcc does;\n"
"                      with -p, the one that process maps)\n"
"  r:LIB:FUNC          its return\n"
"  u:LIB:PROBE, u:LIB:PROVIDER:PROBE\n"
"                      a USDT probe (a static probe of <sys/sdt.h>, in\n"
"                      `readelf -n LIB`; arg1..arg12 are its arguments)\n"
"  t:CATEGORY:EVENT    a tracepoint (see /sys/kernel/tracing/events)\n"
"  p::FUNC(struct sock *sk, int len)\n"
"                      a signature: names the arguments (sk is arg1) and\n"
"                      which point to a kernel struct: sk->MEMBER.MEMBER\n"
"                      reads a member (1, 2, 4 or 8 bytes) there\n"
"  VALUE               arg1..arg6 (p:), retval (r:), args->FIELD (t:),\n"
"                      $pid (thread), $tgid (process), $uid, $gid, $cpu;\n"
"                      an integer cast may come first: (int)retval.\n"
"                      argN and retval are signed longs; for a function\n"
"                      that returns int, filter on (int)retval.\n"
"                      argN@user: a pointer to user memory (%s)\n"
"                      ((struct sock *)VALUE)->MEMBER: a member of the\n"
"                      kernel struct VALUE points to (VALUE argN, retval\n"
"                      or a pointer field args->F). Where members lie\n"
"                      comes from the kernel's BTF or --btf FILE (-v says)\n"
"  FILTER              comparisons of a value with a number (== != < <=\n"
"                      > >=, value & MASK in parentheses), a bare value\n"
"                      (true if not 0), STRCMP(\"text\", value) (the\n"
"                      whole string, up to 62 characters), !; at most 4,\n"
"                      joined by && or by ||. Compared as C compares\n"
"                      (a long has 64 bits): an int -100 is not\n"
"                      4294967196 (a long) but is 0xffffff9c (an\n"
"                      unsigned int)\n"
"  FORMAT              %d %u %x %ld %lu %lx %lld %llu %llx %hd %hu %c %p\n"
"                      %s (a string: the value points to it, or a char[]\n"
"                      or __data_loc field holds it) %K (kernel symbol)\n"
"                      %U (user symbol), with flags - 0 and a width\n"
"  A %s is read from kernel or user memory: user first for arguments of\n"
"  system calls and syscalls:* tracepoints and argN@user, kernel first\n"
"  otherwise, and the other if that fails (5.5+; older kernels read both\n"
"  with one helper).\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -p, --pid PID         id of the process to trace\n"
"  -L, --tid TID         id of the thread to trace\n"
"  -v, --verbose         say what was detected, compiled and attached\n"
"  -Z, --string-size N   bytes to read of each string (default 80, max 256)\n"
"  -S, --include-self    do not leave out trace's own calls\n"
"  -M, --max-events N    stop after printing N events\n"
"  -t, --timestamp       print a timestamp column (seconds since start)\n"
"  -T, --time            print a time column (HH:MM:SS)\n"
"  -C, --print_cpu       print the CPU column\n"
"  -n, --name NAME       only processes whose name contains NAME\n"
"  -f, --msg-filter MSG  only events whose message contains MSG\n"
"  -K, --kernel-stack    print the kernel stack of each event\n"
"  -U, --user-stack      print the user stack of each event (symbols from\n"
"                        the process's ELF symbol tables; the program must\n"
"                        keep frame pointers for more than its first frames)\n"
"  -d, --disk DISK       only calls by tasks whose latest bio went to DISK\n"
"                        (learned from the block_bio_queue tracepoint)\n"
"  -j, --json            one JSON object per event\n"
"      --duration SECS   stop after this many seconds\n"
"      --btf FILE        the kernel's BTF, for struct members on a kernel\n"
"                        without /sys/kernel/btf/vmlinux (e.g. BTFhub's)\n"
"      --maxactive N     return probes: calls in flight at once (default:\n"
"                        the kernel's); raise it if returns are missed\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"\n"
"examples:\n"
"  barebpf trace do_sys_open\n"
"        the open syscall, a line per call\n"
"  barebpf trace 'do_sys_open \"%s\", arg2@user'\n"
"        and the file name opened (do_sys_openat2 from 5.6)\n"
"  barebpf trace 'vfs_read (arg3 > 20000) \"read %d bytes\", arg3'\n"
"        reads of more than 20000 bytes\n"
"  barebpf trace 'r::do_sys_open (retval < 0) \"failed: %d\", retval'\n"
"        opens that fail, with the error\n"
"  barebpf trace 'r::__kmalloc (retval == 0) \"kmalloc failed!\"'\n"
"        allocations that return NULL\n"
"  barebpf trace 't:block:block_rq_complete \"sectors=%d\", args->nr_sector'\n"
"        block requests completed, with their size\n"
"  barebpf trace 't:syscalls:sys_enter_openat (STRCMP(\"/etc/passwd\", "
"args->filename)) \"flags=%x\", args->flags'\n"
"        opens of one file\n"
"  barebpf trace 't:sched:sched_switch \"%s -> %s\", args->prev_comm, "
"args->next_comm'\n"
"        context switches\n"
"  barebpf trace 'p::tcp_v4_connect(struct sock *sk) \"%d\", "
"sk->__sk_common.skc_dport'\n"
"        IPv4 connects, with the port (network byte order)\n"
"  barebpf trace 't:sock:inet_sock_set_state (((struct sock *)args->skaddr)"
"->sk_state == 1) \"%d\", args->newstate'\n"
"        TCP sockets leaving ESTABLISHED (a member in a filter)\n"
"  barebpf trace -K blk_freeze_queue_start\n"
"        who freezes block queues, with kernel stacks\n"
"  barebpf trace -U -p 181 vfs_read vfs_write\n"
"        two functions, one process, user stacks\n"
"  barebpf trace -t -M 10 'r::vfs_read \"%ld\", retval'\n"
"        timestamps; stop after 10 events\n"
"  barebpf trace -p 181 'r:c:malloc \"%p\", retval'\n"
"        libc's malloc returns in one process (a uretprobe)\n"
"  barebpf trace 'u:/usr/bin/python3:function__entry \"%s %s\", arg1, arg2'\n"
"        Python functions entered, with their files (a USDT probe)\n";
static const struct tool_usage help = { usage_line, usage };

static int parse_num(struct tool_ctx *t, const char *opt, const char *what,
		     const char *arg, unsigned long max, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v || *v > max)
		return tool_fail(t, -EINVAL,
				 "%s needs %s, not '%s'", opt, what, arg);
	return 0;
}

int trace_parse_args(struct tool_ctx *t, struct trace_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "tid", required_argument, NULL, 'L' },
		{ "string-size", required_argument, NULL, 'Z' },
		{ "include-self", no_argument, NULL, 'S' },
		{ "max-events", required_argument, NULL, 'M' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "time", no_argument, NULL, 'T' },
		{ "print_cpu", no_argument, NULL, 'C' },
		{ "name", required_argument, NULL, 'n' },
		{ "msg-filter", required_argument, NULL, 'f' },
		{ "kernel-stack", no_argument, NULL, 'K' },
		{ "user-stack", no_argument, NULL, 'U' },
		{ "disk", required_argument, NULL, 'd' },
		{ "maxactive", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
				     .duration = &o->duration };
	int c, i, j;

	o->strsize = TRACE_STR_DEFAULT;
	while ((c = tool_getopt(t, argc, argv, "hp:L:vZ:SM:tTCn:f:KUd:j",
				longopts, &v)) > 0) {
		switch (c) {
		case 'p':
			if (parse_num(t, "-p", "a process id", optarg,
				      0x7fffffff, &o->pid) ||
			    tool_need_pid(t, o->pid))
				return -EINVAL;
			break;
		case 'L':
			if (parse_num(t, "-L", "a thread id", optarg,
				      0x7fffffff, &o->tid) ||
			    tool_need_pid(t, o->tid))
				return -EINVAL;
			break;
		case 'Z':
			if (parse_num(t, "-Z", "a string size from 1 to 256",
				      optarg, TRACE_STR_MAX, &o->strsize))
				return -EINVAL;
			break;
		case 'S': o->include_self = 1; break;
		case 'M':
			if (parse_num(t, "-M", "a number of events > 0",
				      optarg, ~0UL, &o->max_events))
				return -EINVAL;
			break;
		case 't': o->timestamp = 1; break;
		case 'T': o->time = 1; break;
		case 'C': o->cpu = 1; break;
		case 'n': o->name = optarg; break;
		case 'f': o->msg = optarg; break;
		case 'K': o->kstack = 1; break;
		case 'U': o->ustack = 1; break;
		case 'd': o->disk = optarg; break;
		case TOOL_OPT_FIRST_OWN:
			if (opt_maxactive(t, optarg, &o->maxactive))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	if (o->pid && o->tid)
		return tool_fail(t, -EINVAL,
				 "only one of -p and -L may be given");
	if (o->disk && disk_kdev(o->disk, &o->kdev) < 0)
		return tool_unknown_disk(t, o->disk);
	if (optind >= argc) {
		fputs(usage_line, stderr);
		return tool_fail(t, -EINVAL,
				 "a probe is needed (a kernel function or "
				 "t:CATEGORY:EVENT)");
	}
	if (argc - optind > TRACE_MAX_PROBES)
		return tool_fail(t, -EINVAL,
				 "at most %d probes", TRACE_MAX_PROBES);
	o->probes = calloc(argc - optind, sizeof(*o->probes));
	if (!o->probes)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (i = optind; i < argc; i++) {
		struct trace_probe *p = &o->probes[o->nprobes];
		struct bb_err err = { "" };

		if (trace_spec_parse(argv[i], &p->spec, &err) < 0)
			return tool_fail(t, -EINVAL, "%s", err.msg);
		p->arg = argv[i];
		for (j = 0; j < o->nprobes; j++)
			if (!strcmp(o->probes[j].arg, argv[i]))
				return tool_fail(t, -EINVAL,
						 "'%s' is given twice",
						 argv[i]);
		o->nprobes++;
	}
	return 0;
}
