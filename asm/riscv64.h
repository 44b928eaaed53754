/* SPDX-License-Identifier: MIT */
/*
 * riscv64 raw system call entry.
 *
 * ABI: the syscall number goes in a7, arguments in a0..a5, then "ecall".
 * The result comes back in a0 (also the first argument register); a value
 * in [-4095, -1] is a negated errno. No other register is clobbered.
 */
#ifndef BAREBPF_ASM_RISCV64_H
#define BAREBPF_ASM_RISCV64_H

/* asm-generic numbers (include/uapi/asm-generic/unistd.h), as aarch64. */
#define BB_NR_ioctl            29
#define BB_NR_mmap            222
#define BB_NR_munmap          215
#define BB_NR_mount            40
#define BB_NR_umount2          39
#define BB_NR_membarrier       283
#define BB_NR_prlimit64       261
#define BB_NR_perf_event_open 241
#define BB_NR_bpf             280
#define BB_NR_close            57
#define BB_NR_write            64

/* Bytes of a function's ftrace patch site, at its address: 6.12 refuses a
 * kprobe there (loader/probe/kprobe.c puts it right past). 8 with or
 * without compressed instructions (-fpatchable-function-entry=4 c.nops or
 * 2 nops; arch/riscv/Makefile), MCOUNT_INSN_SIZE in asm/ftrace.h. */
#define BB_KPROBE_FTRACE_SITE   8

#define bb_syscall0(num) ({                                                   \
	register long _num __asm__("a7") = (num);                             \
	register long _a0 __asm__("a0");                                      \
	__asm__ volatile("ecall" : "=r"(_a0) : "r"(_num) : "memory");         \
	_a0;                                                                  \
})

#define bb_syscall6(num, a1, a2, a3, a4, a5, a6) ({                           \
	register long _num __asm__("a7") = (num);                             \
	register long _a0 __asm__("a0") = (long)(a1);                         \
	register long _a1 __asm__("a1") = (long)(a2);                         \
	register long _a2 __asm__("a2") = (long)(a3);                         \
	register long _a3 __asm__("a3") = (long)(a4);                         \
	register long _a4 __asm__("a4") = (long)(a5);                         \
	register long _a5 __asm__("a5") = (long)(a6);                         \
	__asm__ volatile("ecall" : "+r"(_a0)                                  \
			 : "r"(_num), "r"(_a1), "r"(_a2), "r"(_a3),           \
			   "r"(_a4), "r"(_a5)                                 \
			 : "memory");                                         \
	_a0;                                                                  \
})

#endif
