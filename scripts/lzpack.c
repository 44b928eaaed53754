/* SPDX-License-Identifier: MIT */
/*
 * lzpack IN OUT: compress a BPF object for embedding, in the format that
 * loader/obj/lz.c decodes (described there). A build tool, run on the build
 * host: inputs are tens of KiB, so it parses optimally (the fewest output
 * bytes, by dynamic programming over every position) rather than fast.
 * Near-optimal, to keep it quick on long runs: literal runs longer than
 * MAX_LIT bytes are priced (to within a byte) from a running minimum, a
 * match is either its longest or at most MAX_SHORT bytes, at most
 * MAX_CHAIN earlier positions are tried for each, none inside a long one. It decodes its output with the
 * library's decoder and fails if that does not give the input back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "obj.h"

#define MIN_MATCH 4
#define WINDOW 65535
#define HBITS 16
#define MAX_LIT 4096
#define MAX_SHORT 64
#define MAX_CHAIN 4096

/* Extension bytes of a length whose nibble holds n (lz_read_len). */
static size_t ext(size_t n)
{
	return n < 15 ? 0 : 1 + (n - 15) / 255;
}

static void put_len(unsigned char **o, size_t n)
{
	if (n < 15)
		return;
	for (n -= 15; n >= 255; n -= 255)
		*(*o)++ = 255;
	*(*o)++ = (unsigned char)n;
}

static unsigned hash4(const unsigned char *p)
{
	uint32_t v = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

	return (v * 2654435761u) >> (32 - HBITS);
}

static size_t pack(const unsigned char *in, size_t n, unsigned char *out)
{
	/* for position j: the longest match there (mlen, moff); the cost of
	 * the rest if a sequence's match starts at j (mcost, with the length
	 * chosen, mbest); the cost of the rest from i (cost, with the
	 * literal count chosen, nlit) */
	size_t *mlen = calloc(n + 1, sizeof(size_t));
	size_t *moff = calloc(n + 1, sizeof(size_t));
	size_t *mcost = calloc(n + 1, sizeof(size_t));
	size_t *mbest = calloc(n + 1, sizeof(size_t));
	size_t *cost = calloc(n + 1, sizeof(size_t));
	size_t *nlit = calloc(n + 1, sizeof(size_t));
	long *prev = calloc(n + 1, sizeof(long));
	/* smin[j]: the j' >= j where a match (or the end) is cheapest to
	 * reach by literals from far before: least 255 * mcost + 256 * j' */
	size_t *smin = calloc(n + 2, sizeof(size_t));
	long *head = malloc(sizeof(long) << HBITS);
	unsigned char *o = out;
	size_t i, j, k, L;

	if (!mlen || !moff || !mcost || !mbest || !cost || !nlit || !prev ||
	    !head || !smin) {
		fprintf(stderr, "lzpack: out of memory\n");
		exit(1);
	}
	for (i = 0; i < (size_t)1 << HBITS; i++)
		head[i] = -1;
	for (j = 0; j + MIN_MATCH <= n; j++) {
		unsigned h = hash4(in + j);
		long p;
		int depth = 0;

		/* inside a long match: its rest, without searching again
		 * (runs of zeros would make that quadratic) */
		if (j && mlen[j - 1] > 2 * MAX_SHORT) {
			mlen[j] = mlen[j - 1] - 1;
			moff[j] = moff[j - 1];
			depth = MAX_CHAIN;
		}
		for (p = head[h]; p >= 0 && j - p <= WINDOW &&
				  depth++ < MAX_CHAIN && j + mlen[j] < n;
		     p = prev[p]) {
			for (L = 0; j + L < n && in[p + L] == in[j + L]; L++)
				;
			if (L > mlen[j]) {
				mlen[j] = L;
				moff[j] = j - p;
			}
		}
		prev[j] = head[h];
		head[h] = j;
	}
	/* the last sequence: a token and the literals left */
	mcost[n] = 1;
	for (i = n + 1; i-- > 0;) {
		if (i < n) {
			mcost[i] = (size_t)-1;
			for (L = MIN_MATCH; L <= mlen[i]; L++) {
				size_t c;

				if (L > MAX_SHORT && L < mlen[i])
					L = mlen[i];
				c = 3 + ext(L - MIN_MATCH) + cost[i + L];
				if (c < mcost[i]) {
					mcost[i] = c;
					mbest[i] = L;
				}
			}
		}
		smin[i] = i;
		if (i < n && (mcost[i] == (size_t)-1 ||
			      255 * mcost[i] + 256 * i >=
				      255 * mcost[smin[i + 1]] +
					      256 * smin[i + 1]))
			smin[i] = smin[i + 1];
		cost[i] = (size_t)-1;
		for (k = 0; i + k <= n; k++) {
			size_t c;

			if (k > MAX_LIT)
				k = smin[i + k] - i;
			if (mcost[i + k] == (size_t)-1)
				continue;
			c = ext(k) + k + mcost[i + k];
			if (c < cost[i]) {
				cost[i] = c;
				nlit[i] = k;
			}
			if (k > MAX_LIT)
				break;
		}
	}
	*o++ = n;
	*o++ = n >> 8;
	*o++ = n >> 16;
	*o++ = n >> 24;
	for (i = 0;;) {
		size_t lit = nlit[i], m;

		j = i + lit;
		m = j < n ? mbest[j] - MIN_MATCH : 0;
		*o++ = (unsigned char)((lit < 15 ? lit : 15) << 4 |
				       (m < 15 ? m : 15));
		put_len(&o, lit);
		memcpy(o, in + i, lit);
		o += lit;
		if (j == n)
			break;
		*o++ = moff[j];
		*o++ = moff[j] >> 8;
		put_len(&o, m);
		i = j + mbest[j];
	}
	free(mlen);
	free(moff);
	free(mcost);
	free(mbest);
	free(cost);
	free(nlit);
	free(prev);
	free(head);
	free(smin);
	return o - out;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		if (!r)
			break;
		n += r;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	unsigned char *in, *out, *back;
	size_t n, m;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: lzpack IN OUT\n");
		return 2;
	}
	in = slurp(argv[1], &n);
	if (!in || n > 0xffffffffu) {
		fprintf(stderr, "lzpack: cannot read %s\n", argv[1]);
		return 1;
	}
	/* worst case: all literals, one token and 1/255 extension bytes */
	out = malloc(4 + 1 + n + n / 255 + 1);
	back = malloc(n + 1);
	if (!out || !back)
		return 1;
	m = pack(in, n, out);
	if (lz_decode(back, n, out, m) != (long)n || memcmp(back, in, n)) {
		fprintf(stderr, "lzpack: %s: the output does not decode to "
			"the input (a bug in lzpack or lz.c)\n", argv[1]);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, m, f) != m || fclose(f)) {
		fprintf(stderr, "lzpack: cannot write %s\n", argv[2]);
		remove(argv[2]);
		return 1;
	}
	return 0;
}
