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
 * Before 4.15 (no such tracepoints), kprobes instead (kp_*), and for
 * resets sent where tcp_send_reset takes a socket (4.15-6.9): on
 * tcp_retransmit_skb(sk, ...), tcp_reset(sk) and tcp_send_active_reset(sk,
 * ...), the port is the socket's skc_num (sk_off_num); on
 * tcp_v4_send_reset and tcp_v6_send_reset(sk, skb), the destination port
 * of the segment answered, from its TCP header (skb->head +
 * skb->transport_header; skb_off_head, skb_off_th), with or without a
 * socket (a closed port), that segment not itself a reset (those
 * functions return without sending one then).
 *
 * Constants: tpoff_retrans_sport, retrans_has_err, tpoff_retrans_err
 * (the tracepoint's err where it has one), tpoff_srst_port, srst_net,
 * tpoff_rrst_sport; the kprobes': sk_off_num, skb_off_head, skb_off_th.
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
	int err = 0;

	/* recent kernels fire it for every attempt: err != 0 sent nothing */
	if (BB_CONST(retrans_has_err)) {
		BB_TP_READ(err, ctx, tpoff_retrans_err);
		if (err)
			return 0;
	}
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

/* The u16 skc_num (host order) of the socket in the first argument */
static __always_inline void count_sk(struct pt_regs *ctx, u16 what)
{
	const char *sk = (const char *)(unsigned long)PT_REGS_PARM1(ctx);
	u16 port = 0;

	if (!sk)
		return;
	bpf_probe_read(&port, 2, sk + BB_CONST(sk_off_num));
	count(port, what);
}

SEC("kprobe/tcp_retransmit_skb")
int kp_retrans(struct pt_regs *ctx)
{
	count_sk(ctx, TCPEXP_RETRANS);
	return 0;
}

SEC("kprobe/tcp_reset")
int kp_rrst(struct pt_regs *ctx)
{
	count_sk(ctx, TCPEXP_RST_RECV);
	return 0;
}

SEC("kprobe/tcp_send_active_reset")
int kp_arst(struct pt_regs *ctx)
{
	count_sk(ctx, TCPEXP_RST_SENT);
	return 0;
}

SEC("kprobe/tcp_v4_send_reset")
int kp_srst(struct pt_regs *ctx)
{
	const char *skb = (const char *)(unsigned long)PT_REGS_PARM2(ctx);
	const char *head;
	u8 th[14] = {};
	u16 tho = 0xffff;

	if (!skb)
		return 0;
	head = (const char *)(unsigned long)
		BB_KREAD_ULONG(skb + BB_CONST(skb_off_head));
	bpf_probe_read(&tho, 2, skb + BB_CONST(skb_off_th));
	if (!head || tho == 0xffff)
		return 0;
	bpf_probe_read(th, sizeof(th), head + tho);
	if (!(th[13] & 0x04)) /* not in reply to a reset: one is sent */
		count((u16)((th[2] << 8) | th[3]), TCPEXP_RST_SENT);
	return 0;
}

char _license[] SEC("license") = "GPL";
