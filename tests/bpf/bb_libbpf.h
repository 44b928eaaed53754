/* SPDX-License-Identifier: MIT */
/*
 * Just enough of libbpf's bpf_helpers.h for the test objects written the
 * libbpf way (no libbpf headers on the build machine): BTF-defined maps,
 * __kconfig externs. Compile such objects with -g (clang emits .BTF).
 */
#ifndef BB_TEST_LIBBPF_H
#define BB_TEST_LIBBPF_H

#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __array(name, val) typeof(val) *name[]
#define __kconfig __attribute__((section(".kconfig")))
#define __weak __attribute__((weak))
#define LIBBPF_PIN_BY_NAME 1
#define BPF_MAP_TYPE_PROG_ARRAY 3
#define BPF_MAP_TYPE_ARRAY_OF_MAPS 12

#endif
