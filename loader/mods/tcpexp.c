/* SPDX-License-Identifier: MIT */
/* bpf/tcpexp.bpf.c on the host: which of its tracepoints this kernel has,
 * where their local port is, the probes; before 4.15, its kprobes, with
 * struct sock's and struct sk_buff's offsets (fieldoff.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "fieldoff.h"
#include "tcpdrop.skel.h"
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

/* The kprobes' functions; a counter without its function(s) is left out */
static const char *const kfn[] = { "tcp_retransmit_skb", "tcp_reset",
				   "tcp_v4_send_reset", "tcp_v6_send_reset" };
#define NKFN 4

/* Which of kfn this kernel has (BB_FUNCS_KALLSYMS): bit i for kfn[i] */
static int kfuncs(struct tool_ctx *t, unsigned *found)
{
	char **avail = NULL;
	int n = tool_funcs(t, BB_FUNCS_KALLSYMS, kfn, NKFN, NKFN, &avail),
	    i, j;

	*found = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < NKFN; j++)
			if (!strcmp(avail[i], kfn[j]))
				*found |= 1u << j;
	if (n >= 0)
		bb_free_strv(avail, n);
	return n < 0 ? n : 0;
}

/*
 * The kprobes' fields into their constants (BTF, --btf, else the
 * discoveries of sockoff.c and skboff.c; -v says which): skc_num for
 * want bit 0, sk_buff's head and transport_header for bit 1. The bits
 * of want whose fields are placed, or -errno said.
 */
static int kp_offsets(struct tool_ctx *t, unsigned want)
{
	static const struct {
		const char *path;
		int id;
		uint32_t size; /* 0: a pointer */
		unsigned bit;
	} f[] = {
		{ "sock.__sk_common.skc_num", TCPEXP_C_sk_off_num, 2, 1 },
		{ "sk_buff.head", TCPEXP_C_skb_off_head, 0, 2 },
		{ "sk_buff.transport_header", TCPEXP_C_skb_off_th, 2, 2 },
	};
	struct bb_fieldoff fo;
	struct bb_field fl;
	struct bb_err err = { "" };
	unsigned got = want;
	int i, ret = 0;

	fieldoff_init(&fo, t->btf_file);
	if ((want & 1) && (ret = sockoff_register(&fo)) == 0 && (want & 2))
		ret = skboff_register(&fo, &tcpdrop_skel);
	for (i = 0; i < 3 && ret == 0; i++) {
		memset(&fl, 0, sizeof(fl));
		if (!(got & f[i].bit))
			; /* not read: 0 */
		else if (fieldoff_find(&fo, f[i].path, &fl, &err) < 0 ||
		    (f[i].size && fl.size != f[i].size)) {
			tool_error(t, "%s: %s%s", f[i].path, err.msg[0] ?
				   err.msg : "not of 2 bytes", f[i].bit & 1 ?
				   "" : ": resets sent are left out");
			got &= ~f[i].bit;
			err.msg[0] = 0;
			fl.offset = 0;
		} else if (t->verbose) {
			fprintf(stderr, "%s at offset %u (%u bytes): %s\n",
				f[i].path, fl.offset, fl.size, fl.how);
		}
		ret = tcpexp_set(t->obj, f[i].id, fl.offset);
	}
	fieldoff_close(&fo);
	return ret < 0 ? ret : (int)got;
}

/*
 * Before 4.15 (or BAREBPF_TCP=kprobes): the kprobes of the counters that
 * are not in *have, into p[*np...]; their bits into *have.
 */
static int kprobes(struct tool_ctx *t, int no_kprobes, unsigned *have,
		   struct bb_probe *p, int *np)
{
	static const char *const what[] = { "barebpf_tcp_retransmits_total",
		"barebpf_tcp_resets_total{dir=\"received\"}",
		"barebpf_tcp_resets_total{dir=\"sent\"}" };
	unsigned fn, want = 0, got;
	int i, ret;

