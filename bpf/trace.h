/* SPDX-License-Identifier: MIT */
/* trace: what crosses between bpf/trace.bpf.c and the tool. */
#ifndef BAREBPF_TRACE_H
#define BAREBPF_TRACE_H

/*
 * Tracepoint programs trace_tp0 .. trace_tp<N-1>: identical but for the
 * slot they report. 4.15 hides a tracepoint record's common fields from
 * BPF (the first 8 bytes hold the pt_regs pointer there), so a program
 * cannot tell which event fired: each tracepoint probe gets its own copy.
 */
#define TRACE_TP_SLOTS 8
/* probe value of a kprobe event: the function comes from ip */
#define TRACE_PROBE_KPROBE 0xffffffffu

/*
 * Two stack maps, used in turn (the one in stack_gen): a stack map only
 * fills, and then new stacks collide (EEXIST) for the rest of the run. The
 * tool switches maps when the current one fills up, and empties a map
 * before it comes back, by when the events that name its stacks are read.
 */
#define TRACE_STACK_ENTRIES 4096
#define TRACE_COMM_LEN 16

/* Counters (per-CPU array): events handed to bpf_perf_event_output. */
#define TRACE_CNT_EMITTED 0
#define TRACE_NCOUNTERS 1

/* One call. No implicit padding: the record leaves the kernel whole. */
struct trace_event {
	unsigned long long ip;    /* kprobe: regs->ip (function+1 on x86) */
	unsigned int tgid;
	unsigned int tid;
	int kstack;               /* stack id, -errno, or -1 if not asked */
	int ustack;
	unsigned int probe;       /* tracepoint slot, or TRACE_PROBE_KPROBE */
	unsigned int stack_map;   /* the stack ids are of stacks (0), stacks1 */
	char comm[TRACE_COMM_LEN];
	unsigned long long entry_ret; /* kprobe: PT_REGS_ENTRY_RET */
};

#endif
