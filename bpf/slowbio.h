/* SPDX-License-Identifier: MIT */
/* slowbio: what crosses between bpf/slowbio.bpf.c and the tool. */
#ifndef BAREBPF_SLOWBIO_H
#define BAREBPF_SLOWBIO_H

/* calls: the outermost call a task is in, by thread id */
struct slowbio_call {
	unsigned long long ts;    /* entry, bpf_ktime_get_ns() */
	unsigned long long sp;    /* stack pointer at entry */
	unsigned int depth;       /* 1 + nested calls in flight */
	unsigned int pad;
};

/* the perf event array record: one call slower than the threshold */
struct slowbio_event {
	unsigned long long ts;    /* return, bpf_ktime_get_ns() */
	unsigned long long lat;   /* entry -> return, ns */
	unsigned int pid;         /* thread group id, as the article's tool */
	unsigned int tid;
	unsigned int dev;         /* last disk the task queued a bio to; 0 */
	unsigned int pad;
	char comm[16];
};

/* stats: a per-CPU array */
#define SLOWBIO_EMITTED 0 /* records handed to bpf_perf_event_output */
#define SLOWBIO_NSTATS 1

#endif
