/* SPDX-License-Identifier: MIT */
/* The /proc/kallsyms parser (kallsyms.c) and its lookups. */
#include <string.h>
#include "fuzz.h"
#include "barebpf.h"
#include "kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	struct bb_ksyms *ks = NULL;
	const struct bb_ksym *k;
	uint64_t addr, off;
	int n;

	struct bb_ksyms *part = NULL;
	uint64_t want[9];

	for (addr = 0; addr < 8; addr++)
		want[addr] = addr << 61 | addr;
	want[8] = ~0ULL;
	n = ksyms_parse(&ks, text);
	/* the symbols of some addresses only: the whole table's answers */
	if (ksyms_parse_for(&part, text, want, 9) >= 0) {
		for (addr = 0; n >= 0 && addr < 9; addr++) {
			const struct bb_ksym *a = ksyms_find(ks, want[addr], NULL);
			const struct bb_ksym *b = ksyms_find(part, want[addr],
							     NULL);

			FUZZ_ASSERT(!a == !b);
			FUZZ_ASSERT(!a || (a->addr == b->addr &&
					   !strcmp(a->name, b->name)));
		}
		ksyms_free(part);
	}
	free(text);
	if (n < 0)
		return 0;
	FUZZ_ASSERT(ks != NULL);
	for (addr = 0; addr < 8; addr++) {
		uint64_t a = addr << 61 | addr;

		k = ksyms_find(ks, a, &off);
		if (k) {
			FUZZ_ASSERT(k->addr <= a && off == a - k->addr);
			FUZZ_ASSERT(ksyms_has(ks, k->name));
		}
	}
	k = ksyms_find(ks, ~0ULL, &off);
	FUZZ_ASSERT(!n == !k);
	ksyms_has(ks, "vfs_read");
	ksyms_free(ks);
	return 0;
}
