/* SPDX-License-Identifier: MIT */
/* barebpf tcpconnect: one line per TCP connect(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "stream.h"
#include "tcpconnect_out.h"
#include "mods.h"

static const char usage[] =
"usage: barebpf tcpconnect [-h] [-c] [-t] [-p PID] [-P PORT[,PORT...]]\n"
"                          [-4 | -6] [-L] [-U] [-u UID] [-j] [--btf FILE]\n"
"                          [--duration SECONDS]\n"
"\n"
"Trace TCP connect()s: one line per connect() that sent its SYN (the\n"
"connection may fail later), bcc's columns:\n"
"\n"
"  TIME(s)  (-t) seconds since the first connect traced\n"
"  UID      (-U) the caller's user id\n"
"  PID      the caller's process id\n"
"  COMM     its name\n"
"  IP       4 or 6\n"
"  SADDR    the local address\n"
"  LPORT    (-L) the local port\n"
"  DADDR    the remote address\n"
"  DPORT    the remote port\n"
"\n"
"From kprobes on tcp_v4_connect and tcp_v6_connect. The addresses are read\n"
"from the kernel's struct sock, where the kernel's BTF\n"
"(/sys/kernel/btf/vmlinux) or a BTF file given with --btf places its fields;\n"
"on a kernel without either, they are discovered at start by loopback\n"
"connections with known addresses (about 0.1 s, once per boot: kept in\n"
"/run/barebpf/fieldoff). -v says where each offset came from.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -t, --timestamp       include timestamp on output\n"
"  -p, --pid PID         trace this PID only\n"
"  -P, --port PORT[,PORT...]  trace these destination ports only\n"
"  -4, --ipv4            trace IPv4 family only\n"
"  -6, --ipv6            trace IPv6 family only\n"
"  -L, --lport           include LPORT on output\n"
"  -U, --print-uid       include UID on output\n"
"  -u, --uid UID         trace this UID only\n"
"  -c, --count           count connects per src ip and dest ip/port,\n"
"                        printed at the end\n"
"  -j, --json            one JSON object per connect (or flow, with -c)\n"
"      --btf FILE        the kernel's BTF, for a kernel without\n"
"                        /sys/kernel/btf/vmlinux (e.g. BTFhub's)\n"
"      --duration SECONDS  exit after this many seconds\n"
"  -v, --verbose         say where the offsets came from, what attached\n"
"\n"
"examples:\n"
"  barebpf tcpconnect           # trace all TCP connect()s\n"
"  barebpf tcpconnect -t        # include timestamps\n"
"  barebpf tcpconnect -p 181    # only trace PID 181\n"
"  barebpf tcpconnect -P 80     # only trace port 80\n"
"  barebpf tcpconnect -P 80,81  # only trace port 80 and 81\n"
"  barebpf tcpconnect -4        # only trace IPv4 family\n"
"  barebpf tcpconnect -U        # include UID\n"
"  barebpf tcpconnect -u 1000   # only trace UID 1000\n"
"  barebpf tcpconnect -c        # count connects per src ip and dest ip/port\n"
"  barebpf tcpconnect -L        # include LPORT while printing outputs\n"
"  barebpf tcpconnect -c --duration 60 -j  # a minute's flows, JSON\n";
static const struct tool_usage help = { NULL, usage };

struct flow {
	struct tcpconn_event e; /* ip, saddr, daddr, dport: the key */
	unsigned long long n;
};

#define MAX_FLOWS 65536

struct tcpconnect_opts {
	int json, count, ip;
	unsigned mask;
	unsigned long pid, uid;
	int uid_set;
	uint16_t ports[TCPCONN_MAXPORTS];
	int nports;
	double duration;
};

struct tcpconnect_run {
	const struct tcpconnect_opts *o;
	struct tool_stream s;
	unsigned long long t0;
	struct flow *flows;
	int nflows, cap, full;
};

