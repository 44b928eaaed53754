/* SPDX-License-Identifier: MIT */
/*
 * 32-bit ARM (EABI, armv7 hard-float) raw system call entry.
 *
 * ABI: the syscall number goes in r7, arguments in r0..r5, then "svc #0"
 * (EABI: the number is not encoded in the instruction, as in the old ABI).
 * The result comes back in r0 (also the first argument register); a value
 * in [-4095, -1] is a negated errno. No other register is clobbered.
 *
 * r7 is Thumb-2's frame pointer: this header needs the frame pointer
 * omitted (-Os and -O2 do; -O0 or -fno-omit-frame-pointer fail to build
 * with "r7 cannot be used in asm here", which is the safe failure).
 */
#ifndef BAREBPF_ASM_ARMV7_H
#define BAREBPF_ASM_ARMV7_H

/* arch/arm/tools/syscall.tbl (EABI numbers). arm has no plain mmap in
 * EABI: mmap2 takes its offset in 4096-byte units (BB_MMAP_PGOFF). */
#define BB_NR_ioctl            54
#define BB_NR_mmap            192	/* mmap2 */
#define BB_MMAP_PGOFF          12
#define BB_NR_munmap           91
#define BB_NR_mount            21
#define BB_NR_umount2          52
#define BB_NR_membarrier       389
#define BB_NR_prlimit64       369
#define BB_NR_perf_event_open 364
#define BB_NR_bpf             386
#define BB_NR_close             6
#define BB_NR_write             4

#define bb_syscall0(num) ({                                                   \
	register long _num __asm__("r7") = (num);                             \
	register long _r0 __asm__("r0");                                      \
	__asm__ volatile("svc #0" : "=r"(_r0) : "r"(_num) : "memory", "cc");  \
	_r0;                                                                  \
})

#define bb_syscall6(num, a1, a2, a3, a4, a5, a6) ({                           \
	register long _num __asm__("r7") = (num);                             \
	register long _r0 __asm__("r0") = (long)(a1);                         \
	register long _r1 __asm__("r1") = (long)(a2);                         \
	register long _r2 __asm__("r2") = (long)(a3);                         \
	register long _r3 __asm__("r3") = (long)(a4);                         \
	register long _r4 __asm__("r4") = (long)(a5);                         \
	register long _r5 __asm__("r5") = (long)(a6);                         \
	__asm__ volatile("svc #0" : "+r"(_r0)                                 \
			 : "r"(_num), "r"(_r1), "r"(_r2), "r"(_r3),           \
			   "r"(_r4), "r"(_r5)                                 \
			 : "memory", "cc");                                   \
	_r0;                                                                  \
})

#endif
