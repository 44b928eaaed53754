/* SPDX-License-Identifier: MIT */
/* barebpf tcpaccept: one line per TCP accept(), bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "tool.h"
#include "stream.h"
#include "tcpaccept_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "tcpaccept" };

struct tcpaccept_opts {
	int json, family; /* AF_INET, AF_INET6: -4, -6 */
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
			if (opt_family(t, c, &o->family))
				return -EINVAL;
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
	s.ip = o.family == AF_INET6 ? 6 : o.family ? 4 : 0;
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
