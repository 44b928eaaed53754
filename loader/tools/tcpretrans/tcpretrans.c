/* SPDX-License-Identifier: MIT */
/* barebpf tcpretrans: TCP retransmissions, one line each or counted by
 * flow, bcc's columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "netfmt.h"
#include "tcpretrans_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "tcpretrans" };

struct tcpretrans_opts {
	int tlp, count, family, json;
	double duration;
};

struct tcpretrans_run {
	const struct tcpretrans_opts *o;
	struct tool_stream s;
};

enum { J_TIME, J_PID, J_IP, J_LADDR, J_LPORT, J_T, J_RADDR, J_RPORT,
       J_STATE, J_N_EVENT, J_N = J_N_EVENT };
static const struct out_field jfields[J_N] = {
	[J_TIME] = { NULL, "time", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_PID] = { NULL, "pid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_IP] = { NULL, "ip", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_LADDR] = { NULL, "laddr", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_LPORT] = { NULL, "lport", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_T] = { NULL, "type", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_RADDR] = { NULL, "raddr", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[J_RPORT] = { NULL, "rport", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[J_STATE] = { NULL, "state", OUT_STR, 0, 0, 0, 0, 0, NULL },
};

void tcpretrans_print_header(FILE *f)
{
	fprintf(f, "%-8s %-6s %-2s %-20s %1s> %-20s %-4s\n", "TIME", "PID",
		"IP", "LADDR:LPORT", "T", "RADDR:RPORT", "STATE");
}

void tcpretrans_print(FILE *f, const struct tcpretrans_event *e,
		      const char *hms, int json)
{
	char la[64], ra[64], l[80], r[80], b[16];
	const char *t = e->type == TCPRETRANS_TLP ? "L" : "R";
	const char *st = tcp_state_name(e->f.state, b, sizeof(b));
	struct out_val v[J_N] = { 0 };

	net_addr_str(e->f.family, e->f.saddr, la, sizeof(la));
	net_addr_str(e->f.family, e->f.daddr, ra, sizeof(ra));
	if (!json) {
		snprintf(l, sizeof(l), "%s:%u", la, e->f.lport);
		snprintf(r, sizeof(r), "%s:%u", ra, e->f.dport);
		fprintf(f, "%-8s %-6u %-2d %-20s %1s> %-20s %s\n", hms, e->pid,
			net_ip_version(e->f.family), l, t, r, st);
		return;
	}
	v[J_TIME].s = hms;
	v[J_PID].u = e->pid;
	v[J_IP].u = net_ip_version(e->f.family);
	v[J_LADDR].s = la;
	v[J_LPORT].u = e->f.lport;
	v[J_T].s = t;
	v[J_RADDR].s = ra;
	v[J_RPORT].u = e->f.dport;
	v[J_STATE].s = st;
	out_row(f, jfields, J_N, 0, v, 1);
}

static int cmp_count(const void *a, const void *b)
{
	const struct tcpretrans_count *x = a, *y = b;
	int vx = net_ip_version(x->k.f.family), vy = net_ip_version(y->k.f.family);

	if (vx != vy)
		return vx < vy ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return memcmp(&x->k, &y->k, sizeof(x->k));
}

void tcpretrans_print_counts(FILE *f, struct tcpretrans_count *c, int n,
			     int json)
{
	char la[64], ra[64], l[80], r[80];
	int i;

	qsort(c, n, sizeof(*c), cmp_count);
	if (!json)
		fprintf(f, "\n%-25s %-25s %-10s\n", "LADDR:LPORT",
			"RADDR:RPORT", "RETRANSMITS");
	for (i = 0; i < n; i++) {
		const struct tcpsock_flow *fl = &c[i].k.f;

		net_addr_str(fl->family, fl->saddr, la, sizeof(la));
		net_addr_str(fl->family, fl->daddr, ra, sizeof(ra));
		if (json) {
			fprintf(f, "{\"ip\":%d,\"laddr\":\"%s\",\"lport\":%u,"
				"\"raddr\":\"%s\",\"rport\":%u,"
				"\"retransmits\":%llu}\n",
				net_ip_version(fl->family), la, fl->lport, ra,
				fl->dport, (unsigned long long)c[i].n);
			continue;
		}
		snprintf(l, sizeof(l), "[%s]#%u", la, fl->lport);
		snprintf(r, sizeof(r), "[%s]#%u", ra, fl->dport);
		fprintf(f, "%-20s <-> %-20s %10llu\n", l, r,
			(unsigned long long)c[i].n);
	}
}

/* -c: every flow of counts, printed */
static int print_counts(struct tool_ctx *t, int json)
{
	int fd = tcpretrans_counts_fd(t), n = 0, cap = 0;
	struct tcpretrans_count *c = NULL, *nc;
	struct tcpretrans_key k, next;
	const void *prev = NULL;
	uint64_t lost = 0;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nc = realloc(c, cap * sizeof(*c));
			if (!nc) {
				free(c);
				return tool_fail(t, -ENOMEM, "out of memory");
			}
			c = nc;
		}
		c[n].k = next;
		if (bpf_map_lookup_elem(fd, &next, &c[n].n) == 0)
			n++;
		k = next;
		prev = &k;
	}
	tcpretrans_print_counts(stdout, c, n, json);
	free(c);
	if (bpf_map_sum_percpu_u64(tcpretrans_stats_fd(t), TCPRETRANS_UNTRACKED,
				   &lost) == 0 && lost)
		tool_error(t, "warning: %llu retransmits were not counted: "
			   "more than 10240 flows were", (unsigned long long)lost);
	return 0;
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcpretrans_run *r = ctx;
	struct tcpretrans_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	tcpretrans_print(stdout, &e, now_hms(), r->o->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct tcpretrans_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_BTF,
		{ "lossprobe", no_argument, NULL, 'l' },
		{ "count", no_argument, NULL, 'c' },
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hlc46jv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'l': o->tlp = 1; break;
		case 'c': o->count = 1; break;
		case '4': case '6':
			if (opt_family(t, c, &o->family))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcpretrans_main(int argc, char **argv)
{
	struct tcpretrans_opts o = { 0 };
	struct tcpretrans_run r = { .s = {
		"retransmits", TCPRETRANS_EMITTED, -1, NULL } };
	struct tcpretrans_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcpretrans");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	tool_signals();
	s.tlp = o.tlp;
	s.count = o.count;
	s.family = o.family;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcpretrans_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing retransmits through %s%s... Hit Ctrl-C to end\n",
		     s.tp ? "tcp:tcp_retransmit_skb" :
		     "a kprobe on tcp_retransmit_skb",
		     o.tlp ? " and tcp_send_loss_probe" : "");
	if (!o.json && !o.count)
		tcpretrans_print_header(stdout);
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		;
	if (o.count) {
		tool_detach(&t);
		ret = print_counts(&t, o.json) < 0;
		goto out;
	}
	tool_stream_finish(&t, &r.s, pb, NULL, NULL);
	tool_stream_report(&t, &r.s, NULL, NULL);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_tcpretrans = {
	"tcpretrans", tcpretrans_main,
	"TCP retransmits (and tail loss probes), one line each or counted "
	"by flow (tcp:tcp_retransmit_skb, or kprobes)"
};
