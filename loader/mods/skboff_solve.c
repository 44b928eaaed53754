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

#define SKBOFF_MAXREC 8

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

/* the address of r's IPv4 header into *ip, its length into *hl: 0;
 * -ESRCH at no pointer; -EEXIST at two addresses */
static int find_ip(const struct skboff_rec *r, uint64_t *ip, uint32_t *hl)
{
	uint32_t i, k, h, n = 0;
	const unsigned char *p;

	for (i = 0; i < TCPDROP_DISC_WIN / r->ptr_size; i++)
		for (k = 0; k + 24 <= TCPDROP_DISC_PEEK; k++) {
			p = r->peek[i] + k;
			h = (p[0] & 15) * 4;
			if (p[0] >> 4 != 4 || h < 20 || p[9] != 17 ||
			    memcmp(p + 12, &r->saddr, 4) ||
			    memcmp(p + 16, &r->daddr, 4) ||
			    k + h + 4 > TCPDROP_DISC_PEEK ||
			    be16(p + h) != r->sport ||
			    be16(p + h + 2) != r->dport)
				continue;
			if (n++ && *ip != slot(r, i * r->ptr_size) + k)
				return -EEXIST;
			*ip = slot(r, i * r->ptr_size) + k;
			*hl = h;
		}
	return n ? 0 : -ESRCH;
}

/* does a u16 of r's copy hold v? */
static int has_u16(const struct skboff_rec *r, uint64_t v)
{
	uint32_t o;
	uint16_t w;

	for (o = 0; o + 2 <= TCPDROP_DISC_WIN; o += 2) {
		memcpy(&w, r->win + o, 2);
		if (w == v)
			return 1;
	}
	return 0;
}

/* is the slot at o, in every record, field f (given head's offset)? */
static int fits(const struct skboff_rec *r, int n, int f, uint32_t o,
		uint32_t head, const uint64_t *ip, const uint32_t *hl)
{
	const unsigned char *p;
	uint64_t v, d;
	uint16_t w;
	int j;

	for (j = 0; j < n; j++) {
		v = slot(&r[j], f == SKBOFF_HEAD ? o : head);
		d = ip[j] - v;
		memcpy(&w, r[j].win + o, 2);
		p = r[j].peek[o / r->ptr_size];
		if (f == SKBOFF_HEAD ? v >= ip[j] || d > 0xffff ||
		    !has_u16(&r[j], d) || !has_u16(&r[j], d + hl[j]) :
		    f == SKBOFF_NH ? v >= ip[j] || w != d :
		    f == SKBOFF_TH ? v >= ip[j] || w != d + hl[j] :
		    memcmp(p, &r[j].daddr, 4) || memcmp(p + 4, &r[j].saddr, 4) ||
		    be16(p + 12) != r[j].dport ||
		    memcmp(p + 14, &r[j].sport, 2))
			return 0;
	}
	return 1;
}

int skboff_solve(const struct skboff_rec *r, int n, struct skboff_result *res)
{
	static const char *const what[SKBOFF_NFIELDS] = {
		"pointer below their IPv4 header at u16s to it and to their "
		"UDP header", "u16 from head to their IPv4 header",
		"u16 from head to their UDP header", "pointer to their socket"
	};
	uint64_t ip[SKBOFF_MAXREC];
	uint32_t hl[SKBOFF_MAXREC], ps = n > 0 ? r->ptr_size : 0, o, at = 0;
	int j, f, cnt, ret;

	memset(res, 0, sizeof(*res));
	if (n < 1 || n > SKBOFF_MAXREC || (ps != 4 && ps != 8))
		goto bad;
	for (j = 0; j < n; j++) {
		if (r[j].ptr_size != ps)
			goto bad;
		ret = find_ip(&r[j], &ip[j], &hl[j]);
		if (ret < 0) {
			snprintf(res->why, sizeof(res->why), "field %s: the "
				 "IPv4 header of datagram %d is %s of the "
				 "pointers of its sk_buff's first %u bytes",
				 skboff_paths[0], j + 1, ret == -ESRCH ?
				 "at none" : "at two addresses through some",
				 TCPDROP_DISC_WIN);
			return ret;
		}
	}
	for (f = 0; f < SKBOFF_NFIELDS; f++) {
		uint32_t step = f == SKBOFF_NH || f == SKBOFF_TH ? 2 : ps;

		for (o = 0, cnt = 0; o + step <= TCPDROP_DISC_WIN; o += step)
			if (fits(r, n, f, o, res->off[SKBOFF_HEAD], ip, hl) &&
			    cnt++ == 0)
				at = o;
		if (cnt != 1) {
			snprintf(res->why, sizeof(res->why), "field %s: %s "
				 "offset of the first %u bytes of the sk_buffs "
				 "of %d UDP datagrams holds the %s in each",
				 skboff_paths[f], cnt ? "more than one" : "no",
				 TCPDROP_DISC_WIN, n, what[f]);
			return cnt ? -EEXIST : -ESRCH;
		}
		res->off[f] = at;
		res->size[f] = step;
	}
	snprintf(res->why, sizeof(res->why), "discovered: in the sk_buffs of "
		 "%d UDP datagrams over lo, the %u-byte pointer to their "
		 "socket and the one from which u16s lead to their IPv4 and "
		 "UDP headers", n, ps);
	return 0;
bad:
	snprintf(res->why, sizeof(res->why), "field %s: %d copies of "
		 "sk_buffs, of pointers of %u bytes: not what the discovery "
		 "makes", skboff_paths[0], n, ps);
	return -EINVAL;
}
