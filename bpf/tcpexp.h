/* SPDX-License-Identifier: MIT */
/* tcpexp: what crosses between bpf/tcpexp.bpf.c and the exporter's tcp
 * collector (loader/tools/exporter/exporter_tcp.c). */
#ifndef BAREBPF_TCPEXP_H
#define BAREBPF_TCPEXP_H

/* counts: a local port and what happened -> running sum, never cleared */
struct tcpexp_key {
	unsigned short port; /* local, host order */
	unsigned short what; /* TCPEXP_* */
};
/* every port of both directions and retransmits: 65,536 x 3 at most,
 * more than a host uses at once; past it, counted in drops */
#define TCPEXP_MAX_KEYS 16384

enum { TCPEXP_RETRANS, TCPEXP_RST_SENT, TCPEXP_RST_RECV, TCPEXP_NWHAT };

#endif
