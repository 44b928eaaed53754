/* SPDX-License-Identifier: MIT */
/* breakdown: what crosses between bpf/breakdown.bpf.c and the tool. */
#ifndef BAREBPF_BREAKDOWN_H
#define BAREBPF_BREAKDOWN_H

/*
 * Functions probed: MAIN (id 0) and up to BD_MAX_FUNCS - 1 children. A
 * function has at most one frame on a task's stack (a call of a function
 * already active only counts), so the stack never needs more than
 * BD_MAX_FUNCS frames: the bound of the nesting too.
 */
#define BD_MAX_FUNCS 8
#define BD_MIXED 0xff /* bd_child.parent: called from several functions */

struct bd_child {
	unsigned long long total; /* ns in its outermost calls */
	unsigned long long max;   /* longest single call, ns */
	unsigned int calls;       /* every call, nested ones too */
	unsigned int parent;      /* id of the probed function it was called
				   * in, BD_MIXED if several */
};

/*
 * tasks: one per thread inside MAIN, by thread id; sent whole as the
 * record of a slow MAIN call (perf event array `events`).
 */
struct bd_task {
	unsigned long long ts;      /* MAIN's return, bpf_ktime_get_ns() */
	unsigned long long dur;     /* MAIN's duration, ns */
	unsigned long long self;    /* MAIN minus its direct children, ns */
	unsigned long long sp;      /* stack pointer at MAIN's entry */
	unsigned long long entry_ret; /* PT_REGS_ENTRY_RET at MAIN's entry */
	unsigned long long start[BD_MAX_FUNCS];  /* frame: entry time */
	unsigned long long callee[BD_MAX_FUNCS]; /* frame: ns in children */
	struct bd_child c[BD_MAX_FUNCS]; /* by function id; c[0]: MAIN */
	unsigned char fid[BD_MAX_FUNCS]; /* frame: function id */
	unsigned char act[BD_MAX_FUNCS]; /* calls in flight, by id */
	unsigned char pos[BD_MAX_FUNCS]; /* its frame, by id (if act) */
	unsigned int depth;         /* frames */
	unsigned int drops;         /* frames dropped: returns missed */
	int stackid;                /* MAIN's kernel stack (-K), or < 0 */
	unsigned int pid, tid;
	char comm[16];
};

/* stats: a per-CPU array of counters */
#define BD_MAIN_CALLS 0  /* outermost MAIN calls that returned */
#define BD_SLOW 1        /* of them, at least the threshold */
#define BD_EMITTED 2     /* records handed to bpf_perf_event_output */
#define BD_DROPPED 3     /* frames dropped for a missed return */
#define BD_STALE 4       /* MAIN calls dropped: their return was missed */
#define BD_NO_ROOM 5     /* MAIN calls not timed: the task map was full */
#define BD_NSTATS 6

#endif
