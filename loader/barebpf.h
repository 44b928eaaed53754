/* SPDX-License-Identifier: MIT */
/*
 * barebpf loader library, its primitives: errors (err.c), raw system
 * calls and thin bpf() wrappers (sys.c), whole files (files.c), CPU lists
 * (cpus.c), numbers (num.c). Every folder of the library has a public
 * header of its own, named after it, that includes this one:
 *   kernel/kernel.h  kernel facts, tracefs, kernel symbols, stacks,
 *                    perf rings, disks
 *   user/user.h      user-space binaries: symbols, libraries, USDT
 *   obj/obj.h        BPF ELF objects, from bytes to loaded programs
 *   probe/probe.h    attaching programs (a session and its links)
 * (docs/ARCHITECTURE.md maps the rooms.) The library returns data and
 * errors, knows nothing of tools and includes nothing of loader/cli/,
 * loader/mods/ or loader/tools/ (the Makefile builds it without them on
 * the include path); the command line includes these headers and prints
 * (cli/output.h). A folder's *_internal.h is for its own files and the
 * tests.
 *
 * Conventions (for every function of the library):
 *  - A function that can fail returns a non-negative result or -errno.
 *    Nobody reads errno after the fact.
 *  - Where a failure needs words (which section, which symbol, what to do),
 *    the function takes a `struct bb_err *` (may be NULL) and writes one
 *    sentence into it. The library never prints; the command line does.
 */
#ifndef BAREBPF_H
#define BAREBPF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bpf_abi.h"

/* ---- little-endian loads (ELF, BTF, map sections, ld.so.cache) ---- */
/* The formats barebpf reads are little-endian on every architecture it
 * runs on; p need not be aligned. */
static inline uint16_t bb_le16(const unsigned char *p)
{
	return p[0] | (uint16_t)p[1] << 8;
}

static inline uint32_t bb_le32(const unsigned char *p)
{
	return bb_le16(p) | (uint32_t)bb_le16(p + 2) << 16;
}

static inline uint64_t bb_le64(const unsigned char *p)
{
	return bb_le32(p) | (uint64_t)bb_le32(p + 4) << 32;
}

/* CLOCK_MONOTONIC in seconds (sys.c) */
double bb_now_mono(void);

