/* SPDX-License-Identifier: MIT */
/*
 * The .xz decoder of MiniDebugInfo (xz.c), on whatever a .gnu_debugdata
 * section holds: any input is refused or decodes within the bound given;
 * a bound one byte short of what it decoded to is refused (-EFBIG), and
 * the same input decodes to the same bytes again. Seeds without a check
 * (--check=none) let changes to the LZMA2 data reach the end of a block.
 */
#include <errno.h>
#include "fuzz.h"
#include "barebpf.h"
#include "user.h"

#define MAX (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out, *again;
	size_t len, len2;
	int ret = xz_decode(data, size, MAX, &out, &len);

	if (ret < 0) {
		FUZZ_ASSERT(!out && !len);
		FUZZ_ASSERT(ret == -EBADMSG || ret == -EOPNOTSUPP ||
			    ret == -EFBIG);
		return 0;
	}
	FUZZ_ASSERT(len <= MAX);
	FUZZ_ASSERT(xz_decode(data, size, len, &again, &len2) == 0);
	FUZZ_ASSERT(len2 == len && (!len || !memcmp(out, again, len)));
	free(again);
	if (len)
		FUZZ_ASSERT(xz_decode(data, size, len - 1, &again, &len2) ==
			    -EFBIG);
	free(out);
	return 0;
}
