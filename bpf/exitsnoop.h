/* SPDX-License-Identifier: MIT */
/* exitsnoop: what crosses between bpf/exitsnoop.bpf.c and the tool. */
#ifndef BAREBPF_EXITSNOOP_H
#define BAREBPF_EXITSNOOP_H

/* the perf event array record: one task's exit */
struct exitsnoop_event {
	unsigned long long start;  /* task_struct.start_time (monotonic ns); 0: unknown */
	unsigned long long exit;   /* bpf_ktime_get_ns() at the exit */
	unsigned int pid, tid;     /* tgid and thread id */
	unsigned int ppid;         /* real_parent->tgid */
	int exit_code;             /* task_struct.exit_code: code << 8 | sig */
	char comm[16];
};

/* stats: a per-CPU array */
#define EXITSNOOP_EMITTED 0 /* records handed to bpf_perf_event_output */
#define EXITSNOOP_NSTATS 1

/*
 * The discovery (loader/mods/exitsnoop_disc.c), for kernels without BTF:
 * the program tp_disc copies the first EXITSNOOP_WINDOW bytes of each
 * exiting task whose name starts with the 8 bytes disc_comm, in chunks of
 * EXITSNOOP_CHUNK (4.9's helpers write the stack only, 512 bytes of it),
 * into `chunks`, and says who it was in `who`.
 */
#define EXITSNOOP_CHUNK 256
#define EXITSNOOP_NCHUNKS 16
#define EXITSNOOP_WINDOW (EXITSNOOP_CHUNK * EXITSNOOP_NCHUNKS)
#define EXITSNOOP_DISC_TASKS 16
struct exitsnoop_chunk_key {
	unsigned int tid, chunk;
};
struct exitsnoop_who {
	unsigned long long task;   /* its task_struct */
	unsigned long long exit;   /* bpf_ktime_get_ns() at the exit */
	unsigned int pid, tid;
};

#endif
