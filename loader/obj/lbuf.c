/* SPDX-License-Identifier: MIT */
/*
 * What linking (relocate.c), inlining (inline.c) and the helper scan
 * (usage.c) share: the buffer a program's instructions are linked in,
 * and the relocation of an instruction. Calls nothing of theirs, so that
 * relocate.c -> inline.c -> lbuf.c has no way back.
 */
#include <errno.h>
#include <stdlib.h>
#include "obj_internal.h"

int lbuf_reserve(struct lbuf *b, uint32_t n)
{
	uint32_t cap = b->cap ? b->cap : 64;
	void *p;

	if (b->cnt + n <= b->cap)
		return 0;
	if ((uint64_t)b->cnt + n > BPF_MAXINSNS_BIG + 2)
		return -E2BIG;
	while (cap < b->cnt + n)
		cap *= 2;
	if (!(p = realloc(b->insns, cap * sizeof(*b->insns))))
		return -ENOMEM;
	b->insns = p;
	if (!(p = realloc(b->rel, cap * sizeof(*b->rel))))
		return -ENOMEM;
	b->rel = p;
	if (!(p = realloc(b->from, cap * sizeof(*b->from))))
		return -ENOMEM;
	b->from = p;
	b->cap = cap;
	return 0;
}

const struct obj_reloc *obj_find_reloc(const struct obj_code *c,
					  uint32_t insn)
{
	uint32_t lo = 0, hi = c->nrelocs;

	/* the last relocation of insn: the first past it, minus one */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->relocs[mid].insn <= insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && c->relocs[lo - 1].insn == insn ?
	       &c->relocs[lo - 1] : NULL;
}
