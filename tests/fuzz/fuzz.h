/* SPDX-License-Identifier: MIT */
/*
 * Shared by the libFuzzer harnesses of tests/fuzz (one per parser of
 * outside input; `make fuzz` runs each for FUZZ_SECONDS). A harness
 * asserts what must hold for every input; ASan, UBSan and libFuzzer's
 * leak, timeout and memory limits catch the rest.
 */
#ifndef BAREBPF_FUZZ_H
#define BAREBPF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property every input must keep: abort() so that libFuzzer saves it. */
#define FUZZ_ASSERT(cond)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: FUZZ_ASSERT(%s) failed\n",     \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

/* The input as a NUL-terminated string (text parsers take C strings). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* Call fn on each line of text (cut in place, without the newline). */
static inline void fuzz_lines(char *text, void (*fn)(const char *line))
{
	char *line = text, *eol;

	for (; line; line = eol) {
		eol = strchr(line, '\n');
		if (eol)
			*eol++ = 0;
		fn(line);
	}
}

#endif
