/* SPDX-License-Identifier: MIT */
/*
 * The LZMA2 decoder of the .xz decoder (xz.c): LZMA2 chunks (stored, or
 * LZMA with their state, property and dictionary resets), and the LZMA
 * decoder itself as Igor Pavlov's LzmaSpec.cpp describes it. The output
 * buffer is the dictionary (decoded whole, no window to wrap), so every
 * distance is checked against what was decoded since the last dictionary
 * reset, every length against the chunk's declared size, and the range
 * coder against the chunk's compressed bytes (read past them: damage).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lzma2.h"

/* room for n more bytes, within the caller's bound */
int xz_out_reserve(struct xz_out *o, size_t n)
{
	size_t cap = o->cap ? o->cap : 65536;
	uint8_t *nb;

	if (n > o->max - o->len)
		return -EFBIG;
	if (o->len + n <= o->cap)
		return 0;
	while (cap < o->len + n)
		cap = cap > o->max / 2 ? o->max : cap * 2;
	nb = realloc(o->buf, cap);
	if (!nb)
		return -ENOMEM;
	o->buf = nb;
	o->cap = cap;
	return 0;
}

/* ---- LZMA: the range decoder and the decoder's models ---- */

#define LZ_PROB_INIT 1024 /* half of 1 << 11 */

struct lz_len {
	uint16_t choice, choice2, low[16][8], mid[16][8], high[256];
};

/* only uint16_t arrays: reset as one array */
struct lz_probs {
	uint16_t is_match[12 << 4], is_rep[12], is_rep0[12], is_rep1[12];
	uint16_t is_rep2[12], is_rep0_long[12 << 4];
	uint16_t slot[4][64], special[115], align[16];
	struct lz_len len, rep_len;
	uint16_t lit[0x300 << 4]; /* lc + lp <= 4 in LZMA2 */
};

struct lzma {
	const uint8_t *in, *in_end;
	uint32_t range, code;
	int overrun; /* read past the chunk: damaged */
	unsigned lc, lp, pb, state;
	uint32_t rep[4];
	struct lz_probs pr;
};

static void rc_normalize(struct lzma *z)
{
	if (z->range >= 1u << 24)
		return;
	z->range <<= 8;
	z->code <<= 8;
	if (z->in < z->in_end)
		z->code |= *z->in++;
	else
		z->overrun = 1;
}

static unsigned rc_bit(struct lzma *z, uint16_t *p)
{
	uint32_t bound = (z->range >> 11) * *p;
	unsigned b;

	if (z->code < bound) {
		z->range = bound;
		*p += (2048 - *p) >> 5;
		b = 0;
	} else {
		z->range -= bound;
		z->code -= bound;
		*p -= *p >> 5;
		b = 1;
	}
	rc_normalize(z);
	return b;
}

static uint32_t rc_direct(struct lzma *z, unsigned n)
{
	uint32_t r = 0;

	while (n--) {
		z->range >>= 1;
		r <<= 1;
		if (z->code >= z->range) {
			z->code -= z->range;
			r |= 1;
		}
		rc_normalize(z);
	}
	return r;
}

static unsigned rc_tree(struct lzma *z, uint16_t *p, unsigned bits)
{
	unsigned m = 1, i;

	for (i = 0; i < bits; i++)
		m = m << 1 | rc_bit(z, &p[m]);
	return m - (1u << bits);
}

static unsigned rc_rtree(struct lzma *z, uint16_t *p, unsigned bits)
{
	unsigned m = 1, r = 0, i;

	for (i = 0; i < bits; i++) {
		unsigned b = rc_bit(z, &p[m]);

		m = m << 1 | b;
		r |= b << i;
	}
	return r;
}

static unsigned len_decode(struct lzma *z, struct lz_len *l, unsigned ps)
{
	if (!rc_bit(z, &l->choice))
		return rc_tree(z, l->low[ps], 3);
	if (!rc_bit(z, &l->choice2))
		return 8 + rc_tree(z, l->mid[ps], 3);
	return 16 + rc_tree(z, l->high, 8);
}

