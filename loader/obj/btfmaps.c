/* SPDX-License-Identifier: MIT */
/*
 * SEC(".maps") (libbpf): variables whose BTF type is a struct of
 * __uint(type, ...), __type(key, ...), __array(values, ...) fields,
 * read from the object's own BTF; and the slots their .values fill
 * (relocations in .rel.maps against maps or programs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj_internal.h"

#define LIBBPF_PIN_BY_NAME 1

/* __uint(name, V) is `int (*name)[V]`: the array's length. */
static int btf_uint(const struct bb_btf *b, uint32_t type, uint32_t *v)
{
	struct btf_t t;
	uint32_t elem;

	if (btf_type(b, type, &t) < 0 || t.kind != BTF_KIND_PTR ||
	    btf_skip_mods(b, t.size_type, &t) < 0 || t.kind != BTF_KIND_ARRAY)
		return -EINVAL;
	btf_array(&t, &elem, v);
	return 0;
}

/* __type(name, T) is `T *name`: T's size, and T itself. */
static int btf_pointee(const struct bb_btf *b, uint32_t type, uint32_t *size,
		       uint32_t *id)
{
	struct btf_t t;

	if (btf_type(b, type, &t) < 0 || t.kind != BTF_KIND_PTR)
		return -EINVAL;
	*id = t.size_type;
	return btf_size(b, t.size_type, size);
}

static int btf_def_fail(struct obj_parse *op, const char *map,
			const char *field, const char *what)
{
	return bb_fail(op->err, -EINVAL,
		       "%s: BTF map '%s': field '%s' %s (libbpf's __uint, "
		       "__type and __array macros write them)",
		       op->obj->name, map, field, what);
}

/*
 * One definition: a struct of the fields libbpf knows. inner: the struct
 * of a map-in-map's __array(values, ...), which has no values itself.
 */
static int read_btf_def(struct obj_parse *op, const char *name,
			uint32_t struct_id, struct bb_map *m,
			struct bb_map_def *def, struct map_extra *x, int inner)
{
	const struct bb_btf *b = &op->obj->btf;
	struct btf_t t;
	uint32_t key_id = 0, value_id = 0, v, sz, pinning = 0;
	uint16_t i;

	if (btf_skip_mods(b, struct_id, &t) < 0 || t.kind != BTF_KIND_STRUCT)
		return bb_fail(op->err, -EINVAL,
			       "%s: BTF map '%s' is not a struct", op->obj->name,
			       name);
	for (i = 0; i < t.vlen; i++) {
		struct btf_member mb;
		uint32_t *dst = NULL;

		btf_member_at(b, &t, i, &mb);
		if (!strcmp(mb.name, "type"))
			dst = &def->type;
		else if (!strcmp(mb.name, "max_entries"))
			dst = &def->max_entries;
		else if (!strcmp(mb.name, "map_flags"))
			dst = &def->map_flags;
		else if (!strcmp(mb.name, "key_size"))
			dst = &def->key_size;
		else if (!strcmp(mb.name, "value_size"))
			dst = &def->value_size;
		if (dst) {
			if (btf_uint(b, mb.type, dst) < 0)
				return btf_def_fail(op, name, mb.name,
						    "is not a __uint()");
			continue;
		}
		if (!strcmp(mb.name, "numa_node") && m) {
			if (btf_uint(b, mb.type, &m->numa_node) < 0)
				return btf_def_fail(op, name, mb.name,
						    "is not a __uint()");
		} else if (!strcmp(mb.name, "pinning")) {
			if (btf_uint(b, mb.type, &pinning) < 0)
				return btf_def_fail(op, name, mb.name,
						    "is not a __uint()");
		} else if (!strcmp(mb.name, "map_extra")) {
			if (btf_uint(b, mb.type, &v) < 0 || v)
				return btf_def_fail(op, name, mb.name,
						    "is not 0 (bloom filters "
						    "are 5.16: not supported)");
		} else if (!strcmp(mb.name, "key")) {
			if (btf_pointee(b, mb.type, &sz, &key_id) < 0)
				return btf_def_fail(op, name, mb.name,
						    "is not a __type() of "
						    "known size");
			def->key_size = sz;
		} else if (!strcmp(mb.name, "value")) {
			if (btf_pointee(b, mb.type, &sz, &value_id) < 0)
				return btf_def_fail(op, name, mb.name,
						    "is not a __type() of "
						    "known size");
			def->value_size = sz;
		} else if (!strcmp(mb.name, "values") && !inner && m) {
			struct btf_t arr, ptr;
			uint32_t elem, n;

			if (btf_type(b, mb.type, &arr) < 0 ||
			    arr.kind != BTF_KIND_ARRAY)
				return btf_def_fail(op, name, mb.name,
						    "is not an __array()");
			btf_array(&arr, &elem, &n);
			if (btf_skip_mods(b, elem, &ptr) < 0 ||
			    ptr.kind != BTF_KIND_PTR)
				return btf_def_fail(op, name, mb.name,
						    "is not an array of "
						    "pointers");
			x->has_values = 1;
			x->values_off = mb.offset / 8;
			if (mapdef_is_map_in_map(def->type) ||
			    (btf_skip_mods(b, ptr.size_type, &arr) == 0 &&
			     arr.kind == BTF_KIND_STRUCT)) {
				int ret = read_btf_def(op, name, ptr.size_type,
						       NULL, &m->inner_def,
						       NULL, 1);
				if (ret < 0)
					return ret;
			}
		} else {
			return bb_fail(op->err, -EINVAL,
				       "%s: BTF map '%s' has field '%s', "
				       "which barebpf does not know (it reads "
				       "type, key, value, key_size, "
				       "value_size, max_entries, map_flags, "
				       "numa_node, pinning, values)",
				       op->obj->name, name, mb.name);
		}
	}
	if (m) {
		m->btf_key = key_id;
		m->btf_value = value_id;
		if (pinning == LIBBPF_PIN_BY_NAME)
			return mapdef_set_pin(op, m, "");
		if (pinning)
			return bb_fail(op->err, -EOPNOTSUPP,
				       "%s: BTF map '%s': pinning %u is "
				       "unknown (LIBBPF_PIN_BY_NAME is 1)",
				       op->obj->name, name, pinning);
	}
	/* map-in-map values hold map fds: 4 bytes, whatever BTF says */
	if (mapdef_is_map_in_map(def->type) || def->type == BPF_MAP_TYPE_PROG_ARRAY) {
		if (!def->key_size)
			def->key_size = 4;
		def->value_size = 4;
	}
	return 0;
}

