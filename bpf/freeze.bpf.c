/* SPDX-License-Identifier: MIT */
/*
 * freeze: one record per blk-mq queue freeze: who started it (task, kernel
 * stack), how long the queue stayed frozen (outermost freeze start to the
 * unfreeze that brings the depth back to 0) and how long the drain of the
 * I/O in flight took.
 *
 * The kernel counts nesting in q->mq_freeze_depth; without BTF we cannot
 * read it, so we follow it per queue (fstate) from the calls:
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
 * (same task, same queue, same role, no shallower on the stack, within
 * dedup_ns).
 *
 * Healing. A tool is started in the middle of an incident, and a count of
 * our own can go wrong for good: a queue torn down frozen
 * (blk_cleanup_queue, blk_mq_destroy_queue freeze it and never unfreeze)
 * whose address a new queue gets, an unfreeze whose program did not run.
 * With the depth too high, every later freeze of that queue would count as
 * nested and none would be reported. So the state follows what the kernel
 * shows of its own mq_freeze_depth, and each time it corrects us, that is
 * counted (FREEZE_STAT_HEALED) and the stale freeze is not reported:
 *  - a queue just allocated (blk_alloc_queue*, freeze_newq) is not frozen;
 *  - blk_freeze_queue_start() runs the hardware queues,
 *    blk_mq_run_hw_queues(q, ...), only when the depth goes 0 -> 1
 *    (4.15-7.x), on the freezing task, at once. freeze_start notes the
 *    task's freeze (cand) and counts it as usual; if freeze_confirm sees
 *    that call while we held q frozen from before, q was not frozen: this
 *    freeze replaces our state. Where the call is inlined (seen in the
 *    4.15 and 5.10 test kernels) this shows nothing; a call later than
 *    confirm_ns after the start is not taken for it.
 * (percpu_ref_kill/_resurrect, the exact transitions, are in lib/, built
 * without ftrace, which kprobe events refuse from 5.0 on.) An unfreeze of a
 * queue we hold no state for was frozen before we saw it: counted
 * (FREEZE_STAT_UNSEEN), not reported.
 *
 * The disk: a freeze from a write to /sys/block/<disk>/queue/<attr> runs
 * inside queue_attr_store(kobj, ...) on the same task, and kobj is the
 * queue's kobject, whose parent is the disk's device kobject, named after
 * the disk (blk_register_queue: kobject_add(&q->kobj, &disk_to_dev(disk)
 * ->kobj, "queue") in 4.15 and 6.1; 6.9+ keeps that parent for the
 * gendisk's queue_kobj). struct kobject has begun with
 *   { const char *name; struct list_head entry; struct kobject *parent; }
 * since 2.6 (include/linux/kobject.h, same in 4.15 and 6.1), so the parent
 * is at offset 24 and its name at 0 on 64-bit (12 and 0 on 32-bit ARM,
 * where pointers are 4 bytes). Every read goes through
 * probe_read, so a wrong pointer yields no name (reported "?"), never a
 * fault. The same trick on queue_attr_show, with the queue pointer that
 * queue_requests_show(q, page) receives, lets the tool learn every queue's
 * disk by reading queue/nr_requests of each disk itself (q_name).
 *
 * Constants: dedup_ns, want_stack, confirm_ns.
 */
#include "bb_helpers.h"
#include "freeze.h"
#include "taskdev.h"

#define KOBJ_NAME_OFF 0
#define KOBJ_PARENT_OFF (3 * sizeof(bb_kulong))

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
BB_MAP(cand, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(struct freeze_cand),
       4096);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       FREEZE_NSTATS);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/*
 * Has this task just counted this very call under another name (a wrapper
 * and the function it wraps)? The wrapped function is entered from inside
 * the wrapper: deeper on the stack, or at the same depth when the wrapper
 * ends in a jump to it. A second freeze (or unfreeze) of the same queue by
 * the same task from a shallower frame is a call of its own, however soon
 * (5.10's blk_cleanup_queue: blk_set_queue_dying freezes, then
 * blk_freeze_queue; an inner unfreeze, then the outer one): counted, or
 * the depth would be off by one for good. So is a function already in the
 * chain, even deeper: 6.12 freezes in queue_attr_store and again in
 * elevator_switch, and the two unfreezes follow each other within
 * microseconds. The mark stays until the task does something else, so a
 * chain of three names counts once.
 */
