/* SPDX-License-Identifier: MIT */
/*
 * The BPF object reader and relocator (loader/obj: parse, maps, relocs,
 * relocate, inline): obj_open on the input, then every constant set, fake map fds
 * and obj_relocate, the load step short of the bpf() syscall, as on a
 * kernel that takes nothing past 4.15 (global data inlined, calls
 * refused) and on one that takes everything (calls linked, global data
 * as map values). A refusal must say why; a success must leave programs
 * the kernel could be given.
 */
#include "fuzz.h"
#include "obj_internal.h"

static void relocate(struct bb_obj *obj, const struct bb_kcaps *caps)
{
	struct bb_err err = { "" };
	int i;

	obj_set_kcaps(obj, caps);
	if (obj_relocate(obj, &err) < 0) {
		FUZZ_ASSERT(err.msg[0]);
		return;
	}
	for (i = 0; i < obj_nprogs(obj); i++) {
		struct bb_prog *p = obj_prog_at(obj, i);

		FUZZ_ASSERT(p->insn_cnt > 0);
		FUZZ_ASSERT(p->insn_cnt <= (caps->big_progs ? BPF_MAXINSNS_BIG :
					    BPF_MAXINSNS));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct bb_kcaps old = { .probed = 1 };
	static const struct bb_kcaps new = {
		.probed = 1, .bpf_calls = 1, .jmp32 = 1, .big_progs = 1,
		.global_data = 1, .map_freeze = 1, .probe_read_kernel = 1,
	};
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

		FUZZ_ASSERT(p->insn_cnt > 0 && p->insn_cnt <= BPF_MAXINSNS_BIG);
		FUZZ_ASSERT(obj_prog(obj, p->name) != NULL);
	}
	relocate(obj, &old);
	relocate(obj, &new);
	/* fds so that obj_close closes nothing of ours */
	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = -1;
	obj_close(obj);
	return 0;
}
