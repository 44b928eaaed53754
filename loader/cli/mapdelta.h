/* SPDX-License-Identifier: MIT */
/*
 * Running totals of a hash map (a key of up to MAPDELTA_KEY bytes -> u64),
 * read as what each key gained since the last read (mapdelta.c). The
 * programs add with atomic adds and nobody deletes, so that nothing a CPU
 * adds between a read and a clear is lost (hardirqs, softirqs).
 */
#ifndef BAREBPF_MAPDELTA_H
#define BAREBPF_MAPDELTA_H

#include <stddef.h>
#include <stdint.h>

#define MAPDELTA_KEY 48
struct mapdelta_row {
	unsigned char key[MAPDELTA_KEY]; /* the map's key, zero-padded */
	uint64_t val;                    /* its total, or its gain */
};
struct mapdelta {
	int fd;
	size_t ksize, max;     /* the map's key size and max_entries */
	struct mapdelta_row *prev;
	size_t nprev;
};
/* fd: the map; ksize <= MAPDELTA_KEY. */
void mapdelta_init(struct mapdelta *d, int fd, size_t ksize, size_t max);
/*
 * The keys that gained since the last read (the first read: since 0),
 * with their gains, in *rows (sorted by key; freed by the caller).
 * Returns how many, or -ENOMEM.
 */
int mapdelta_read(struct mapdelta *d, struct mapdelta_row **rows);
void mapdelta_free(struct mapdelta *d);
/*
 * Every key of the map fd and its value, in *out (freed by the caller):
 * rows of `stride` bytes, the key (ksize bytes) at their start and the
 * value at voff, as a struct { key; val; } lays them out. Returns how
 * many, or -ENOMEM. (biotop, bitesize: they sort and subtract their own.)
 */
int map_read_rows(int fd, size_t ksize, size_t voff, size_t stride,
		  void **out);

#endif
