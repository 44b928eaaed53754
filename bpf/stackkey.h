/* SPDX-License-Identifier: MIT */
/*
 * The key of profile's and offcputime's counts (bcc's key_t of both): a
 * thread, its process, its command and its two stacks, mapped to a count
 * (samples, or microseconds off CPU). loader/cli/stackcount.c prints them.
 */
#ifndef BAREBPF_STACKKEY_H
#define BAREBPF_STACKKEY_H

struct stack_key {
	unsigned int pid;   /* the thread */
	unsigned int tgid;  /* its process: the one whose binaries name the
			     * user stack */
	int kstack, ustack; /* ids in the stack map, -errno from BPF, or -1
			     * not asked */
	char comm[16];
};

#endif
