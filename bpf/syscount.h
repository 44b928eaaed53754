/* SPDX-License-Identifier: MIT */
/* syscount: what crosses between bpf/syscount.bpf.c and the tool. */
#ifndef BAREBPF_SYSCOUNT_H
#define BAREBPF_SYSCOUNT_H

/*
 * data: a syscall number (or a process's tgid with -P) -> running totals,
 * added to with atomic adds and never cleared by the programs: the tool
 * prints what each gained since its last read. comm (-P): the name of
 * the task of the last call counted.
 */
struct syscount_val {
	unsigned long long count;
	unsigned long long total_ns;
	char comm[16];
};
#define SYSCOUNT_MAX_KEYS 10240
/* start (-L): a thread inside a system call -> its entry time; deleted at
 * the exit, so it holds the threads inside one at once (exit and
 * exit_group, which never return, are not put in) */
#define SYSCOUNT_MAX_THREADS 10240

/*
 * raw_syscalls:sys_enter and sys_exit, 4.9 to 7.x: after the 8-byte
 * common fields, `long id`, then sys_exit's `long ret`: read there
 * straight from ctx (load-time constant tp_direct) where the format files
 * say so, else at the offsets they give (tpoff_*).
 */
#if defined(__TARGET_ARCH_arm) || defined(__arm__)
#define SYSCOUNT_TP_LONG 4
#else
#define SYSCOUNT_TP_LONG 8
#endif
#define SYSCOUNT_TP_ID 8
#define SYSCOUNT_TP_RET (SYSCOUNT_TP_ID + SYSCOUNT_TP_LONG)

#endif
