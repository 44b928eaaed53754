/* SPDX-License-Identifier: MIT */
/*
 * Map definitions, whoever wrote them:
 *  - section `maps`, an array of structs whose size is the section's size
 *    over the number of map symbols (as libbpf reads it): 20 bytes
 *    (barebpf's bb_map_def, libbpf's bpf_map_def), 28 (bpf_load's
 *    bpf_map_def: + inner_map_idx, numa_node), 36 (iproute2's
 *    bpf_elf_map: + id, pinning, inner_id, inner_idx); any other size
 *    is read up to map_flags and must hold zeros after it. iproute2
 *    before 4.13 also wrote 28 bytes (id, pinning): layout28 tells them
 *    from bpf_load's.
 *  - sections `maps/<name>` (gobpf): one bpf_map_def each, + pinning
 *    and a 256-byte namespace.
 *  - SEC(".maps") (libbpf): in btfmaps.c.
 *  - .rodata, .data, .bss: one array map each, created only on kernels
 *    with global data (5.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "obj_internal.h"

#define PIN_NONE 0
#define PIN_OBJECT_NS 1
#define PIN_GLOBAL_NS 2
#define PIN_CUSTOM_NS 3 /* gobpf */

static int is_map_sym(const struct elf_sym *s, int shndx)
{
	return s->shndx == shndx && s->name[0] && s->type != STT_SECTION &&
	       s->type != STT_FILE;
}

static int refuse_pinning(struct obj_parse *op, const struct bb_map *m,
			  uint32_t pinning, const char *layout)
{
	return bb_fail(op->err, -EOPNOTSUPP,
		       "%s: map %s asks for pinning %u (%s), which barebpf "
		       "does not do: it pins PIN_GLOBAL_NS (2) under "
		       BPFFS "/tc/globals%s; set that or PIN_NONE (0)",
		       op->obj->name, m->name, pinning, layout,
		       pinning == PIN_OBJECT_NS ?
		       " (PIN_OBJECT_NS needs iproute2's hash of the object)" :
		       "");
}

/* ---- section maps ---- */

#define BPF_F_NUMA_NODE_FLAG 4 /* BPF_F_NUMA_NODE */

/* The two 28-byte layouts of section maps (see layout28). */
enum { LAYOUT_BPF_LOAD, LAYOUT_IPROUTE2_OLD };

static int read_legacy_def(struct obj_parse *op, struct bb_map *m,
			   struct map_extra *x, const unsigned char *d,
			   uint64_t size, int layout)
{
	uint64_t i;

	m->def.type = bb_le32(d);
	m->def.key_size = bb_le32(d + 4);
	m->def.value_size = bb_le32(d + 8);
	m->def.max_entries = bb_le32(d + 12);
	m->def.map_flags = size >= 20 ? bb_le32(d + 16) : 0;
	if (size == 28 && layout == LAYOUT_IPROUTE2_OLD) {
		/* iproute2 before 4.13: id, pinning */
		uint32_t pinning = bb_le32(d + 24);

		x->iproute2 = 1;
		x->id = bb_le32(d + 20);
		if (pinning == PIN_GLOBAL_NS)
			return mapdef_set_pin(op, m, "/tc/globals");
		if (pinning != PIN_NONE)
			return refuse_pinning(op, m, pinning,
					      "iproute2's 28-byte bpf_elf_map");
		return 0;
	}
	if (size == 28) { /* bpf_load: inner_map_idx, numa_node */
		x->inner_idx = bb_le32(d + 20);
		/* as bpf_load: the node only where the flag asks for it */
		if (m->def.map_flags & BPF_F_NUMA_NODE_FLAG)
			m->numa_node = bb_le32(d + 24);
		if (mapdef_is_map_in_map(m->def.type)) {
			m->inner = -2 - (int)x->inner_idx; /* by offset, below */
			/*
			 * bpf_load created maps of maps with value_size 4
			 * (bpf_create_map_in_map_node), whatever the
			 * definition said: samples/bpf's leave it 0.
			 */
			m->def.value_size = 4;
		}
		return 0;
	}
	if (size == 36) { /* iproute2: id, pinning, inner_id, inner_idx */
		uint32_t pinning = bb_le32(d + 24);

		x->iproute2 = 1;
		x->id = bb_le32(d + 20);
		x->inner_id = bb_le32(d + 28);
		x->inner_idx = bb_le32(d + 32);
		if (pinning == PIN_GLOBAL_NS)
			return mapdef_set_pin(op, m, "/tc/globals");
		if (pinning != PIN_NONE)
			return refuse_pinning(op, m, pinning,
					      "iproute2's bpf_elf_map");
		return 0;
	}
	for (i = 20; i < size; i++)
		if (d[i])
			return bb_fail(op->err, -EINVAL,
				       "%s: map %s: definitions of %llu bytes "
				       "hold a non-zero byte at offset %llu, "
				       "past map_flags; barebpf reads 20-byte "
				       "(bpf_map_def), 28-byte (bpf_load) and "
				       "36-byte (iproute2 bpf_elf_map) ones",
				       op->obj->name, m->name,
				       (unsigned long long)size,
				       (unsigned long long)i);
	return 0;
}

