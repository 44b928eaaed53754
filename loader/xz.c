/* SPDX-License-Identifier: MIT */
/*
 * An .xz decoder, small and whole-buffer, for MiniDebugInfo: the
 * .gnu_debugdata section that distributions (Fedora's find-debuginfo,
 * others) put in stripped binaries, an xz-compressed ELF holding the
 * .symtab that stripping removed.
 *
 * What those streams are, and so all this reads: one xz stream, its blocks
 * filtered by LZMA2 alone (no BCJ or delta), the check none, CRC32 or
 * CRC64 (SHA-256 and anything else: -EOPNOTSUPP). Every check is verified
 * (block check, header and index CRC32s, the index against the blocks, the
 * footer against the header): a damaged section gives -EBADMSG, never
 * symbols made of garbage.
 *
 * The input comes from whatever file a traced process maps: every length
 * is checked before use, and the output is bounded by the caller (-EFBIG
 * past it), so a small bomb cannot take the memory. The output buffer is
 * the LZMA dictionary itself (decoded whole, no window to wrap), so a
 * match is checked against what was decoded since the last dictionary
 * reset.
 *
 * The formats: "The .xz File Format" 1.1.0 (tukaani.org), and the LZMA
 * decoder as Igor Pavlov's LzmaSpec.cpp describes it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"

/* ---- CRC32 (header, index, check 1) and CRC64 (check 4) ---- */

static uint32_t crc32_tab[256];
static uint64_t crc64_tab[256];

static void crc_init(void)
{
	static int done;
	unsigned i, k;

	if (done)
		return;
	for (i = 0; i < 256; i++) {
		uint32_t c = i;
		uint64_t d = i;

		for (k = 0; k < 8; k++) {
			c = c & 1 ? c >> 1 ^ 0xEDB88320u : c >> 1;
			d = d & 1 ? d >> 1 ^ 0xC96C5795D7870F42ull : d >> 1;
		}
		crc32_tab[i] = c;
		crc64_tab[i] = d;
	}
	done = 1;
}

static uint32_t xz_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = ~0u;

	while (n--)
		c = crc32_tab[(c ^ *p++) & 0xff] ^ c >> 8;
	return ~c;
}

static uint64_t xz_crc64(const uint8_t *p, size_t n)
{
	uint64_t c = ~0ull;

	while (n--)
		c = crc64_tab[(c ^ *p++) & 0xff] ^ c >> 8;
	return ~c;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* ---- the output, which is the dictionary too ---- */

struct xz_out {
	uint8_t *buf;
	size_t len, cap, max;
};

/* room for n more bytes, within the caller's bound */
static int out_reserve(struct xz_out *o, size_t n)
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

/* ---- LZMA2: chunks ---- */

struct xz_in {
	const uint8_t *p;
	size_t len, pos;
};

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
	ret = out_reserve(o, usize);
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
static int lzma2_decode(struct lzma *z, struct xz_in *in, struct xz_out *o)
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
			ret = out_reserve(o, n);
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

/* ---- the .xz container: stream header, blocks, index, footer ---- */

/* A variable-length integer of at most 9 bytes ending before `end`. */
static int vli(const uint8_t *p, size_t *at, size_t end, uint64_t *v)
{
	unsigned i;

	*v = 0;
	for (i = 0; i < 9 && *at < end; i++) {
		uint8_t b = p[(*at)++];

		*v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80))
			return i && !b ? -EBADMSG : 0; /* no needless 0 byte */
	}
	return -EBADMSG;
}

struct xz_rec {
	uint64_t unpadded, usize;
};

/* The block header at in->pos: LZMA2 alone, its sizes if given. */
static int block_header(struct xz_in *in, uint64_t *csize, uint64_t *usize)
{
	const uint8_t *p = in->p + in->pos;
	size_t hsize = ((size_t)p[0] + 1) * 4, at = 2;
	uint64_t id, psize;

	*csize = *usize = UINT64_MAX;
	if (hsize > in->len - in->pos ||
	    xz_crc32(p, hsize - 4) != le(p + hsize - 4, 4))
		return -EBADMSG;
	if (p[1] & 0x3C)
		return -EOPNOTSUPP; /* reserved flags */
	if (p[1] & 3)
		return -EOPNOTSUPP; /* more than one filter: BCJ, delta */
	if ((p[1] & 0x40 && vli(p, &at, hsize - 4, csize) < 0) ||
	    (p[1] & 0x80 && vli(p, &at, hsize - 4, usize) < 0) ||
	    vli(p, &at, hsize - 4, &id) < 0 ||
	    vli(p, &at, hsize - 4, &psize) < 0)
		return -EBADMSG;
	if (id != 0x21)
		return -EOPNOTSUPP;
	if (psize != 1 || at >= hsize - 4 || p[at] > 40)
		return -EBADMSG;
	for (at++; at < hsize - 4; at++)
		if (p[at])
			return -EBADMSG;
	in->pos += hsize;
	return (int)hsize;
}

