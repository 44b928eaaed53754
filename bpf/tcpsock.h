/* SPDX-License-Identifier: MIT */
/*
 * The network tools' shared parts (tcpstates, tcplife, tcpretrans): the
 * flow of a record (each tool's bpf/NAME.h embeds it), and on the BPF side
 * (TCPSOCK_BPF defined) the reads of a socket's addresses and ports,
 * either from the tracepoint's fields (offsets from its format file) or
 * from struct sock through the field-offset layer (a kprobe, before the
 * tracepoints). Every offset is a load-time constant: never compiled in.
 */
#ifndef BAREBPF_TCPSOCK_H
#define BAREBPF_TCPSOCK_H

#define TCPSOCK_AF_INET 2
#define TCPSOCK_AF_INET6 10
#define TCPSOCK_IPPROTO_TCP 6
#define TCPSOCK_CLOSE 7 /* TCP_CLOSE */

/* both addresses: IPv4 in the first 4 bytes; ports in host order */
struct tcpsock_flow {
	unsigned char saddr[16], daddr[16];
	unsigned short family, lport, dport;
	unsigned char state, pad;
};

#ifdef TCPSOCK_BPF
/*
 * struct sock's fields (sock.__sk_common.*), constants the module sets:
 * sk_off_{daddr,saddr,dport,num,family,state,v6_daddr,v6_saddr};
 * sk_have_v6 0 where the kernel has no IPv6 fields (no CONFIG_IPV6).
 */
static __always_inline void tcpsock_read_sk(const char *sk,
					    struct tcpsock_flow *f)
{
	u16 dport = 0;

	bpf_probe_read(&f->family, 2, sk + BB_CONST(sk_off_family));
	bpf_probe_read(&f->lport, 2, sk + BB_CONST(sk_off_num));
	bpf_probe_read(&dport, 2, sk + BB_CONST(sk_off_dport));
	f->dport = (u16)((dport >> 8) | (dport << 8)); /* network order */
	bpf_probe_read(&f->state, 1, sk + BB_CONST(sk_off_state));
	if (f->family == TCPSOCK_AF_INET) {
		bpf_probe_read(f->saddr, 4, sk + BB_CONST(sk_off_saddr));
		bpf_probe_read(f->daddr, 4, sk + BB_CONST(sk_off_daddr));
	} else if (f->family == TCPSOCK_AF_INET6 && BB_CONST(sk_have_v6)) {
		bpf_probe_read(f->saddr, 16, sk + BB_CONST(sk_off_v6_saddr));
		bpf_probe_read(f->daddr, 16, sk + BB_CONST(sk_off_v6_daddr));
	}
}

/*
 * The same from a tracepoint's fields (sock:inet_sock_set_state,
 * tcp:tcp_retransmit_skb): tp_sport, tp_dport (host order), tp_family,
 * tp_saddr, tp_daddr, tp_saddr_v6, tp_daddr_v6. Where the event has no
 * family (tp_has_family 0: tcp_retransmit_skb before 5.x) it is IPv4 if
 * saddr_v6 is IPv4-mapped, as the kernel stores an IPv4 socket's there
 * (tp_family_mapped), else read from the socket sk, as tcpsock_read_sk
 * does.
 */
static __always_inline void tcpsock_read_tp(const void *ctx, const char *sk,
					    struct tcpsock_flow *f)
{
	const char *c = ctx;

	BB_TP_READ(f->lport, ctx, tp_sport);
	BB_TP_READ(f->dport, ctx, tp_dport);
	if (BB_CONST(tp_has_family)) {
		BB_TP_READ(f->family, ctx, tp_family);
	} else if (BB_CONST(tp_family_mapped)) {
		u32 w[4] = {};

		/* an IPv4 socket's are ::ffff:a.b.c.d (little-endian words) */
		bpf_probe_read(w, 16, c + BB_CONST(tp_saddr_v6));
		f->family = w[0] == 0 && w[1] == 0 && w[2] == 0xffff0000 ?
			TCPSOCK_AF_INET : TCPSOCK_AF_INET6;
	} else {
		bpf_probe_read(&f->family, 2, sk + BB_CONST(sk_off_family));
	}
	if (f->family == TCPSOCK_AF_INET) {
		bpf_probe_read(f->saddr, 4, c + BB_CONST(tp_saddr));
		bpf_probe_read(f->daddr, 4, c + BB_CONST(tp_daddr));
	} else {
		bpf_probe_read(f->saddr, 16, c + BB_CONST(tp_saddr_v6));
		bpf_probe_read(f->daddr, 16, c + BB_CONST(tp_daddr_v6));
	}
}

/*
 * sock:inet_sock_set_state's protocol: a __u16 at tp_protocol, or a __u8
 * (tp_proto_u8: 4.16 to 5.x, where the next byte is saddr's first)
 */
static __always_inline u32 tcpsock_tp_protocol(const void *ctx)
{
	u16 p16 = 0;
	u8 p8 = 0;

	if (BB_CONST(tp_proto_u8)) {
		BB_TP_READ(p8, ctx, tp_protocol);
		return p8;
	}
	BB_TP_READ(p16, ctx, tp_protocol);
	return p16;
}

/* -L / -D: ports (host order) in hash map `m` if the constant `on` */
#define TCPSOCK_PORT_OK(m, on, port)                                           \
	({                                                                     \
		u32 __k = (port);                                              \
		!BB_CONST(on) || bpf_map_lookup_elem(&(m), &__k);              \
	})
#endif

#endif
