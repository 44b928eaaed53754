/* SPDX-License-Identifier: MIT */
/*
 * Make an object look as clang 6 and 7 wrote them (clang 6 is not
 * installable here): every function symbol STT_NOTYPE of size 0, and
 * e_machine 0 as old llc wrote it. In place, on an ELF64 little-endian
 * relocatable object. Returns the number of symbols changed, or -1.
 */
#ifndef BB_TEST_OLDFORM_H
#define BB_TEST_OLDFORM_H

#include <stddef.h>
#include <stdint.h>

static uint64_t oldform_rd(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int oldform_rewrite(unsigned char *buf, size_t len, int em_none)
{
	uint64_t shoff, i, j;
	unsigned shnum;
	int changed = 0;

	if (len < 64 || buf[4] != 2 || buf[5] != 1)
		return -1;
	shoff = oldform_rd(buf + 40, 8);
	shnum = oldform_rd(buf + 60, 2);
	if (shoff > len || (uint64_t)shnum * 64 > len - shoff)
		return -1;
	if (em_none) {
		buf[18] = 0;
		buf[19] = 0;
	}
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = buf + shoff + i * 64;
		uint64_t off = oldform_rd(sh + 24, 8), size = oldform_rd(sh + 32, 8);

		if (oldform_rd(sh + 4, 4) != 2 /* SHT_SYMTAB */)
			continue;
		if (off > len || size > len - off)
			return -1;
		for (j = 0; j + 24 <= size; j += 24) {
			unsigned char *s = buf + off + j;

			if ((s[4] & 0xf) != 2 /* STT_FUNC */)
				continue;
			s[4] &= 0xf0; /* STT_NOTYPE */
			memset(s + 16, 0, 8);
			changed++;
		}
	}
	return changed;
}

#endif
