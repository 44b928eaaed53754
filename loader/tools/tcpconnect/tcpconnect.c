/* SPDX-License-Identifier: MIT */
/* barebpf tcpconnect: one line per TCP connect(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "tool.h"
#include "stream.h"
#include "tcpconnect_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "tcpconnect" };

struct flow {
	struct tcpconn_event e; /* ip, saddr, daddr, dport: the key */
	unsigned long long n;
};

#define MAX_FLOWS 65536

struct tcpconnect_opts {
	int json, count, family; /* AF_INET, AF_INET6: -4, -6 */
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
			if (opt_family(t, c, &o->family))
				return -EINVAL;
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
	s.ip = o.family == AF_INET6 ? 6 : o.family ? 4 : 0;
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
