/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpdrop: TCP segments the kernel drops, as bcc's tcpdrop, with the
 * kernel stack: a kprobe on tcp_drop(sk, skb) (4.10 to 5.18, where the
 * compiler kept it a function), else the tracepoint skb:kfree_skb: where
 * it has a reason (5.17+), the drops with a reason above NOT_SPECIFIED
 * (min_reason, from the format file), else (by_location) every kfree_skb,
 * its location sent for the tool to keep those of TCP's functions; of
 * IPv4 or IPv6 packets whose header says TCP.
 *
 * The addresses, ports and flags come from the packet's IP and TCP
 * headers where struct sk_buff's offsets are known (skb_known: BTF,
 * --btf or the discovery, tp_skbdisc below; the tracepoint needs them),
 * else (the kprobe) from the socket
 * through the field-offset layer (bpf/tcpsock.h), its remote end as the
 * source, without the flags. The state is the socket's: skb->sk, else the
 * event's rx_sk (6.12+), else none (a segment no socket took).
 *
 * Constants: filter_family (-4: 2, -6: 10; 0: both), skb_known,
 * skb_off_{head,nh,th,sk}, tp_reason, tp_protocol, tp_skaddr, tp_rx_sk,
 * tp_has_rx_sk, min_reason, by_location, tp_location, and the socket's
 * (sk_off_*, sk_have_v6); the discovery's: disc_pid, tp_q_skaddr.
 */
#define TCPSOCK_BPF
#include "bb_helpers.h"
#include "tcpsock.h"
#include "tcpdrop.h"

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd

BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       TCPDROP_STACKS);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TCPDROP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(skbdisc, BPF_MAP_TYPE_ARRAY, sizeof(u32), TCPDROP_DISC_V, 3);

/*
 * The IP and TCP headers of skb into e: 1 for a TCP segment of IPv4 or
 * IPv6, else 0 (another protocol, or headers not set: 0xffff).
 */
static __always_inline int read_pkt(const char *skb, struct tcpdrop_event *e)
{
	const char *head = (const char *)(unsigned long)
		BB_KREAD_ULONG(skb + BB_CONST(skb_off_head));
	u8 ip[20] = {}, th[14] = {};
	u16 nh = 0xffff, tho = 0xffff;
	u32 ver, proto;

	bpf_probe_read(&nh, 2, skb + BB_CONST(skb_off_nh));
	bpf_probe_read(&tho, 2, skb + BB_CONST(skb_off_th));
	if (!head || nh == 0xffff)
		return 0;
	bpf_probe_read(ip, 20, head + nh);
	ver = ip[0] >> 4;
	if (ver == 4) {
		proto = ip[9];
		e->family = TCPSOCK_AF_INET;
		__builtin_memcpy(e->saddr, ip + 12, 4);
		__builtin_memcpy(e->daddr, ip + 16, 4);
		if (tho == 0xffff)
			tho = nh + (ip[0] & 15) * 4;
	} else if (ver == 6) {
		proto = ip[6]; /* the next header: TCP, without extensions */
		e->family = TCPSOCK_AF_INET6;
		bpf_probe_read(e->saddr, 16, head + nh + 8);
		bpf_probe_read(e->daddr, 16, head + nh + 24);
		if (tho == 0xffff)
			tho = nh + 40;
	} else {
		return 0;
	}
	if (proto != TCPSOCK_IPPROTO_TCP)
		return 0;
	bpf_probe_read(th, 14, head + tho);
	e->sport = (u16)((th[0] << 8) | th[1]);
	e->dport = (u16)((th[2] << 8) | th[3]);
	e->tcpflags = th[13];
	e->has_flags = 1;
	return 1;
}

/* From the socket: its remote end as the source */
static __always_inline void read_sock(const char *sk, struct tcpdrop_event *e)
{
	struct tcpsock_flow f = {};

	tcpsock_read_sk(sk, &f);
	e->family = f.family;
	__builtin_memcpy(e->saddr, f.daddr, 16);
	__builtin_memcpy(e->daddr, f.saddr, 16);
	e->sport = f.dport;
	e->dport = f.lport;
}

