/* SPDX-License-Identifier: MIT */
/*
 * The ld.so.cache reader (ulib.c) on any image, old format, new or both:
 * what `trace p:c:malloc` reads from /etc/ld.so.cache. A path found is a
 * string of the image, NUL-terminated inside it.
 */
#include "fuzz.h"
#include "barebpf.h"
#include "user.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const prefixes[] = { "libc.so", "lib", "" };
	char out[256];
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		memset(out, 0, sizeof(out));
		if (ldcache_find(data, size, prefixes[i], out, sizeof(out)))
			continue;
		FUZZ_ASSERT(out[0]);
		FUZZ_ASSERT(memmem(data, size, out, strlen(out) + 1));
	}
	return 0;
}
