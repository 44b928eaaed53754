/* SPDX-License-Identifier: MIT */
/*
 * barebpf: BPF tracing for legacy and embedded Linux (4.9+), one static
 * binary. `barebpf TOOL ...`, or a link named after the tool (busybox
 * style).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "facts.h"

/* The tools, in the order --help lists them: each defines `const struct
 * tool tool_<name>` in loader/tools/<name>.c, or <name>/<name>.c for a
 * tool of several files. Weakly: a binary of some tools (make
 * TOOLS="...") links only those, and the others are NULL. */
#define TOOLS(X)                                                               \
	X(biolatency) X(funclatency) X(features) X(run) X(trace) X(freeze)     \
	X(qenter) X(slowbio) X(biosnoop) X(exporter) X(execsnoop)              \
	X(opensnoop) X(funccount) X(vfsstat) X(breakdown) X(profile)          \
	X(offcputime) X(runqlen) X(runqlat) X(cpudist) X(killsnoop)     \
	X(syscount) X(hardirqs) X(softirqs) X(oomkill) X(exitsnoop) \
	X(bitesize) X(biotop) X(drsnoop) X(cachestat) X(fsslower)          \
	X(ext4slower) X(xfsslower) X(btrfsslower) X(nfsslower) X(f2fsslower)  \
	X(fsdist) X(ext4dist) X(xfsdist) X(btrfsdist) \
	X(tcpconnect) X(tcpaccept) \
	X(tcpstates) X(tcplife) X(tcpretrans) X(tcpdrop)

#define DECLARE(name) extern const struct tool tool_##name __attribute__((weak));
#define ENTRY(name) &tool_##name,
TOOLS(DECLARE)
static const struct tool *const tools[] = { TOOLS(ENTRY) };
#define NTOOLS (int)(sizeof(tools) / sizeof(tools[0]))

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: barebpf TOOL [options...]   (or call a link named TOOL)\n"
		"       barebpf --help | --version | --list-tools\n"
		"\n"
		"BPF tracing for Linux " BB_FLOOR " and later (every tool from "
		BB_FLOOR_ALL "): no libbpf,\n"
		"BTF, LLVM or kernel headers needed on the host. Run as root.\n"
		"Probes: kernel functions (kprobes), tracepoints, user-space\n"
		"functions of programs and libraries (uprobes: trace p:LIB:FUNC,\n"
		"funccount/funclatency LIB:FUNC) and USDT probes (trace\n"
		"u:LIB:PROBE), perf sampling (profile), and your own BPF objects\n"
		"(run, kprobe/, tracepoint/, uprobe/, perf_event sections).\n"
		"\n"
		"tools:\n");
	for (i = 0; i < NTOOLS; i++)
		if (tools[i])
			fprintf(f, "  %-12s %s\n", tools[i]->name,
				tools[i]->summary);
	fprintf(f,
		"\n"
		"`barebpf TOOL --help` explains each tool. Environment:\n"
		"  BAREBPF_KERN_VERSION  kernel version for kprobe programs, if\n"
		"                        the detected one is wrong (e.g. 4.15.18)\n"
		"  BAREBPF_KPROBES=tracefs  make kprobes through tracefs\n"
		"                        kprobe_events even where the perf kprobe\n"
		"                        PMU (4.17+) would remove them by itself\n"
		"  BAREBPF_UPROBES=tracefs  the same for uprobes (uprobe_events\n"
		"                        instead of the perf uprobe PMU, 4.17+)\n"
		"  BAREBPF_SYSCALLS=kprobes  execsnoop, opensnoop: kprobes on the\n"
		"                        syscall functions even where the syscall\n"
		"                        tracepoints exist\n"
		"  BAREBPF_RING_PAGES=N  pages per CPU of the event rings (a power\n"
		"                        of two, 1 to 65536), fixed; default: 2 MiB\n"
		"                        at start, scaled to the memory once tracing\n"
		"  BAREBPF_LDCACHE=FILE  the ld.so.cache that names libraries\n"
		"                        (p:c:malloc), instead of /etc/ld.so.cache\n"
		"  BAREBPF_FIELDS=discover[:PATH,...]  find kernel structure\n"
		"                        fields (rq.nr_running) at run time even\n"
		"                        where BTF places them, to check one\n"
		"                        against the other\n"
		"  BAREBPF_RUNQLEN_RQ=btf|tracepoint  runqlen: find the run\n"
		"                        queues that way, not from /proc/kallsyms\n"
		"  BAREBPF_RUNQLEN_CPU=map  runqlen: each CPU's number from a\n"
		"                        per-CPU map, not the helper (riscv64 7.x\n"
		"                        without the JIT)\n"
		"  BAREBPF_EXITSNOOP_TASK=tracepoint  exitsnoop: the task from the\n"
		"                        raw tracepoint's argument, not the helper\n"
		"                        (riscv64 7.x without the JIT)\n"
		"  BAREBPF_TCP=kprobes  tcpstates, tcplife, tcpretrans: kprobes\n"
		"                        and struct sock, not the tracepoints\n"
		"                        (to check one way against the other)\n"
		"  BAREBPF_TCPDROP=location  tcpdrop: skb:kfree_skb by its\n"
		"                        location in tcp functions, as before\n"
		"                        5.17, not by its reason; =kprobe:FUNC\n"
		"                        its kprobe on FUNC(sk, skb) instead of\n"
		"                        tcp_drop (a test's, where it is inlined)\n"
		"  BAREBPF_DEBUG_ROOT=DIR  where separate debug files of stripped\n"
		"                        binaries are looked for, instead of\n"
		"                        /usr/lib/debug\n");
}

