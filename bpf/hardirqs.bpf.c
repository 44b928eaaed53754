/* SPDX-License-Identifier: MIT */
/*
 * hardirqs: time (or calls) of each hard interrupt handler, by its name,
 * from irq:irq_handler_entry and irq_handler_exit: tracepoints every
 * kernel from 4.9 has, so no kprobe is needed (bcc's first hardirqs used
 * kprobes on handle_irq_event_percpu). A handler runs with interrupts
 * off (2.6.35 on): per CPU, the entry's time and name wait for its exit
 * in `cur`. As bcc, a handler that returns IRQ_NONE (not its device's:
 * a shared line, or a spurious interrupt) is not counted; with -C it is
 * counted apart (key.none), for the tool to say.
 *
 * Constants: tpoff_entry_name, tpoff_exit_ret, tp_direct, mode
 * (HARDIRQS_*), unit_div (-d's unit: 1 for ns, 1000 for us).
 */
#include "bb_helpers.h"
#include "hardirqs.h"

struct cur {
	u64 ts;
	char name[HARDIRQS_NAME];
};

BB_MAP(cur, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(struct cur), 1);
BB_MAP(dist, BPF_MAP_TYPE_HASH, sizeof(struct hardirqs_key), sizeof(u64),
       HARDIRQS_MAX_KEYS);
BB_DROPS_MAP();

SEC("tracepoint/irq/irq_handler_entry")
int irq_entry(void *ctx)
{
	u32 zero = 0, loc, len, i;
	struct cur *c = bpf_map_lookup_elem(&cur, &zero);
	char name[HARDIRQS_NAME];

	if (!c)
		return 0;
	BB_TP_FIELD(loc, ctx, tp_direct, HARDIRQS_TP_NAME, tpoff_entry_name);
	/* fixed size (4.9's probe_read takes only that), then cut at the
	 * string's own length: what follows it in the record is not ours */
	if (bpf_probe_read(name, sizeof(name), (char *)ctx + (loc & 0xffff)))
		return 0;
	len = loc >> 16;
#pragma unroll
	for (i = 0; i < HARDIRQS_NAME; i++)
		if (i + 1 >= len)
			name[i] = 0;
	__builtin_memcpy(c->name, name, sizeof(name));
	c->ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tracepoint/irq/irq_handler_exit")
int irq_exit(void *ctx)
{
	u32 zero = 0;
	struct cur *c = bpf_map_lookup_elem(&cur, &zero);
	struct hardirqs_key key = {};
	u64 mode = BB_CONST(mode), ns, n = 1;
	int ret;

	if (!c || !c->ts)
		return 0; /* entered before we attached */
	ns = bpf_ktime_get_ns() - c->ts;
	c->ts = 0;
	BB_TP_FIELD(ret, ctx, tp_direct, HARDIRQS_TP_RET, tpoff_exit_ret);
	__builtin_memcpy(key.name, c->name, sizeof(key.name));
	if (ret == 0) { /* IRQ_NONE: only counted apart, with -C */
		if (mode == HARDIRQS_COUNT) {
			key.none = 1;
			bb_hist_add(&dist, &key, 1, &drops);
		}
		return 0;
	}
	if (mode == HARDIRQS_TIME)
		n = ns; /* in ns: the tool divides the sum */
	else if (mode == HARDIRQS_DIST)
		key.slot = bb_log2l(ns / BB_CONST(unit_div));
	bb_hist_add(&dist, &key, n, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
