/* SPDX-License-Identifier: MIT */
/*
 * cpudist: the time a task spends on a CPU per scheduling slice (or, with
 * offcpu, off it between two slices), as bcc's cpudist, from
 * sched:sched_switch alone: a slice starts when the task is switched in
 * (next) and ends when it is switched out (prev), when it is the current
 * task, so that its process is known there. Off CPU, the time from the
 * switch out to the switch in ends where the task is named only by its
 * thread id: by process (-p, -P: constant deferred) it waits in `pending`
 * until the task leaves the CPU again, as runqlat does. The idle tasks
 * (pid 0) are left out.
 *
 * Constants: tpoff_prev_pid, tpoff_next_pid, tpoff_free_pid; offcpu,
 * filter_tgid (0: all), deferred, by (RUNQLAT_BY_*), unit_div.
 */
#include "bb_helpers.h"
#include "cpudist.h"

/* on CPU: the running threads, one per CPU; off CPU: every thread that
 * left a CPU (an LRU map: the longest away are forgotten first) */
BB_MAP(start, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u64),
       CPUDIST_STARTS);
/* 1 entry unless deferred (the loader sizes it then) */
BB_MAP(pending, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 1);
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct runqlat_key), sizeof(u64),
       RUNQLAT_KEYS);
BB_DROPS_MAP();

static __always_inline void count(u64 delta, u32 tid, u32 tgid)
{
	struct runqlat_key key = {};
	u32 by = BB_CONST(by);

	delta /= BB_CONST(unit_div);
	key.slot = bb_log2l(delta);
	if (key.slot >= RUNQLAT_SLOTS)
		key.slot = RUNQLAT_SLOTS - 1;
	key.id = by == RUNQLAT_BY_TID ? tid : by == RUNQLAT_BY_TGID ? tgid : 0;
	bb_hist_add(&hist, &key, 1, &drops);
}

/* The time since start[pid], removed; 0 without one. */
static __always_inline u64 since(u32 pid, u64 now)
{
	u64 *tsp = bpf_map_lookup_elem(&start, &pid), delta;

	if (!tsp)
		return 0;
	delta = now - *tsp;
	bpf_map_delete_elem(&start, &pid);
	return (s64)delta < 0 ? 0 : delta + 1;
}

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u64 now = bpf_ktime_get_ns(), d, *p;
	u32 tgid = bpf_get_current_pid_tgid() >> 32, prev = 0, next = 0;
	u32 filter = BB_CONST(filter_tgid);
	int want = !filter || tgid == filter;

	BB_TP_READ(prev, ctx, tpoff_prev_pid);
	BB_TP_READ(next, ctx, tpoff_next_pid);
	if (BB_CONST(deferred) && prev) {
		p = bpf_map_lookup_elem(&pending, &prev);
		if (p) {
			d = *p;
			bpf_map_delete_elem(&pending, &prev);
			if (want)
				count(d, prev, tgid);
		}
	}
	if (BB_CONST(offcpu)) {
		if (prev && want)
			bb_update(&start, &prev, &now, BPF_ANY, &drops);
		d = next ? since(next, now) : 0;
		if (!d)
			return 0;
		if (BB_CONST(deferred))
			bb_update(&pending, &next, &d, BPF_ANY, &drops);
		else
			count(d - 1, next, 0);
		return 0;
	}
	/* on CPU: prev's slice ends, next's starts */
	d = prev ? since(prev, now) : 0;
	if (d && want)
		count(d - 1, prev, tgid);
	if (next)
		bb_update(&start, &next, &now, BPF_ANY, &drops);
	return 0;
}

/* a thread's last switch out (off CPU) left an entry: gone with it */
SEC("tracepoint/sched/sched_process_free")
int on_free(void *ctx)
{
	u32 pid = 0;

	BB_TP_READ(pid, ctx, tpoff_free_pid);
	bpf_map_delete_elem(&start, &pid);
	if (BB_CONST(deferred))
		bpf_map_delete_elem(&pending, &pid);
	return 0;
}

char _license[] SEC("license") = "GPL";
