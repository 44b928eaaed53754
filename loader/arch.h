/* SPDX-License-Identifier: MIT */
/*
 * Everything barebpf knows of an architecture, in one table (libbpf keeps
 * its syscall prefixes in one function, ply an architecture in one file):
 * the ELF machine of its binaries, the prefix of its syscall functions,
 * its multiarch folder and ld.so.cache flags, where struct pt_regs keeps
 * a function's arguments, a system call's number and the registers a USDT
 * operand names. Every architecture is compiled in on every host, so the
 * unit tests check each one anywhere; bb_arch_native() is the one this
 * binary runs on. What the BPF side needs at compile time (struct pt_regs
 * in bpf/bb_helpers.h) and the raw syscall entry (asm/ARCH.h) stay there;
 * tests/unit/test_arch.c checks the table against bb_helpers.h.
 */
#ifndef BAREBPF_ARCH_H
#define BAREBPF_ARCH_H

#include <stddef.h>
#include <stdint.h>

/* A register's name in USDT operands: where it lies in struct pt_regs (as
 * bpf/bb_helpers.h declares it) and how many bytes of it the name covers
 * (x86_64's eax: the low 4 of rax). */
struct bb_arch_reg {
	const char *name;
	int off, width;
};

/* How funccount's raw sys_exit program tells a 32-bit task's call, which
 * the syscalls/ events leave out. */
enum bb_arch_compat {
	BB_COMPAT_NONE, /* not told apart */
	BB_COMPAT_EQ,   /* the u64 at compat_off equals compat_val */
	BB_COMPAT_SET,  /* the u64 at compat_off has compat_val's bits */
};

struct bb_arch {
	const char *name;       /* the kernel's: x86_64, arm64, arm, riscv64 */
	const char *elf_name;   /* as ELF readers name it: aarch64, riscv */
	int machine;            /* EM_* of its binaries */
	int regsize;            /* bytes of a register, a kernel pointer */
	/* syscall functions taking a struct pt_regs * (x86_64 4.17+, arm64
	 * 4.19+, riscv64 5.19+); NULL: the architecture has none */
	const char *sys_prefix;
	const char *compat_sys_prefix; /* its 32-bit tasks' (NULL: none) */
	const char *multiarch;  /* Debian's folder: /usr/lib/<multiarch> */
	/* the ld.so.cache entries of its native libraries: (flags & 0xff00)
	 * is one of these (two spellings: hard/soft float, ...) */
	uint32_t ldcache[2];
	int args[6];            /* pt_regs offset of a kernel function's
				   arg1..arg6 (-1: on the stack) */
	int sys_args[6];        /* ... of a system call's, in the pt_regs
				   its wrapper gets */
	int ret;                /* ... of the return value */
	int sysnr_off, sysnr_size; /* the syscall number syscall_get_nr()
				      reads */
	enum bb_arch_compat compat;
	int compat_off;
	uint64_t compat_val;
	const struct bb_arch_reg *regs; /* names of USDT operands */
	int nregs;
};

extern const struct bb_arch bb_arch_x86_64, bb_arch_arm64, bb_arch_arm,
	bb_arch_riscv64;
/* Every architecture, NULL-terminated. */
extern const struct bb_arch *const bb_archs[];

const struct bb_arch *bb_arch_native(void);
/* The architecture of ELF machine m (EM_*), NULL if none of ours. */
const struct bb_arch *bb_arch_of_machine(int machine);
/* The register s[0, len) of a USDT operand; NULL if a has none so named. */
const struct bb_arch_reg *bb_arch_reg(const struct bb_arch *a, const char *s,
				      size_t len);
/* The prefixes of syscall functions on every kernel, in the order to try
 * them: each architecture's wrapper (and compat wrapper, with compat),
 * then "SyS_" and "sys_" of 4.x (with old). Returns how many went to pre
 * (at most max). */
int bb_arch_sys_prefixes(const char **pre, int max, int compat, int old);

#endif
