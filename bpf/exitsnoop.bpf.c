/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exitsnoop: one record per process (or thread) exit, as bcc's exitsnoop,
 * from the tracepoint sched:sched_process_exit, where the exiting task is
 * current. What the tracepoint does not carry is read from the task_struct
 * at offsets the loader found (BTF, or its discovery): exit_code, tgid,
 * real_parent (then its tgid), start_time (monotonic ns since 3.17, as
 * bpf_ktime_get_ns). The record is built on the stack: 4.9's helpers take
 * no map value as memory.
 *
 * Constants: filter_pid (0: any), per_thread, failed_only (-x),
 * off_exit_code, off_tgid, off_real_parent, off_start_time (0: unknown),
 * disc_comm (tp_disc: the first 8 bytes of the names it copies),
 * task_arg: the task is not bpf_get_current_task()'s but the first
 * argument of the tracepoint, the program loaded as a raw tracepoint one
 * (loader/mods/exitsnoop.c: where that helper needs the JIT, which is
 * off; the verifier then leaves the call out as dead code).
 */
#include "bb_helpers.h"
#include "exitsnoop.h"

BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       EXITSNOOP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(chunks, BPF_MAP_TYPE_HASH, sizeof(struct exitsnoop_chunk_key),
       EXITSNOOP_CHUNK, EXITSNOOP_DISC_TASKS * EXITSNOOP_NCHUNKS);
BB_MAP(who, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct exitsnoop_who),
       EXITSNOOP_DISC_TASKS);

static __always_inline u64 exiting_task(void *ctx)
{
	/* sched_process_exit(struct task_struct *p): args[0]. Copied, not
	 * loaded from ctx: 4.9 walks this branch too, for a tracepoint
	 * program, and takes no load of its first 8 bytes */
	if (BB_CONST(task_arg))
		return BB_KREAD_ULONG(ctx);
	return bpf_get_current_task();
}

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

SEC("tracepoint/sched/sched_process_exit")
int tp_exit(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), task = exiting_task(ctx);
	u32 tid = id, pid = id >> 32, fpid = BB_CONST(filter_pid);
	u64 parent, offs = BB_CONST(off_start_time);
	struct exitsnoop_event e = {};

	/* bcc: a process is its thread group leader's exit; -p its tgid */
	if (!BB_CONST(per_thread) && tid != pid)
		return 0;
	if (fpid && pid != fpid)
		return 0;
	bpf_probe_read(&e.exit_code, sizeof(e.exit_code),
		       (const void *)(long)(task + BB_CONST(off_exit_code)));
	if (BB_CONST(failed_only) && e.exit_code == 0)
		return 0;
	if (offs)
		bpf_probe_read(&e.start, sizeof(e.start),
			       (const void *)(long)(task + offs));
	parent = BB_KREAD_ULONG(task + BB_CONST(off_real_parent));
	if (parent)
		bpf_probe_read(&e.ppid, sizeof(e.ppid),
			       (const void *)(long)(parent +
						    BB_CONST(off_tgid)));
	e.exit = bpf_ktime_get_ns();
	e.pid = pid;
	e.tid = tid;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	count(EXITSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

/* one chunk of the task, through the stack into the map */
#define CHUNK(i)                                                               \
	do {                                                                   \
		k.chunk = i;                                                   \
		bpf_probe_read(buf, sizeof(buf),                               \
			       (const void *)(long)(task +                     \
						    (i) * EXITSNOOP_CHUNK));   \
		bpf_map_update_elem(&chunks, &k, buf, BPF_ANY);                \
	} while (0)

SEC("tracepoint/sched/sched_process_exit")
int tp_disc(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), task = exiting_task(ctx);
	struct exitsnoop_chunk_key k = { (u32)id, 0 };
	struct exitsnoop_who w = {};
	char buf[EXITSNOOP_CHUNK];
	u64 comm[2] = {};

	bpf_get_current_comm(comm, sizeof(comm));
	if (comm[0] != BB_CONST(disc_comm))
		return 0;
	CHUNK(0); CHUNK(1); CHUNK(2); CHUNK(3);
	CHUNK(4); CHUNK(5); CHUNK(6); CHUNK(7);
	CHUNK(8); CHUNK(9); CHUNK(10); CHUNK(11);
	CHUNK(12); CHUNK(13); CHUNK(14); CHUNK(15);
	w.task = task;
	w.exit = bpf_ktime_get_ns();
	w.pid = id >> 32;
	w.tid = id;
	bpf_map_update_elem(&who, &k.tid, &w, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
