/* SPDX-License-Identifier: MIT */
/*
 * The BTF reader (btf.c): btf_open on the input as the contents of a
 * .BTF section, then every accessor on every type id (and past them),
 * as the map reader uses them: sizes, modifiers, members, datasecs.
 */
#include "fuzz.h"
#include "btf.h"
#include "obj.h"

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
	btf_find_datasec(&b, ".maps", &t);
	btf_close(&b);
	return 0;
}
