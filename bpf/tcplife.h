/* SPDX-License-Identifier: MIT */
/* tcplife: what crosses between bpf/tcplife.bpf.c and the tool. */
#ifndef BAREBPF_TCPLIFE_H
#define BAREBPF_TCPLIFE_H

#include "tcpsock.h"

/* whoami: the process a socket is put down to (SYN_SENT, LAST_ACK) */
struct tcplife_who {
	unsigned int pid, pad;
	char comm[16];
};

/* the perf event array record: one socket's life, at its close */
struct tcplife_event {
	unsigned long long ts;       /* bpf_ktime_get_ns() at the close */
	unsigned long long span_ns;  /* from its first state < FIN_WAIT1 */
	unsigned long long rx_b, tx_b; /* tcp_sock.bytes_received, _acked */
	unsigned int pid, pad;
	struct tcpsock_flow f;
	char comm[16];
};

/* snap: the discovery of tcp_sock's byte counts where there is no BTF
 * (loader/mods/tcplife.c): the first TCPLIFE_SNAP_N chunks of the socket
 * this process closes first, and in entry TCPLIFE_SNAP_N a flag */
#define TCPLIFE_SNAP_CHUNK 256
#define TCPLIFE_SNAP_N 12

/* stats: a per-CPU array */
#define TCPLIFE_EMITTED 0   /* records handed to bpf_perf_event_output */
#define TCPLIFE_UNTRACKED 1 /* sockets not followed: birth was full */
#define TCPLIFE_NSTATS 2

#endif
