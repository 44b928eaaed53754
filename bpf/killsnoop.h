/* SPDX-License-Identifier: MIT */
/* killsnoop: what crosses between bpf/killsnoop.bpf.c and the tool. */
#ifndef BAREBPF_KILLSNOOP_H
#define BAREBPF_KILLSNOOP_H

/* starts: a kill() in progress, by thread */
struct killsnoop_start {
	int tpid, sig;
};

/* the perf event array record: one kill(), at its return */
struct killsnoop_event {
	unsigned long long ts;  /* return, bpf_ktime_get_ns() */
	unsigned int pid, tid;  /* the sender */
	int tpid, sig;          /* kill()'s arguments */
	int ret;                /* 0, or -errno */
	unsigned int pad;
	char comm[16];
};

/* stats: a per-CPU array */
#define KILLSNOOP_EMITTED 0   /* records handed to bpf_perf_event_output */
#define KILLSNOOP_UNTRACKED 1 /* kills not tracked: starts was full */
#define KILLSNOOP_NSTATS 2

#endif
