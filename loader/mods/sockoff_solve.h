/* SPDX-License-Identifier: MIT */
/*
 * Where struct sock's fields are, from copies of socks whose addresses,
 * ports, family and state are known (loader/mods/sockoff.c makes the
 * connections): pure, for the unit tests.
 */
#ifndef BAREBPF_SOCKOFF_SOLVE_H
#define BAREBPF_SOCKOFF_SOLVE_H

#include <stdint.h>
#include "../../bpf/sockoff.h"

enum {
	SOCKOFF_DADDR, SOCKOFF_SADDR, SOCKOFF_DPORT, SOCKOFF_NUM,
	SOCKOFF_FAMILY, SOCKOFF_STATE, SOCKOFF_V6D, SOCKOFF_V6S,
	SOCKOFF_NFIELDS
};
/* "sock.__sk_common.skc_daddr", ... in the order above */
extern const char *const sockoff_paths[SOCKOFF_NFIELDS];

/* One accepted sock: its bytes and what is known of it (*_known 0: that
 * value is not known for this one, e.g. the IPv4 addresses of an IPv6
 * sock). Addresses and dport as in memory (network order); num and
 * family in the host's. */
struct sockoff_conn {
	unsigned char snap[SOCKOFF_WINDOW];
	int v4_known, v6_known, family_known;
	uint32_t daddr, saddr;
	uint16_t dport, num, family;
	uint8_t state;
	uint8_t v6d[16], v6s[16];
};

struct sockoff_result {
	int ret[SOCKOFF_NFIELDS];     /* 0 found, else -errno */
	uint32_t off[SOCKOFF_NFIELDS], size[SOCKOFF_NFIELDS];
	char why[SOCKOFF_NFIELDS][200]; /* how found, or why not */
};

/*
 * The offsets in [lo, hi) (a multiple of the field's alignment, not
 * over a byte taken[] marks: another field's; NULL: none) where
 * every conn that knows field holds its value: 0 with *off if exactly
 * one; -ESRCH none; -EEXIST several (*off the first, *count how many);
 * -ENODATA fewer than two conns know it, or they all know the same value
 * (nothing tells the field from a constant).
 */
int sockoff_match(const struct sockoff_conn *c, int n, int field,
		  uint32_t lo, uint32_t hi, const uint8_t *taken,
		  uint32_t *off, int *count);
/*
 * All the fields (the IPv6 ones only if v6): each found, or refused with
 * a sentence. skc_family, if every conn has the same (no IPv6), is the
 * u16 of that value between skc_num and skc_state, where every kernel has
 * it. The IPv6 addresses are placed first: an IPv4 sock holds its
 * addresses in them too, mapped, on a kernel with IPv6.
 */
void sockoff_solve(const struct sockoff_conn *c, int n, int v6,
		   struct sockoff_result *r);

#endif
