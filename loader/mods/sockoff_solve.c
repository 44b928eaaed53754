/* SPDX-License-Identifier: MIT */
/* The matching of known values in copies of socks (sockoff_solve.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sockoff_solve.h"

const char *const sockoff_paths[SOCKOFF_NFIELDS] = {
	"sock.__sk_common.skc_daddr",
	"sock.__sk_common.skc_rcv_saddr",
	"sock.__sk_common.skc_dport",
	"sock.__sk_common.skc_num",
	"sock.__sk_common.skc_family",
	"sock.__sk_common.skc_state",
	"sock.__sk_common.skc_v6_daddr",
	"sock.__sk_common.skc_v6_rcv_saddr",
};

static const uint8_t field_size[SOCKOFF_NFIELDS] = { 4, 4, 2, 2, 2, 1, 16,
						     16 };

/* c's value of field into v (its size), or 0 if c does not know it */
static int want(const struct sockoff_conn *c, int field, uint8_t *v)
{
	switch (field) {
	case SOCKOFF_DADDR:
	case SOCKOFF_SADDR:
		if (!c->v4_known)
			return 0;
		memcpy(v, field == SOCKOFF_DADDR ? &c->daddr : &c->saddr, 4);
		return 1;
	case SOCKOFF_DPORT: memcpy(v, &c->dport, 2); return 1;
	case SOCKOFF_NUM: memcpy(v, &c->num, 2); return 1;
	case SOCKOFF_FAMILY:
		if (!c->family_known)
			return 0;
		memcpy(v, &c->family, 2);
		return 1;
	case SOCKOFF_STATE: v[0] = c->state; return 1;
	default:
		if (!c->v6_known)
			return 0;
		memcpy(v, field == SOCKOFF_V6D ? c->v6d : c->v6s, 16);
		return 1;
	}
}

/* does [o, o + size) overlap a byte another field holds? */
static int overlaps(const uint8_t *taken, uint32_t o, uint32_t size)
{
	uint32_t k;

	for (k = 0; taken && k < size; k++)
		if (taken[o + k])
			return 1;
	return 0;
}

int sockoff_match(const struct sockoff_conn *c, int n, int field,
		  uint32_t lo, uint32_t hi, const uint8_t *taken,
		  uint32_t *off, int *count)
{
	uint32_t size = field_size[field], align = size > 4 ? 4 : size, o;
	uint8_t v[16], first[16];
	int i, known = 0, differ = 0, found = 0;

	for (i = 0; i < n; i++) {
		if (!want(&c[i], field, v))
			continue;
		if (known++ == 0)
			memcpy(first, v, size);
		else if (memcmp(first, v, size))
			differ = 1;
	}
	*count = 0;
	if (known < 2 || !differ)
		return -ENODATA;
	if (hi > SOCKOFF_WINDOW)
		hi = SOCKOFF_WINDOW;
	for (o = (lo + align - 1) / align * align; o + size <= hi; o += align) {
		for (i = 0; i < n; i++)
			if (want(&c[i], field, v) &&
			    memcmp(c[i].snap + o, v, size))
				break;
		if (i < n || overlaps(taken, o, size))
			continue;
		if (!found++)
			*off = o;
	}
	*count = found;
	return found == 1 ? 0 : found ? -EEXIST : -ESRCH;
}

static void say(struct sockoff_result *r, int f, int ret, uint32_t off,
		int count, int n)
{
	r->ret[f] = ret;
	r->off[f] = off;
	r->size[f] = field_size[f];
	if (ret == 0)
		snprintf(r->why[f], sizeof(r->why[f]), "discovered: its "
			 "value in %d loopback connections' socks, at offset "
			 "%u only", n, off);
	else if (ret == -EEXIST)
		snprintf(r->why[f], sizeof(r->why[f]), "the known values of "
			 "%d loopback connections are at %d offsets of their "
			 "socks (the first %u): ambiguous", n, count, off);
	else if (ret == -ESRCH)
		snprintf(r->why[f], sizeof(r->why[f]), "the known values of "
			 "%d loopback connections are at no one offset of the "
			 "first %d bytes of their socks", n, SOCKOFF_WINDOW);
	else
		snprintf(r->why[f], sizeof(r->why[f]), "the loopback "
			 "connections did not give it two different values");
}

