/* SPDX-License-Identifier: MIT */
/*
 * aarch64 raw system call entry.
 *
 * ABI: the syscall number goes in x8, arguments in x0..x5, then "svc #0".
 * The result comes back in x0 (which is also the first argument register);
 * a value in [-4095, -1] is a negated errno. No other register is clobbered.
 */
#ifndef BAREBPF_ASM_AARCH64_H
#define BAREBPF_ASM_AARCH64_H

/* asm-generic numbers (include/uapi/asm-generic/unistd.h). */
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

#define bb_syscall0(num) ({                                                   \
	register long _num __asm__("x8") = (num);                             \
	register long _x0 __asm__("x0");                                      \
	__asm__ volatile("svc #0" : "=r"(_x0) : "r"(_num) : "memory", "cc");  \
	_x0;                                                                  \
})

#define bb_syscall6(num, a1, a2, a3, a4, a5, a6) ({                           \
	register long _num __asm__("x8") = (num);                             \
	register long _x0 __asm__("x0") = (long)(a1);                         \
	register long _x1 __asm__("x1") = (long)(a2);                         \
	register long _x2 __asm__("x2") = (long)(a3);                         \
	register long _x3 __asm__("x3") = (long)(a4);                         \
	register long _x4 __asm__("x4") = (long)(a5);                         \
	register long _x5 __asm__("x5") = (long)(a6);                         \
	__asm__ volatile("svc #0" : "+r"(_x0)                                 \
			 : "r"(_num), "r"(_x1), "r"(_x2), "r"(_x3),           \
			   "r"(_x4), "r"(_x5)                                 \
			 : "memory", "cc");                                   \
	_x0;                                                                  \
})

#endif
