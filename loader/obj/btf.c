/* SPDX-License-Identifier: MIT */
/*
 * The BTF reader (see btf.h): one pass over the type section records where
 * each type starts and checks that it lies inside; accessors decode on
 * demand. Fields are read byte by byte (BTF inside an ELF section has no
 * alignment guarantee in our buffer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "btf.h"

#define BTF_MAGIC 0xeb9f
#define HDR_MIN 24
#define TYPE_SIZE 12
/* Modifier chains and nested arrays are short in real objects; a longer
 * one is a cycle or a hostile file. */
#define CHAIN_MAX 32

static int in_bounds(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/* Bytes of kind data after the 12-byte record; -1 for an unknown kind. */
static long rest_size(int kind, uint16_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static const char *str_at(const struct bb_btf *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : NULL;
}

int btf_open(struct bb_btf *b, const void *buf, size_t len,
	     const char *objname, struct bb_err *err)
{
	const unsigned char *h = buf;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	size_t pos, n, cap;

	memset(b, 0, sizeof(*b));
	b->objname = objname;
	if (!buf || len < HDR_MIN || (h[0] | h[1] << 8) != BTF_MAGIC)
		return bb_fail(err, -EINVAL,
			       "%s: section .BTF is not BTF (bad magic or "
			       "%zu bytes); rebuild the object with clang -g",
			       objname, len);
	if (h[2] != 1)
		return bb_fail(err, -EINVAL,
			       "%s: .BTF version %u is unknown (1 expected)",
			       objname, h[2]);
	hdr_len = bb_le32(h + 4);
	type_off = bb_le32(h + 8);
	type_len = bb_le32(h + 12);
	str_off = bb_le32(h + 16);
	str_len = bb_le32(h + 20);
	if (hdr_len < HDR_MIN || hdr_len > len ||
	    !in_bounds(type_off, type_len, len - hdr_len) ||
	    !in_bounds(str_off, str_len, len - hdr_len))
		return bb_fail(err, -EINVAL,
			       "%s: .BTF header (length %u, types %u+%u, "
			       "strings %u+%u) does not fit its %zu bytes; "
			       "corrupt object?", objname, hdr_len, type_off,
			       type_len, str_off, str_len, len);
	b->types = h + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = (const char *)h + hdr_len + str_off;
	b->strs_len = str_len;
	if (!str_len || b->strs[str_len - 1])
		return bb_fail(err, -EINVAL,
			       "%s: .BTF string section does not end with a "
			       "NUL byte; corrupt object?", objname);
	/* at most one type per 12 bytes: the count bounds the index */
	cap = type_len / TYPE_SIZE + 2;
	b->off = calloc(cap, sizeof(*b->off));
	if (!b->off)
		return bb_fail(err, -ENOMEM, "%s: out of memory", objname);
	for (pos = 0, n = 1; pos < type_len; n++) {
		const unsigned char *t = b->types + pos;
		uint32_t info;
		long rest;

		if (!in_bounds(pos, TYPE_SIZE, type_len))
			goto err_trunc;
		info = bb_le32(t + 4);
		rest = rest_size((info >> 24) & 0x1f, info & 0xffff);
		if (rest < 0) {
			bb_fail(err, -EINVAL,
				"%s: .BTF type %zu has unknown kind %u; a "
				"newer compiler? barebpf reads kinds 1-19",
				objname, n, (info >> 24) & 0x1f);
			goto err_free;
		}
		if (!str_at(b, bb_le32(t))) {
			bb_fail(err, -EINVAL,
				"%s: .BTF type %zu: name offset %u is outside "
				"the string section", objname, n, bb_le32(t));
			goto err_free;
		}
		if (!in_bounds(pos + TYPE_SIZE, rest, type_len))
			goto err_trunc;
		b->off[n] = pos;
		pos += TYPE_SIZE + rest;
	}
	b->ntypes = n - 1;
	b->ptr_size = 8;
	return 0;

err_trunc:
	bb_fail(err, -EINVAL,
		"%s: .BTF type %zu runs past the end of the type section "
		"(%u bytes); corrupt object?", objname, n, type_len);
err_free:
	btf_close(b);
	return -EINVAL;
}

void btf_close(struct bb_btf *b)
{
	free(b->off);
	b->off = NULL;
	b->ntypes = 0;
}

int btf_type(const struct bb_btf *b, uint32_t id, struct btf_t *t)
{
	const unsigned char *p;
	uint32_t info;

	if (!id || id > b->ntypes)
		return -ENOENT;
	p = b->types + b->off[id];
	info = bb_le32(p + 4);
	t->id = id;
	t->name = b->strs + bb_le32(p); /* checked by btf_open */
	t->vlen = info & 0xffff;
	t->kind = (info >> 24) & 0x1f;
	t->kflag = info >> 31;
	t->size_type = bb_le32(p + 8);
	t->rest = p + TYPE_SIZE;
	return 0;
}

void btf_member_at(const struct bb_btf *b, const struct btf_t *t, uint16_t i,
		   struct btf_member *m)
{
	const unsigned char *p;
	const char *name;

	memset(m, 0, sizeof(*m));
	m->name = "";
	switch (t->kind) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		p = t->rest + 12 * i;
		name = str_at(b, bb_le32(p));
		m->type = bb_le32(p + 4);
		m->offset = bb_le32(p + 8);
		if (t->kflag) { /* bitfield size in the top byte */
			m->bits = m->offset >> 24;
			m->offset &= 0xffffff;
		}
		break;
	case BTF_KIND_DATASEC:
		p = t->rest + 12 * i;
		m->type = bb_le32(p);
		m->offset = bb_le32(p + 4);
		m->size = bb_le32(p + 8);
		name = NULL;
		break;
	case BTF_KIND_FUNC_PROTO:
		p = t->rest + 8 * i;
		name = str_at(b, bb_le32(p));
		m->type = bb_le32(p + 4);
		break;
	case BTF_KIND_ENUM:
		p = t->rest + 8 * i;
		name = str_at(b, bb_le32(p));
		m->offset = bb_le32(p + 4); /* the value */
		break;
	default:
		return;
	}
	if (name)
		m->name = name;
}

int btf_skip_mods(const struct bb_btf *b, uint32_t id, struct btf_t *t)
{
	int i, ret;

	for (i = 0; i < CHAIN_MAX; i++) {
		ret = btf_type(b, id, t);
		if (ret < 0)
			return ret;
		switch (t->kind) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->size_type;
			continue;
		default:
			return 0;
		}
	}
	return -ELOOP;
}