/* A NUMA node this machine has (sysfs lists each one). */
static int numa_node_exists(uint32_t node)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", node);
	return access(path, F_OK) == 0;
}

/* Sections only iproute2's tc and xdp loaders read (bpf_elf.h). */
static int has_iproute2_sections(const struct elf_file *ef)
{
	size_t i;

	for (i = 1; i < ef->nsecs; i++) {
		const char *n = ef->secs[i].name;

		if (!strcmp(n, "classifier") || !strcmp(n, "action") ||
		    !strncmp(n, "cls/", 4) || !strncmp(n, "act/", 4) ||
		    !strcmp(n, "prog"))
			return 1;
	}
	return 0;
}

/*
 * 28 bytes a definition: bpf_load's bpf_map_def (..., inner_map_idx,
 * numa_node) or iproute2's bpf_elf_map before 4.13 (..., id, pinning).
 * iproute2's if the object has its sections (classifier, action), or if
 * the 7th field of a map reads as a pinning (1 to 3) that cannot be
 * bpf_load's numa_node: bpf_load took the node only with BPF_F_NUMA_NODE
 * in map_flags, and a node this machine lacks could never have loaded.
 * Otherwise bpf_load's, the far more common producer of tracing objects.
 */
static int layout28(struct obj_parse *op, const char **why)
{
	const struct elf_file *ef = op->elf;
	const struct elf_sec *sec = &ef->secs[op->maps_sec];
	size_t i;

	if (has_iproute2_sections(ef)) {
		*why = "iproute2's sections (classifier, action)";
		return LAYOUT_IPROUTE2_OLD;
	}
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		uint32_t flags, seventh;

		if (!is_map_sym(s, op->maps_sec) || s->value % 28 ||
		    s->value > sec->size - 28)
			continue;
		flags = bb_le32(sec->data + s->value + 16);
		seventh = bb_le32(sec->data + s->value + 24);
		if (seventh < PIN_OBJECT_NS || seventh > PIN_CUSTOM_NS)
			continue;
		if (!(flags & BPF_F_NUMA_NODE_FLAG)) {
			*why = "a map's 7th field is a pinning (1-3) without "
			       "BPF_F_NUMA_NODE in its flags";
			return LAYOUT_IPROUTE2_OLD;
		}
		if (!numa_node_exists(seventh)) {
			*why = "a map's 7th field names a NUMA node this "
			       "machine does not have: a pinning";
			return LAYOUT_IPROUTE2_OLD;
		}
	}
	*why = "no sign of iproute2's (its sections, a pinning in the 7th "
	       "field)";
	return LAYOUT_BPF_LOAD;
}

