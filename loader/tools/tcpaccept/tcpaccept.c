/* SPDX-License-Identifier: MIT */
/* barebpf tcpaccept: one line per TCP accept(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "stream.h"
#include "tcpaccept_out.h"
#include "mods.h"

static const char usage[] =
"usage: barebpf tcpaccept [-h] [-T] [-t] [-p PID] [-P PORT[,PORT...]]\n"
"                         [-4 | -6] [-j] [--btf FILE] [--duration SECONDS]\n"
"\n"
"Trace TCP accept()s: one line per connection a process accepts, bcc's\n"
"columns:\n"
"\n"
"  TIME     (-T) when (HH:MM:SS)\n"
"  TIME(s)  (-t) seconds since the first accept traced\n"
"  PID      the accepting process\n"
"  COMM     its name\n"
"  IP       4 or 6 (an IPv4 connection to an IPv6 socket is 6,\n"
"           ::ffff:a.b.c.d)\n"
"  RADDR    the remote address\n"
"  RPORT    the remote port\n"
"  LADDR    the local address\n"
"  LPORT    the local port\n"
"\n"
"From a kretprobe on inet_csk_accept, in the acceptor's context. The\n"
"addresses are read from the kernel's struct sock, where the kernel's BTF\n"
"(/sys/kernel/btf/vmlinux) or a BTF file given with --btf places its fields;\n"
"on a kernel without either, they are discovered at start by loopback\n"
"connections with known addresses (about 0.1 s, once per boot: kept in\n"
"/run/barebpf/fieldoff). -v says where each offset came from.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -T, --time            include time column on output (HH:MM:SS)\n"
"  -t, --timestamp       include timestamp on output\n"
"  -p, --pid PID         trace this PID only\n"
"  -P, --port PORT[,PORT...]  trace these local ports only\n"
"  -4, --ipv4            trace IPv4 family only\n"
"  -6, --ipv6            trace IPv6 family only\n"
"  -j, --json            one JSON object per accept (lines)\n"
"      --btf FILE        the kernel's BTF, for a kernel without\n"
"                        /sys/kernel/btf/vmlinux (e.g. BTFhub's)\n"
"      --duration SECONDS  exit after this many seconds\n"
"  -v, --verbose         say where the offsets came from, what attached\n"
"\n"
"examples:\n"
"  barebpf tcpaccept           # trace all TCP accept()s\n"
"  barebpf tcpaccept -t        # include timestamps\n"
"  barebpf tcpaccept -P 80,81  # only trace port 80 and 81\n"
"  barebpf tcpaccept -p 181    # only trace PID 181\n"
"  barebpf tcpaccept -4        # trace IPv4 family\n"
"  barebpf tcpaccept -6        # trace IPv6 family\n"
"  barebpf tcpaccept -T --duration 60 -j  # a minute's accepts, JSON\n";
static const struct tool_usage help = { NULL, usage };

struct tcpaccept_opts {
	int json, ip;
	unsigned mask;
	unsigned long pid;
	uint16_t ports[TCPCONN_MAXPORTS];
	int nports;
	double duration;
};

struct tcpaccept_run {
	const struct tcpaccept_opts *o;
	struct tool_stream s;
	unsigned long long t0;
};

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcpaccept_run *r = ctx;
	struct tcpconn_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	if (!r->t0)
		r->t0 = e.ts;
	tcpaccept_print(stdout, &e, now_hms(), (e.ts - r->t0) / 1e9,
			r->o->mask, r->o->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct tcpaccept_opts *o,
		      int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "time", no_argument, NULL, 'T' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "port", required_argument, NULL, 'P' },
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTtp:P:46jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->mask |= TCPACCEPT_TIME; break;
		case 't': o->mask |= TCPACCEPT_TS; break;
		case '4':
		case '6':
			if (o->ip && o->ip != c - '0')
				return tool_fail(t, -EINVAL, "-4 and -6 "
						 "exclude each other");
			o->ip = c - '0';
			break;
		case 'P':
			if (opt_ports(t, "-P", optarg, o->ports, &o->nports,
				      TCPCONN_MAXPORTS))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcpaccept_main(int argc, char **argv)
{
	struct tcpaccept_opts o = { 0 };
	struct tcpaccept_run r = { .s = { "accepts", TCPCONN_EMITTED, -1,
					  NULL } };
	struct tcpconn_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcpaccept");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	s.accept = 1;
	s.pid = o.pid;
	s.uid = 0xffffffff;
	s.ip = o.ip;
	s.ports = o.ports;
	s.nports = o.nports;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcpconn_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing accept ... Hit Ctrl-C to end\n");
	if (!o.json)
		tcpaccept_print_header(stdout, o.mask);
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_tcpaccept = {
	"tcpaccept", tcpaccept_main,
	"one line per TCP accept(): pid, addresses, ports (a kretprobe; "
	"offsets from BTF or discovered)"
};
