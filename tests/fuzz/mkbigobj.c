/* SPDX-License-Identifier: MIT */
/*
 * mkbigobj NMAPS STRIDE NPROGS RELOCS NCONSTS [LDS] > big.o: a large BPF
 * object (see tests/unit/bigobj.h), to measure the object reader on it:
 *   mkbigobj 80000 20 16 2000 1000 > big.o; time barebpf run big.o
 */
#include <stdio.h>
#include <stdlib.h>
#include "../unit/bigobj.h"

int main(int argc, char **argv)
{
	struct bigobj_spec sp;
	unsigned char *obj;
	size_t len;

	if (argc != 6 && argc != 7) {
		fputs("usage: mkbigobj NMAPS STRIDE NPROGS RELOCS NCONSTS [LDS] "
		      "> object.o\n", stderr);
		return 2;
	}
	sp.nmaps = strtoul(argv[1], NULL, 0);
	sp.stride = strtoul(argv[2], NULL, 0);
	sp.nprogs = strtoul(argv[3], NULL, 0);
	sp.relocs = strtoul(argv[4], NULL, 0);
	sp.nconsts = strtoul(argv[5], NULL, 0);
	sp.lds = argc == 7 ? strtoul(argv[6], NULL, 0) : 0;
	if (sp.nprogs > 32000 || bigobj_lds(&sp) > 2000 ||
	    (sp.relocs && !bigobj_lds(&sp))) {
		fputs("mkbigobj: at most 32000 programs (ELF section count) "
		      "of 1 to 2000 ld_imm64 (4096 instructions)\n", stderr);
		return 2;
	}
	obj = bigobj_build(&sp, &len);
	if (fwrite(obj, 1, len, stdout) != len)
		return 1;
	free(obj);
	return 0;
}
