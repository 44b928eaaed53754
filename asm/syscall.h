/* SPDX-License-Identifier: MIT */
/* Picks the raw syscall entry of the architecture we are built for. */
#ifndef BAREBPF_ASM_SYSCALL_H
#define BAREBPF_ASM_SYSCALL_H

#if defined(__x86_64__)
#include "x86_64.h"
#elif defined(__aarch64__)
#include "aarch64.h"
#elif defined(__arm__) && defined(__ARM_EABI__)
#include "armv7.h"
#elif defined(__riscv) && __riscv_xlen == 64
#include "riscv64.h"
#else
#error "barebpf: no raw syscall entry for this architecture (add asm/<arch>.h)"
#endif

#endif
