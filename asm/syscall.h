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

/* Where the kernel may refuse a kprobe at a function's ftrace site, its
 * size (asm/riscv64.h); 0: kprobes go at the function itself. */
#ifndef BB_KPROBE_FTRACE_SITE
#define BB_KPROBE_FTRACE_SITE 0
#endif

#endif
