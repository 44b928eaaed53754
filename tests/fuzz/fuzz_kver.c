/* SPDX-License-Identifier: MIT */
/*
 * The kernel version parsers (kver.c), each on the input: uname -r,
 * /proc/version_signature, uname -v, and the vDSO's ELF note.
 */
#include "fuzz.h"
#include "barebpf.h"
#include "kernel.h"

static void check(int ret, uint32_t code)
{
	if (ret == 0)
		FUZZ_ASSERT(code && code <= 0xffffff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	uint32_t code = 0;

	check(kver_parse_release(text, &code), code);
	code = 0;
	check(kver_parse_ubuntu_signature(text, &code), code);
	code = 0;
	check(kver_parse_debian_uname_v(text, &code), code);
	free(text);
	/* the vDSO note's code is the kernel's own: any non-zero u32 */
	code = 0;
	if (kver_parse_vdso_note(data, size, &code) == 0)
		FUZZ_ASSERT(code);
	return 0;
}