static __always_inline int seen_in_wrapper(u32 tid, u64 q, u32 role, u64 now,
					   u64 sp, u64 ip)
{
	struct freeze_pending *p = bpf_map_lookup_elem(&pending, &tid);
	struct freeze_pending np = {};

	if (p && p->q == q && p->role == role && sp <= p->sp &&
	    now - p->ts < BB_CONST(dedup_ns) &&
	    p->ips[0] != ip && p->ips[1] != ip && p->ips[2] != ip) {
		p->ts = now;
		p->sp = sp;
		if (!p->ips[1])
			p->ips[1] = ip;
		else if (!p->ips[2])
			p->ips[2] = ip;
		return 1;
	}
	np.q = q;
	np.ts = now;
	np.sp = sp;
	np.role = role;
	np.ips[0] = ip;
	bpf_map_update_elem(&pending, &tid, &np, BPF_ANY);
	return 0;
}

/* The task's new freeze: who, from where, and the disk and file of its
 * sysfs write. */
static __always_inline void fill_state(struct freeze_state *s, void *ctx,
				       u64 id, u64 now, u64 q)
{
	struct freeze_sysfs *name, copy;
	u32 tid = (u32)id;

	s->start_ns = now;
	s->depth = 1;
	s->pid = id >> 32;
	s->tid = tid;
	s->stackid = BB_CONST(want_stack) ?
		     bpf_get_stackid(ctx, &stacks, 0) : -1;
	s->entry_ret = PT_REGS_ENTRY_RET((struct pt_regs *)ctx);
	bpf_get_current_comm(s->comm, sizeof(s->comm));
	name = bpf_map_lookup_elem(&task_sysfs, &tid);
	if (name) {
		/* 4.15 takes map values only from the stack */
		__builtin_memcpy(&copy, name, sizeof(copy));
		__builtin_memcpy(s->disk, copy.disk, sizeof(s->disk));
		__builtin_memcpy(s->attr, copy.attr, sizeof(s->attr));
		bpf_map_update_elem(&q_name, &q, &copy, BPF_ANY);
	}
}

SEC("kprobe/blk_freeze_queue_start")
int freeze_start(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u64 q = PT_REGS_PARM1(ctx);
	u32 tid = (u32)id;
	struct freeze_state *st;
	struct freeze_cand c = {};

	if (!q || seen_in_wrapper(tid, q, FREEZE_ROLE_START, now,
				   PT_REGS_SP(ctx), PT_REGS_IP(ctx)))
		return 0;
	bpf_map_update_elem(&retq, &tid, &q, BPF_ANY);
	c.q = q;
	fill_state(&c.s, ctx, id, now, q);
	st = bpf_map_lookup_elem(&fstate, &q);
	if (!st) {
		c.created = 1;
		if (bpf_map_update_elem(&fstate, &q, &c.s, BPF_NOEXIST) < 0) {
			/* another CPU froze it at the same moment */
			c.created = 0;
			st = bpf_map_lookup_elem(&fstate, &q);
		}
	}
	if (st) {
		/* nested: someone froze it before; only the outermost pair
		 * makes a record (unless freeze_confirm says otherwise) */
		__sync_fetch_and_add(&st->depth, 1);
		__sync_fetch_and_add(&st->nested, 1);
	}
	bpf_map_update_elem(&cand, &tid, &c, BPF_ANY);
	return 0;
}

/*
 * blk_mq_run_hw_queues(q, async) by a task inside its freeze start of q:
 * the kernel's freeze depth went 0 -> 1. A state we held from before is
 * stale: this freeze replaces it.
 */
