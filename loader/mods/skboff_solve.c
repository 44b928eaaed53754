/* SPDX-License-Identifier: MIT */
/* The matching of known datagrams in copies of sk_buffs (skboff_solve.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "skboff_solve.h"

const char *const skboff_paths[SKBOFF_NFIELDS] = {
	"sk_buff.head", "sk_buff.network_header", "sk_buff.transport_header",
	"sk_buff.sk",
};

/* the pointer (or long) at off of r's copy */
static uint64_t slot(const struct skboff_rec *r, uint32_t off)
{
	uint32_t v32;
	uint64_t v64;

	if (r->ptr_size == 4) {
		memcpy(&v32, r->win + off, 4);
		return v32;
	}
	memcpy(&v64, r->win + off, 8);
	return v64;
}

static uint32_t be16(const unsigned char *p)
{
	return (uint32_t)(p[0] << 8 | p[1]);
}

/* the address of r's IPv4 header, its peek showing it, into *ip, its
 * length into *hl: 1, else 0 */
static int find_ip(const struct skboff_rec *r, uint64_t *ip, uint32_t *hl)
{
	uint32_t k, h;
	const unsigned char *p;

	for (k = 0; k + 24 <= TCPDROP_DISC_PEEK; k++) {
		p = r->peek + k;
		h = (p[0] & 15) * 4;
		if (p[0] >> 4 == 4 && h >= 20 && p[9] == 17 &&
		    !memcmp(p + 12, &r->saddr, 4) &&
		    !memcmp(p + 16, &r->daddr, 4) &&
		    k + h + 4 <= TCPDROP_DISC_PEEK &&
		    be16(p + h) == r->sport && be16(p + h + 2) == r->dport) {
			*ip = slot(r, r->at) + k;
			*hl = h;
			return 1;
		}
	}
	return 0;
}

/* does a u16 of r's copy hold v? */
static int has_u16(const struct skboff_rec *r, uint64_t v)
{
	uint32_t o;
	uint16_t w;

	for (o = 0; o + 2 <= TCPDROP_DISC_V; o += 2) {
		memcpy(&w, r->win + o, 2);
		if (w == v)
			return 1;
	}
	return 0;
}

/* is the slot at o field f? head, network_header, transport_header: in
 * each of the m records q that show their IPv4 header (at ip, hl long);
 * sk: in every peek of o, of which there is one at least */
static int fits(const struct skboff_rec *r, int n,
		const struct skboff_rec *const *q, int m, int f, uint32_t o,
		uint32_t head, const uint64_t *ip, const uint32_t *hl)
{
	const unsigned char *p;
	uint64_t v, d;
	uint16_t w;
	int j, seen = 0;

	for (j = 0; f == SKBOFF_SK && j < n; j++) {
		p = r[j].peek;
		if (r[j].at != o)
			continue;
		if (memcmp(p, &r[j].daddr, 4) || memcmp(p + 4, &r[j].saddr, 4) ||
		    be16(p + 12) != r[j].dport || memcmp(p + 14, &r[j].sport, 2))
			return 0;
		seen = 1;
	}
	for (j = 0; f != SKBOFF_SK && j < m; j++) {
		v = slot(q[j], f == SKBOFF_HEAD ? o : head);
		d = ip[j] - v;
		memcpy(&w, q[j]->win + o, 2);
		if (v >= ip[j] || d > 0xffff ||
		    (f == SKBOFF_HEAD ? !has_u16(q[j], d) ||
		     !has_u16(q[j], d + hl[j]) :
		     w != d + (f == SKBOFF_TH ? hl[j] : 0)))
			return 0;
		seen = 1;
	}
	return seen;
}

int skboff_solve(const struct skboff_rec *r, int n, struct skboff_result *res)
{
	const struct skboff_rec *q[SKBOFF_MAXREC];
	uint64_t ip[SKBOFF_MAXREC];
	uint32_t hl[SKBOFF_MAXREC], ps = n > 0 ? r->ptr_size : 0, o, at = 0;
	int j, m = 0, f, cnt;

	memset(res, 0, sizeof(*res));
	for (j = 0; j < n; j++) {
		if (n > SKBOFF_MAXREC || (ps != 4 && ps != 8) ||
		    r[j].ptr_size != ps || r[j].at % ps ||
		    r[j].at + ps > TCPDROP_DISC_V)
			break;
		if (find_ip(&r[j], &ip[m], &hl[m]))
			q[m++] = &r[j];
	}
	j = j < n || n < 1;
	if (j || m < 2) {
		snprintf(res->why, sizeof(res->why), "field %s: %s",
			 skboff_paths[0], j ? "not the discovery's records" :
			 "the IPv4 header of fewer than two datagrams at a "
			 "pointer of their sk_buff");
		return j ? -EINVAL : -ESRCH;
	}
	for (f = 0; f < SKBOFF_NFIELDS; f++) {
		uint32_t step = f == SKBOFF_NH || f == SKBOFF_TH ? 2 : ps;

		for (o = 0, cnt = 0; o + step <= TCPDROP_DISC_V; o += step)
			if (fits(r, n, q, m, f, o, res->off[SKBOFF_HEAD], ip,
				 hl) && cnt++ == 0)
				at = o;
		if (cnt != 1) {
			snprintf(res->why, sizeof(res->why), "field %s: at %s "
				 "offset of the sk_buffs of %d UDP datagrams",
				 skboff_paths[f], cnt ? "more than one" : "no",
				 n);
			return cnt ? -EEXIST : -ESRCH;
		}
		res->off[f] = at;
		res->size[f] = step;
	}
	snprintf(res->why, sizeof(res->why), "discovered: the sk_buffs of %d "
		 "UDP datagrams over lo", n);
	return 0;
}
