/* SPDX-License-Identifier: MIT */
/* bpf/tcpexp.bpf.c on the host: which of its tracepoints this kernel has,
 * where their local port is, the probes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "tcpexp.skel.h"
#include "../../bpf/tcpexp.h"

EMBEDDED_OBJ(tcpexp);

/* The offset of a u16 field `name` of tcp:<event>, or -ENOENT. */
static int port_field(const struct bb_tp_field *f, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name) && f[i].size == 2)
			return f[i].offset;
	return -ENOENT;
}

/*
 * Where the local port of tcp:<event> is: its u16 sport (host order), or,
 * for tcp_send_reset from 6.10, the port of its saddr, a struct sockaddr
 * (network order: *net = 1). -ENOENT without the tracepoint or either.
 */
static int port_offset(struct tool_ctx *t, const char *event, int *net)
{
	struct bb_err err = { "" };
	struct bb_tp_field *f = NULL;
	const char *tfs = tool_tracefs(t);
	int n, off, i;

	*net = 0;
	if (!tfs || tracefs_event_id(tfs, "tcp", event) < 0)
		return -ENOENT;
	n = tp_fields(tfs, "tcp", event, &f, &err);
	if (n < 0)
		return n;
	off = port_field(f, n, "sport");
	for (i = 0; off < 0 && i < n; i++)
		if (!strcmp(f[i].name, "saddr") && f[i].size >= 16) {
			off = f[i].offset + 2;
			*net = 1;
		}
	free(f);
	return off;
}

int tcpexp_start(struct tool_ctx *t, unsigned *have)
{
	static const char *const ev[TCPEXP_NWHAT] = {
		"tcp_retransmit_skb", "tcp_send_reset", "tcp_receive_reset" };
	static const int id[TCPEXP_NWHAT] = { TCPEXP_C_tpoff_retrans_sport,
					       TCPEXP_C_tpoff_srst_port,
					       TCPEXP_C_tpoff_rrst_sport };
	static const char *const prog[TCPEXP_NWHAT] = {
		TCPEXP_P_tcp_retrans, TCPEXP_P_tcp_srst, TCPEXP_P_tcp_rrst };
	struct bb_probe p[TCPEXP_NWHAT];
	int off[TCPEXP_NWHAT], net[TCPEXP_NWHAT], i, np = 0, ret;

	*have = 0;
	ret = tool_open(t, &tcpexp_skel, EMBEDDED_ARGS(tcpexp));
	if (ret < 0)
		return ret;
	for (i = 0; i < TCPEXP_NWHAT; i++) {
		off[i] = port_offset(t, ev[i], &net[i]);
		if (off[i] < 0) {
			off[i] = 0;
			continue;
		}
		*have |= 1u << i;
		memset(&p[np], 0, sizeof(p[np]));
		p[np++].prog = prog[i];
	}
	if (!np)
		return tool_fail(t, -ENOENT, "this kernel has none of the "
				 "tracepoints tcp:tcp_retransmit_skb, "
				 "tcp_send_reset, tcp_receive_reset (Linux "
				 "4.15 on, CONFIG_TRACEPOINTS)");
	const int set[] = {
		tcpexp_set(t->obj, id[0], (uint64_t)off[0]),
		tcpexp_set(t->obj, id[1], (uint64_t)off[1]),
		tcpexp_set(t->obj, id[2], (uint64_t)off[2]),
		tcpexp_set(t->obj, TCPEXP_C_srst_net, (uint64_t)net[1]),
	};
	if ((ret = MOD_CONSTS_SET(t, set)) < 0 || (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, np);
}

int tcpexp_counts_fd(struct tool_ctx *t)
{
	return tcpexp_map_fd(t->obj, TCPEXP_M_counts);
}
