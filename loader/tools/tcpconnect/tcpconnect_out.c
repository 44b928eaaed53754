/* SPDX-License-Identifier: MIT */
/* tcpconnect's lines: bcc's columns (tcpconnect_out.h). */
#include <arpa/inet.h>
#include <string.h>
#include "outrec.h"
#include "tcpconnect_out.h"

/* bcc: ["%-9.3f"]["%-6d"]"%-6d %-12.12s %-2d %-16s [%-6d ]%-16s %-6d" */
enum { F_TS, F_UID, F_PID, F_JTID, F_COMM, F_IP, F_SADDR, F_LPORT, F_DADDR,
       F_DPORT, F_N };
static const struct out_field fields[F_N] = {
	[F_TS] = { "TIME(s)", "time_s", OUT_DBL, -9, 3, 6, 1,
		   1, NULL },
	[F_UID] = { "UID", "uid", OUT_UINT, -6, 0, 0, 1, 2,
		    NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -6, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -12, 12, 0, 0, 0, NULL },
	[F_IP] = { "IP", "ip", OUT_UINT, -2, 0, 0, 0, 0, NULL },
	[F_SADDR] = { "SADDR", "saddr", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_LPORT] = { "LPORT", "lport", OUT_UINT, -6, 0, 0, 0,
		      3, NULL },
	[F_DADDR] = { "DADDR", "daddr", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_DPORT] = { "DPORT", "dport", OUT_UINT, 0, 0, 0, 1, 0, NULL },
};

const char *tcpconnect_addr(const struct tcpconn_event *e,
			    const unsigned char *a, char *buf, size_t len)
{
	if (!inet_ntop(e->ip == 6 ? AF_INET6 : AF_INET, a, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

void tcpconnect_print_header(FILE *f, unsigned mask)
{
	out_head(f, fields, F_N, mask);
}

void tcpconnect_print(FILE *f, const struct tcpconn_event *e, double secs,
		      unsigned mask, int json)
{
	char comm[sizeof(e->comm) + 1], sa[INET6_ADDRSTRLEN],
		da[INET6_ADDRSTRLEN];
	struct out_val v[F_N] = { 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TS].d = secs;
	v[F_UID].u = e->uid;
	v[F_PID].u = e->pid;
	v[F_JTID].u = e->tid;
	v[F_COMM].s = comm;
	v[F_IP].u = e->ip;
	v[F_SADDR].s = tcpconnect_addr(e, e->saddr, sa, sizeof(sa));
	v[F_LPORT].u = e->lport;
	v[F_DADDR].s = tcpconnect_addr(e, e->daddr, da, sizeof(da));
	v[F_DPORT].u = e->dport;
	out_row(f, fields, F_N, mask, v, json);
}

/* bcc: "%-25s %-25s %-20s %-10d" */
enum { C_LADDR, C_RADDR, C_RPORT, C_N, C_NF };
static const struct out_field cfields[C_NF] = {
	[C_LADDR] = { "LADDR", "laddr", OUT_STR, -25, 0, 0, 0, 0, NULL },
	[C_RADDR] = { "RADDR", "raddr", OUT_STR, -25, 0, 0, 0, 0, NULL },
	[C_RPORT] = { "RPORT", "rport", OUT_UINT, -20, 0, 0, 0, 0, NULL },
	[C_N] = { "CONNECTS", "connects", OUT_UINT, -10, 0, 0, 1, 0, NULL },
};

void tcpconnect_print_count_header(FILE *f)
{
	out_head(f, cfields, C_NF, 0);
}

void tcpconnect_print_count(FILE *f, const struct tcpconn_event *e,
			    unsigned long long n, int json)
{
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN];
	struct out_val v[C_NF] = { 0 };

	v[C_LADDR].s = tcpconnect_addr(e, e->saddr, sa, sizeof(sa));
	v[C_RADDR].s = tcpconnect_addr(e, e->daddr, da, sizeof(da));
	v[C_RPORT].u = e->dport;
	v[C_N].u = n;
	out_row(f, cfields, C_NF, 0, v, json);
}
