/* SPDX-License-Identifier: MIT */
/* The tracepoint format parser (tracefs.c): events/<cat>/<name>/format. */
#include "fuzz.h"
#include "barebpf.h"
#include "kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	struct bb_tp_field fields[8];
	int n, m, i;

	n = tp_format_parse(text, NULL, 0);
	m = tp_format_parse(text, fields, 8);
	/* counting and filling agree, and only max are filled */
	FUZZ_ASSERT(n == m);
	for (i = 0; i < m && i < 8; i++)
		FUZZ_ASSERT(fields[i].name[0] &&
			    strlen(fields[i].name) < sizeof(fields[i].name) &&
			    strlen(fields[i].type) < sizeof(fields[i].type));
	free(text);
	return 0;
}
