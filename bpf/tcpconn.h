/* SPDX-License-Identifier: MIT */
/* tcpconnect and tcpaccept: what crosses between bpf/tcpconnect.bpf.c,
 * bpf/tcpaccept.bpf.c and the tools. */
#ifndef BAREBPF_TCPCONN_H
#define BAREBPF_TCPCONN_H

/* the perf event array record: one connect() that sent its SYN, or one
 * accept(); saddr is the local address, daddr the remote's */
struct tcpconn_event {
	unsigned long long ts;       /* bpf_ktime_get_ns() */
	unsigned int pid, tid, uid;
	unsigned short ip;           /* 4 or 6 */
	unsigned short lport, dport; /* host order */
	unsigned short pad;
	unsigned char saddr[16], daddr[16]; /* IPv4: the first 4 bytes */
	char comm[16];
};

/* ports (-P): the ports to trace, u16 host order -> u8 1 */
#define TCPCONN_MAXPORTS 64

/* stats: a per-CPU array */
#define TCPCONN_EMITTED 0   /* records handed to bpf_perf_event_output */
#define TCPCONN_UNTRACKED 1 /* connect()s not tracked: starts was full */
#define TCPCONN_NSTATS 2

#endif
