/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace: one perf event array record per call of a probed kernel function
 * or tracepoint, with the caller and, if asked, its kernel and user stacks.
 *
 * One kprobe program ("kprobe" section: no fixed target) is attached to
 * every function; the tool knows which one fired from regs->ip, which it
 * symbolizes with kallsyms. Tracepoints cannot tell themselves apart (see
 * trace.h), so each has its own program, trace_tp<slot>.
 *
 * Constants: filter_tgid (0: every process), kstack, ustack (0 or 1),
 * filter_dev (0: any; else only tasks whose last bio went to this disk,
 * see taskdev.h, whose tracepoint program the tool then attaches).
 */
#include "bb_helpers.h"
#include "taskdev.h"
#include "trace.h"

BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       TRACE_STACK_ENTRIES);
BB_MAP(stacks1, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       TRACE_STACK_ENTRIES);
BB_MAP(stack_gen, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_MAP(counters, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TRACE_NCOUNTERS);

/* a map pointer must be a constant: one call per map */
static __always_inline int stackid(void *ctx, u32 which, u64 flags)
{
	if (which)
		return bpf_get_stackid(ctx, &stacks1, flags);
	return bpf_get_stackid(ctx, &stacks, flags);
}

static __always_inline int emit(void *ctx, u64 ip, u64 entry_ret, u32 probe)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 filter = BB_CONST(filter_tgid);
	u32 fdev = BB_CONST(filter_dev);
	struct trace_event e;
	u32 key = TRACE_CNT_EMITTED;
	u64 *cnt;

	if (filter && (u32)(id >> 32) != filter)
		return 0;
	if (fdev && taskdev_get() != fdev)
		return 0;
	__builtin_memset(&e, 0, sizeof(e));
	e.ip = ip;
	e.entry_ret = entry_ret;
	e.tgid = id >> 32;
	e.tid = (u32)id;
	e.probe = probe;
	e.kstack = -1;
	e.ustack = -1;
	if (BB_CONST(kstack) || BB_CONST(ustack)) {
		u32 zero = 0, *gen = bpf_map_lookup_elem(&stack_gen, &zero);

		e.stack_map = gen ? *gen & 1 : 0;
	}
	if (BB_CONST(kstack))
		e.kstack = stackid(ctx, e.stack_map, 0);
	if (BB_CONST(ustack))
		e.ustack = stackid(ctx, e.stack_map, BPF_F_USER_STACK);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	/*
	 * Count what is sent: before 5.4 bpf_perf_event_output does not say
	 * when the ring was full, and PERF_RECORD_LOST only shows once a
	 * later record fits. emitted - received is the loss, whatever the
	 * kernel.
	 */
	cnt = bpf_map_lookup_elem(&counters, &key);
	if (cnt)
		*cnt += 1;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("kprobe")
int trace_kprobe(struct pt_regs *ctx)
{
	return emit(ctx, PT_REGS_IP(ctx), PT_REGS_ENTRY_RET(ctx),
		    TRACE_PROBE_KPROBE);
}

/*
 * The loader wants a tracepoint section to name its event; these are only
 * placeholders ("slot<n>"): the tool always attaches with a target of its own.
 */
#define TRACE_TP(n)                                                            \
	SEC("tracepoint/trace/slot" #n)                                        \
	int trace_tp##n(void *ctx)                                             \
	{                                                                      \
		return emit(ctx, 0, 0, n);                                        \
	}

TRACE_TP(0)
TRACE_TP(1)
TRACE_TP(2)
TRACE_TP(3)
TRACE_TP(4)
TRACE_TP(5)
TRACE_TP(6)
TRACE_TP(7)

char _license[] SEC("license") = "GPL";
