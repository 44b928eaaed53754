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
 * past it), so a small bomb cannot take the memory. The blocks' LZMA2
 * data is decoded by lzma2.c; this file reads the container around it.
 *
 * The formats: "The .xz File Format" 1.1.0 (tukaani.org), and the LZMA
 * decoder as Igor Pavlov's LzmaSpec.cpp describes it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "lzma2.h"
#include "user.h"

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

uint32_t xz_crc32_update(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t c = ~crc;

	crc_init();
	while (n--)
		c = crc32_tab[(c ^ *b++) & 0xff] ^ c >> 8;
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
	z = lzma_new();
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
