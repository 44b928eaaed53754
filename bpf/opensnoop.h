/* SPDX-License-Identifier: MIT */
/* opensnoop: what crosses between bpf/opensnoop.bpf.c and the tool. */
#ifndef BAREBPF_OPENSNOOP_H
#define BAREBPF_OPENSNOOP_H

#define OPENSNOOP_NAME 256 /* bytes kept of the path, NUL included */

/* starts: an open in progress, by thread */
struct opensnoop_inflight {
	unsigned long long fname; /* user pointer */
	unsigned long long flags;
};

/* the perf event array record: one open, at its return */
struct opensnoop_event {
	unsigned long long ts;    /* return, bpf_ktime_get_ns() */
	unsigned long long flags; /* as given to open */
	unsigned int pid, tid, uid;
	int ret;                  /* fd, or -errno */
	char comm[16];
	char fname[OPENSNOOP_NAME];
};

/* stats: a per-CPU array */
#define OPENSNOOP_EMITTED 0   /* records handed to bpf_perf_event_output */
#define OPENSNOOP_UNTRACKED 1 /* opens not tracked: starts was full */
#define OPENSNOOP_NSTATS 2

#endif