	if (no_kprobes)
		return tool_fail(t, -ENOTSUP, "without the tracepoints tcp:"
				 "tcp_retransmit_skb, tcp_send_reset, "
				 "tcp_receive_reset (4.15+), kprobes would "
				 "count, and --no-kprobes leaves them out");
	if ((ret = tool_need_kprobes(t)) < 0 || (ret = kfuncs(t, &fn)) < 0)
		return ret;
	/* want: bit 0 the socket's port (retransmits, resets received),
	 * bit 1 the packet's (resets sent) */
	for (i = 0; i < 3; i++) {
		if (!(fn & (i < 2 ? 1u << i : 12u))) {
			tool_error(t, "%s is no function of this kernel "
				   "(inlined): %s is left out", i < 2 ? kfn[i] :
				   "tcp_v4_send_reset", what[i]);
			continue;
		}
		want |= i < 2 ? 1 : 2;
	}
	if ((fn & 12u) == 4u && t->verbose)
		fprintf(stderr, "tcp_v6_send_reset is no function of this "
			"kernel (no IPv6): resets sent of IPv4\n");
	if ((ret = kp_offsets(t, want)) < 0)
		return ret;
	got = (unsigned)ret;
	if ((fn & 1) && (got & 1))
		*have |= 1u << TCPEXP_RETRANS;
	if ((fn & 2) && (got & 1))
		*have |= 1u << TCPEXP_RST_RECV;
	if ((fn & 12) && (got & 2))
		*have |= 1u << TCPEXP_RST_SENT;
	for (i = 0; i < NKFN; i++) {
		unsigned w = i ? i > 1 ? TCPEXP_RST_SENT : TCPEXP_RST_RECV :
			TCPEXP_RETRANS;

		if (!(fn & (1u << i)) || !(*have & (1u << w)))
			continue;
		memset(&p[*np], 0, sizeof(p[*np]));
		p[*np].prog = i ? i > 1 ? TCPEXP_P_kp_srst : TCPEXP_P_kp_rrst :
			TCPEXP_P_kp_retrans;
		p[(*np)++].target = kfn[i];
	}
	return 0;
}

int tcpexp_start(struct tool_ctx *t, int no_kprobes, unsigned *have)
{
	static const char *const ev[TCPEXP_NWHAT] = {
		"tcp_retransmit_skb", "tcp_send_reset", "tcp_receive_reset" };
	static const int id[TCPEXP_NWHAT] = { TCPEXP_C_tpoff_retrans_sport,
					       TCPEXP_C_tpoff_srst_port,
					       TCPEXP_C_tpoff_rrst_sport };
	static const char *const prog[TCPEXP_NWHAT] = {
		TCPEXP_P_tcp_retrans, TCPEXP_P_tcp_srst, TCPEXP_P_tcp_rrst };
	static const char *const kprog[] = { TCPEXP_P_kp_retrans,
		TCPEXP_P_kp_srst, TCPEXP_P_kp_rrst };
	struct bb_probe p[NKFN];
	int off[TCPEXP_NWHAT], net[TCPEXP_NWHAT], i, np = 0, kp, ret;

	*have = 0;
	ret = tool_open(t, &tcpexp_skel, EMBEDDED_ARGS(tcpexp));
	if (ret < 0)
		return ret;
	for (i = 0; i < TCPEXP_NWHAT; i++) {
		off[i] = tcpsock_tracepoint(t, "tcp", ev[i]) ?
			port_offset(t, ev[i], &net[i]) : -ENOENT;
		if (off[i] < 0) {
			off[i] = net[i] = 0;
			continue;
		}
		*have |= 1u << i;
		memset(&p[np], 0, sizeof(p[np]));
		p[np++].prog = prog[i];
	}
	if (!*have && (ret = kprobes(t, no_kprobes, have, p, &np)) < 0)
		return ret;
	if (!np)
		return tool_fail(t, -ENOENT, "this kernel has none of the "
				 "tracepoints tcp:tcp_retransmit_skb, "
				 "tcp_send_reset, tcp_receive_reset (Linux "
				 "4.15 on, CONFIG_TRACEPOINTS) nor the "
				 "functions to probe instead");
	kp = p[0].target != NULL;
	for (i = 0; i < TCPEXP_NWHAT; i++) {
		obj_set_noload(t->obj, kp ? prog[i] : kprog[i]);
		if (kp && !(*have & (1u << i)))
			obj_set_noload(t->obj, kprog[i]);
	}
	if (!kp && (ret = kp_offsets(t, 0)) < 0)
		return ret;
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
