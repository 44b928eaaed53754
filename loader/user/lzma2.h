/* SPDX-License-Identifier: MIT */
/*
 * Inside the .xz decoder (xz.c), not a library interface: the LZMA2
 * decoder of a block's data (lzma2.c).
 */
#ifndef BAREBPF_LZMA2_H
#define BAREBPF_LZMA2_H

#include <stddef.h>
#include <stdint.h>

/* The compressed bytes, read from pos on. */
struct xz_in {
	const uint8_t *p;
	size_t len, pos;
};

/* The output, which is the LZMA dictionary too; bounded by max. */
struct xz_out {
	uint8_t *buf;
	size_t len, cap, max;
};

/* Room for n more bytes of output: 0, -EFBIG past max, -ENOMEM. */
int xz_out_reserve(struct xz_out *o, size_t n);

struct lzma;
struct lzma *lzma_new(void);
/* A block's LZMA2 data from in->pos, up to its end chunk (control byte
 * 0), appended to the output. -EBADMSG: damaged. */
int lzma2_decode(struct lzma *z, struct xz_in *in, struct xz_out *o);

#endif
