/* SPDX-License-Identifier: MIT */
/*
 * runqlat: run-queue latency, as bcc's runqlat, on the scheduler's
 * tracepoints only (no kprobes, no BTF): a task's wait starts when it
 * leaves the CPU (sched_switch, as prev) and starts again when
 * sched_wakeup or sched_wakeup_new names it; it ends when sched_switch
 * names it as next. A task that left the CPU asleep is woken before it
 * runs again, so its wait is counted from the wakeup; a task preempted
 * while runnable is not, so its wait is counted from the switch out.
 * bcc tells the two apart by prev->state; the tracepoint's prev_state
 * cannot be trusted for that (4.15 says S for a busy loop preempted at
 * the tick), and it is not needed. Field offsets are load-time constants
 * tpoff_* from the format files.
 *
 * The tracepoints name the woken and the next task by thread id only, and
 * a task's process is known only while it runs (bpf_get_current_pid_tgid
 * at sched_switch is the task leaving). Where the process matters (-p,
 * -P, --pidnss: constant deferred), the latency measured at a task's
 * switch in waits in `pending` and is counted when that task leaves the
 * CPU again, as the current task; a slice still running at the last read
 * is not counted yet.
 *
 * Constants: tpoff_wakeup_pid, tpoff_wakeup_new_pid, tpoff_prev_pid,
 * tpoff_next_pid, tpoff_free_pid; filter_tgid (0: all), deferred, by
 * (RUNQLAT_BY_*), unit_div (1000: usecs, 1000000: msecs), keep_sum (add
 * each wait's ns to `sums`).
 */
#include "bb_helpers.h"
#include "runqlat.h"

/* every thread that left a CPU since we started, sleepers included: an
 * LRU map forgets the longest asleep when it is full (a plain hash before
 * 4.10, where it refuses new threads then, counted as drops); a thread's
 * entry goes when it is freed (sched_process_free) */
BB_MAP(start, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u64),
       RUNQLAT_STARTS);
/* 1 entry unless deferred (the loader sizes it then) */
BB_MAP(pending, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 1);
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct runqlat_key), sizeof(u64),
       RUNQLAT_KEYS);
/* keep_sum: every wait added up, ns (the exporter's histogram _sum) */
BB_MAP(sums, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 1);
BB_DROPS_MAP();

static __always_inline void enqueue(u32 pid, u64 ts)
{
	if (pid) /* the idle tasks, one per CPU, all pid 0 */
		bb_update(&start, &pid, &ts, BPF_ANY, &drops);
}

static __always_inline void count(u64 delta, u32 id)
{
	struct runqlat_key key = {};

	if (BB_CONST(keep_sum)) {
		u32 zero = 0;
		u64 *sum = bpf_map_lookup_elem(&sums, &zero);

		if (sum)
			__sync_fetch_and_add(sum, delta);
	}
	delta /= BB_CONST(unit_div);
	key.slot = bb_log2l(delta);
	if (key.slot >= RUNQLAT_SLOTS)
		key.slot = RUNQLAT_SLOTS - 1;
	key.id = id;
	bb_hist_add(&hist, &key, 1, &drops);
}

SEC("tracepoint/sched/sched_wakeup")
int on_wakeup(void *ctx)
{
	u32 pid = 0;

	BB_TP_READ(pid, ctx, tpoff_wakeup_pid);
	enqueue(pid, bpf_ktime_get_ns());
	return 0;
}

SEC("tracepoint/sched/sched_wakeup_new")
int on_wakeup_new(void *ctx)
{
	u32 pid = 0;

	BB_TP_READ(pid, ctx, tpoff_wakeup_new_pid);
	enqueue(pid, bpf_ktime_get_ns());
	return 0;
}

/* deferred: the latency of prev's slice that ends now, by its process */
static __always_inline void count_pending(u32 prev, u32 tgid, int want)
{
	u64 *p = bpf_map_lookup_elem(&pending, &prev), delta;
	u32 by = BB_CONST(by);

	if (!p)
		return;
	delta = *p;
	bpf_map_delete_elem(&pending, &prev);
	if (want)
		count(delta, by == RUNQLAT_BY_TID ? prev :
			     by == RUNQLAT_BY_TGID ? tgid : 0);
}

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u64 now = bpf_ktime_get_ns(), delta, *tsp;
	u32 tgid = bpf_get_current_pid_tgid() >> 32, prev = 0, next = 0;
	u32 filter = BB_CONST(filter_tgid);
	int want = !filter || tgid == filter;

	BB_TP_READ(prev, ctx, tpoff_prev_pid);
	if (BB_CONST(deferred))
		count_pending(prev, tgid, want);
	/* queued from now if still runnable; else its wakeup moves this */
	if (want)
		enqueue(prev, now);
	BB_TP_READ(next, ctx, tpoff_next_pid);
	if (!next)
		return 0;
	tsp = bpf_map_lookup_elem(&start, &next);
	if (!tsp)
		return 0; /* queued before we started */
	delta = now - *tsp;
	bpf_map_delete_elem(&start, &next);
	if ((s64)delta < 0)
		return 0;
	if (BB_CONST(deferred))
		bb_update(&pending, &next, &delta, BPF_ANY, &drops);
	else
		count(delta, BB_CONST(by) == RUNQLAT_BY_TID ? next : 0);
	return 0;
}

/* a thread's last switch out left an entry: gone with the thread */
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