static uint32_t dist_decode(struct lzma *z, unsigned len)
{
	unsigned slot = rc_tree(z, z->pr.slot[len < 3 ? len : 3], 6), nb;
	uint32_t dist;

	if (slot < 4)
		return slot;
	nb = (slot >> 1) - 1;
	dist = (2u | (slot & 1)) << nb;
	if (slot < 14)
		return dist + rc_rtree(z, z->pr.special + dist - slot, nb);
	dist += rc_direct(z, nb - 4) << 4;
	return dist + rc_rtree(z, z->pr.align, 4);
}

static void lzma_reset(struct lzma *z)
{
	uint16_t *p = (uint16_t *)&z->pr;
	size_t i;

	for (i = 0; i < sizeof(z->pr) / sizeof(*p); i++)
		p[i] = LZ_PROB_INIT;
	z->state = 0;
	memset(z->rep, 0, sizeof(z->rep));
}

static void lzma_literal(struct lzma *z, uint8_t *b, size_t pos, size_t dpos)
{
	unsigned prev = dpos ? b[pos - 1] : 0, sym = 1, st = z->state;
	uint16_t *p = z->pr.lit +
		0x300 * (((dpos & ((1u << z->lp) - 1)) << z->lc) +
			 (prev >> (8 - z->lc)));

	if (st >= 7) { /* after a match: the byte at rep0 guides the bits */
		unsigned mb = b[pos - z->rep[0] - 1];

		do {
			unsigned mbit = mb >> 7 & 1, bit;

			mb <<= 1;
			bit = rc_bit(z, &p[((1 + mbit) << 8) + sym]);
			sym = sym << 1 | bit;
			if (bit != mbit)
				break;
		} while (sym < 0x100);
	}
	while (sym < 0x100)
		sym = sym << 1 | rc_bit(z, &p[sym]);
	b[pos] = (uint8_t)sym;
	z->state = st < 4 ? 0 : st < 10 ? st - 3 : st - 6;
}

/* A match's length (0-based), having set rep0 and the state; or -1: a
 * short rep (one byte at rep0). */
static int lzma_match(struct lzma *z, unsigned ps)
{
	unsigned st = z->state, len;
	uint32_t *rep = z->rep, d;

	if (!rc_bit(z, &z->pr.is_rep[st])) {
		rep[3] = rep[2];
		rep[2] = rep[1];
		rep[1] = rep[0];
		len = len_decode(z, &z->pr.len, ps);
		z->state = st < 7 ? 7 : 10;
		rep[0] = dist_decode(z, len);
		return (int)len;
	}
	if (!rc_bit(z, &z->pr.is_rep0[st])) {
		if (!rc_bit(z, &z->pr.is_rep0_long[st << 4 | ps])) {
			z->state = st < 7 ? 9 : 11;
			return -1;
		}
	} else {
		if (!rc_bit(z, &z->pr.is_rep1[st])) {
			d = rep[1];
		} else {
			if (!rc_bit(z, &z->pr.is_rep2[st])) {
				d = rep[2];
			} else {
				d = rep[3];
				rep[3] = rep[2];
			}
			rep[2] = rep[1];
		}
		rep[1] = rep[0];
		rep[0] = d;
	}
	len = len_decode(z, &z->pr.rep_len, ps);
	z->state = st < 7 ? 8 : 11;
	return (int)len;
}

/*
 * One LZMA chunk: bytes up to `end` of the output (reserved), from the
 * range coder over the chunk's compressed bytes. Positions count from the
 * dictionary's start; a distance reaching before it is damage (and the
 * end marker, distance 0xFFFFFFFF, has no place in LZMA2).
 */
static int lzma_chunk(struct lzma *z, struct xz_out *o, size_t dict, size_t end)
{
	uint8_t *b = o->buf;
	size_t pos = o->len;

	while (pos < end) {
		size_t dpos = pos - dict;
		unsigned ps = dpos & ((1u << z->pb) - 1);
		int len;

		if (z->overrun)
			return -EBADMSG;
		if (!rc_bit(z, &z->pr.is_match[z->state << 4 | ps])) {
			if (z->state >= 7 && z->rep[0] >= dpos)
				return -EBADMSG;
			lzma_literal(z, b, pos++, dpos);
			continue;
		}
		if (!dpos)
			return -EBADMSG; /* a match with nothing before it */
		len = lzma_match(z, ps);
		if (z->rep[0] >= dpos)
			return -EBADMSG;
		if (len < 0) {
			b[pos] = b[pos - z->rep[0] - 1];
			pos++;
			continue;
		}
		if ((size_t)len + 2 > end - pos)
			return -EBADMSG;
		for (len += 2; len--; pos++)
			b[pos] = b[pos - z->rep[0] - 1];
	}
	o->len = pos;
	return z->overrun ? -EBADMSG : 0;
}