/*
 * Started with stdin or stderr closed (`>&-`, a careless daemon manager),
 * the first descriptors we open would take their numbers: a BPF map on fd
 * 1 took the histogram's text, and the tool failed an interval later
 * ("writing the output failed (Invalid argument)"). Put /dev/null there
 * before anything opens a descriptor. A closed stdout is left closed:
 * tool_stdio_init refuses it, since the output would be lost.
 */
static void stdio_fds_open(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd += 2) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		/* open() takes the lowest free number: this one */
		if (open("/dev/null", O_RDWR) != fd)
			exit(1); /* and maybe nowhere to say why */
	}
}

/* A tool's run: getopt names the program by argv[0] in its messages
 * ("unrecognized option"), which are then prefixed like ours. */
static int run_tool(const struct tool *t, int argc, char **argv)
{
	static char name[64];
	int ret;

	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("barebpf %s\n", BB_VERSION);
		return 0;
	}
	snprintf(name, sizeof(name), "barebpf %s", t->name);
	argv[0] = name;
	ret = t->main(argc, argv);
	/* a path that returned early (funccount on a pattern that matched
	 * nothing) must not leave a tracefs mount behind: see tool_cleanup */
	tracefs_unmount_owed();
	return tool_exit(t->name, ret);
}

static const struct tool *find_tool(const char *name)
{
	int i;

	for (i = 0; i < NTOOLS; i++)
		if (tools[i] && !strcmp(tools[i]->name, name))
			return tools[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const struct tool *t;
	int i;

	stdio_fds_open();
	base = base ? base + 1 : argv[0];
	tool_stdio_init();
	t = find_tool(base);
	if (t) /* busybox style: called through a link named after the tool */
		return run_tool(t, argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("barebpf %s\n", BB_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--list-tools")) {
		for (i = 0; i < NTOOLS; i++)
			if (tools[i])
				printf("%s\n", tools[i]->name);
		return 0;
	}
	t = find_tool(argv[1]);
	if (!t) {
		fprintf(stderr, "barebpf: unknown tool '%s'\n\n", argv[1]);
		usage(stderr);
		return 1;
	}
	return run_tool(t, argc - 1, argv + 1);
}
