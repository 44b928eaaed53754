/* SPDX-License-Identifier: MIT */
/* tcpdrop: what crosses between bpf/tcpdrop.bpf.c and the tool. */
#ifndef BAREBPF_TCPDROP_H
#define BAREBPF_TCPDROP_H

/* the perf event array record: one dropped segment */
struct tcpdrop_event {
	unsigned long long ts;        /* bpf_ktime_get_ns() */
	unsigned long long entry_ret; /* arm64's kprobe: x30, the caller */
	unsigned long long location;  /* skb:kfree_skb's: who freed it */
	unsigned int pid;
	unsigned int reason; /* skb:kfree_skb's reason; 0: none (tcp_drop) */
	int kstack;          /* stack map id, or -errno */
	/* the segment's source (the remote end, for a received one) and
	 * destination; ports in host order */
	unsigned char saddr[16], daddr[16];
	unsigned short family, sport, dport;
	unsigned char state;     /* the socket's; with has_sk 0, none */
	unsigned char tcpflags;  /* the TCP header's byte 13 */
	unsigned char has_flags; /* 0: the header was not read */
	unsigned char has_sk;    /* 0: no socket (NO_SOCKET) */
	unsigned char pad[2];
};

/* stats: a per-CPU array */
#define TCPDROP_EMITTED 0 /* records handed to bpf_perf_event_output */
#define TCPDROP_NSTATS 1

#define TCPDROP_STACKS 1024 /* stack map entries, as bcc's */

/*
 * skbdisc: the discovery of struct sk_buff's fields (loader/mods/skboff.c),
 * entries of TCPDROP_DISC_V bytes. 0: two u32s, the kernel's pointer size
 * once a packet was copied (the loader clears it) and the offset of the
 * slot to follow (the loader's); 1: the first TCPDROP_DISC_V bytes of the
 * packet's sk_buff; 2: TCPDROP_DISC_PEEK bytes at the address in that
 * slot (zeros where that cannot be read).
 */
#define TCPDROP_DISC_V 256
#define TCPDROP_DISC_PEEK 40

#endif