/* The ELF symbol of a .maps variable, for its offset. */
static const struct elf_sym *btf_map_sym(const struct obj_parse *op,
					 const char *name)
{
	const struct elf_file *ef = op->elf;
	size_t i;

	for (i = 1; i < ef->nsyms; i++)
		if (ef->syms[i].shndx == op->btf_maps_sec &&
		    !strcmp(ef->syms[i].name, name))
			return &ef->syms[i];
	return NULL;
}

int mapdef_read_btf(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct bb_btf *b = &obj->btf;
	struct btf_t sec;
	uint16_t i;
	int ret;

	op->btf_maps_sec = elf_find_sec(op->elf, ".maps");
	if (op->btf_maps_sec < 0 || !obj->has_btf)
		return 0;
	if (btf_find_datasec(b, ".maps", &sec) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section .maps has no BTF description "
			       "(DATASEC .maps); rebuild with clang -g",
			       obj->name);
	if (mapdef_grow(op, sec.vlen) < 0)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 0; i < sec.vlen; i++) {
		struct btf_member vm;
		struct btf_t var;
		const struct elf_sym *s;
		struct bb_map *m;

		btf_member_at(b, &sec, i, &vm);
		if (btf_type(b, vm.type, &var) < 0 || var.kind != BTF_KIND_VAR)
			return bb_fail(op->err, -EINVAL,
				       "%s: BTF DATASEC .maps entry %u is not "
				       "a variable; corrupt object?", obj->name,
				       i);
		s = btf_map_sym(op, var.name);
		if (!s)
			return bb_fail(op->err, -EINVAL,
				       "%s: BTF map '%s' has no symbol in "
				       "section .maps", obj->name, var.name);
		m = mapdef_new(op, var.name, BB_MAP_BTF);
		if (!m)
			return -EINVAL;
		ret = read_btf_def(op, var.name, var.size_type, m, &m->def,
				   &op->mapx[obj->nmaps - 1], 0);
		if (ret < 0)
			return ret;
		mapdef_add_span(op, op->btf_maps_sec, s->value, s->size);
	}
	return 0;
}

/* The map whose .maps definition holds offset off, or -1. */
static int btf_map_at(const struct obj_parse *op, uint64_t off)
{
	int i;

	for (i = 0; i < op->nspans; i++) {
		const struct map_span *s = &op->spans[i];

		if (s->shndx == op->btf_maps_sec && off >= s->off &&
		    off - s->off < s->size)
			return s->idx;
	}
	return -1;
}

/* libbpf: .values = { [2] = &inner, ... } are relocations in .rel.maps. */
int mapdef_btf_values(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i, j;
	int ret;

	if (op->btf_maps_sec < 0 || !obj->has_btf)
		return 0;
	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *rs = &ef->secs[i];

		if (rs->type != SHT_REL || rs->info != (uint32_t)op->btf_maps_sec)
			continue;
		for (j = 0; j < elf_nrels(rs); j++) {
			struct elf_rel r;
			const struct elf_sym *s;
			int map, k, target = -1, is_prog = 0;
			uint64_t base;

			elf_rel_at(rs, j, &r);
			s = &ef->syms[r.sym];
			map = btf_map_at(op, r.offset);
			if (map < 0 || !op->mapx[map].has_values)
				return bb_fail(op->err, -EINVAL,
					       "%s: a relocation in .maps at "
					       "offset %llu is in no map's "
					       "values", obj->name,
					       (unsigned long long)r.offset);
			for (k = 0; k < op->nspans; k++)
				if (op->spans[k].idx == map)
					break;
			base = op->spans[k].off + op->mapx[map].values_off;
			if (r.offset < base || (r.offset - base) % 8)
				return bb_fail(op->err, -EINVAL,
					       "%s: map %s: relocation at "
					       "offset %llu is not a slot of "
					       "its values", obj->name,
					       obj->maps[map].name,
					       (unsigned long long)r.offset);
			if (s->shndx == op->btf_maps_sec) {
				target = btf_map_at(op, s->value);
			} else {
				for (k = 0; k < obj->nprogs; k++)
					if (!strcmp(obj->progs[k].p.name,
						    s->name))
						target = k;
				is_prog = 1;
			}
			if (target < 0)
				return bb_fail(op->err, -EINVAL,
					       "%s: map %s: values refer to "
					       "'%s', which is neither a map "
					       "nor a program", obj->name,
					       obj->maps[map].name,
					       obj_sym_label(ef, r.sym));
			ret = mapdef_add_init(op, map, (r.offset - base) / 8, is_prog,
				       target);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