static int read_maps_section(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	const struct elf_sec *sec;
	uint64_t dsize;
	size_t i, n = 0;
	int first = obj->nmaps, k, ret, layout = LAYOUT_BPF_LOAD;

	op->maps_sec = elf_find_sec(ef, "maps");
	if (op->maps_sec < 0)
		return 0;
	sec = &ef->secs[op->maps_sec];
	for (i = 1; i < ef->nsyms; i++)
		n += is_map_sym(&ef->syms[i], op->maps_sec);
	if (!n)
		return 0;
	if (!sec->data)
		return bb_fail(op->err, -EINVAL,
			       "%s: section maps has no contents (SHT_NOBITS); "
			       "initialize the map definitions", obj->name);
	dsize = sec->size / n;
	if (sec->size % n || dsize < 16)
		return bb_fail(op->err, -EINVAL,
			       "%s: section maps (%llu bytes) is not %zu map "
			       "definitions of one size (at least 16 bytes: "
			       "type, key_size, value_size, max_entries)",
			       obj->name, (unsigned long long)sec->size, n);
	if (mapdef_grow(op, n) < 0)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	if (dsize == 28) {
		const char *why;

		layout = layout28(op, &why);
		snprintf(obj->maps_layout, sizeof(obj->maps_layout),
			 "section maps: 28-byte definitions read as %s (%s)",
			 layout == LAYOUT_BPF_LOAD ?
			 "bpf_load's bpf_map_def (inner_map_idx, numa_node)" :
			 "iproute2's bpf_elf_map before 4.13 (id, pinning)",
			 why);
	}
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		struct bb_map *m;

		if (!is_map_sym(s, op->maps_sec))
			continue;
		if (s->value % dsize || s->value > sec->size - dsize ||
		    (s->size && s->size != dsize))
			return bb_fail(op->err, -EINVAL,
				       "%s: map '%s' (offset %llu, size %llu) "
				       "is not one of the %llu-byte "
				       "definitions of section maps (%llu "
				       "bytes for %zu maps)", obj->name,
				       s->name, (unsigned long long)s->value,
				       (unsigned long long)s->size,
				       (unsigned long long)dsize,
				       (unsigned long long)sec->size, n);
		m = mapdef_new(op, s->name, BB_MAP_LEGACY);
		if (!m)
			return -EINVAL;
		ret = read_legacy_def(op, m, &op->mapx[obj->nmaps - 1],
				      sec->data + s->value, dsize, layout);
		if (ret < 0)
			return ret;
		mapdef_add_span(op, op->maps_sec, s->value, dsize);
	}
	/* bpf_load's inner_map_idx counts maps in offset order */
	for (k = first; k < obj->nmaps; k++) {
		struct bb_map *m = &obj->maps[k];
		uint32_t want;
		int j;

		if (m->inner > -2)
			continue;
		want = -2 - m->inner;
		m->inner = -1;
		for (j = first; j < obj->nmaps; j++) {
			const struct map_span *sp = &op->spans[j];

			if (sp->off / dsize == want)
				m->inner = sp->idx;
		}
		if (m->inner < 0 || m->inner == k)
			return bb_fail(op->err, -EINVAL,
				       "%s: map %s: inner_map_idx %u is not "
				       "another map of section maps (%zu maps)",
				       obj->name, m->name, want, n);
	}
	return 0;
}

/* ---- sections maps/<name> (gobpf) ---- */

static int read_map_sections(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i;
	int ret;

	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *s = &ef->secs[i];
		struct bb_map *m;

		if (strncmp(s->name, "maps/", 5))
			continue;
		if (!op->sec_map) {
			size_t k;

			op->sec_map = malloc(ef->nsecs * sizeof(*op->sec_map));
			if (!op->sec_map)
				return bb_fail(op->err, -ENOMEM,
					       "%s: out of memory", obj->name);
			for (k = 0; k < ef->nsecs; k++)
				op->sec_map[k] = -1;
		}
		if (!s->data || s->size < 20)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s (%llu bytes) does not "
				       "hold a map definition (at least 20 "
				       "bytes)", obj->name, s->name,
				       (unsigned long long)s->size);
		if (mapdef_grow(op, 1) < 0)
			return bb_fail(op->err, -ENOMEM, "%s: out of memory",
				       obj->name);
		m = mapdef_new(op, s->name + 5, BB_MAP_SECTION);
		if (!m)
			return -EINVAL;
		op->sec_map[i] = obj->nmaps - 1;
		ret = read_legacy_def(op, m, &op->mapx[obj->nmaps - 1], s->data,
				      20, LAYOUT_BPF_LOAD);
		if (ret < 0)
			return ret;
		if (s->size >= 24) { /* gobpf: pinning, namespace[256] */
			uint32_t pinning = bb_le32(s->data + 20);
			char ns[257] = "";

			if (s->size >= 24 + 256) {
				memcpy(ns, s->data + 24, 256);
				ns[256] = 0;
			}
			if (pinning == PIN_GLOBAL_NS) {
				ret = mapdef_set_pin(op, m, "/tc/globals");
			} else if (pinning == PIN_CUSTOM_NS && ns[0] &&
				   !strchr(ns, '/') && strcmp(ns, "..")) {
				char dir[260];

				snprintf(dir, sizeof(dir), "/%s", ns);
				ret = mapdef_set_pin(op, m, dir);
			} else if (pinning != PIN_NONE) {
				ret = refuse_pinning(op, m, pinning,
						     "gobpf's bpf_map_def");
			}
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}







/* ---- global data ---- */

static int add_data_maps(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i;

	if (mapdef_grow(op, obj->ndata) < 0)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 0; i < obj->ndata; i++) {
		struct obj_data *d = &obj->data[i];
		struct bb_map *m;

		if (!d->size)
			continue;
		m = mapdef_new(op, d->name, BB_MAP_DATA);
		if (!m)
			return -EINVAL;
		m->def.type = BPF_MAP_TYPE_ARRAY;
		m->def.key_size = 4;
		m->def.value_size = d->size;
		m->def.max_entries = 1;
		d->map = obj->nmaps - 1;
	}
	return 0;
}