static int block_check(const struct xz_in *in, unsigned check,
		       const uint8_t *data, size_t len)
{
	const uint8_t *c = in->p + in->pos;

	if (check == 1)
		return xz_crc32(data, len) == le(c, 4) ? 0 : -EBADMSG;
	if (check == 4)
		return xz_crc64(data, len) == le(c, 8) ? 0 : -EBADMSG;
	return 0;
}

/* One block, its record kept for the index. */
static int block(struct lzma *z, struct xz_in *in, struct xz_out *o,
		 unsigned check, struct xz_rec *rec)
{
	size_t start = in->pos, out0 = o->len, csz = check ? 4u << (check / 4) : 0;
	uint64_t csize, usize;
	int hsize, ret;

	hsize = block_header(in, &csize, &usize);
	if (hsize < 0)
		return hsize;
	ret = lzma2_decode(z, in, o);
	if (ret < 0)
		return ret;
	if ((csize != UINT64_MAX && csize != in->pos - start - hsize) ||
	    (usize != UINT64_MAX && usize != o->len - out0))
		return -EBADMSG;
	rec->unpadded = in->pos - start + csz;
	rec->usize = o->len - out0;
	while ((in->pos - start) % 4)
		if (in->pos >= in->len || in->p[in->pos++])
			return -EBADMSG;
	if (csz > in->len - in->pos)
		return -EBADMSG;
	/* an empty block (nothing decoded, no buffer yet) has its check too */
	ret = block_check(in, check, o->buf ? o->buf + out0 : o->buf,
			  o->len - out0);
	in->pos += csz;
	return ret;
}

/* The index (against the blocks' records), then the stream footer. */
static int index_footer(const struct xz_in *in, const uint8_t *flags,
			const struct xz_rec *recs, size_t nrecs)
{
	const uint8_t *p = in->p;
	size_t start = in->pos, at = start + 1, i, end;
	uint64_t n, a, b;

	if (vli(p, &at, in->len, &n) < 0 || n != nrecs)
		return -EBADMSG;
	for (i = 0; i < nrecs; i++)
		if (vli(p, &at, in->len, &a) < 0 ||
		    vli(p, &at, in->len, &b) < 0 ||
		    a != recs[i].unpadded || b != recs[i].usize)
			return -EBADMSG;
	while ((at - start) % 4)
		if (at >= in->len || p[at++])
			return -EBADMSG;
	if (in->len - at < 4 + 12 ||
	    xz_crc32(p + start, at - start) != le(p + at, 4))
		return -EBADMSG;
	at += 4;
	/* footer: CRC32, backward size, flags, "YZ" */
	if (xz_crc32(p + at + 4, 6) != le(p + at, 4) ||
	    (le(p + at + 4, 4) + 1) * 4 != at - start ||
	    memcmp(p + at + 8, flags, 2) || memcmp(p + at + 10, "YZ", 2))
		return -EBADMSG;
	/* stream padding: zero bytes, a multiple of four */
	for (end = at + 12; end < in->len; end++)
		if (p[end])
			return -EBADMSG;
	return (in->len - at - 12) % 4 ? -EBADMSG : 0;
}

static int stream(struct lzma *z, struct xz_in *in, struct xz_out *o)
{
	static const uint8_t magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0 };
	const uint8_t *p = in->p;
	struct xz_rec *recs = NULL, *nr;
	size_t nrecs = 0, cap = 0;
	unsigned check;
	int ret;

	if (in->len < 12 + 12 || memcmp(p, magic, 6))
		return -EBADMSG;
	if (xz_crc32(p + 6, 2) != le(p + 8, 4) || p[6] || p[7] > 0xF)
		return -EBADMSG;
	check = p[7];
	if (check != 0 && check != 1 && check != 4)
		return -EOPNOTSUPP; /* SHA-256, or a reserved one */
	in->pos = 12;
	for (;;) {
		if (in->pos >= in->len) {
			ret = -EBADMSG;
			break;
		}
		if (!p[in->pos]) { /* the index indicator */
			ret = index_footer(in, p + 6, recs, nrecs);
			break;
		}
		if (nrecs == cap) {
			cap = cap ? cap * 2 : 8;
			nr = realloc(recs, cap * sizeof(*recs));
			if (!nr) {
				ret = -ENOMEM;
				break;
			}
			recs = nr;
		}
		ret = block(z, in, o, check, &recs[nrecs++]);
		if (ret < 0)
			break;
	}
	free(recs);
	return ret;
}

int xz_decode(const void *src, size_t len, size_t max, uint8_t **out,
	      size_t *outlen)
{
	struct xz_in in = { src, len, 0 };
	struct xz_out o = { NULL, 0, 0, max };
	struct lzma *z;
	int ret;

	*out = NULL;
	*outlen = 0;
	crc_init();
	z = malloc(sizeof(*z));
	if (!z)
		return -ENOMEM;
	ret = stream(z, &in, &o);
	free(z);
	if (ret < 0) {
		free(o.buf);
		return ret;
	}
	*out = o.buf;
	*outlen = o.len;
	return 0;
}
