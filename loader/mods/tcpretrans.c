/* SPDX-License-Identifier: MIT */
/* bpf/tcpretrans.bpf.c on the host: tcp:tcp_retransmit_skb (4.15+) or a
 * kprobe on tcp_retransmit_skb, and a kprobe on tcp_send_loss_probe for
 * -l; struct sock's offsets where a program reads the socket. */
#include "mods.h"
#include "tcpretrans.skel.h"
#include "../../bpf/tcpretrans.h"

EMBEDDED_OBJ(tcpretrans);

#define TP "tcp_retransmit_skb"

static int configure(struct tool_ctx *t, const struct tcpretrans_settings *s)
{
	static const struct mod_tp_off offs[] = {
		{ TP, "state", TCPRETRANS_C_tp_state, 0, 0 },
		{ TP, "err", TCPRETRANS_C_tp_err, 0, 0 },
	};
	int st = s->tp && tcpsock_tp_has(t, "tcp", TP, "state");
	/* recent kernels (6.18 here): every attempt, err != 0 for one that
	 * sent nothing */
	int er = s->tp && tcpsock_tp_has(t, "tcp", TP, "err");
	int fam = s->tp && tcpsock_tp_has(t, "tcp", TP, "family");
	/* the socket is read by the kprobes, and where the event lacks the
	 * state (before 5.x) for a line (-c counts by flow, without it); a
	 * missing family is found from the IPv4-mapped saddr_v6 */
	int need_sk = !s->tp || s->tlp || (!st && !s->count);
	int ret = mod_tp_offsets(t, &tcpretrans_skel, "tcp", offs, 1, st);

	if (ret >= 0)
		ret = mod_tp_offsets(t, &tcpretrans_skel, "tcp", offs + 1, 1,
				     er);
	if (ret < 0 || (ret = tcpsock_tp_offsets(t, "tcp", TP, s->tp)) < 0 ||
	    (ret = tcpsock_sk_offsets(t, need_sk, NULL, 0)) < 0)
		return ret;
	if (t->verbose && s->tp)
		fprintf(stderr, "tcp:%s has %s state, %s err and %s family "
			"field%s%s\n", TP, st ? "a" : "no", er ? "an" : "no",
			fam ? "a" : "no",
			fam ? "" : " (IPv4: saddr_v6 IPv4-mapped)",
			st || s->count ? "" :
			": struct sock is read for the state");
	obj_set_noload(t->obj, s->tp ? TCPRETRANS_P_kp_retrans :
		       TCPRETRANS_P_tp_retrans);
	if (!s->tlp)
		obj_set_noload(t->obj, TCPRETRANS_P_kp_tlp);
	const int set[] = {
		tcpretrans_set(t->obj, TCPRETRANS_C_tp_has_state, st),
		tcpretrans_set(t->obj, TCPRETRANS_C_tp_has_err, er),
		tcpretrans_set(t->obj, TCPRETRANS_C_count_only, s->count),
		tcpretrans_set(t->obj, TCPRETRANS_C_filter_family, s->family),
	};
	return MOD_CONSTS_SET(t, set);
}

int tcpretrans_start(struct tool_ctx *t, struct tcpretrans_settings *s,
		     struct bb_perfbuf **pb)
{
	struct bb_probe p[2] = {
		{ NULL, NULL, 0, NULL, NULL, 0, 0 },
		{ TCPRETRANS_P_kp_tlp, "tcp_send_loss_probe", 0, NULL, NULL,
		  0, 0 },
	};
	int ret = tool_open(t, &tcpretrans_skel, EMBEDDED_ARGS(tcpretrans));

	if (ret < 0)
		return ret;
	s->tp = tcpsock_tracepoint(t, "tcp", TP);
	if ((!s->tp || s->tlp) && (ret = tool_need_kprobes(t)) < 0)
		return ret;
	p[0].prog = s->tp ? TCPRETRANS_P_tp_retrans :
		TCPRETRANS_P_kp_retrans;
	p[0].target = s->tp ? "tcp/" TP : "tcp_retransmit_skb";
	if ((ret = configure(t, s)) < 0 || (ret = tool_load(t)) < 0)
		return ret;
	if (s->count) /* -c: no records */
		tool_ring_unread(t, tcpretrans_map_fd(t->obj,
						      TCPRETRANS_M_events));
	else if ((ret = tool_ring(t, tcpretrans_map_fd(t->obj,
			TCPRETRANS_M_events), 16, s->on_event, s->ctx,
			pb)) < 0)
		return ret;
	return tool_attach_probes(t, p, s->tlp ? 2 : 1);
}

int tcpretrans_counts_fd(struct tool_ctx *t)
{
	return tcpretrans_map_fd(t->obj, TCPRETRANS_M_counts);
}

int tcpretrans_stats_fd(struct tool_ctx *t)
{
	return tcpretrans_map_fd(t->obj, TCPRETRANS_M_stats);
}