void btf_array(const struct btf_t *t, uint32_t *elem, uint32_t *nelems)
{
	*elem = bb_le32(t->rest);
	*nelems = bb_le32(t->rest + 8);
}

int btf_size(const struct bb_btf *b, uint32_t id, uint32_t *size)
{
	uint64_t mult = 1;
	struct btf_t t;
	int i, ret;

	for (i = 0; i < CHAIN_MAX; i++) {
		uint32_t elem, n;

		ret = btf_skip_mods(b, id, &t);
		if (ret < 0)
			return ret;
		switch (t.kind) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_FLOAT:
		case BTF_KIND_DATASEC:
			mult *= t.size_type;
			break;
		case BTF_KIND_PTR:
			mult *= b->ptr_size;
			break;
		case BTF_KIND_ARRAY:
			btf_array(&t, &elem, &n);
			mult *= n;
			if (mult > UINT32_MAX)
				return -EINVAL;
			id = elem;
			continue;
		default:
			return -EINVAL;
		}
		if (mult > UINT32_MAX)
			return -EINVAL;
		*size = mult;
		return 0;
	}
	return -ELOOP;
}

int btf_find_datasec(const struct bb_btf *b, const char *name,
		     struct btf_t *t)
{
	uint32_t id;

	for (id = 1; id <= b->ntypes; id++)
		if (btf_type(b, id, t) == 0 && t->kind == BTF_KIND_DATASEC &&
		    !strcmp(t->name, name))
			return 0;
	return -ENOENT;
}

uint32_t btf_int_encoding(const struct btf_t *t)
{
	return (bb_le32(t->rest) >> 24) & 0xf;
}

void btf_int_bits(const struct btf_t *t, uint32_t *bits, uint32_t *off)
{
	uint32_t v = bb_le32(t->rest);

	*bits = v & 0xff;
	*off = (v >> 16) & 0xff;
}
