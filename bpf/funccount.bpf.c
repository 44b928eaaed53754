/* SPDX-License-Identifier: MIT */
/*
 * funccount: one program for every function (bare "kprobe" section,
 * attached at run time to each match), adding 1 to a running total keyed
 * by the address hit (funccount.h); one for every tracepoint, a filter.
 *
 * Constants: filter_tgid (0: all processes), ukey (count_uprobe's key).
 */
#include "bb_helpers.h"
#include "funccount.h"

BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64),
       FUNCCOUNT_MAX_KEYS);
BB_DROPS_MAP();

static __always_inline int wanted(void)
{
	u32 filter = BB_CONST(filter_tgid);

	return !filter || (u32)(bpf_get_current_pid_tgid() >> 32) == filter;
}

SEC("kprobe")
int count_kprobe(struct pt_regs *ctx)
{
	u64 ip = PT_REGS_IP(ctx);

	if (wanted())
		bb_hist_add(&counts, &ip, 1, &drops);
	return 0;
}

/*
 * A uprobe's address is the process's own (each maps a library where it
 * likes), so each function's copy of this program counts under its index
 * in the tool's list, a load-time constant.
 */
SEC("kprobe")
int count_uprobe(struct pt_regs *ctx)
{
	u64 key = BB_CONST(ukey);

	(void)ctx;
	if (wanted())
		bb_hist_add(&counts, &key, 1, &drops);
	return 0;
}

/*
 * Tracepoints are counted by perf itself (the tool reads each event's
 * count): a BPF program on a tracepoint cannot tell which one it is
 * attached to (its context begins with a pt_regs pointer, not the record's
 * common_type), but what it returns decides whether the hit reaches the
 * event's perf events at all, on every CPU. So this is the -p filter. The
 * section's target is a placeholder: each tracepoint is given at attach.
 */
SEC("tracepoint/funccount/any")
int count_tp(void *ctx)
{
	return wanted();
}

char _license[] SEC("license") = "GPL";