/* skc_family where every conn has AF_INET: between skc_num and
 * skc_state, as in every kernel's struct sock_common */
static void family_between(const struct sockoff_conn *c, int n,
			   struct sockoff_result *r)
{
	int f = SOCKOFF_FAMILY, count = 0, i, ret = -ESRCH;
	uint32_t lo = r->off[SOCKOFF_NUM] + 2, hi = r->off[SOCKOFF_STATE], o;

	if (r->ret[SOCKOFF_NUM] || r->ret[SOCKOFF_STATE]) {
		r->ret[f] = -ESRCH;
		snprintf(r->why[f], sizeof(r->why[f]), "placed by skc_num and "
			 "skc_state, and one of those is not found");
		return;
	}
	for (o = (lo + 1) & ~1u; o + 2 <= hi; o += 2) {
		for (i = 0; i < n; i++)
			if (!c[i].family_known ||
			    memcmp(c[i].snap + o, &c[i].family, 2))
				break;
		if (i == n && !count++)
			r->off[f] = o;
	}
	if (count == 1)
		ret = 0;
	else if (count)
		ret = -EEXIST;
	r->ret[f] = ret;
	r->size[f] = 2;
	if (ret == 0)
		snprintf(r->why[f], sizeof(r->why[f]), "discovered: the one "
			 "u16 equal to AF_INET in %d loopback connections' "
			 "socks between skc_num and skc_state, at offset %u",
			 n, r->off[f]);
	else
		snprintf(r->why[f], sizeof(r->why[f]), "%d u16s equal to "
			 "AF_INET between skc_num (%u) and skc_state (%u) in "
			 "%d loopback connections' socks, not one", count,
			 lo - 2, hi, n);
}

/* the bytes of a field found */
static void take(uint8_t *taken, const struct sockoff_result *r, int f)
{
	if (r->ret[f] == 0)
		memset(taken + r->off[f], 1, r->size[f]);
}

void sockoff_solve(const struct sockoff_conn *c, int n, int v6,
		   struct sockoff_result *r)
{
	/* the IPv6 addresses first: a kernel with IPv6 keeps an IPv4
	 * sock's addresses in them too, mapped (sk_daddr_set), and the
	 * IPv4 fields are the copies outside them */
	static const int order[SOCKOFF_NFIELDS] = {
		SOCKOFF_V6D, SOCKOFF_V6S, SOCKOFF_DADDR, SOCKOFF_SADDR,
		SOCKOFF_DPORT, SOCKOFF_NUM, SOCKOFF_FAMILY, SOCKOFF_STATE,
	};
	uint8_t taken[SOCKOFF_WINDOW] = { 0 };
	uint32_t off = 0;
	int i, f, count, ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < SOCKOFF_NFIELDS; i++) {
		f = order[i];
		if (!v6 && (f == SOCKOFF_V6D || f == SOCKOFF_V6S)) {
			r->ret[f] = -EOPNOTSUPP;
			snprintf(r->why[f], sizeof(r->why[f]), "no IPv6 here "
				 "(no AF_INET6 socket binds to ::1)");
			continue;
		}
		ret = sockoff_match(c, n, f, 0, SOCKOFF_WINDOW, taken, &off,
				    &count);
		if (f == SOCKOFF_FAMILY && ret == -ENODATA)
			continue; /* below */
		say(r, f, ret, off, count, n);
		take(taken, r, f);
	}
	if (sockoff_match(c, n, SOCKOFF_FAMILY, 0, SOCKOFF_WINDOW, NULL, &off,
			  &count) == -ENODATA)
		family_between(c, n, r);
}