struct lzma *lzma_new(void)
{
	return malloc(sizeof(struct lzma));
}

/* ---- LZMA2: chunks ---- */

static int lzma2_props(struct lzma *z, unsigned d)
{
	if (d >= 9 * 5 * 5)
		return -EBADMSG;
	z->lc = d % 9;
	z->lp = d / 9 % 5;
	z->pb = d / 45;
	return z->lc + z->lp > 4 ? -EBADMSG : 0;
}

/* An LZMA chunk after its control byte c: sizes, properties, data. */
static int lzma2_lzma(struct lzma *z, struct xz_in *in, struct xz_out *o,
		      unsigned c, size_t dict)
{
	const uint8_t *p = in->p + in->pos;
	size_t hdr = c >= 0xC0 ? 5 : 4, usize, csize;
	int ret;

	if (in->len - in->pos < hdr)
		return -EBADMSG;
	usize = ((size_t)(c & 0x1F) << 16 | (size_t)p[0] << 8 | p[1]) + 1;
	csize = ((size_t)p[2] << 8 | p[3]) + 1;
	if (c >= 0xC0 && lzma2_props(z, p[4]) < 0)
		return -EBADMSG;
	if (c >= 0xA0)
		lzma_reset(z);
	in->pos += hdr;
	if (csize < 5 || csize > in->len - in->pos)
		return -EBADMSG;
	ret = xz_out_reserve(o, usize);
	if (ret < 0)
		return ret;
	p = in->p + in->pos;
	/* the range coder: a zero byte, then the code, big endian */
	z->code = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 |
		  (uint32_t)p[3] << 8 | p[4];
	z->range = 0xFFFFFFFFu;
	if (p[0] || z->code == z->range)
		return -EBADMSG;
	z->in = p + 5;
	z->in_end = p + csize;
	z->overrun = 0;
	ret = lzma_chunk(z, o, dict, o->len + usize);
	if (ret < 0)
		return ret;
	/* the chunk's bytes used up exactly, and the code back to 0: the
	 * encoder's flush wrote its final low whole, so a change to its last
	 * bytes (which decode the same symbols) shows here */
	if (z->in != z->in_end || z->code)
		return -EBADMSG;
	in->pos += csize;
	return 0;
}

/* A block's LZMA2 data, up to its end chunk (control byte 0). */
int lzma2_decode(struct lzma *z, struct xz_in *in, struct xz_out *o)
{
	int need_dict = 1, need_props = 1, ret;
	size_t dict = o->len, n;

	for (;;) {
		unsigned c;

		if (in->pos >= in->len)
			return -EBADMSG;
		c = in->p[in->pos++];
		if (!c)
			return 0;
		if (c >= 0xE0 || c == 1) {
			need_props = 1;
			need_dict = 0;
			dict = o->len;
		} else if (need_dict) {
			return -EBADMSG;
		}
		if (c >= 0x80) {
			if (c >= 0xC0)
				need_props = 0;
			else if (need_props)
				return -EBADMSG;
			ret = lzma2_lzma(z, in, o, c, dict);
		} else if (c > 2) {
			return -EBADMSG;
		} else { /* stored: a 16-bit size, then the bytes */
			if (in->len - in->pos < 2)
				return -EBADMSG;
			n = ((size_t)in->p[in->pos] << 8 | in->p[in->pos + 1]) + 1;
			in->pos += 2;
			if (n > in->len - in->pos)
				return -EBADMSG;
			ret = xz_out_reserve(o, n);
			if (ret == 0) {
				memcpy(o->buf + o->len, in->p + in->pos, n);
				o->len += n;
				in->pos += n;
			}
		}
		if (ret < 0)
			return ret;
	}
}
