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
 * (a passthrough request after a bio) does not take the disk of that
 * earlier bio. An enter that finds none takes the disk its queue had at
 * an earlier enter (`qdev`: a queue belongs to one disk): the remainder
 * of a split bio enters again without a block_bio_queue of its own
 * (blk_queue_split resubmits the same bio, flagged BIO_TRACE_COMPLETION
 * once traced: 5.x), and so does a passthrough request. A queue learns
 * its disk only from an enter that took the one disk queued since the
 * task's last enter: a stacked device's clones to several disks fire
 * their block_bio_queue one after the other, before the first enters
 * (current->bio_list), and the last disk is not the others' (QENTER_MIXED);
 * such an enter, too, takes its queue's disk where it has one. Where
 * blk_queue_enter() does not serve bios (blk_is_bio 0: 5.15+), it never
 * asks (its passthrough requests count as '?').
 *
 * Some kernels enter before block_bio_queue: 4.18 to 5.1 call
 * blk_queue_enter() at the top of generic_make_request(), before
 * generic_make_request_checks() fires the tracepoint (the order of 4.15
 * and 5.2+ came back with the revert of 37f9579f4c31). There the task's
 * last block_bio_queue is its previous bio's. So the tool also probes
 * generic_make_request's entry (qenter_submit, where that function is)
 * and the kernel answers, bio by bio, which comes first (see `pend`):
 * an enter before the bio's block_bio_queue takes the disk of the bio
 * generic_make_request was given. The bios a stacked device queues
 * (current->bio_list) each enter at the top of their own nested call,
 * before their tracepoint, and again, when their queue differs from the
 * previous bio's, in the outer call's loop, with no generic_make_request
 * entry of their own just before: that enter takes the disk its queue
 * had at the top of the nested call (`qdev`), once the kernel has shown
 * it enters first (`enter_first`); so does a passthrough request's enter
 * there, into a queue bios entered before.
 *
 * Constants: filter_dev (0: all), per_disk, need_dev (per_disk or
 * filter_dev), blk_is_bio, unit_div (1000: usecs, 1000000: msecs),
 * keep_sum (the exporter: add each wait to `sums`),
 * tpoff_bio_queue_dev (taskdev.h).
 */
#include "bb_helpers.h"
#include "qenter.h"
#include "taskdev.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct qenter_inflight),
       10240);
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct qenter_key), sizeof(u64), 4096);
BB_DROPS_MAP();
BB_MAP(sums, BPF_MAP_TYPE_HASH, sizeof(struct qenter_key), sizeof(u64), 1024);
/* by thread id: the disk of the bio generic_make_request() was given, from
 * its entry to that bio's block_bio_queue (LRU: a bio that fails its
 * checks never fires the tracepoint) */
BB_MAP(pend, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(struct qenter_pend),
       16384);
/* by request_queue address: its disk, as an enter took it from the one
 * disk the task queued before it, or (before the tracepoint) from
 * generic_make_request's bio */
BB_MAP(qdev, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u32), 1024);
/* [0]: 1 once a bio entered before its block_bio_queue, on its own disk */
BB_MAP(enter_first, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u32), 1);

/* In task_dev's values here, beside a dev_t (block majors are below 512,
 * BLKDEV_MAJOR_MAX): a block_bio_queue of another disk replaced the one an
 * enter had not taken yet. */
#define QENTER_MIXED (1u << 31)

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
	struct qenter_inflight s = {};

	if (filter && dev != filter)
		return 0;
	s.ts = bpf_ktime_get_ns();
	if (BB_CONST(per_disk))
		s.dev = dev;
	/* nested entries (a wrapper we also probe): the outer one counts */
	bb_update(&start, &tid, &s, BPF_NOEXIST, &drops);
	return 0;
}

/*
 * The disk of an enter into queue q that took dev (0: none) from the
 * task's block_bio_queue: dev, where it is the one disk queued since the
 * task's last enter (q learns it); else the disk q had at such an enter
 * before, else the last disk queued (or 0).
 */
static __always_inline u32 queue_dev(u64 q, u32 dev)
{
	u32 *d = q ? bpf_map_lookup_elem(&qdev, &q) : (u32 *)0;

	if (dev && !(dev & QENTER_MIXED)) {
		/* a lookup costs less than an update: every bio comes here */
		if (q && (!d || *d != dev))
			bpf_map_update_elem(&qdev, &q, &dev, BPF_ANY);
		return dev;
	}
	return d ? *d : dev & ~QENTER_MIXED;
}

