/* SPDX-License-Identifier: MIT */
/* bpf/tcplife.bpf.c on the host: sock:inet_sock_set_state (4.16+) or a
 * kprobe on tcp_set_state; tcp_sock's byte counts through the field-offset
 * layer either way. */
#include "mods.h"
#include "tcplife.skel.h"
#include "../../bpf/tcplife.h"

EMBEDDED_OBJ(tcplife);

static int configure(struct tool_ctx *t, const struct tcplife_settings *s)
{
	static const struct mod_tp_off offs[] = {
		{ "inet_sock_set_state", "newstate", TCPLIFE_C_tp_newstate,
		  0, 0 },
	};
	/* tcp_get_info's tcpi_bytes_acked and tcpi_bytes_received */
	struct tcplife_disc d = { t, s->tp, 0, 0, 0, 0, "", "" };
	const struct tcpsock_extra bytes[] = {
		{ "tcp_sock.bytes_acked", "off_bytes_acked", 8,
		  tcplife_discover, &d },
		{ "tcp_sock.bytes_received", "off_bytes_received", 8,
		  tcplife_discover, &d },
	};
	int ret = mod_tp_offsets(t, &tcplife_skel, "sock", offs, 1, s->tp);

	if (ret < 0 || (ret = tcpsock_tp_protocol(t, "sock",
			"inet_sock_set_state", s->tp)) < 0 ||
	    (ret = tcpsock_tp_offsets(t, "sock",
			"inet_sock_set_state", s->tp)) < 0 ||
	    (ret = tcpsock_sk_offsets(t, !s->tp, bytes, 2)) < 0)
		return ret;
	obj_set_noload(t->obj, s->tp ? TCPLIFE_P_kp_state :
		       TCPLIFE_P_tp_state);
	obj_set_noload(t->obj, TCPLIFE_P_tp_snap);
	obj_set_noload(t->obj, TCPLIFE_P_kp_snap);
	const int set[] = {
		tcplife_set(t->obj, TCPLIFE_C_filter_pid, s->pid),
		tcplife_set(t->obj, TCPLIFE_C_snap_pid, 0),
	};
	return MOD_CONSTS_SET(t, set);
}

int tcplife_start(struct tool_ctx *t, struct tcplife_settings *s,
		  struct bb_perfbuf **pb)
{
	struct bb_probe p[1] = { { NULL, NULL, 0, NULL, NULL, 0, 0 } };
	int ret = tool_open(t, &tcplife_skel, EMBEDDED_ARGS(tcplife));

	if (ret < 0)
		return ret;
	s->tp = tcpsock_tracepoint(t, "sock", "inet_sock_set_state");
	if (!s->tp && (ret = tool_need_kprobes(t)) < 0)
		return ret;
	p[0].prog = s->tp ? TCPLIFE_P_tp_state : TCPLIFE_P_kp_state;
	p[0].target = s->tp ? "sock/inet_sock_set_state" : "tcp_set_state";
	if ((ret = configure(t, s)) < 0 ||
	    (ret = tcpsock_ports_on(t, "filter_lport", &s->lports)) < 0 ||
	    (ret = tcpsock_ports_on(t, "filter_dport", &s->dports)) < 0 ||
	    (ret = tool_load(t)) < 0 ||
	    (ret = tcpsock_ports_fill(t, tcplife_map_fd(t->obj,
			TCPLIFE_M_lports), &s->lports)) < 0 ||
	    (ret = tcpsock_ports_fill(t, tcplife_map_fd(t->obj,
			TCPLIFE_M_dports), &s->dports)) < 0)
		return ret;
	ret = tool_ring(t, tcplife_map_fd(t->obj, TCPLIFE_M_events), 64,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, 1);
}

int tcplife_stats_fd(struct tool_ctx *t)
{
	return tcplife_map_fd(t->obj, TCPLIFE_M_stats);
}
