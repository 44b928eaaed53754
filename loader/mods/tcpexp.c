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

/* The kprobes' functions, each one's counter (TCPEXP_*) and program */
static const char *const kfn[] = { "tcp_retransmit_skb", "tcp_reset",
				   "tcp_v4_send_reset", "tcp_v6_send_reset",
				   "tcp_send_active_reset" };
static const unsigned char kwhat[] = { TCPEXP_RETRANS, TCPEXP_RST_RECV,
				       TCPEXP_RST_SENT, TCPEXP_RST_SENT,
				       TCPEXP_RST_SENT };
static const char *const kprog[] = { TCPEXP_P_kp_retrans, TCPEXP_P_kp_rrst,
				     TCPEXP_P_kp_srst, TCPEXP_P_kp_srst,
				     TCPEXP_P_kp_arst };
#define NKFN 5
/* what kfn[i] reads: 1 the socket's port, 2 the packet's */
#define KNEED(i) ((i) == 2 || (i) == 3 ? 2u : 1u)
#define BIT(w) (1u << (w))

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
 * want bit 0, sk_buff's head and transport_header for bit 1 (0 where
 * not wanted). The bits of want whose fields are placed, or -errno said;
 * one not placed is said (quiet: with -v only).
 */
static int kp_offsets(struct tool_ctx *t, unsigned want, int quiet)
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
	int i, ret;

	fieldoff_init(&fo, t->btf_file);
	if ((want & 1) && sockoff_register(&fo) < 0)
		got &= ~1u;
	if ((want & 2) && skboff_register(&fo, &tcpdrop_skel) < 0)
		got &= ~2u;
	for (i = 0, ret = 0; i < 3 && ret == 0; i++) {
		memset(&fl, 0, sizeof(fl));
		if (!(got & f[i].bit))
			; /* not read: 0 */
		else if (fieldoff_find(&fo, f[i].path, &fl, &err) < 0 ||
			 (f[i].size && fl.size != f[i].size)) {
			if (!quiet || t->verbose)
				tool_error(t, "%s: %s", f[i].path, err.msg[0] ?
					   err.msg : "not of 2 bytes");
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
 * The counters of todo (bits 1 << TCPEXP_*) by kprobes: those whose
 * functions (resets sent: tcp_v4_send_reset's at least) and fields this
 * kernel has into *kpm, the functions to probe (bits of kfn) into *fn.
 * quiet: the tracepoint counts where the kprobes cannot (no kprobes,
 * kallsyms unreadable, a function or field missing: said with -v); else
 * a counter left out is said.
 */
static int kprobes(struct tool_ctx *t, unsigned todo, int quiet,
		   unsigned *kpm, unsigned *fn)
{
	static const char *const what[] = { "barebpf_tcp_retransmits_total",
		"barebpf_tcp_resets_total{dir=\"sent\"}",
		"barebpf_tcp_resets_total{dir=\"received\"}" };
	unsigned want = 0, got;
	int i, ret;

	*kpm = *fn = 0;
	if (quiet && !kprobes_available(tool_tracefs(t)))
		return 0;
	if ((ret = tool_need_kprobes(t)) < 0 || (ret = kfuncs(t, fn)) < 0) {
		if (!quiet)
			return ret;
		*fn = 0; /* the tracepoint counts them, as below */
	}
	for (i = 0; i < NKFN; i++)
		if (!(todo & BIT(kwhat[i])))
			*fn &= ~BIT(i);
		else if (*fn & BIT(i))
			want |= KNEED(i);
	if ((ret = kp_offsets(t, want, quiet)) < 0)
		return ret;
	got = (unsigned)ret;
	for (i = 0; i < NKFN; i++)
		if (!(got & KNEED(i)))
			*fn &= ~BIT(i);
	if (!(*fn & BIT(2))) /* no resets sent without tcp_v4_send_reset */
		*fn &= ~(BIT(3) | BIT(4));
	for (i = 0; i < 3; i++)
		if (*fn & BIT(i))
			*kpm |= BIT(kwhat[i]);
	for (i = 0; i < TCPEXP_NWHAT; i++)
		if ((todo & ~*kpm & BIT(i)) && (!quiet || t->verbose))
			tool_error(t, "%s: %s", what[i], quiet ? "from the "
				   "tracepoint (resets to closed ports not "
				   "seen)" : "left out (its function is none "
				   "of this kernel's, inlined, or its fields "
				   "are not placed)");
	for (i = 3; i < NKFN && t->verbose && (*kpm & BIT(TCPEXP_RST_SENT));
	     i++)
		if (!(*fn & BIT(i)))
			fprintf(stderr, "resets sent: not by %s (%s)\n",
				kfn[i], i == 3 ? "no IPv6" : "no such function, "
				"or struct sock not placed");
	if (quiet && (*kpm & BIT(TCPEXP_RST_SENT)) && t->verbose)
		fprintf(stderr, "resets sent: kprobes, not tcp:tcp_send_reset "
			"(which takes a socket)\n");
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
	struct bb_probe p[TCPEXP_NWHAT + NKFN];
	int off[TCPEXP_NWHAT], net[TCPEXP_NWHAT], i, np = 0, ret;
	unsigned kpm = 0, fn = 0;

	*have = 0;
	ret = tool_open(t, &tcpexp_skel, EMBEDDED_ARGS(tcpexp));
	if (ret < 0)
		return ret;
	for (i = 0; i < TCPEXP_NWHAT; i++) {
		off[i] = tcpsock_tracepoint(t, "tcp", ev[i]) ?
			port_offset(t, ev[i], &net[i]) : -ENOENT;
		if (off[i] < 0)
			off[i] = net[i] = 0;
		else
			*have |= BIT(i);
	}
	/* none (before 4.15): kprobes instead; 4.15-6.9: tcp_send_reset
	 * takes a socket, and the kprobes see resets to closed ports too */
	if (!*have && no_kprobes)
		return tool_fail(t, -ENOTSUP, "without the tracepoints tcp:"
				 "tcp_retransmit_skb, tcp_send_reset, "
				 "tcp_receive_reset (4.15+), kprobes would "
				 "count, and --no-kprobes leaves them out");
	if (!*have)
		ret = kprobes(t, BIT(TCPEXP_NWHAT) - 1, 0, &kpm, &fn);
	else if ((*have & BIT(TCPEXP_RST_SENT)) && !net[1] && !no_kprobes)
		ret = kprobes(t, BIT(TCPEXP_RST_SENT), 1, &kpm, &fn);
	if (ret < 0)
		return ret;
	*have |= kpm;
	memset(p, 0, sizeof(p));
	for (i = 0; i < TCPEXP_NWHAT; i++)
		if ((*have & ~kpm) & BIT(i))
			p[np++].prog = prog[i];
		else
			obj_set_noload(t->obj, prog[i]);
	for (i = 0; i < NKFN; i++)
		if (fn & BIT(i)) {
			p[np].prog = kprog[i];
			p[np++].target = kfn[i];
		} else if ((i != 2 && i != 3) || !(fn & (BIT(2) | BIT(3)))) {
			/* kp_srst serves both send_reset functions */
			obj_set_noload(t->obj, kprog[i]);
		}
	if (!np)
		return tool_fail(t, -ENOENT, "this kernel has none of the "
				 "tracepoints tcp:tcp_retransmit_skb, "
				 "tcp_send_reset, tcp_receive_reset (Linux "
				 "4.15 on, CONFIG_TRACEPOINTS) nor the "
				 "functions to probe instead");
	/* no kprobe: their constants at 0 (each must be set) */
	if (!kpm && (ret = kp_offsets(t, 0, 0)) < 0)
		return ret;
	/* an err (recent kernels: every attempt fires it): those that sent
	 * nothing are left out, as before it had one (tcpretrans too) */
	const struct mod_tp_off erroff = { ev[0], "err",
					   TCPEXP_C_tpoff_retrans_err, 0, 0 };
	int er = (*have & ~kpm & BIT(TCPEXP_RETRANS)) &&
		 tcpsock_tp_has(t, "tcp", ev[0], "err");

	if ((ret = mod_tp_offsets(t, &tcpexp_skel, "tcp", &erroff, 1, er)) < 0)
		return ret;
	const int set[] = {
		tcpexp_set(t->obj, TCPEXP_C_retrans_has_err, (uint64_t)er),
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
