/* SPDX-License-Identifier: MIT */
/* cpudist: what crosses between bpf/cpudist.bpf.c and the tool. */
#ifndef BAREBPF_CPUDIST_H
#define BAREBPF_CPUDIST_H

#include "runqlat.h"

/* hist: struct runqlat_key (dhist's layout), RUNQLAT_BY_* for its id */
#define CPUDIST_STARTS 16384

#endif
