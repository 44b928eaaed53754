/* SPDX-License-Identifier: MIT */
/*
 * tcpexp: TCP retransmits and resets by local port, for the exporter's
 * tcp collector, from the tracepoints tcp:tcp_retransmit_skb,
 * tcp:tcp_send_reset and tcp:tcp_receive_reset (Linux 4.15 on). The
 * local port is the record's sport (host order: the kernel's ntohs), or
 * where tcp_send_reset records addresses as a struct sockaddr (6.10 on,
 * for resets with or without a socket), the port of its saddr (network
 * order, at the sockaddr's offset 2: in_port_t of sockaddr_in and
 * sockaddr_in6 alike), swapped here when srst_net is set.
 *
 * Constants: tpoff_retrans_sport, tpoff_srst_port, srst_net,
 * tpoff_rrst_sport.
 */
#include "bb_helpers.h"
#include "tcpexp.h"

BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(struct tcpexp_key), sizeof(u64),
       TCPEXP_MAX_KEYS);
BB_DROPS_MAP();

static __always_inline void count(u16 port, u16 what)
{
	struct tcpexp_key key = {};

	key.port = port;
	key.what = what;
	bb_hist_add(&counts, &key, 1, &drops);
}

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcp_retrans(void *ctx)
{
	u16 port = 0;

	BB_TP_READ(port, ctx, tpoff_retrans_sport);
	count(port, TCPEXP_RETRANS);
	return 0;
}

SEC("tracepoint/tcp/tcp_send_reset")
int tcp_srst(void *ctx)
{
	u16 port = 0;

	BB_TP_READ(port, ctx, tpoff_srst_port);
	if (BB_CONST(srst_net))
		port = (u16)((port >> 8) | (port << 8));
	count(port, TCPEXP_RST_SENT);
	return 0;
}

SEC("tracepoint/tcp/tcp_receive_reset")
int tcp_rrst(void *ctx)
{
	u16 port = 0;

	BB_TP_READ(port, ctx, tpoff_rrst_sport);
	count(port, TCPEXP_RST_RECV);
	return 0;
}

char _license[] SEC("license") = "GPL";
