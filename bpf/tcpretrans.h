/* SPDX-License-Identifier: MIT */
/* tcpretrans: what crosses between bpf/tcpretrans.bpf.c and the tool. */
#ifndef BAREBPF_TCPRETRANS_H
#define BAREBPF_TCPRETRANS_H

#include "tcpsock.h"

#define TCPRETRANS_RETRANSMIT 1 /* T: R */
#define TCPRETRANS_TLP 2        /* T: L, a tail loss probe (-l) */

/* the perf event array record: one retransmission or loss probe */
struct tcpretrans_event {
	unsigned long long ts; /* bpf_ktime_get_ns() */
	unsigned int pid, type;
	struct tcpsock_flow f; /* f.state: the socket's state */
};

/* -c: counts, by flow (f.state 0) */
struct tcpretrans_key {
	struct tcpsock_flow f;
};

/* stats: a per-CPU array */
#define TCPRETRANS_EMITTED 0   /* records handed to bpf_perf_event_output */
#define TCPRETRANS_UNTRACKED 1 /* -c: flows not counted, counts was full */
#define TCPRETRANS_NSTATS 2

#endif