/* ---- errors (err.c) ---- */
struct bb_err {
	char msg[512];
};
/* Fill err (if not NULL) and return code, which must be negative. */
int bb_fail(struct bb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Why a user program or library could not be read (elfsyms, usdt):
 * -ENOEXEC not ELF, -EBADMSG damaged or cut short, else strerror. */
const char *bb_elf_strerror(int err);

/* ---- raw system calls (sys.c) ---- */
long sys_bpf(int cmd, void *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
int sys_ioctl(int fd, unsigned long req, unsigned long arg);
/* Returns the address, or a value in [-4095, -1] (check with bb_is_err). */
long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int sys_munmap(void *addr, size_t len);
int sys_prlimit64(int pid, int resource, const void *new_lim, void *old_lim);
int sys_mount(const char *src, const char *target, const char *fstype,
	      unsigned long flags, const void *data);
int sys_umount2(const char *target, int flags);
/* 0 once every program that ran on another CPU has ended, or -errno */
int bb_rcu_wait(void);
static inline int bb_is_err(long v) { return v < 0 && v >= -4095; }

/* ---- thin bpf() wrappers (sys.c) ---- */
int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		   uint32_t max_entries, uint32_t flags, const char *name);
int bpf_map_lookup_elem(int fd, const void *key, void *value);
int bpf_map_update_elem(int fd, const void *key, const void *value,
			uint64_t flags);
int bpf_map_delete_elem(int fd, const void *key);
int bpf_map_get_next_key(int fd, const void *key, void *next_key);
/* A map with the fields bpf_map_create lacks (map-in-map 4.12, NUMA 4.14). */
struct bb_map_attr {
	uint32_t type, key_size, value_size, max_entries, map_flags;
	int inner_fd;       /* -1 or 0: none */
	uint32_t numa_node; /* used with BPF_F_NUMA_NODE in map_flags */
};
int bpf_map_create_attr(const struct bb_map_attr *a, const char *name);
int bpf_obj_pin(int fd, const char *path);
int bpf_obj_get(const char *path);
int bpf_map_freeze(int fd); /* 5.2 */
/* The first len bytes of struct bpf_map_info (4.13) of a map fd. */
struct bb_map_info {
	uint32_t type, id, key_size, value_size, max_entries, map_flags;
};
int bpf_map_get_info(int fd, struct bb_map_info *info);
/*
 * Load a program. If the verifier refuses it and logp is not NULL, *logp
 * gets a malloc'ed copy of the verifier log: the buffer grows on ENOSPC up
 * to what the kernel accepts, and the largest log obtained is kept
 * (*truncated, if not NULL, says it did not fit whole). The error is that
 * of the first load, made without a log.
 */
int bpf_prog_load(uint32_t type, const struct bpf_insn *insns, uint32_t cnt,
		  const char *license, uint32_t kern_version, const char *name,
		  char **logp, int *truncated);
/*
 * Does this kernel give programs of prog_type helper number `helper`? It
 * loads helper(stack buffer, 8, 0): for helpers of that shape (the
 * probe_read family). 1 or 0; -errno if bpf() itself fails (EPERM).
 */
int bpf_helper_available(uint32_t prog_type, int32_t helper);
/*
 * Is a program of prog_type that calls helper(), a helper this kernel
 * has, refused when one that does not is taken? Where the JIT inlines
 * that helper (bpf_jit_inlines_helper_call: riscv64 7.x's
 * bpf_get_current_task and bpf_get_smp_processor_id) and is off
 * (bpf_jit_enable 0, as on Debian's riscv64), the verifier leaves the call
 * to it and refuses the program ("program requires BPF JIT compiler").
 * 1: refused so; 0: taken (or the type itself is refused).
 */
int bpf_helper_needs_jit(uint32_t prog_type, int32_t helper);
/* Do helpers take a map value as their memory (4.11; before, the stack
 * only)? 1 yes, 0 no, or -errno (the test map or program). */
int bpf_helper_map_value_mem(void);
/* Read a whole file (pseudo files too) into a malloc'ed NUL-terminated
 * buffer; returns its length (files.c, as bb_read_small). */
int bb_read_fd(int fd, char **buf);
int bb_read_file(const char *path, char **buf);
/* Read the first line of a small file (sysfs, procfs), without "\n". */
int bb_read_small(const char *path, char *buf, size_t len);
/* Sum over CPUs of a u64 in a per-CPU array at key into *sum: 0 or
 * -errno (then *sum is 0 and means nothing). */
int bpf_map_sum_percpu_u64(int fd, uint32_t key, uint64_t *sum);
/* For keys 0..n-1 of such a map of totals that only grow: d[k] what key k
 * gained since prev[k], which becomes its sum (d[k] 0 for a key not read). */
void bpf_map_percpu_deltas(int fd, uint32_t n, uint64_t *prev, uint64_t *d);
/* The u64 at byte off (a multiple of 8, below 256) of the program's
 * bpf_prog_info; -EOPNOTSUPP where this kernel's info is shorter. */
int bpf_prog_info_u64(int prog_fd, uint32_t off, uint64_t *v);
/* How often the kernel skipped the program because another BPF program
 * was running on that CPU (6.7+): 0, or -EOPNOTSUPP on older kernels. */
int bpf_prog_recursion_misses(int prog_fd, uint64_t *misses);
/*
 * Attach a BPF_PROG_TYPE_RAW_TRACEPOINT program to the kernel tracepoint
 * `name` (4.17; the tracepoint's own name, without its tracefs category:
 * "sched_switch"): the returned fd holds it, closing it detaches. -ENOENT
 * if no tracepoint has that name (the syscalls/ events are not
 * tracepoints), -EINVAL before 4.17.
 */
int bpf_raw_tp_open(const char *name, int prog_fd);
/* Number of possible CPUs (per-CPU map values come in this many slots;
 * cpus.c, as bb_parse_cpu_list). */
int bb_ncpus_possible(void);
/*
 * Parse a CPU list like "0-3,5" and return how many CPUs (highest+1);
 * -ERANGE for a CPU number of BB_MAX_CPUS or more: the largest NR_CPUS a
 * kernel can be built with is 8192 (x86_64 with MAXSMP; arm64: 4096).
 */
#define BB_MAX_CPUS 8192
int bb_parse_cpu_list(const char *s);
/* Raise RLIMIT_MEMLOCK to infinity (maps are charged to it before 5.11);
 * 0 also where it cannot be raised but the kernel does not charge to it. */
int bb_raise_memlock(struct bb_err *err);
/* 1 if BPF memory is charged to the memory cgroup, not to RLIMIT_MEMLOCK
 * (5.11+, as the kernel answers a probe), else 0. */
int bb_memcg_charged(void);
/* Raise RLIMIT_NOFILE as far as allowed (fs.nr_open as root, else the hard
 * limit): every probe holds a file descriptor. Returns the new soft limit. */
long bb_raise_nofile(void);

/* ---- numbers (num.c) ---- */
/*
 * The decimal number "[+-]digits[.digits][(e|E)[+-]digits]" at the start of
 * s (at least one digit; no space, hex, inf or nan): its value in *v and
 * where it ends in *end. Returns 1 if *v is the correctly rounded value
 * (up to 15 significant digits and an exponent within 10^+-22, where one
 * exact operation gives it), 0 if it may be off (relative error under
 * 1e-14 in the normal range), -EINVAL if s does not start with a number.
 */
int bb_parse_double(const char *s, const char **end, double *v);

#endif
