/* SPDX-License-Identifier: MIT */
/*
 * What every reader of map definitions (maps.c: sections maps and
 * maps/<name>; btfmaps.c: SEC(".maps")) adds a map with: room, a new
 * map, its place in the file, its pin path, the slots the object fills.
 * Calls neither reader, so that maps.c -> btfmaps.c -> mapdef.c has no
 * way back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj_internal.h"

int mapdef_grow(struct obj_parse *op, size_t n)
{
	struct bb_obj *obj = op->obj;
	size_t cap = obj->nmaps + n;
	void *a = realloc(obj->maps, (cap ? cap : 1) * sizeof(*obj->maps));

	if (!a)
		return -ENOMEM;
	obj->maps = a;
	a = realloc(op->mapx, (cap ? cap : 1) * sizeof(*op->mapx));
	if (!a)
		return -ENOMEM;
	op->mapx = a;
	a = realloc(op->spans, (cap ? cap : 1) * sizeof(*op->spans));
	if (!a)
		return -ENOMEM;
	op->spans = a;
	memset(obj->maps + obj->nmaps, 0, n * sizeof(*obj->maps));
	memset(op->mapx + obj->nmaps, 0, n * sizeof(*op->mapx));
	return 0;
}

struct bb_map *mapdef_new(struct obj_parse *op, const char *name,
			      enum bb_map_origin origin)
{
	struct bb_obj *obj = op->obj;
	struct bb_map *m = &obj->maps[obj->nmaps];

	if (obj_str_copy(m->name, sizeof(m->name), name) < 0) {
		bb_fail(op->err, -EINVAL,
			"%s: map name '%.64s...' is longer than %zu characters",
			obj->name, name, sizeof(m->name) - 1);
		return NULL;
	}
	m->fd = -1;
	m->inner = -1;
	m->origin = origin;
	obj->nmaps++;
	return m;
}

void mapdef_add_span(struct obj_parse *op, int shndx, uint64_t off,
		     uint64_t size)
{
	struct map_span *s = &op->spans[op->nspans++];

	s->shndx = shndx;
	s->off = off;
	s->size = size;
	s->idx = op->obj->nmaps - 1;
}

int mapdef_set_pin(struct obj_parse *op, struct bb_map *m, const char *dir)
{
	int n = snprintf(m->pin, sizeof(m->pin), BPFFS "%s/%s", dir, m->name);

	if (n < 0 || (size_t)n >= sizeof(m->pin))
		return bb_fail(op->err, -ENAMETOOLONG,
			       "%s: map %s: pin path too long", op->obj->name,
			       m->name);
	return 0;
}

int mapdef_add_init(struct obj_parse *op, int map, uint32_t slot,
		    int is_prog, int idx)
{
	struct bb_obj *obj = op->obj;
	struct obj_init *a = realloc(obj->inits,
				     (obj->ninits + 1) * sizeof(*obj->inits));

	if (!a)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	obj->inits = a;
	a[obj->ninits].map = map;
	a[obj->ninits].slot = slot;
	a[obj->ninits].is_prog = is_prog;
	a[obj->ninits].idx = idx;
	obj->ninits++;
	return 0;
}
