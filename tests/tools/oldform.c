/* SPDX-License-Identifier: MIT */
/* oldform IN OUT: write IN as clang 6/7 would have (see oldform.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oldform.h"

int main(int argc, char **argv)
{
	static unsigned char buf[16 << 20];
	size_t len;
	FILE *f;

	if (argc != 3 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: oldform IN OUT\n");
		return 2;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (oldform_rewrite(buf, len, 1) <= 0) {
		fprintf(stderr, "oldform: %s: no function symbols\n", argv[1]);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		return 1;
	return 0;
}
