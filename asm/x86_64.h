/* SPDX-License-Identifier: MIT */
/*
 * x86_64 raw system call entry.
 *
 * ABI: the syscall number goes in rax, arguments in rdi, rsi, rdx, r10, r8, r9
 * (r10, not rcx: the syscall instruction overwrites rcx with the return
 * address and r11 with rflags, so both are clobbered). The result comes back
 * in rax; a value in [-4095, -1] is a negated errno.
 */
#ifndef BAREBPF_ASM_X86_64_H
#define BAREBPF_ASM_X86_64_H

/* Our own numbers: an old libc may not know __NR_bpf (added in 3.18). */
#define BB_NR_ioctl            16
#define BB_NR_mmap              9
#define BB_NR_munmap           11
#define BB_NR_mount           165
#define BB_NR_umount2         166
#define BB_NR_membarrier      324
#define BB_NR_prlimit64       302
#define BB_NR_perf_event_open 298
#define BB_NR_bpf             321
#define BB_NR_close             3
#define BB_NR_write             1

#define bb_syscall0(num) ({                                                   \
	long _ret;                                                            \
	register long _num __asm__("rax") = (num);                            \
	__asm__ volatile("syscall" : "=a"(_ret) : "0"(_num)                   \
			 : "rcx", "r11", "memory", "cc");                     \
	_ret;                                                                 \
})

#define bb_syscall6(num, a1, a2, a3, a4, a5, a6) ({                           \
	long _ret;                                                            \
	register long _num __asm__("rax") = (num);                            \
	register long _a1 __asm__("rdi") = (long)(a1);                        \
	register long _a2 __asm__("rsi") = (long)(a2);                        \
	register long _a3 __asm__("rdx") = (long)(a3);                        \
	register long _a4 __asm__("r10") = (long)(a4);                        \
	register long _a5 __asm__("r8") = (long)(a5);                         \
	register long _a6 __asm__("r9") = (long)(a6);                         \
	__asm__ volatile("syscall" : "=a"(_ret)                               \
			 : "0"(_num), "r"(_a1), "r"(_a2), "r"(_a3),           \
			   "r"(_a4), "r"(_a5), "r"(_a6)                       \
			 : "rcx", "r11", "memory", "cc");                     \
	_ret;                                                                 \
})

#endif
