/* SPDX-License-Identifier: MIT */
/* barebpf tcpdrop: TCP segments the kernel dropped, bcc's columns, with
 * the kernel stack and (skb:kfree_skb) the reason. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "stream.h"
#include "tcpdrop_out.h"
#include "mods.h"

static const char usage[] =
"usage: barebpf tcpdrop [-h] [-4 | -6] [-j] [--duration SECONDS]\n"
"                       [--btf FILE]\n"
"\n"
"Trace TCP drops by the kernel: one line per dropped segment, bcc's\n"
"columns, then the kernel stack of the drop, one frame a line:\n"
"\n"
"  TIME         when (HH:MM:SS)\n"
"  PID          the process running then (often not the socket's owner:\n"
"               segments are received in softirq)\n"
"  IP           4 or 6\n"
"  SADDR:SPORT  the segment's source (for a received one: the remote end)\n"
"  DADDR:DPORT  its destination\n"
"  STATE        the socket's TCP state; - where the kernel names none: no\n"
"               socket took the segment (NO_SOCKET), or the tracepoint\n"
"               before 6.12 (no rx_sk) for a received one\n"
"  (FLAGS)      the TCP header's flags (SYN|ACK, ...)\n"
"  REASON       why, as the kernel names it (NO_SOCKET, TCP_CSUM,\n"
"               TCP_INVALID_SEQUENCE, ...): where it gives one (5.17+)\n"
"\n"
"Where the kernel has the function tcp_drop (Linux 4.10 to 5.18, where\n"
"the compiler did not inline it), a kprobe on it, as bcc; else the\n"
"tracepoint skb:kfree_skb, of IPv4 and IPv6 packets whose header says\n"
"TCP: 5.17+, the drops whose reason is above NOT_SPECIFIED (as bcc; the\n"
"reasons' names from the event's format file); before, those freed by a\n"
"tcp function (tcp_v4_rcv ...), without a reason (the drops tcp_drop\n"
"made, inlined, are not seen there).\n"
"\n"
"The addresses, ports and flags are read from the packet's IP and TCP\n"
"headers at struct sk_buff's offsets, from the kernel's BTF\n"
"(/sys/kernel/btf/vmlinux) or a BTF file given with --btf; the\n"
"tracepoint needs them. Without them (the kprobe on a kernel without\n"
"BTF), they are the socket's, its remote end as the source (a listening\n"
"socket's: 0.0.0.0:0), and the flags are unknown: \"()\". struct sock's\n"
"offsets (the state, those addresses) come from the BTF, else are\n"
"discovered at start (-v says which).\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -4, --ipv4            trace IPv4 family only\n"
"  -6, --ipv6            trace IPv6 family only\n"
"  -j, --json            one JSON object per drop, the stack an array\n"
"                        (lines)\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --btf FILE        the kernel's BTF, for a kernel without\n"
"                        /sys/kernel/btf/vmlinux (e.g. BTFhub's)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf tcpdrop              # trace kernel TCP drops\n"
"  barebpf tcpdrop -4           # trace IPv4 family only\n"
"  barebpf tcpdrop -6           # trace IPv6 family only\n"
"  barebpf tcpdrop -j --duration 60  # JSON lines for a minute\n";
static const struct tool_usage help = { NULL, usage };

struct tcpdrop_opts {
	int family, json;
	double duration;
};

struct tcpdrop_run {
	const struct tcpdrop_opts *o;
	const struct tcpdrop_settings *s;
	struct tool_ctx *t;
	struct bb_ksyms *ks;
	struct tool_stream st;
};

/* before 5.17: a kfree_skb in a function of TCP's (tcp_v4_rcv ...) */
static int tcp_location(const struct bb_ksyms *ks, uint64_t location)
{
	const struct bb_ksym *k = ks ? ksyms_find(ks, location, NULL) : NULL;

	return k && strstr(k->name, "tcp");
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcpdrop_run *r = ctx;
	struct tcpdrop_event e;
	uint64_t ips[BB_MAX_STACK];
	const char *reason = NULL;
	char num[16];
	int n;

	(void)cpu;
	if (tool_stream_take(&r->st, &e, sizeof(e), data, size) < 0 ||
	    (r->s->by_location && !tcp_location(r->ks, e.location)))
		return;
	n = e.kstack < 0 ? e.kstack :
		stack_read(tcpdrop_stacks_fd(r->t), e.kstack, ips,
			   BB_MAX_STACK);
	n = stack_add_entry_ret(ips, n, BB_MAX_STACK, e.entry_ret);
	if (r->s->tp && !r->s->by_location) {
		reason = tcpdrop_reason_name(&r->s->reasons, e.reason);
		if (!reason) {
			snprintf(num, sizeof(num), "%u", e.reason);
			reason = num;
		}
	}
	tcpdrop_print(stdout, &e, now_hms(), reason, r->ks, ips, n,
		      r->o->json);
	r->st.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct tcpdrop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_BTF,
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "h46jv", longopts, &v)) > 0) {
		if (opt_family(t, c, &o->family))
			return -EINVAL;
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcpdrop_main(int argc, char **argv)
{
	struct tcpdrop_opts o = { 0 };
	static struct tcpdrop_settings s; /* its reasons: 11 KiB */
	struct tcpdrop_run r = { .st = { "drops", TCPDROP_EMITTED, -1,
					 NULL } };
	struct bb_perfbuf *pb = NULL;
	struct bb_err err = { "" };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcpdrop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	r.s = &s;
	r.t = &t;
	tool_signals();
	if (ksyms_load(&r.ks, "/proc/kallsyms", &err) < 0) {
		tool_error(&t, "%s", err.msg);
		goto out;
	}
	s.family = o.family;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcpdrop_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing TCP drops through %s%s... Hit Ctrl-C to end\n",
		     !s.tp ? "a kprobe on " : "", !s.tp ? s.kfunc :
		     s.by_location ? "skb:kfree_skb in tcp functions" :
		     "skb:kfree_skb");
	if (!o.json)
		tcpdrop_print_header(stdout, s.tp && !s.by_location);
	fflush(stdout);
	tool_stream_run(&t, &r.st, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	ksyms_free(r.ks);
	return ret;
}

const struct tool tool_tcpdrop = {
	"tcpdrop", tcpdrop_main,
	"TCP drops with the kernel stack and the reason (a kprobe on "
	"tcp_drop, or skb:kfree_skb)"
};
