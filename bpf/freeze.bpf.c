/* SPDX-License-Identifier: MIT */
/*
 * freeze: one record per blk-mq queue freeze: who started it (task, kernel
 * stack), how long the queue stayed frozen (outermost freeze start to the
 * unfreeze that brings the depth back to 0) and how long the drain of the
 * I/O in flight took.
 *
 * The kernel counts nesting in q->mq_freeze_depth; without BTF we cannot
 * read it, so we count it ourselves per queue (fstate) from the calls:
 *   start:    blk_freeze_queue_start (4.15-6.13), __blk_freeze_queue_start
 *             (6.14+), and their wrappers blk_mq_freeze_queue,
 *             blk_freeze_queue (4.15-6.1), blk_mq_freeze_queue_nomemsave
 *             (6.15+);
 *   drain:    blk_mq_freeze_queue_wait(_timeout), entry to return;
 *   unfreeze: blk_mq_unfreeze_queue (-6.14), blk_mq_unfreeze_queue_
 *             nomemrestore/_non_owner (6.14+), __blk_mq_unfreeze_queue
 *             (5.16+).
 * The tool attaches freeze_start/freeze_end to every one of those that
 * exists: which of them the compiler inlined into the others differs by
 * kernel build (a wrapper and the function it wraps may sit in one file),
 * so probing only one of them can miss freezes. A wrapper's call of the
 * function it wraps is then seen twice; `pending` drops the second sighting
 * (same task, same queue, same role, within dedup_ns).
 *
 * The disk: a freeze from a write to /sys/block/<disk>/queue/<attr> runs
 * inside queue_attr_store(kobj, ...) on the same task, and kobj is the
 * queue's kobject, whose parent is the disk's device kobject, named after
 * the disk (blk_register_queue: kobject_add(&q->kobj, &disk_to_dev(disk)
 * ->kobj, "queue") in 4.15 and 6.1; 6.9+ keeps that parent for the
 * gendisk's queue_kobj). struct kobject has begun with
 *   { const char *name; struct list_head entry; struct kobject *parent; }
 * since 2.6 (include/linux/kobject.h, same in 4.15 and 6.1), so the parent
 * is at offset 24 and its name at 0 on 64-bit. Every read goes through
 * probe_read, so a wrong pointer yields no name (reported "?"), never a
 * fault. The same trick on queue_attr_show, with the queue pointer that
 * queue_requests_show(q, page) receives, lets the tool learn every queue's
 * disk by reading queue/nr_requests of each disk itself (q_name).
 *
 * Constants: dedup_ns, want_stack.
 */
#include "bb_helpers.h"
#include "freeze.h"
#include "taskdev.h"

#define KOBJ_NAME_OFF 0
#define KOBJ_PARENT_OFF 24

BB_MAP(fstate, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(struct freeze_state),
       1024);
BB_MAP(stacks, BPF_MAP_TYPE_STACK_TRACE, sizeof(u32), 127 * sizeof(u64),
       1024);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 256);
BB_MAP(pending, BPF_MAP_TYPE_LRU_HASH, sizeof(u32),
       sizeof(struct freeze_pending), 4096);
/* the queue a task's freeze/wait call is about, for the kretprobes */
BB_MAP(retq, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u64), 4096);
BB_MAP(waitq, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u64), 4096);
BB_MAP(task_sysfs, BPF_MAP_TYPE_LRU_HASH, sizeof(u32),
       sizeof(struct freeze_sysfs), 4096);
BB_MAP(q_name, BPF_MAP_TYPE_LRU_HASH, sizeof(u64), sizeof(struct freeze_sysfs),
       4096);
BB_MAP(qdev, BPF_MAP_TYPE_LRU_HASH, sizeof(u64), sizeof(u32), 4096);

/*
 * Has this task just counted this very call under another name (a wrapper
 * and the function it wraps)? The mark stays until the task does something
 * else, so a chain of three names counts once. A function already in the
 * chain is a new call, not the wrapped one: 6.12 freezes in
 * queue_attr_store and again in elevator_switch, and the two unfreezes
 * follow each other within microseconds.
 */
