/* SPDX-License-Identifier: MIT */
/* tcpdrop's lines: bcc's columns, the stack under each, or JSON. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "netfmt.h"
#include "tcpdrop_out.h"

const char *tcpdrop_flags_str(unsigned flags, char *buf, size_t len)
{
	static const char *const names[8] = {
		"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR",
	};
	size_t at = 0;
	int i;

	if (len)
		buf[0] = 0;
	for (i = 0; i < 8; i++) {
		if (!(flags & (1u << i)))
			continue;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0,
				       "%s%s", at ? "|" : "", names[i]);
		if (at >= len)
			break;
	}
	return buf;
}

void tcpdrop_print_header(FILE *f, int reasons)
{
	fprintf(f, "%-8s %-7s %-2s %-20s > %-20s %s (%s)%s\n", "TIME", "PID",
		"IP", "SADDR:SPORT", "DADDR:DPORT", "STATE", "FLAGS",
		reasons ? " REASON" : "");
}

static const char *stack_error(int n)
{
	switch (n) {
	case -EEXIST:
		return "another stack holds its slot of the stack map";
	case -ENOMEM:
		return "the stack map is full";
	default:
		return strerror(-n);
	}
}

static void print_text(FILE *f, const struct tcpdrop_event *e,
		       const char *hms, const char *st, const char *fl,
		       const char *reason, const struct bb_ksyms *ks,
		       const uint64_t *ips, int n)
{
	char sa[64], da[64], s[80], d[80];
	int i;

	net_addr_str(e->family, e->saddr, sa, sizeof(sa));
	net_addr_str(e->family, e->daddr, da, sizeof(da));
	snprintf(s, sizeof(s), "%s:%u", sa, e->sport);
	snprintf(d, sizeof(d), "%s:%u", da, e->dport);
	fprintf(f, "%-8s %-7u %-2d %-20s > %-20s %s (%s)", hms, e->pid,
		net_ip_version(e->family), s, d, st, fl);
	if (reason)
		fprintf(f, " %s", reason);
	fputc('\n', f);
	if (n < 0)
		fprintf(f, "\t[no kernel stack: %s]\n", stack_error(n));
	for (i = 0; i < n; i++) {
		const struct bb_ksym *k = ks ? ksyms_find(ks, ips[i], NULL) :
			NULL;

		if (k)
			fprintf(f, "\t%s+0x%llx\n", k->name,
				(unsigned long long)(ips[i] - k->addr));
		else
			fprintf(f, "\t[unknown]\n");
	}
	fputc('\n', f);
}

void tcpdrop_print(FILE *f, const struct tcpdrop_event *e, const char *hms,
		   const char *reason, const struct bb_ksyms *ks,
		   const uint64_t *ips, int n, int json)
{
	char b[16], flb[48], sa[64], da[64];
	const char *st = e->has_sk ? tcp_state_name(e->state, b, sizeof(b)) :
		"-";
	const char *fl = e->has_flags ?
		tcpdrop_flags_str(e->tcpflags, flb, sizeof(flb)) : "";

	if (!json) {
		print_text(f, e, hms, st, fl, reason, ks, ips, n);
		return;
	}
	net_addr_str(e->family, e->saddr, sa, sizeof(sa));
	net_addr_str(e->family, e->daddr, da, sizeof(da));
	fprintf(f, "{\"time\":\"%s\",\"pid\":%u,\"ip\":%d,\"saddr\":\"%s\","
		"\"sport\":%u,\"daddr\":\"%s\",\"dport\":%u,\"state\":", hms,
		e->pid, net_ip_version(e->family), sa, e->sport, da,
		e->dport);
	if (e->has_sk)
		json_str(f, st);
	else
		fputs("null", f);
	fputs(",\"flags\":", f);
	if (e->has_flags)
		json_str(f, fl);
	else
		fputs("null", f);
	fputs(",\"reason\":", f);
	if (reason)
		json_str(f, reason);
	else
		fputs("null", f);
	fputs(",\"kstack\":", f);
	if (n >= 0)
		stack_json_kernel(f, ks, ips, n);
	else
		json_str(f, stack_error(n));
	fputs("}\n", f);
}