SEC("kprobe/blk_mq_run_hw_queues")
int freeze_confirm(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u64 q = PT_REGS_PARM1(ctx);
	struct freeze_cand *cp, c;

	cp = bpf_map_lookup_elem(&cand, &tid);
	if (!cp || cp->q != q)
		return 0;
	__builtin_memcpy(&c, cp, sizeof(c));
	bpf_map_delete_elem(&cand, &tid);
	if (c.created || bpf_ktime_get_ns() - c.s.start_ns > BB_CONST(confirm_ns))
		return 0; /* the state is this freeze's own; or not inside it */
	count(FREEZE_STAT_HEALED);
	bpf_map_update_elem(&fstate, &q, &c.s, BPF_ANY);
	return 0;
}

/* blk_alloc_queue(...) (4.15-7.x), blk_alloc_queue_node(...) (-5.6): a
 * new queue, not frozen, whatever we held at its address. */
SEC("kretprobe/blk_alloc_queue")
int freeze_newq(struct pt_regs *ctx)
{
	u64 q = PT_REGS_RC(ctx);

	if (!q || q >= (u64)-4095)
		return 0;
	if (bpf_map_delete_elem(&fstate, &q) == 0)
		count(FREEZE_STAT_HEALED);
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

	/* this task's freeze start is over: what it noted is done with, and
	 * a freeze it starts now is a new one */
	bpf_map_delete_elem(&cand, &tid);
	bpf_map_delete_elem(&pending, &tid);
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

/* The queue's state ends: one record. */
static __always_inline void emit(void *ctx, struct freeze_state *st, u64 q,
				 u64 now)
{
	struct freeze_event ev = {};

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
	__builtin_memcpy(ev.attr, st->attr, sizeof(ev.attr));
	bpf_map_delete_elem(&fstate, &q);
	count(FREEZE_STAT_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
}

SEC("kprobe/blk_mq_unfreeze_queue")
int freeze_end(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u64 q = PT_REGS_PARM1(ctx);
	u32 tid = (u32)id;
	struct freeze_state *st;

	if (!q || seen_in_wrapper(tid, q, FREEZE_ROLE_UNFREEZE, now,
				   PT_REGS_SP(ctx), PT_REGS_IP(ctx)))
		return 0;
	/* the task's freeze start is long over */
	bpf_map_delete_elem(&cand, &tid);
	st = bpf_map_lookup_elem(&fstate, &q);
	if (!st) {
		count(FREEZE_STAT_UNSEEN); /* frozen before we saw it */
		return 0;
	}
	if (st->depth > 1) {
		__sync_fetch_and_add(&st->depth, -1);
		return 0;
	}
	emit(ctx, st, q, now);
	return 0;
}

/*
 * queue_attr_store/queue_attr_show(struct kobject *kobj, struct attribute
 * *attr, ...): which disk, and which file. attr is the struct attribute
 * inside the file's queue_sysfs_entry (to_queue: container_of), which has
 * begun with `const char *name` since 2.6 (include/linux/sysfs.h, same in
 * 4.15, 6.1, 6.12 and 7.x). From 6.11 queue_attr_store freezes the queue
 * around every store method, so the stack no longer tells a scheduler
 * switch from an nr_requests write: the name does.
 */
SEC("kprobe/queue_attr_store")
int sysfs_enter(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	const char *kobj = (const char *)PT_REGS_PARM1(ctx);
	const char *attr = (const char *)PT_REGS_PARM2(ctx);
	const char *parent, *name;
	struct freeze_sysfs s = {};

	parent = (const char *)BB_KREAD_ULONG(kobj + KOBJ_PARENT_OFF);
	if (!parent)
		return 0;
	name = (const char *)BB_KREAD_ULONG(parent + KOBJ_NAME_OFF);
	if (!name)
		return 0;
	/* (not "<= 1": before 4.11 the loader makes this call a fixed-size
	 * bpf_probe_read, which returns 0) */
	if (bpf_probe_read_str(s.disk, sizeof(s.disk), name) < 0 || !s.disk[0])
		return 0;
	s.disk[sizeof(s.disk) - 1] = 0;
	/* a name that cannot be read leaves the file unnamed, not the disk */
	name = attr ? (const char *)BB_KREAD_ULONG(attr) : 0;
	if (name && bpf_probe_read_str(s.attr, sizeof(s.attr), name) < 0)
		s.attr[0] = 0;
	s.attr[sizeof(s.attr) - 1] = 0;
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
