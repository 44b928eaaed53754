/* SPDX-License-Identifier: MIT */
/*
 * loader/user/: user-space binaries, read without libelf: the function
 * symbols of an ELF file (elfsyms.c, elflookup.c; their MiniDebugInfo's
 * .xz through xz.c and lzma2.c, uelf.c), of a process by its maps
 * (usym.c), libraries as the dynamic linker finds them (ulib.c), all in
 * usyms.h; USDT probes and their argument operands (usdt.c, usdt.h).
 * uelf.h and lzma2.h are internal to the folder. Library rules
 * (barebpf.h): -errno, a sentence in struct bb_err, never a print.
 */
#ifndef BAREBPF_USER_H
#define BAREBPF_USER_H

#include "barebpf.h"
#include "usyms.h"
#include "usdt.h"

#endif