static __always_inline void emit(void *ctx, struct tcpdrop_event *e,
				 const char *sk)
{
	u32 fam = BB_CONST(filter_family), key = TCPDROP_EMITTED;
	u64 *v;

	if (sk) {
		bpf_probe_read(&e->state, 1, sk + BB_CONST(sk_off_state));
		e->has_sk = 1;
	}
	if (e->family != TCPSOCK_AF_INET && e->family != TCPSOCK_AF_INET6)
		return;
	if (fam && e->family != fam)
		return;
	e->ts = bpf_ktime_get_ns();
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->kstack = bpf_get_stackid(ctx, &stacks, 0);
	v = bpf_map_lookup_elem(&stats, &key);
	if (v)
		*v += 1; /* per-CPU: no other writer */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
}

SEC("kprobe/tcp_drop")
int kp_tcp_drop(struct pt_regs *ctx)
{
	struct tcpdrop_event e = {};
	const char *sk = (const char *)(unsigned long)PT_REGS_PARM1(ctx);
	const char *skb = (const char *)(unsigned long)PT_REGS_PARM2(ctx);

	if (!sk)
		return 0;
	if (!BB_CONST(skb_known) || !skb || !read_pkt(skb, &e)) {
		__builtin_memset(&e, 0, sizeof(e));
		read_sock(sk, &e);
	}
	e.entry_ret = PT_REGS_ENTRY_RET(ctx);
	emit(ctx, &e, sk);
	return 0;
}

SEC("tracepoint/skb/kfree_skb")
int tp_kfree_skb(void *ctx)
{
	struct tcpdrop_event e = {};
	const char *skb = (const char *)(unsigned long)
		BB_TP_READ_ULONG(ctx, tp_skaddr);
	const char *sk;
	u32 reason = 0;
	u16 proto = 0;

	if (BB_CONST(by_location)) {
		e.location = BB_TP_READ_ULONG(ctx, tp_location);
	} else {
		BB_TP_READ(reason, ctx, tp_reason);
		if (reason <= BB_CONST(min_reason))
			return 0;
	}
	BB_TP_READ(proto, ctx, tp_protocol);
	if ((proto != ETH_P_IP && proto != ETH_P_IPV6) || !skb ||
	    !read_pkt(skb, &e))
		return 0;
	e.reason = reason;
	sk = (const char *)(unsigned long)
		BB_KREAD_ULONG(skb + BB_CONST(skb_off_sk));
	if (!sk && BB_CONST(tp_has_rx_sk))
		sk = (const char *)(unsigned long)
			BB_TP_READ_ULONG(ctx, tp_rx_sk);
	emit(ctx, &e, sk);
	return 0;
}

/*
 * The discovery of struct sk_buff's fields (loader/mods/skboff.c): the
 * first packet process disc_pid sends after the loader clears skbdisc[0],
 * at net:net_dev_queue (in the sender's context; its socket, headers and
 * data set), copied as bpf/tcpdrop.h says, through the stack (4.9's
 * bpf_probe_read writes the stack only).
 */
SEC("tracepoint/net/net_dev_queue")
int tp_skbdisc(void *ctx)
{
	const char *skb = (const char *)(unsigned long)
		BB_TP_READ_ULONG(ctx, tp_q_skaddr);
	char buf[TCPDROP_DISC_V];
	u32 k = 0, *c;
	u64 p;

	if ((u32)(bpf_get_current_pid_tgid() >> 32) != BB_CONST(disc_pid))
		return 0;
	c = bpf_map_lookup_elem(&skbdisc, &k);
	if (!c || c[0])
		return 0;
	c[0] = sizeof(bb_kulong);
	p = BB_KREAD_ULONG(skb + c[1]);
	bpf_probe_read(buf, sizeof(buf), skb);
	k = 1;
	bpf_map_update_elem(&skbdisc, &k, buf, BPF_ANY);
	bpf_probe_read(buf, TCPDROP_DISC_PEEK, (const void *)(unsigned long)p);
	k = 2;
	bpf_map_update_elem(&skbdisc, &k, buf, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
