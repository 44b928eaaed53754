/* SPDX-License-Identifier: MIT */
/*
 * drsnoop: tasks stalled in direct reclaim, as bcc's drsnoop: from
 * vmscan:mm_vmscan_direct_reclaim_begin to _end on the same task, its
 * time and the pages it reclaimed (the end event's nr_reclaimed, an
 * unsigned long: read at the offset its format file gives, 4 bytes on
 * 32-bit kernels). The reclaim a task does to stay within its memory
 * cgroup's limit (try_to_free_mem_cgroup_pages) stalls it the same way
 * but fires vmscan:mm_vmscan_memcg_reclaim_begin/_end instead, which
 * bcc's drsnoop does not see: traced too, flagged DRSNOOP_F_MEMCG.
 *
 * Constants: tpoff_end_nr, tpoff_memcg_end_nr (offsets), filter_pid,
 * filter_tid (0: all), filter_uid (0xffffffff: all), free_addr (the
 * address of vm_zone_stat, whose first counter is NR_FREE_PAGES, as bcc
 * reads it with -v; 0: not read).
 */
#include "bb_helpers.h"
#include "drsnoop.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct drsnoop_start),
       10240);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       DRSNOOP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

static __always_inline int begin(void)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id, pid = id >> 32;
	u32 uid = bpf_get_current_uid_gid();
	u32 fpid = BB_CONST(filter_pid), ftid = BB_CONST(filter_tid);
	u32 fuid = BB_CONST(filter_uid);
	u64 addr = BB_CONST(free_addr);
	struct drsnoop_start st = {};

	if ((fpid && pid != fpid) || (ftid && tid != ftid) ||
	    (fuid != 0xffffffff && uid != fuid))
		return 0;
	st.ts = bpf_ktime_get_ns();
	bpf_get_current_comm(&st.comm, sizeof(st.comm));
	if (addr)
		st.free_pages = BB_KREAD_LONG(addr);
	if (bpf_map_update_elem(&start, &tid, &st, BPF_ANY) < 0)
		count(DRSNOOP_UNTRACKED);
	return 0;
}

static __always_inline int end(void *ctx, u64 nr, u32 flags)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id;
	struct drsnoop_start *st = bpf_map_lookup_elem(&start, &tid);
	struct drsnoop_event ev = {};

	if (!st)
		return 0; /* began before we started, or filtered out */
	ev.ts = bpf_ktime_get_ns();
	ev.delta = ev.ts - st->ts;
	ev.free_pages = st->free_pages;
	__builtin_memcpy(ev.comm, st->comm, sizeof(ev.comm));
	bpf_map_delete_elem(&start, &tid);
	ev.nr_reclaimed = nr;
	ev.pid = id >> 32;
	ev.tid = tid;
	ev.uid = bpf_get_current_uid_gid();
	ev.flags = flags;
	count(DRSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
	return 0;
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_begin")
int direct_begin(void *ctx)
{
	return begin();
}

SEC("tracepoint/vmscan/mm_vmscan_direct_reclaim_end")
int direct_end(void *ctx)
{
	return end(ctx, BB_TP_READ_ULONG(ctx, tpoff_end_nr), 0);
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_begin")
int memcg_begin(void *ctx)
{
	return begin();
}

SEC("tracepoint/vmscan/mm_vmscan_memcg_reclaim_end")
int memcg_end(void *ctx)
{
	return end(ctx, BB_TP_READ_ULONG(ctx, tpoff_memcg_end_nr),
		   DRSNOOP_F_MEMCG);
}

char _license[] SEC("license") = "GPL";
