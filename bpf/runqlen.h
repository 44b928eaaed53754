/* SPDX-License-Identifier: MIT */
/* runqlen: what crosses between bpf/runqlen.bpf.c and the tool. */
#ifndef BAREBPF_RUNQLEN_H
#define BAREBPF_RUNQLEN_H

/* dist: samples by CPU (0 without -C) and run queue length (the tasks
 * waiting beside the one running), a u64 count each; a length of
 * RUNQLEN_SLOTS - 1 or more counts in the last slot */
#define RUNQLEN_SLOTS 256
struct runqlen_key {
	unsigned int cpu;
	unsigned int len;
};

/* route: where the program finds the CPU's struct rq (runqlen.bpf.c) */
#define RUNQLEN_TASK 0
#define RUNQLEN_PERCPU 1
#define RUNQLEN_TABLE 2

/* snaps (discover = 1): the first RUNQLEN_WINDOW bytes of the run queue
 * of each CPU as its latest sample saw them, and how many samples that
 * CPU took; where rq.nr_running is when no BTF says
 * (loader/progs/runqlen.c) */
#define RUNQLEN_WINDOW 128
struct runqlen_snap {
	unsigned long long seq;
	unsigned int words[RUNQLEN_WINDOW / 4];
};

#endif
