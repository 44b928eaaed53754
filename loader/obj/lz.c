/* SPDX-License-Identifier: MIT */
/*
 * The decoder of the embedded BPF objects, stored compressed (issue 7:
 * the binary must stay under 400 KiB; ELF objects are mostly zeros,
 * symbol names and repeated instructions: a third of their size here).
 * The format is LZ4's block format with a header:
 *
 *   u32 LE  decoded size
 *   then sequences, each:
 *     token   high nibble: literal count, low nibble: match length - 4
 *             (15 in either: more bytes follow, each added, until one < 255)
 *     [literal count extension] literals
 *     u16 LE  match offset (1 .. bytes decoded so far)
 *     [match length extension]
 *   The last sequence has only its token and literals (maybe none): the
 *   input ends after them, and the output must then be exactly the
 *   decoded size.
 *
 * The encoder is scripts/lzpack.c, run at build time. The input is our own,
 * but this is a parser all the same: every length and offset is checked
 * against both buffers (fuzzed: make fuzz FUZZ=lz).
 */
#include <limits.h>
#include <errno.h>
#include <string.h>
#include "barebpf.h"
#include "obj.h"

long lz_size(const void *src, size_t len)
{
	const unsigned char *s = src;

	if (len < 4)
		return -EINVAL;
	return (long)(s[0] | s[1] << 8 | s[2] << 16 | (uint32_t)s[3] << 24);
}

#if LONG_MAX > 0xffffffffL
#define LZ_LEN_MAX 0xffffffffL
#else
#define LZ_LEN_MAX (LONG_MAX - 255)
#endif

/* A length nibble and its extension bytes; -1 past the input's end. */
static long lz_read_len(const unsigned char **p, const unsigned char *end,
			long n)
{
	unsigned char b;

	if (n != 15)
		return n;
	do {
		if (*p >= end)
			return -1;
		b = *(*p)++;
		n += b;
		/* longer than any output we accept (a u32 size; on 32-bit,
		 * before the next byte could overflow a long) */
		if (n > LZ_LEN_MAX)
			return -1;
	} while (b == 255);
	return n;
}

long lz_decode(void *dst, size_t cap, const void *src, size_t len)
{
	const unsigned char *p = src, *end = p + len;
	unsigned char *o = dst, *out = o;
	long size = lz_size(src, len), n;
	size_t off;

	if (size < 0 || (size_t)size > cap)
		return -EINVAL;
	p += 4;
	for (;;) {
		unsigned char tok;

		if (p == end)
			return -EINVAL;
		tok = *p++;

		n = lz_read_len(&p, end, tok >> 4);
		if (n < 0 || (size_t)n > (size_t)(end - p) ||
		    (size_t)n > (size_t)size - (size_t)(o - out))
			return -EINVAL;
		memcpy(o, p, n);
		o += n;
		p += n;
		if (p == end)
			break;
		if (end - p < 2)
			return -EINVAL;
		off = p[0] | p[1] << 8;
		p += 2;
		n = lz_read_len(&p, end, tok & 15);
		if (off == 0 || off > (size_t)(o - out) || n < 0 ||
		    (size_t)n + 4 > (size_t)size - (size_t)(o - out))
			return -EINVAL;
		/* byte by byte: a match may overlap its own output */
		for (n += 4; n > 0; n--, o++)
			*o = *(o - off);
	}
	return o - out == size ? size : -EINVAL;
}
