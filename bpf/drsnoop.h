/* SPDX-License-Identifier: MIT */
/* drsnoop: what crosses between bpf/drsnoop.bpf.c and the tool. */
#ifndef BAREBPF_DRSNOOP_H
#define BAREBPF_DRSNOOP_H

/* start: one task in reclaim, by thread id */
struct drsnoop_start {
	unsigned long long ts;
	unsigned long long free_pages; /* at the start (-e), else 0 */
	char comm[16];
};

/* the perf event array record: one reclaim, when it ended */
#define DRSNOOP_F_MEMCG 1 /* a memory cgroup's limit, not the system's */
struct drsnoop_event {
	unsigned long long ts;       /* the end, bpf_ktime_get_ns() */
	unsigned long long delta;    /* ns in reclaim */
	unsigned long long nr_reclaimed;
	unsigned long long free_pages;
	unsigned int pid, tid, uid, flags;
	char comm[16];
};

/* stats: a per-CPU array */
#define DRSNOOP_EMITTED 0   /* records handed to bpf_perf_event_output */
#define DRSNOOP_UNTRACKED 1 /* begins not tracked: the start map was full */
#define DRSNOOP_NSTATS 2

#endif
