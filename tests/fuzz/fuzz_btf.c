/* SPDX-License-Identifier: MIT */
/*
 * The BTF reader (btf.c): btf_open on the input as the contents of a
 * .BTF section, then every accessor on every type id (and past them),
 * as the map reader uses them: sizes, modifiers, members, datasecs; and
 * the field-offset layer (loader/kernel/fieldoff.c), which reads a BTF
 * file the user gives (--btf): paths made of the blob's own struct and
 * member names, one and two members deep, and a few that are not there.
 */
#include <stdio.h>
#include "fuzz.h"
#include "btf.h"
#include "obj.h"
#include "fieldoff.h"

/* Look up "struct.member" (and one member further) for the members of
 * record t: whatever the blob says, an answer or a sentence. */
static void fuzz_paths(const struct bb_btf *b, const struct btf_t *t)
{
	struct bb_err err = { "" };
	struct bb_field f;
	char path[256];
	uint16_t i;

	for (i = 0; i < t->vlen && i < 8; i++) {
		struct btf_member m;
		struct btf_t inner;

		btf_member_at(b, t, i, &m);
		snprintf(path, sizeof(path), "%.100s.%.100s", t->name, m.name);
		if (fieldoff_btf(b, path, &f, &err) < 0)
			FUZZ_ASSERT(err.msg[0]);
		if (btf_skip_mods(b, m.type, &inner) == 0 && inner.vlen &&
		    (inner.kind == BTF_KIND_STRUCT ||
		     inner.kind == BTF_KIND_UNION)) {
			struct btf_member m2;

			btf_member_at(b, &inner, 0, &m2);
			snprintf(path, sizeof(path), "%.80s.%.80s.%.80s",
				 t->name, m.name, m2.name);
			err.msg[0] = 0;
			if (fieldoff_btf(b, path, &f, &err) < 0)
				FUZZ_ASSERT(err.msg[0]);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bb_err err = { "" };
	struct bb_btf b;
	struct btf_t t;
	uint32_t id, sz, elem, n;
	uint16_t i;

	if (btf_open(&b, data, size, "fuzz.o", &err) < 0) {
		FUZZ_ASSERT(err.msg[0]);
		return 0;
	}
	for (id = 0; id <= b.ntypes + 1; id++) {
		if (btf_type(&b, id, &t) < 0) {
			FUZZ_ASSERT(id == 0 || id > b.ntypes);
			continue;
		}
		FUZZ_ASSERT(t.name != NULL);
		btf_size(&b, id, &sz);
		btf_skip_mods(&b, id, &t);
		if (t.kind == BTF_KIND_ARRAY)
			btf_array(&t, &elem, &n);
		if (t.kind == BTF_KIND_INT)
			btf_int_encoding(&t);
		for (i = 0; i < t.vlen && (t.kind == BTF_KIND_STRUCT ||
					   t.kind == BTF_KIND_UNION ||
					   t.kind == BTF_KIND_DATASEC ||
					   t.kind == BTF_KIND_ENUM ||
					   t.kind == BTF_KIND_FUNC_PROTO); i++) {
			struct btf_member m;

			btf_member_at(&b, &t, i, &m);
			FUZZ_ASSERT(m.name != NULL);
		}
	}
	b.ptr_size = fieldoff_btf_long_size(&b);
	for (id = 1; id <= b.ntypes && id < 4096; id++)
		if (btf_type(&b, id, &t) == 0 && t.name[0] &&
		    (t.kind == BTF_KIND_STRUCT || t.kind == BTF_KIND_UNION))
			fuzz_paths(&b, &t);
	{
		struct bb_err err = { "" };
		struct bb_field f;

		fieldoff_btf(&b, "task_struct.se.cfs_rq", &f, &err);
		fieldoff_btf(&b, "a..b", &f, &err);
	}
	btf_find_datasec(&b, ".maps", &t);
	btf_close(&b);
	return 0;
}
