/* SPDX-License-Identifier: MIT */
/* tcpstates: what crosses between bpf/tcpstates.bpf.c and the tool. */
#ifndef BAREBPF_TCPSTATES_H
#define BAREBPF_TCPSTATES_H

#include "tcpsock.h"

/* the perf event array record: one state change */
struct tcpstates_event {
	unsigned long long ts;      /* bpf_ktime_get_ns() */
	unsigned long long skaddr;  /* the socket, as an id */
	unsigned long long span_ns; /* in the old state; 0: not seen */
	unsigned int pid;           /* the current process (C-PID) */
	int oldstate, newstate;
	struct tcpsock_flow f;
	char comm[16];
};

/* stats: a per-CPU array */
#define TCPSTATES_EMITTED 0   /* records handed to bpf_perf_event_output */
#define TCPSTATES_UNTRACKED 1 /* sockets whose time was not kept: full */
#define TCPSTATES_NSTATS 2

#endif
