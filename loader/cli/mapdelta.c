/* SPDX-License-Identifier: MIT */
/* A hash map's running totals read as deltas (mapdelta.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "mapdelta.h"

void mapdelta_init(struct mapdelta *d, int fd, size_t ksize, size_t max)
{
	memset(d, 0, sizeof(*d));
	d->fd = fd;
	d->ksize = ksize < MAPDELTA_KEY ? ksize : MAPDELTA_KEY;
	d->max = max;
}

static int cmp_row(const void *a, const void *b)
{
	return memcmp(a, b, MAPDELTA_KEY);
}

/* Every key of the map with its total, sorted. */
static int read_all(struct mapdelta *d, struct mapdelta_row **out)
{
	struct mapdelta_row *r = calloc(d->max ? d->max : 1, sizeof(*r));
	unsigned char key[MAPDELTA_KEY], next[MAPDELTA_KEY];
	void *pk = NULL;
	size_t n = 0;

	if (!r)
		return -ENOMEM;
	while (n < d->max && bpf_map_get_next_key(d->fd, pk, next) == 0) {
		memcpy(key, next, d->ksize);
		pk = key;
		if (bpf_map_lookup_elem(d->fd, key, &r[n].val) < 0)
			continue;
		memcpy(r[n].key, key, d->ksize);
		n++;
	}
	qsort(r, n, sizeof(*r), cmp_row);
	*out = r;
	return (int)n;
}

int mapdelta_read(struct mapdelta *d, struct mapdelta_row **rows)
{
	struct mapdelta_row *cur, *out, *old;
	int n = read_all(d, &cur), i, k = 0;

	if (n < 0)
		return n;
	out = malloc(((size_t)n + 1) * sizeof(*out));
	if (!out) {
		free(cur);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		old = d->nprev ? bsearch(&cur[i], d->prev, d->nprev,
					 sizeof(*old), cmp_row) : NULL;
		out[k] = cur[i];
		out[k].val -= old ? old->val : 0;
		k += out[k].val != 0;
	}
	free(d->prev);
	d->prev = cur;
	d->nprev = (size_t)n;
	*rows = out;
	return k;
}

void mapdelta_free(struct mapdelta *d)
{
	free(d->prev);
	d->prev = NULL;
	d->nprev = 0;
}

int map_read_rows(int fd, size_t ksize, size_t voff, size_t stride,
		  void **out)
{
	unsigned char *r = NULL, *nr, *row;
	unsigned char key[MAPDELTA_KEY], next[MAPDELTA_KEY];
	void *pk = NULL;
	int n = 0;

	*out = NULL;
	if (ksize > MAPDELTA_KEY)
		return -EINVAL;
	while (bpf_map_get_next_key(fd, pk, next) == 0) {
		nr = realloc(r, ((size_t)n + 1) * stride);
		if (!nr) {
			free(r);
			return -ENOMEM;
		}
		r = nr;
		row = r + (size_t)n * stride;
		memset(row, 0, stride);
		memcpy(key, next, ksize);
		pk = key;
		memcpy(row, key, ksize);
		if (bpf_map_lookup_elem(fd, key, row + voff) == 0)
			n++;
	}
	*out = r;
	return n;
}
