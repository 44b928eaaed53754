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
			     * not asked; with --build-id ustack is an id
			     * in `ustacks`, of struct bb_stack_build_id
			     * frames */
	char comm[16];
};

/*
 * A frame of a build-id stack map (BPF_F_STACK_BUILD_ID, 4.17; the
 * kernel's struct bpf_stack_build_id): where the kernel could read the
 * build id of the file mapped there (VALID), the build id (20 bytes,
 * zero-padded if shorter) and the file offset; else (IP: no file, or its
 * first page not in memory, or mmap_lock not to be had where the sample
 * was taken) the address. EMPTY ends the stack.
 */
#define BB_STACK_BUILD_ID_EMPTY 0
#define BB_STACK_BUILD_ID_VALID 1
#define BB_STACK_BUILD_ID_IP 2
#define BB_STACK_BUILD_ID_SIZE 20
struct bb_stack_build_id {
	int status;
	unsigned char build_id[BB_STACK_BUILD_ID_SIZE];
	union {
		unsigned long long offset;
		unsigned long long ip;
	};
};

#endif
