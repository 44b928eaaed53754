/* SPDX-License-Identifier: MIT */
/*
 * The user-space ELF symbol reader (elfsyms.c) on an image in memory, then
 * lookups of a few addresses: what `trace -U` does with whatever file a
 * traced process maps. Seeds of both classes (ELF64, ELF32 ARM), and
 * with MiniDebugInfo (.gnu_debugdata, xz-compressed).
 */
#include "fuzz.h"
#include "barebpf.h"
#include "user.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t foffs[] = { 0, 0x40, 0x1000, 0x1234, 0xffff };
	struct bb_elfsyms *e;
	size_t i;

	if (elfsyms_parse(&e, data, size) < 0) {
		FUZZ_ASSERT(e == NULL);
		return 0;
	}
	for (i = 0; i < sizeof(foffs) / sizeof(foffs[0]); i++) {
		uint64_t vaddr, off = 0;
		const char *name;

		if (elfsyms_vaddr(e, foffs[i], &vaddr) < 0)
			vaddr = foffs[i];
		name = elfsyms_find(e, vaddr, &off);
		if (name) {
			FUZZ_ASSERT(name[0]);
			FUZZ_ASSERT(off <= vaddr);
		}
		name = elfsyms_find(e, ~0ULL - i, NULL);
		if (name)
			FUZZ_ASSERT(name[0]);
	}
	/* a symbol takes 24 bytes of an ELF64 file, 16 of an ELF32 one;
	 * except in MiniDebugInfo, compressed */
	if (!memmem(data, size, ".gnu_debugdata", 14))
		FUZZ_ASSERT(elfsyms_count(e) <=
			    size / (data[4] == 1 ? 16 : 24));
	elfsyms_free(e);
	return 0;
}
