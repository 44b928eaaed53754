/* SPDX-License-Identifier: MIT */
/* offcputime: what crosses between bpf/offcputime.bpf.c and the tool: the
 * key of `counts` (stackkey.h), microseconds off CPU its value. */
#ifndef BAREBPF_OFFCPUTIME_H
#define BAREBPF_OFFCPUTIME_H

#include "stackkey.h"

#define OFFCPU_STACKS 16384
#define OFFCPU_COUNTS 40960
#define OFFCPU_STARTS 65536

#endif
