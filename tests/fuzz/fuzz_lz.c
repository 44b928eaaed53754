/* SPDX-License-Identifier: MIT */
/*
 * The embedded objects' decoder (lz.c): any input is refused or decodes
 * to exactly the size its header declares, within the buffer given; a
 * buffer one byte short of that is refused.
 */
#include <errno.h>
#include "fuzz.h"
#include "barebpf.h"
#include "obj.h"

/* inputs are a few KiB; a larger declared size is still tried, on a
 * buffer of this size, where it must be refused */
#define CAP (1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long want = lz_size(data, size), got;
	size_t cap = want >= 0 && want < CAP ? (size_t)want : CAP;
	unsigned char *out = malloc(cap + 1);

	FUZZ_ASSERT(out);
	got = lz_decode(out, cap, data, size);
	FUZZ_ASSERT(got == -EINVAL || (got == want && (size_t)got <= cap));
	if (got > 0)
		FUZZ_ASSERT(lz_decode(out, got - 1, data, size) == -EINVAL);
	free(out);
	return 0;
}