/*
 * The disk of a blk_queue_enter(q) that serves bios. An enter between
 * generic_make_request's entry and its bio's block_bio_queue is that bio's
 * (the kernel enters first); any other takes the task's last
 * block_bio_queue (taskdev.h, queue_dev), or, where the kernel enters
 * first, the disk of q seen at such an enter before (the loop's enters of
 * bios a stacked device queued).
 */
static __always_inline u32 enter_dev(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid(), zero = 0, dev;
	u64 q = PT_REGS_PARM1(ctx);
	struct qenter_pend *p = bpf_map_lookup_elem(&pend, &tid);
	u32 *d, *first;

	if (p && !p->entered) {
		p->entered = 1;
		dev = p->dev;
		/* what block_bio_queue left is an earlier bio's */
		bpf_map_delete_elem(&task_dev, &tid);
		if (dev && q)
			bpf_map_update_elem(&qdev, &q, &dev, BPF_ANY);
		return dev;
	}
	dev = take_taskdev();
	first = bpf_map_lookup_elem(&enter_first, &zero);
	if (!first || !*first)
		return queue_dev(q, dev);
	d = bpf_map_lookup_elem(&qdev, &q);
	return d ? *d : dev & ~QENTER_MIXED;
}

SEC("kprobe/blk_queue_enter")
int qenter_blk(struct pt_regs *ctx)
{
	u32 dev = 0;

	if (BB_CONST(need_dev) && BB_CONST(blk_is_bio))
		dev = enter_dev(ctx);
	return entered(dev);
}

/*
 * generic_make_request(bio) (4.14 to 5.8): the disk of bio->bi_disk, in
 * layouts fixed from 4.14 to 5.11: struct bio { bi_next; bi_disk; ... }
 * and struct gendisk { int major; int first_minor; ... } (pointers of the
 * kernel's size: 4 bytes on 32-bit ARM). The whole disk, as
 * block_bio_queue says it there (the partition is remapped before it
 * fires), so bi_partno is not read. Before 4.14 that field is bi_bdev:
 * what this reads there is never used, for those kernels fire
 * block_bio_queue before they enter.
 */
SEC("kprobe/generic_make_request")
int qenter_submit(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	const char *bio = (const char *)(unsigned long)PT_REGS_PARM1(ctx);
	struct { s32 major, first_minor; } g = {};
	struct qenter_pend p = {};
	u64 disk;

	if (!bio)
		return 0;
	disk = BB_KREAD_ULONG(bio + sizeof(bb_kulong));
	if (disk && !bpf_probe_read(&g, sizeof(g), (const void *)disk))
		p.dev = (u32)g.major << 20 | (u32)g.first_minor;
	bpf_map_update_elem(&pend, &tid, &p, BPF_ANY);
	return 0;
}

/*
 * taskdev.h's block_bio_queue program, for qenter: a bio entered already
 * (its disk came from generic_make_request) leaves nothing to the next
 * enter; if it entered on the disk the tracepoint names, this kernel
 * enters first.
 */
SEC("tracepoint/block/block_bio_queue")
int qenter_bio_queue(void *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid(), zero = 0, one = 1;
	struct qenter_pend *p = bpf_map_lookup_elem(&pend, &tid);
	u32 dev = 0, entered = 0, pdev = 0, *old;

	BB_TP_READ(dev, ctx, tpoff_bio_queue_dev);
	if (p) {
		entered = p->entered;
		pdev = p->dev;
		bpf_map_delete_elem(&pend, &tid);
	}
	if (entered && pdev == dev) {
		bpf_map_update_elem(&enter_first, &zero, &one, BPF_ANY);
		return 0;
	}
	old = bpf_map_lookup_elem(&task_dev, &tid);
	if (old && *old != dev)
		dev |= QENTER_MIXED;
	bpf_map_update_elem(&task_dev, &tid, &dev, BPF_ANY);
	return 0;
}

/* __bio_queue_enter(q, bio) (5.15+) */
SEC("kprobe/__bio_queue_enter")
int qenter_bio(struct pt_regs *ctx)
{
	u32 dev = 0;

	if (BB_CONST(need_dev))
		dev = queue_dev(PT_REGS_PARM1(ctx), take_taskdev());
	return entered(dev);
}

SEC("kretprobe/blk_queue_enter")
int qenter_ret(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct qenter_inflight *s = bpf_map_lookup_elem(&start, &tid);
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
