/* SPDX-License-Identifier: MIT */
/*
 * Test registration shared by the unit and integration runners: each test
 * file registers its Check suite from a constructor, so adding a file needs
 * no edit elsewhere. A suite with a `requires` hook that returns a reason is
 * not run and is reported as SKIP with that reason, never as a pass (see
 * bbtest_main.h for when skips fail the run).
 */
#ifndef BAREBPF_BBTEST_H
#define BAREBPF_BBTEST_H

#include <check.h>

typedef Suite *(*bbtest_suite_fn)(void);
typedef const char *(*bbtest_requires_fn)(void);

void bbtest_register(const char *name, bbtest_suite_fn fn,
		     bbtest_requires_fn requires);

#define BBTEST_SUITE(name, fn, requires)                                       \
	__attribute__((constructor)) static void bbtest_reg_##name(void)       \
	{                                                                      \
		bbtest_register(#name, fn, requires);                          \
	}

/*
 * Inside a test that cannot run here: say why and return (the runner counts
 * it, and fails a suite every test of which skipped). Never a bare return.
 */
void bbtest_skip_note(const char *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define bbtest_skip(...)                                                       \
	do {                                                                   \
		bbtest_skip_note(__func__, __VA_ARGS__);                       \
		return;                                                        \
	} while (0)

/*
 * A program stripped as Fedora's find-debuginfo does it, with MiniDebugInfo
 * (test_usym.c, shared with test_uprobe.c): mdi_build makes it in a
 * directory of its own (a fixture; mdi_clean removes it), mdi_path names
 * its files there: "full" (unstripped), "bare" (stripped), "mdi-crc64",
 * "mdi-crc32", "mdi-none" (stripped, with .gnu_debugdata).
 */
void mdi_build(void);
void mdi_clean(void);
const char *mdi_path(const char *name);
/* mdi-crc64 read whole into *buf (its length returned), and where its
 * .gnu_debugdata is in it: [*at, *at + *plen). */
int mdi_image(char **buf, size_t *at, size_t *plen);

/* Embedded BPF objects (asm/embed.S). */
#define BB_EMBEDDED(name)                                                      \
	extern const unsigned char bpfobj_##name[], bpfobj_##name##_end[]

#endif
