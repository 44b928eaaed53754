/* SPDX-License-Identifier: MIT */
/* profile: what crosses between bpf/profile.bpf.c and the tool: the key
 * of `counts` (stackkey.h), a sample count its value. */
#ifndef BAREBPF_PROFILE_H
#define BAREBPF_PROFILE_H

#include "stackkey.h"

/* The sizes of the maps as compiled (bcc's defaults). */
#define PROFILE_STACKS 16384
#define PROFILE_COUNTS 40960

#endif
