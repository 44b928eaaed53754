/* SPDX-License-Identifier: MIT */
/* execsnoop: what crosses between bpf/execsnoop.bpf.c and the tool. */
#ifndef BAREBPF_EXECSNOOP_H
#define BAREBPF_EXECSNOOP_H

#define EXECSNOOP_MAXARGS 20  /* --max-args at most */
#define EXECSNOOP_ARGSIZE 128 /* bytes kept of each argument, NUL included */

#define EXECSNOOP_F_PPID 1      /* ppid from a fork seen while tracing */
#define EXECSNOOP_F_TRUNCATED 2 /* more arguments than --max-args */
#define EXECSNOOP_SLOTS 512     /* execs in progress at once, by tid */

/*
 * One exec, from its entry (pid, uid, arguments) to its return (ret, the
 * comm after it). Sent up to args[nargs]: the rest is not copied.
 * args[0] is the file name the exec was given, then argv[1...].
 */
struct execsnoop_event {
	unsigned long long ts; /* return, bpf_ktime_get_ns() */
	unsigned int pid;      /* thread group id */
	unsigned int ppid;     /* with EXECSNOOP_F_PPID, else 0 */
	unsigned int uid;
	int ret;
	unsigned int nargs;    /* args read (the reader's next index) */
	unsigned int flags;    /* EXECSNOOP_F_* */
	unsigned int tid;      /* the slot's owner while in progress, or 0 */
	unsigned int pad;
	unsigned long long argv; /* user pointer, while reading */
	char comm[16];
	char args[EXECSNOOP_MAXARGS][EXECSNOOP_ARGSIZE];
};
#define EXECSNOOP_HDR ((unsigned long)&((struct execsnoop_event *)0)->args)

/*
 * Where helpers send from the stack only (before 4.10), an event goes up
 * in chunks: EXECSNOOP_CHUNK bytes of it each, idx 0, 1, ... up to size
 * bytes of the event, one after the other from one CPU.
 */
#define EXECSNOOP_CHUNK 256
struct execsnoop_chunk {
	unsigned int tid;
	unsigned int idx;
	unsigned int size;  /* of the whole event */
	unsigned int pad;
	unsigned long long data[EXECSNOOP_CHUNK / 8];
};

/* stats: a per-CPU array */
#define EXECSNOOP_EMITTED 0   /* records handed to bpf_perf_event_output */
#define EXECSNOOP_UNTRACKED 1 /* execs whose slot another exec took */
#define EXECSNOOP_NSTATS 2

#endif
