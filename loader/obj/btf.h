/* SPDX-License-Identifier: MIT */
/*
 * A reader of an object's own .BTF section: just enough to read the map
 * definitions of SEC(".maps") (libbpf's __uint/__type/__array) and the
 * kinds of the externs a program reads. BTF is never loaded into a kernel
 * (4.15 has none, and none is needed for what barebpf does with it).
 *
 * Like the ELF reader, btf_open validates what it hands out: the header,
 * every type record lies inside the type section, every name is a string
 * inside the string section. Type ids inside records are checked where
 * they are followed (btf_type fails for an id out of range), and every
 * walk along a chain of types is bounded, so that a cycle cannot loop.
 *
 * Internal to the loader (and its unit tests and fuzz harness).
 */
#ifndef BAREBPF_BTF_H
#define BAREBPF_BTF_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"

enum {
	BTF_KIND_INT = 1,
	BTF_KIND_PTR = 2,
	BTF_KIND_ARRAY = 3,
	BTF_KIND_STRUCT = 4,
	BTF_KIND_UNION = 5,
	BTF_KIND_ENUM = 6,
	BTF_KIND_FWD = 7,
	BTF_KIND_TYPEDEF = 8,
	BTF_KIND_VOLATILE = 9,
	BTF_KIND_CONST = 10,
	BTF_KIND_RESTRICT = 11,
	BTF_KIND_FUNC = 12,
	BTF_KIND_FUNC_PROTO = 13,
	BTF_KIND_VAR = 14,
	BTF_KIND_DATASEC = 15,
	BTF_KIND_FLOAT = 16,
	BTF_KIND_DECL_TAG = 17,
	BTF_KIND_TYPE_TAG = 18,
	BTF_KIND_ENUM64 = 19,
};

#define BTF_INT_SIGNED 1

/* One type record, decoded. */
struct btf_t {
	uint32_t id;
	const char *name;  /* "" if anonymous */
	int kind;
	int kflag;
	uint16_t vlen;
	uint32_t size_type; /* size (INT, STRUCT, ...) or type (PTR, ...) */
	const unsigned char *rest; /* the kind's data after the record */
};

/* A member of a struct or union, a variable of a datasec, ... */
struct btf_member {
	const char *name;
	uint32_t type;
	uint32_t offset; /* bits for members, bytes for datasec vars */
	uint32_t size;   /* datasec vars only */
	uint32_t bits;   /* a bitfield's width (STRUCT/UNION with kflag), or 0 */
};

struct bb_btf {
	const char *objname;          /* for messages */
	const unsigned char *types;   /* the type section */
	size_t types_len;
	const char *strs;
	size_t strs_len;
	uint32_t ntypes;  /* ids 1..ntypes; 0 is void */
	uint32_t *off;    /* offset of type id i in types, i = 1..ntypes */
	uint32_t ptr_size; /* of a PTR in btf_size: 8 (BPF's), btf_open's
			    * default; a 32-bit kernel's BTF has 4 */
};

int btf_open(struct bb_btf *b, const void *buf, size_t len,
	     const char *objname, struct bb_err *err);
void btf_close(struct bb_btf *b);
/* Decode type id; -ENOENT for 0 (void) or an id out of range. */
int btf_type(const struct bb_btf *b, uint32_t id, struct btf_t *t);
/* Member i (< t->vlen) of a STRUCT, UNION, DATASEC, FUNC_PROTO, ENUM. */
void btf_member_at(const struct bb_btf *b, const struct btf_t *t, uint16_t i,
		   struct btf_member *m);
/* Follow TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG (bounded). */
int btf_skip_mods(const struct bb_btf *b, uint32_t id, struct btf_t *t);
/* Size in bytes of a type (arrays multiplied out, bounded); -EINVAL if it
 * has none (void, function) or it does not fit 32 bits. */
int btf_size(const struct bb_btf *b, uint32_t id, uint32_t *size);
/* The element count and type of an ARRAY. */
void btf_array(const struct btf_t *t, uint32_t *elem, uint32_t *nelems);
/* The DATASEC of this name, or -ENOENT. */
int btf_find_datasec(const struct bb_btf *b, const char *name,
		     struct btf_t *t);
/* The encoding bits of an INT (BTF_INT_SIGNED, ...). */
uint32_t btf_int_encoding(const struct btf_t *t);
/* An INT's width and offset in bits (a bitfield where they are not its
 * whole size and 0: BTF without kflag). */
void btf_int_bits(const struct btf_t *t, uint32_t *bits, uint32_t *off);

#endif
