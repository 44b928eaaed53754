/* SPDX-License-Identifier: MIT */
/* The network modules (issue 29): part of mods.h, which includes it (the rules of loader/mods/ are
 * there); include mods.h, not this file. */
#ifndef BAREBPF_MODS_NET_H
#define BAREBPF_MODS_NET_H

/* ---- sockoff.c: struct sock's fields, discovered (kernels without BTF) ---- */
struct bb_fieldoff;
/*
 * Register with fo the discoveries of sock.__sk_common.skc_daddr,
 * skc_rcv_saddr, skc_dport, skc_num, skc_family, skc_state, skc_v6_daddr
 * and skc_v6_rcv_saddr: the first lookup of any makes loopback
 * connections with known addresses and ports, copies each accepted sock
 * through a kretprobe on inet_csk_accept and finds every field at once
 * (sockoff_solve.h); fieldoff_find caches each per boot. 0 or -errno.
 */
int sockoff_register(struct bb_fieldoff *fo);
/* 1 if this kernel has IPv6 (an AF_INET6 socket binds to ::1), else 0. */
int sockoff_have_ipv6(void);

/* ---- tcpconn.c: tcpconnect and tcpaccept (kprobes, struct sock) ---- */
struct tcpconn_settings {
	int accept;             /* tcpaccept; else tcpconnect */
	uint32_t pid;           /* 0: any */
	uint32_t uid;           /* 0xffffffff: any */
	int ip;                 /* 4, 6; 0: both */
	const uint16_t *ports;  /* -P: remote (tcpconnect), local (tcpaccept) */
	int nports;
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* The sock's offsets (BTF, --btf, else sockoff's discovery; -v says
 * which), then open, configure, load tcpconnect.bpf.c or tcpaccept.bpf.c,
 * open its ring into *pb, attach. */
int tcpconn_start(struct tool_ctx *t, const struct tcpconn_settings *s,
		  struct bb_perfbuf **pb);
int tcpconn_stats_fd(struct tool_ctx *t);

/* ---- tcpexp.c: TCP retransmits and resets by local port (tracepoints) ---- */
/* Open, configure, load tcpexp.bpf.c in t and attach the tracepoints of
 * tcp_retransmit_skb, tcp_send_reset, tcp_receive_reset this kernel has
 * (Linux 4.15 on): bit TCPEXP_* of *have for each. -ENOENT (said) if none. */
int tcpexp_start(struct tool_ctx *t, unsigned *have);
/* counts: struct tcpexp_key -> u64 running sum */
int tcpexp_counts_fd(struct tool_ctx *t);

/* The per-CPU counters of the streaming objects (NAME_EMITTED ...: for
 * tool_ring_lost and the warnings at the end). */
int biosnoop_stats_fd(struct tool_ctx *t);
int drsnoop_stats_fd(struct tool_ctx *t);
int execsnoop_stats_fd(struct tool_ctx *t);

#endif
