/* SPDX-License-Identifier: MIT */
/*
 * qenter: the time bio submitters spend entering a queue, i.e. waiting
 * while it is frozen (or pm-only, or dying): blk_queue_enter() to its
 * return. Every bio enters through blk_queue_enter() before 5.15
 * (generic_make_request in 4.15, the inline bio_queue_enter in 5.x); from
 * 5.15 the inline bio_queue_enter() takes a fast path that cannot be
 * probed and only calls __bio_queue_enter() when it has to wait, while
 * blk_queue_enter() is left to requests without a bio (passthrough).
 *
 * The disk (-D, -d): block_bio_queue fired on this task just before (see
 * taskdev.h). It is taken, not just read, so that an entry without a bio
 * (a passthrough request after a bio) counts as unknown, not as the disk
 * of that earlier bio. Where blk_queue_enter() does not serve bios
 * (blk_is_bio 0: 5.15+), it never asks.
 *
 * Constants: filter_dev (0: all), per_disk, need_dev (per_disk or
 * filter_dev), blk_is_bio, unit_div (1000: usecs, 1000000: msecs),
 * keep_sum (the exporter: add each wait to `sums`).
 */
#include "bb_helpers.h"
#include "qenter.h"
#include "taskdev.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct qenter_start),
       10240);
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct qenter_key), sizeof(u64), 4096);
BB_DROPS_MAP();
BB_MAP(sums, BPF_MAP_TYPE_HASH, sizeof(struct qenter_key), sizeof(u64), 1024);

static __always_inline u32 take_taskdev(void)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u32 *d = bpf_map_lookup_elem(&task_dev, &tid);
	u32 dev = 0;

	if (d) {
		dev = *d;
		bpf_map_delete_elem(&task_dev, &tid);
	}
	return dev;
}

static __always_inline int entered(u32 dev)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u32 filter = BB_CONST(filter_dev);
	struct qenter_start s = {};

	if (filter && dev != filter)
		return 0;
	s.ts = bpf_ktime_get_ns();
	if (BB_CONST(per_disk))
		s.dev = dev;
	/* nested entries (a wrapper we also probe): the outer one counts */
	bb_update(&start, &tid, &s, BPF_NOEXIST, &drops);
	return 0;
}

SEC("kprobe/blk_queue_enter")
int qenter_blk(struct pt_regs *ctx)
{
	u32 dev = 0;

	if (BB_CONST(need_dev) && BB_CONST(blk_is_bio))
		dev = take_taskdev();
	return entered(dev);
}

SEC("kprobe/__bio_queue_enter")
int qenter_bio(struct pt_regs *ctx)
{
	u32 dev = 0;

	if (BB_CONST(need_dev))
		dev = take_taskdev();
	return entered(dev);
}

SEC("kretprobe/blk_queue_enter")
int qenter_ret(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct qenter_start *s = bpf_map_lookup_elem(&start, &tid);
	struct qenter_key key = {};
	u64 delta;

	if (!s)
		return 0;
	delta = bpf_ktime_get_ns() - s->ts;
	key.dev = s->dev;
	bpf_map_delete_elem(&start, &tid);
	if ((s64)delta < 0)
		return 0;
	if (BB_CONST(keep_sum))
		bb_hist_add(&sums, &key, delta, &drops);
	delta /= BB_CONST(unit_div);
	key.slot = bb_log2l(delta);
	if (key.slot >= QENTER_SLOTS)
		key.slot = QENTER_SLOTS - 1;
	bb_hist_add(&hist, &key, 1, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
