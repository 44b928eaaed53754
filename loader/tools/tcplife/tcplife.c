/* SPDX-License-Identifier: MIT */
/* barebpf tcplife: one line per TCP session when it closes, bcc's
 * columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "netfmt.h"
#include "tcplife_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "tcplife" };

struct tcplife_opts {
	unsigned mode;
	int json;
	unsigned long pid;
	double duration;
	struct tcpsock_ports lports, dports;
};

struct tcplife_run {
	const struct tcplife_opts *o;
	struct tool_stream s;
	unsigned long long ts0;
};

enum { J_TIME, J_TS, J_PID, J_COMM, J_IP, J_LADDR, J_LPORT, J_RADDR,
       J_RPORT, J_TX, J_RX, J_MS, J_N };
static const struct out_field jfields[J_N] = {
	[J_TIME] = { NULL, "time", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_TS] = { NULL, "ts", OUT_DBL, 0, 0, 6, 0, 0, NULL },
	[J_PID] = { NULL, "pid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_COMM] = { NULL, "comm", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_IP] = { NULL, "ip", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_LADDR] = { NULL, "laddr", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_LPORT] = { NULL, "lport", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_RADDR] = { NULL, "raddr", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_RPORT] = { NULL, "rport", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_TX] = { NULL, "tx_bytes", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_RX] = { NULL, "rx_bytes", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_MS] = { NULL, "ms", OUT_DBL, 0, 0, 3, 0, 0, NULL },
};

void tcplife_print_header(FILE *f, unsigned mode)
{
	int csv = mode & TCPLIFE_CSV;

	if (mode & TCPLIFE_TIME)
		fprintf(f, csv ? "%s," : "%-8s ", "TIME");
	if (mode & TCPLIFE_TS)
		fprintf(f, csv ? "%s," : "%-9s ", "TIME(s)");
	if (csv)
		fprintf(f, "PID,COMM,IP,LADDR,LPORT,RADDR,RPORT,TX_KB,RX_KB,"
			"MS\n");
	else if (mode & TCPLIFE_WIDE)
		fprintf(f, "%-5s %-16.16s %-2s %-26s %-5s %-26s %-5s %6s %6s "
			"%s\n", "PID", "COMM", "IP", "LADDR", "LPORT", "RADDR",
			"RPORT", "TX_KB", "RX_KB", "MS");
	else
		fprintf(f, "%-5s %-10.10s %-15s %-5s %-15s %-5s %5s %5s %s\n",
			"PID", "COMM", "LADDR", "LPORT", "RADDR", "RPORT",
			"TX_KB", "RX_KB", "MS");
}

static void print_text(FILE *f, const struct tcplife_event *e, unsigned mode,
		       const char *comm, const char *la, const char *ra)
{
	unsigned ip = net_ip_version(e->f.family);
	unsigned long long tx = e->tx_b / 1024, rx = e->rx_b / 1024;
	double ms = e->span_ns / 1e6;

	if (mode & TCPLIFE_CSV)
		fprintf(f, "%u,%s,%u,%s,%u,%s,%u,%llu,%llu,%.2f\n", e->pid,
			comm, ip, la, e->f.lport, ra, e->f.dport, tx, rx, ms);
	else if (mode & TCPLIFE_WIDE)
		fprintf(f, "%-5u %-16s %-2u %-26s %-5u %-26s %-5u %6llu %6llu "
			"%.2f\n", e->pid, comm, ip, la, e->f.lport, ra,
			e->f.dport, tx, rx, ms);
	else
		fprintf(f, "%-5u %-10s %-15s %-5u %-15s %-5u %5llu %5llu "
			"%.2f\n", e->pid, comm, la, e->f.lport, ra, e->f.dport,
			tx, rx, ms);
}

void tcplife_print(FILE *f, const struct tcplife_event *e, unsigned mode,
		   const char *hms, double secs, int json)
{
	char raw[sizeof(e->comm) + 1], comm[80], la[64], ra[64];
	struct out_val v[J_N] = { 0 };
	int csv = mode & TCPLIFE_CSV;

	memcpy(raw, e->comm, sizeof(e->comm));
	raw[sizeof(e->comm)] = 0;
	net_addr_str(e->f.family, e->f.saddr, la, sizeof(la));
	net_addr_str(e->f.family, e->f.daddr, ra, sizeof(ra));
	if (!json) {
		/* bcc cuts the name (%-10.10s, %-16.16s), then it is escaped */
		raw[mode & (TCPLIFE_WIDE | TCPLIFE_CSV) ? 16 : 10] = 0;
		esc_text(comm, sizeof(comm), raw, sizeof(raw));
		if (mode & TCPLIFE_TIME)
			fprintf(f, csv ? "%s," : "%-8s ", hms);
		if (mode & TCPLIFE_TS)
			fprintf(f, csv ? "%.6f," : "%-9.6f ", secs);
		print_text(f, e, mode, comm, la, ra);
		return;
	}
	v[J_TIME].s = hms;
	v[J_TS].d = secs;
	v[J_PID].u = e->pid;
	v[J_COMM].s = raw;
	v[J_IP].u = net_ip_version(e->f.family);
	v[J_LADDR].s = la;
	v[J_LPORT].u = e->f.lport;
	v[J_RADDR].s = ra;
	v[J_RPORT].u = e->f.dport;
	v[J_TX].u = e->tx_b;
	v[J_RX].u = e->rx_b;
	v[J_MS].d = e->span_ns / 1e6;
	out_row(f, jfields, J_N, 0, v, 1);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcplife_run *r = ctx;
	struct tcplife_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	if (!r->ts0)
		r->ts0 = e.ts;
	tcplife_print(stdout, &e, r->o->mode, now_hms(),
		      (double)(e.ts - r->ts0) / 1e9, r->o->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct tcplife_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_BTF,
		TOOL_LONGOPT_PID,
		{ "time", no_argument, NULL, 'T' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "wide", no_argument, NULL, 'w' },
		{ "csv", no_argument, NULL, 's' },
		{ "localport", required_argument, NULL, 'L' },
		{ "remoteport", required_argument, NULL, 'D' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTtwsp:L:D:jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->mode |= TCPLIFE_TIME; break;
		case 't': o->mode |= TCPLIFE_TS; break;
		case 'w': o->mode |= TCPLIFE_WIDE; break;
		case 's': o->mode |= TCPLIFE_CSV; break;
		case 'L':
			if (opt_ports(t, "-L", optarg, o->lports.port,
				      &o->lports.n, TCPSOCK_MAXPORTS))
				return -EINVAL;
			break;
		case 'D':
			if (opt_ports(t, "-D", optarg, o->dports.port,
				      &o->dports.n, TCPSOCK_MAXPORTS))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcplife_main(int argc, char **argv)
{
	struct tcplife_opts o = { 0 };
	struct tcplife_run r = { .s = {
		"sessions", TCPLIFE_EMITTED, TCPLIFE_UNTRACKED,
		"followed: more than 65536 sockets were open at once" } };
	struct tcplife_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcplife");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	s.pid = o.pid;
	s.lports = o.lports;
	s.dports = o.dports;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcplife_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing TCP sessions through %s... Hit Ctrl-C to end.\n",
		     s.tp ? "sock:inet_sock_set_state" :
		     "a kprobe on tcp_set_state");
	if (!o.json)
		tcplife_print_header(stdout, o.mode);
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_tcplife = {
	"tcplife", tcplife_main,
	"one line per TCP session at its close: ends, bytes sent and "
	"received, life span (sock:inet_sock_set_state, or a kprobe)"
};
