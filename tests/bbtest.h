/* SPDX-License-Identifier: MIT */
/*
 * Test registration shared by the unit and integration runners: each test
 * file registers its Check suite from a constructor, so adding a file needs
 * no edit elsewhere. A suite with a `requires` hook that returns a reason is
 * not run and is reported as SKIP with that reason, never as a pass.
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

/* Embedded BPF objects (asm/embed.S). */
#define BB_EMBEDDED(name)                                                      \
	extern const unsigned char bpfobj_##name[], bpfobj_##name##_end[]

#endif