static __always_inline int seen_in_wrapper(u32 tid, u64 q, u32 role, u64 now,
					   u64 ip)
{
	struct freeze_pending *p = bpf_map_lookup_elem(&pending, &tid);
	struct freeze_pending np = {};

	if (p && p->q == q && p->role == role &&
	    now - p->ts < BB_CONST(dedup_ns) &&
	    p->ips[0] != ip && p->ips[1] != ip && p->ips[2] != ip) {
		p->ts = now;
		if (!p->ips[1])
			p->ips[1] = ip;
		else if (!p->ips[2])
			p->ips[2] = ip;
		return 1;
	}
	np.q = q;
	np.ts = now;
	np.role = role;
	np.ips[0] = ip;
	bpf_map_update_elem(&pending, &tid, &np, BPF_ANY);
	return 0;
}

SEC("kprobe/blk_freeze_queue_start")
int freeze_start(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u64 q = PT_REGS_PARM1(ctx);
	u32 tid = (u32)id;
	struct freeze_state *st, s = {};
	struct freeze_sysfs *name, copy;

	if (!q || seen_in_wrapper(tid, q, FREEZE_ROLE_START, now,
					 PT_REGS_IP(ctx)))
		return 0;
	bpf_map_update_elem(&retq, &tid, &q, BPF_ANY);
	st = bpf_map_lookup_elem(&fstate, &q);
	if (st) {
		/* nested: someone froze it before; only the outermost pair
		 * makes a record */
		__sync_fetch_and_add(&st->depth, 1);
		__sync_fetch_and_add(&st->nested, 1);
		return 0;
	}
	s.start_ns = now;
	s.depth = 1;
	s.pid = id >> 32;
	s.tid = tid;
	s.stackid = BB_CONST(want_stack) ?
		    bpf_get_stackid(ctx, &stacks, 0) : -1;
	s.entry_ret = PT_REGS_ENTRY_RET(ctx);
	bpf_get_current_comm(s.comm, sizeof(s.comm));
	name = bpf_map_lookup_elem(&task_sysfs, &tid);
	if (name) {
		/* 4.15 takes map values only from the stack */
		__builtin_memcpy(&copy, name, sizeof(copy));
		__builtin_memcpy(s.disk, copy.disk, sizeof(s.disk));
		bpf_map_update_elem(&q_name, &q, &copy, BPF_ANY);
	}
	if (bpf_map_update_elem(&fstate, &q, &s, BPF_NOEXIST) < 0) {
		/* another CPU froze it at the same moment: we nest */
		st = bpf_map_lookup_elem(&fstate, &q);
		if (st) {
			__sync_fetch_and_add(&st->depth, 1);
			__sync_fetch_and_add(&st->nested, 1);
		}
	}
	return 0;
}

/*
 * Return of a freeze wrapper (blk_mq_freeze_queue & co.): the drain is
 * over by then. Where blk_mq_freeze_queue_wait was inlined into the
 * wrapper, this is the only end of the drain we see.
 */
SEC("kretprobe/blk_mq_freeze_queue")
int freeze_start_ret(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 now = bpf_ktime_get_ns(), *qp, q;
	struct freeze_state *st;

	qp = bpf_map_lookup_elem(&retq, &tid);
	if (!qp)
		return 0;
	q = *qp;
	bpf_map_delete_elem(&retq, &tid);
	st = bpf_map_lookup_elem(&fstate, &q);
	if (!st || st->tid != tid || st->drain_ns)
		return 0;
	if (!st->drain_start)
		st->drain_start = st->start_ns;
	st->drain_ns = now - st->drain_start;
	return 0;
}

SEC("kprobe/blk_mq_freeze_queue_wait")
int freeze_wait(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 q = PT_REGS_PARM1(ctx);
	struct freeze_state *st = bpf_map_lookup_elem(&fstate, &q);

	/* the drain of the task that froze it: others only wait along */
	if (!st || st->tid != tid || st->drain_ns)
		return 0;
	if (!st->drain_start)
		st->drain_start = bpf_ktime_get_ns();
	bpf_map_update_elem(&waitq, &tid, &q, BPF_ANY);
	return 0;
}

SEC("kretprobe/blk_mq_freeze_queue_wait")
int freeze_wait_ret(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 now = bpf_ktime_get_ns(), *qp, q;
	struct freeze_state *st;

	qp = bpf_map_lookup_elem(&waitq, &tid);
	if (!qp)
		return 0;
	q = *qp;
	bpf_map_delete_elem(&waitq, &tid);
	st = bpf_map_lookup_elem(&fstate, &q);
	if (st && st->tid == tid && st->drain_start && !st->drain_ns)
		st->drain_ns = now - st->drain_start;
	return 0;
}

