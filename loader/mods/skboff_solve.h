/* SPDX-License-Identifier: MIT */
/*
 * Where struct sk_buff's fields are, from copies of the sk_buffs of UDP
 * datagrams whose addresses and ports are known, each sent from its own
 * connected socket (loader/mods/skboff.c sends them): pure, for the unit
 * tests.
 */
#ifndef BAREBPF_SKBOFF_SOLVE_H
#define BAREBPF_SKBOFF_SOLVE_H

#include <stdint.h>
#include "../../bpf/tcpdrop.h"

enum { SKBOFF_HEAD, SKBOFF_NH, SKBOFF_TH, SKBOFF_SK, SKBOFF_NFIELDS };
/* "sk_buff.head", ... in the order above */
extern const char *const skboff_paths[SKBOFF_NFIELDS];

/* One datagram: its sk_buff's first bytes, TCPDROP_DISC_PEEK bytes at
 * each pointer-sized slot of them, and what is known of it (addresses as
 * in memory, network order; ports in the host's) */
struct skboff_rec {
	uint32_t ptr_size; /* the kernel's: 4 or 8 */
	unsigned char win[TCPDROP_DISC_WIN];
	unsigned char peek[TCPDROP_DISC_SLOTS][TCPDROP_DISC_PEEK];
	uint32_t saddr, daddr;
	uint16_t sport, dport;
};

struct skboff_result {
	uint32_t off[SKBOFF_NFIELDS], size[SKBOFF_NFIELDS];
	char why[256]; /* how they were found, or which was not and why */
};

/*
 * Every field, the same in every record: 0, or -errno with why naming
 * the field refused. The datagram's IPv4 header is where a pointer and
 * the offset into its bytes say (the same address from every pointer
 * that shows it); head: the one pointer slot below it from which a u16
 * slot (network_header) is the way to it and another (transport_header)
 * to the UDP header after it; sk: the one pointer slot whose bytes
 * begin as struct sock_common does (daddr, rcv_saddr, hash, dport, num)
 * with the datagram's addresses and ports. A field at no offset or at
 * several is refused, never guessed.
 */
int skboff_solve(const struct skboff_rec *r, int n, struct skboff_result *res);

#endif
