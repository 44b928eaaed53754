/* SPDX-License-Identifier: MIT */
/*
 * Facts that help texts state, from one place: the oldest kernels barebpf
 * runs on (README's first paragraph and its Kernels table say the same;
 * tests/integration/test_help.c checks that no help names another floor
 * and that the README agrees).
 */
#ifndef BAREBPF_FACTS_H
#define BAREBPF_FACTS_H

/* every tool but breakdown (its frame is a map value, which 4.9's helpers
 * cannot take) and oomkill (oom:mark_victim, 4.13) */
#define BB_FLOOR "4.9"
/* every tool */
#define BB_FLOOR_ALL "4.14"

#endif
