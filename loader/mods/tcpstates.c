/* SPDX-License-Identifier: MIT */
/* bpf/tcpstates.bpf.c on the host: the tracepoint sock:inet_sock_set_state
 * (4.16+) or a kprobe on tcp_set_state with struct sock's offsets. */
#include "mods.h"
#include "tcpstates.skel.h"
#include "../../bpf/tcpstates.h"

EMBEDDED_OBJ(tcpstates);

static int configure(struct tool_ctx *t, const struct tcpstates_settings *s)
{
	static const struct mod_tp_off offs[] = {
		{ "inet_sock_set_state", "oldstate", TCPSTATES_C_tp_oldstate,
		  0, 0 },
		{ "inet_sock_set_state", "newstate", TCPSTATES_C_tp_newstate,
		  0, 0 },
	};
	int ret = mod_tp_offsets(t, &tcpstates_skel, "sock", offs, 2, s->tp);

	if (ret < 0 || (ret = tcpsock_tp_protocol(t, "sock",
			"inet_sock_set_state", s->tp)) < 0 ||
	    (ret = tcpsock_tp_offsets(t, "sock",
			"inet_sock_set_state", s->tp)) < 0 ||
	    (ret = tcpsock_sk_offsets(t, !s->tp, NULL, 0)) < 0)
		return ret;
	/* what is not attached is not loaded */
	obj_set_noload(t->obj, s->tp ? TCPSTATES_P_kp_state :
		       TCPSTATES_P_tp_state);
	return 0;
}

int tcpstates_start(struct tool_ctx *t, struct tcpstates_settings *s,
		    struct bb_perfbuf **pb)
{
	struct bb_probe p[1] = { { NULL, NULL, 0, NULL, NULL, 0, 0 } };
	int ret = tool_open(t, &tcpstates_skel, EMBEDDED_ARGS(tcpstates));

	if (ret < 0)
		return ret;
	s->tp = tcpsock_tracepoint(t, "sock", "inet_sock_set_state");
	if (!s->tp && (ret = tool_need_kprobes(t)) < 0)
		return ret;
	p[0].prog = s->tp ? TCPSTATES_P_tp_state : TCPSTATES_P_kp_state;
	p[0].target = s->tp ? "sock/inet_sock_set_state" : "tcp_set_state";
	if ((ret = configure(t, s)) < 0 ||
	    (ret = tcpsock_ports_on(t, "filter_lport", &s->lports)) < 0 ||
	    (ret = tcpsock_ports_on(t, "filter_dport", &s->dports)) < 0 ||
	    (ret = tool_load(t)) < 0 ||
	    (ret = tcpsock_ports_fill(t, tcpstates_map_fd(t->obj,
			TCPSTATES_M_lports), &s->lports)) < 0 ||
	    (ret = tcpsock_ports_fill(t, tcpstates_map_fd(t->obj,
			TCPSTATES_M_dports), &s->dports)) < 0)
		return ret;
	ret = tool_ring(t, tcpstates_map_fd(t->obj, TCPSTATES_M_events), 64,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, 1);
}

int tcpstates_stats_fd(struct tool_ctx *t)
{
	return tcpstates_map_fd(t->obj, TCPSTATES_M_stats);
}