static int cmp_span(const void *a, const void *b)
{
	const struct map_span *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx - y->shndx;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Two maps at one offset, or overlapping: sorted, neighbours tell. */
static int check_spans(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i;

	if (op->nspans)
		qsort(op->spans, op->nspans, sizeof(*op->spans), cmp_span);
	for (i = 1; i < op->nspans; i++) {
		const struct map_span *a = &op->spans[i - 1], *b = &op->spans[i];

		if (a->shndx != b->shndx)
			continue;
		if (a->off == b->off || b->off - a->off < a->size)
			return bb_fail(op->err, -EINVAL,
				       "%s: maps '%s' (offset %llu) and '%s' "
				       "(offset %llu) overlap in section %s",
				       obj->name, obj->maps[a->idx].name,
				       (unsigned long long)a->off,
				       obj->maps[b->idx].name,
				       (unsigned long long)b->off,
				       op->elf->secs[a->shndx].name);
	}
	return 0;
}

static int check_inner(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i, j;

	for (i = 0; i < obj->nmaps; i++) {
		struct bb_map *m = &obj->maps[i];
		const struct map_extra *x = &op->mapx[i];

		if (!x->iproute2 || !mapdef_is_map_in_map(m->def.type))
			continue;
		for (j = 0; j < obj->nmaps; j++)
			if (j != i && op->mapx[j].iproute2 &&
			    op->mapx[j].id == x->inner_id && x->inner_id)
				m->inner = j;
		if (m->inner < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: map %s is a map of maps whose "
				       "inner_id %u is no map's id",
				       obj->name, m->name, x->inner_id);
	}
	for (i = 0; i < obj->nmaps; i++) {
		const struct bb_map *m = &obj->maps[i];

		if (mapdef_is_map_in_map(m->def.type) && m->inner < 0 &&
		    !m->inner_def.type)
			return bb_fail(op->err, -EINVAL,
				       "%s: map %s is a map of maps without "
				       "an inner map definition (bpf_load's "
				       "inner_map_idx, iproute2's inner_id or "
				       "BTF's __array(values, ...))",
				       obj->name, m->name);
	}
	return 0;
}

int mapdef_read(struct obj_parse *op)
{
	int ret;

	if ((ret = read_maps_section(op)) < 0 ||
	    (ret = read_map_sections(op)) < 0 ||
	    (ret = mapdef_read_btf(op)) < 0 || (ret = add_data_maps(op)) < 0 ||
	    (ret = check_spans(op)) < 0)
		return ret;
	return check_inner(op);
}

/* ---- slots the object fills ---- */

/* bpf_load: a kprobe/<N> program goes to slot N of the program array. */
static int tail_slots(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i, j, array = -1, ret;

	for (i = 0; i < obj->nprogs; i++) {
		const struct bb_prog *p = &obj->progs[i].p;

		if (p->tail_slot < 0)
			continue;
		if (array < 0) {
			for (j = 0; j < obj->nmaps; j++) {
				if (obj->maps[j].def.type !=
				    BPF_MAP_TYPE_PROG_ARRAY)
					continue;
				if (array >= 0)
					return bb_fail(op->err, -EINVAL,
						       "%s: section %s names "
						       "a tail-call slot, and "
						       "maps %s and %s are both "
						       "program arrays: which "
						       "one is meant?",
						       obj->name, p->section,
						       obj->maps[array].name,
						       obj->maps[j].name);
				array = j;
			}
		}
		if (array < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: a digit-only target is "
				       "bpf_load's tail-call slot, but the "
				       "object has no BPF_MAP_TYPE_PROG_ARRAY "
				       "map; name the function to probe",
				       obj->name, p->section);
		if ((uint32_t)p->tail_slot >= obj->maps[array].def.max_entries)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: tail-call slot %d is "
				       "past the %u entries of map %s",
				       obj->name, p->section, p->tail_slot,
				       obj->maps[array].def.max_entries,
				       obj->maps[array].name);
		ret = mapdef_add_init(op, array, p->tail_slot, 1, i);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* iproute2: the map with id X goes to slot inner_idx of every map of
 * maps whose inner_id is X. */
static int iproute2_slots(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i, j, ret;

	for (i = 0; i < obj->nmaps; i++) {
		const struct map_extra *x = &op->mapx[i];

		if (!x->iproute2 || !x->id || mapdef_is_map_in_map(obj->maps[i].def.type))
			continue;
		for (j = 0; j < obj->nmaps; j++) {
			if (!op->mapx[j].iproute2 ||
			    !mapdef_is_map_in_map(obj->maps[j].def.type) ||
			    op->mapx[j].inner_id != x->id)
				continue;
			ret = mapdef_add_init(op, j, x->inner_idx, 0, i);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}



int mapdef_read_inits(struct obj_parse *op)
{
	int ret;

	if ((ret = tail_slots(op)) < 0 || (ret = iproute2_slots(op)) < 0)
		return ret;
	return mapdef_btf_values(op);
}
