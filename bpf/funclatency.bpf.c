/* SPDX-License-Identifier: MIT */
/*
 * funclatency: time from entry to return of kernel functions, attached at
 * run time to every function the pattern matched (bare "kprobe" and
 * "kretprobe" sections: no fixed target).
 *
 * Constants: filter_tgid (0: all processes), unit_div (1: nsecs,
 * 1000: usecs, 1000000: msecs).
 */
#include "bb_helpers.h"
#include "funclatency.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64), 10240);
BB_MAP(stats, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), FUNCLAT_NSTATS);
BB_DROPS_MAP();

SEC("kprobe")
int func_entry(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 filter = BB_CONST(filter_tgid);
	u64 ts;

	if (filter && (u32)(id >> 32) != filter)
		return 0;
	ts = bpf_ktime_get_ns();
	bb_update(&start, &id, &ts, BPF_ANY, &drops);
	return 0;
}

SEC("kretprobe")
int func_return(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid();
	u64 *tsp, *v, delta;
	u32 key;

	tsp = bpf_map_lookup_elem(&start, &id);
	if (!tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &id);
	if ((s64)delta < 0)
		return 0;
	delta /= BB_CONST(unit_div);
	key = bb_log2l(delta);
	if (key >= FUNCLAT_SLOTS)
		key = FUNCLAT_SLOTS - 1;
	v = bpf_map_lookup_elem(&stats, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	key = FUNCLAT_TOTAL;
	v = bpf_map_lookup_elem(&stats, &key);
	if (v)
		__sync_fetch_and_add(v, delta);
	key = FUNCLAT_COUNT;
	v = bpf_map_lookup_elem(&stats, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
