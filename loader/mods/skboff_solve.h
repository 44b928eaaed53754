/* SPDX-License-Identifier: MIT */
/*
 * Where struct sk_buff's fields are, from copies of the sk_buffs of UDP
 * datagrams whose addresses and ports are known, sent from connected
 * sockets (loader/mods/skboff.c sends them), each with the bytes at one
 * of its pointers: pure, for the unit tests.
 */
#ifndef BAREBPF_SKBOFF_SOLVE_H
#define BAREBPF_SKBOFF_SOLVE_H

#include <stdint.h>
#include "../../bpf/tcpdrop.h"

enum { SKBOFF_HEAD, SKBOFF_NH, SKBOFF_TH, SKBOFF_SK, SKBOFF_NFIELDS };
/* "sk_buff.head", ... in the order above */
extern const char *const skboff_paths[SKBOFF_NFIELDS];

#define SKBOFF_MAXREC 256

/* One datagram: its sk_buff's first bytes, TCPDROP_DISC_PEEK bytes at
 * the address in the slot at offset `at` of them, and what is known of it
 * (addresses as in memory, network order; ports in the host's) */
struct skboff_rec {
	uint32_t ptr_size; /* the kernel's: 4 or 8 */
	uint32_t at;
	unsigned char win[TCPDROP_DISC_V];
	unsigned char peek[TCPDROP_DISC_PEEK];
	uint32_t saddr, daddr;
	uint16_t sport, dport;
};

struct skboff_result {
	uint32_t off[SKBOFF_NFIELDS], size[SKBOFF_NFIELDS];
	char why[128]; /* how they were found, or which was not and why */
};

/*
 * Every field, the same in every record: 0, or -errno with why naming
 * the field refused. A datagram's IPv4 header is where a peek shows it
 * (at least two such records); head: the one pointer slot below it from
 * which a u16 slot (network_header) is the way to it and another
 * (transport_header) to the UDP header after it, in each of those; sk:
 * the one pointer slot whose every peek begins as struct sock_common
 * does (daddr, rcv_saddr, hash, dport, num) with its datagram's
 * addresses and ports. A field at no offset or at several is refused,
 * never guessed.
 */
int skboff_solve(const struct skboff_rec *r, int n, struct skboff_result *res);

#endif