static void add_flow(struct tcpconnect_run *r, const struct tcpconn_event *e)
{
	struct flow *f;
	int i;

	for (i = 0; i < r->nflows; i++) {
		f = &r->flows[i];
		if (f->e.ip == e->ip && f->e.dport == e->dport &&
		    !memcmp(f->e.saddr, e->saddr, 16) &&
		    !memcmp(f->e.daddr, e->daddr, 16)) {
			f->n++;
			return;
		}
	}
	if (r->nflows == MAX_FLOWS) {
		r->full++;
		return;
	}
	if (r->nflows == r->cap) {
		f = realloc(r->flows, sizeof(*f) * (r->cap ? r->cap * 2 : 16));
		if (!f) {
			r->full++;
			return;
		}
		r->flows = f;
		r->cap = r->cap ? r->cap * 2 : 16;
	}
	r->flows[r->nflows].e = *e;
	r->flows[r->nflows++].n = 1;
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcpconnect_run *r = ctx;
	struct tcpconn_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	r->s.printed++;
	if (r->o->count) {
		add_flow(r, &e);
		return;
	}
	if (!r->t0)
		r->t0 = e.ts;
	tcpconnect_print(stdout, &e, (e.ts - r->t0) / 1e9, r->o->mask,
			 r->o->json);
	tool_output_failed();
}

/* bcc's: IPv4 flows then IPv6, each by count, most first */
static int by_count(const void *a, const void *b)
{
	const struct flow *x = a, *y = b;

	if (x->e.ip != y->e.ip)
		return x->e.ip < y->e.ip ? -1 : 1;
	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static void print_counts(struct tcpconnect_run *r)
{
	int i;

	qsort(r->flows, r->nflows, sizeof(*r->flows), by_count);
	if (!r->o->json) {
		fputc('\n', stdout);
		tcpconnect_print_count_header(stdout);
	}
	for (i = 0; i < r->nflows; i++)
		tcpconnect_print_count(stdout, &r->flows[i].e, r->flows[i].n,
				       r->o->json);
	fflush(stdout);
}

static int parse_args(struct tool_ctx *t, struct tcpconnect_opts *o,
		      int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "timestamp", no_argument, NULL, 't' },
		{ "port", required_argument, NULL, 'P' },
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ "lport", no_argument, NULL, 'L' },
		{ "print-uid", no_argument, NULL, 'U' },
		{ "uid", required_argument, NULL, 'u' },
		{ "count", no_argument, NULL, 'c' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "htp:P:46LUu:cjv", longopts,
				&v)) > 0) {
		switch (c) {
		case 't': o->mask |= TCPCONNECT_TS; break;
		case 'L': o->mask |= TCPCONNECT_LPORT; break;
		case 'U': o->mask |= TCPCONNECT_UID; break;
		case 'c': o->count = 1; break;
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
		case 'u':
			if (parse_ulong(optarg, &o->uid) ||
			    o->uid >= 0xffffffffUL)
				return tool_fail(t, -EINVAL, "-u '%s': not a "
						 "user id", optarg);
			o->uid_set = 1;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcpconnect_main(int argc, char **argv)
{
	struct tcpconnect_opts o = { 0 };
	struct tcpconnect_run r = { .s = {
		"connects", TCPCONN_EMITTED, TCPCONN_UNTRACKED,
		"tracked: more than 4096 were in progress at once" } };
	struct tcpconn_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcpconnect");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	s.pid = o.pid;
	s.uid = o.uid_set ? o.uid : 0xffffffff;
	s.ip = o.ip;
	s.ports = o.ports;
	s.nports = o.nports;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcpconn_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing connect ... Hit Ctrl-C to end\n");
	if (!o.json && !o.count)
		tcpconnect_print_header(stdout, o.mask);
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		;
	tool_stream_finish(&t, &r.s, pb, NULL, NULL);
	if (o.count)
		print_counts(&r);
	if (r.full)
		tool_error(&t, "warning: %d connects of flows beyond the "
			   "first %d not counted", r.full, MAX_FLOWS);
	tool_stream_report(&t, &r.s, NULL, NULL);
	ret = 0;
out:
	free(r.flows);
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_tcpconnect = {
	"tcpconnect", tcpconnect_main,
	"one line per TCP connect(): pid, addresses, ports (kprobes; offsets "
	"from BTF or discovered)"
};
