/* SPDX-License-Identifier: MIT */
/*
 * softirqs: time (or runs) of each softirq vector, from irq:softirq_entry
 * and softirq_exit (4.9 on). Softirqs do not nest on a CPU: the entry's
 * time waits for its exit in the per-CPU `cur`.
 *
 * Constants: tpoff_exit_vec, tp_direct, mode
 * (SOFTIRQS_*), unit_div (-d's unit: 1 for ns, 1000 for us).
 */
#include "bb_helpers.h"
#include "softirqs.h"

BB_MAP(cur, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64), 1);
BB_MAP(dist, BPF_MAP_TYPE_HASH, sizeof(struct softirqs_key), sizeof(u64),
       SOFTIRQS_MAX_KEYS);
BB_DROPS_MAP();

SEC("tracepoint/irq/softirq_entry")
int softirq_entry(void *ctx)
{
	u32 zero = 0;
	u64 *ts = bpf_map_lookup_elem(&cur, &zero);

	(void)ctx;
	if (ts)
		*ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tracepoint/irq/softirq_exit")
int softirq_exit(void *ctx)
{
	u32 zero = 0;
	u64 *ts = bpf_map_lookup_elem(&cur, &zero);
	struct softirqs_key key = {};
	u64 mode = BB_CONST(mode), ns, n = 1;

	if (!ts || !*ts)
		return 0; /* entered before we attached */
	ns = bpf_ktime_get_ns() - *ts;
	*ts = 0;
	BB_TP_FIELD(key.vec, ctx, tp_direct, SOFTIRQS_TP_VEC, tpoff_exit_vec);
	if (mode == SOFTIRQS_TIME)
		n = ns; /* in ns: the tool divides the sum */
	else if (mode == SOFTIRQS_DIST)
		key.slot = bb_log2l(ns / BB_CONST(unit_div));
	bb_hist_add(&dist, &key, n, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