SEC("kprobe/blk_mq_unfreeze_queue")
int freeze_end(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u64 q = PT_REGS_PARM1(ctx);
	u32 tid = (u32)id;
	struct freeze_event ev = {};
	struct freeze_state *st;

	if (!q || seen_in_wrapper(tid, q, FREEZE_ROLE_UNFREEZE, now,
					 PT_REGS_IP(ctx)))
		return 0;
	st = bpf_map_lookup_elem(&fstate, &q);
	if (!st)
		return 0; /* frozen before we started */
	if (st->depth > 1) {
		__sync_fetch_and_add(&st->depth, -1);
		return 0;
	}
	ev.q = q;
	ev.start_ns = st->start_ns;
	ev.frozen_ns = now - st->start_ns;
	ev.drain_ns = st->drain_ns;
	if (!ev.drain_ns && st->drain_start)
		/* the waiter never returned (or we missed it): up to now */
		ev.drain_ns = now - st->drain_start;
	ev.pid = st->pid;
	ev.tid = st->tid;
	ev.stackid = st->stackid;
	ev.nested = st->nested;
	ev.entry_ret = st->entry_ret;
	__builtin_memcpy(ev.comm, st->comm, sizeof(ev.comm));
	__builtin_memcpy(ev.disk, st->disk, sizeof(ev.disk));
	bpf_map_delete_elem(&fstate, &q);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
	return 0;
}

/* queue_attr_store/queue_attr_show(struct kobject *kobj, ...): which disk */
SEC("kprobe/queue_attr_store")
int sysfs_enter(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	const char *kobj = (const char *)PT_REGS_PARM1(ctx);
	const char *parent = 0, *name = 0;
	struct freeze_sysfs s = {};

	bpf_probe_read(&parent, sizeof(parent), kobj + KOBJ_PARENT_OFF);
	if (!parent)
		return 0;
	bpf_probe_read(&name, sizeof(name), parent + KOBJ_NAME_OFF);
	if (!name)
		return 0;
	if (bpf_probe_read_str(s.disk, sizeof(s.disk), name) <= 1)
		return 0;
	bpf_map_update_elem(&task_sysfs, &tid, &s, BPF_ANY);
	return 0;
}

SEC("kretprobe/queue_attr_store")
int sysfs_exit(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&task_sysfs, &tid);
	return 0;
}

/* queue_requests_show(struct request_queue *q, char *page), under
 * queue_attr_show (4.15-6.9), or queue_state_show(q, m) of debugfs
 * block/<disk>/state, read by the tool with task_sysfs set to that disk
 * (6.10+, where queue/ show methods take the gendisk): the queue of it */
SEC("kprobe/queue_requests_show")
int sysfs_show_q(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 q = PT_REGS_PARM1(ctx);
	struct freeze_sysfs *s = bpf_map_lookup_elem(&task_sysfs, &tid), copy;

	if (!s || !q)
		return 0;
	__builtin_memcpy(&copy, s, sizeof(copy));
	bpf_map_update_elem(&q_name, &q, &copy, BPF_ANY);
	return 0;
}

/*
 * --correlate: blk_queue_enter(q) (4.15-5.x, where every bio enters through
 * it) or __bio_queue_enter(q, bio) (5.15+, the slow path, taken exactly
 * while a queue is frozen) right after block_bio_queue on the same task:
 * the queue of that disk. The task's disk is taken, not just read, so that
 * a later enter without a bio (a passthrough request) learns nothing. A
 * queue seen with two disks (stacked devices queue several bios before
 * entering) is marked ambiguous for good.
 */
SEC("kprobe/blk_queue_enter")
int freeze_learn(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 q = PT_REGS_PARM1(ctx);
	u32 dev = taskdev_get(), *d, amb = FREEZE_QDEV_AMBIGUOUS;

	if (!dev || !q)
		return 0;
	bpf_map_delete_elem(&task_dev, &tid);
	d = bpf_map_lookup_elem(&qdev, &q);
	if (!d)
		bpf_map_update_elem(&qdev, &q, &dev, BPF_NOEXIST);
	else if (*d != dev)
		bpf_map_update_elem(&qdev, &q, &amb, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
