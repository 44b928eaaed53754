/* SPDX-License-Identifier: MIT */
/* tcpaccept's lines: bcc's columns (tcpaccept_out.h). */
#include <arpa/inet.h>
#include <string.h>
#include "outrec.h"
#include "tcpaccept_out.h"

/* bcc: ["%-9s"]["%-9.3f"]"%-7d %-12.12s %-2d %-16s %-5d %-16s %-5d" */
enum { F_TIME, F_TS, F_PID, F_JTID, F_COMM, F_IP, F_RADDR, F_RPORT,
       F_LADDR, F_LPORT, F_N };
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", "time", OUT_STR, -9, 0, 0, 1, 1, NULL },
	[F_TS] = { "TIME(s)", "time_s", OUT_DBL, -9, 3, 6, 1, 2, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -12, 12, 0, 0, 0, NULL },
	[F_IP] = { "IP", "ip", OUT_UINT, -2, 0, 0, 0, 0, NULL },
	[F_RADDR] = { "RADDR", "raddr", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_RPORT] = { "RPORT", "rport", OUT_UINT, -5, 0, 0, 0, 0, NULL },
	[F_LADDR] = { "LADDR", "laddr", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_LPORT] = { "LPORT", "lport", OUT_UINT, 0, 0, 0, 1, 0, NULL },
};

static const char *addr(const struct tcpconn_event *e, const unsigned char *a,
			char *buf, size_t len)
{
	if (!inet_ntop(e->ip == 6 ? AF_INET6 : AF_INET, a, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

void tcpaccept_print_header(FILE *f, unsigned mask)
{
	out_head(f, fields, F_N, mask);
}

void tcpaccept_print(FILE *f, const struct tcpconn_event *e, const char *hms,
		     double secs, unsigned mask, int json)
{
	char comm[sizeof(e->comm) + 1], ra[INET6_ADDRSTRLEN],
		la[INET6_ADDRSTRLEN];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].s = hms;
	v[F_TS].d = secs;
	v[F_PID].u = e->pid;
	v[F_JTID].u = e->tid;
	v[F_COMM].s = comm;
	v[F_IP].u = e->ip;
	v[F_RADDR].s = addr(e, e->daddr, ra, sizeof(ra));
	v[F_RPORT].u = e->dport;
	v[F_LADDR].s = addr(e, e->saddr, la, sizeof(la));
	v[F_LPORT].u = e->lport;
	out_row(f, fields, F_N, mask, v, json);
}
