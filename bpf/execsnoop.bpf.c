/* SPDX-License-Identifier: GPL-2.0 */
/*
 * execsnoop: one record per exec (execve, execveat), from the syscall
 * tracepoints, or from kprobes on the syscall functions where the kernel
 * was built without CONFIG_FTRACE_SYSCALLS.
 *
 * The arguments must be read at entry: after a successful exec the old
 * image and its argv are gone. 4.15 has no loops, and unrolling 20 reads
 * of 128 bytes four times (two entries, two program types) would cost
 * kilobytes of a binary that must stay small, so the reader is one short
 * program that reads one argument and tail-calls itself for the next
 * (at most 20 of the kernel's 32 tail calls). A tail call needs
 * programs of one type: one reader for the tracepoints (tp_jump), one for
 * the kprobes (kp_jump).
 *
 * An exec is built in place in its slot of the execs array, slot tid %
 * EXECSNOOP_SLOTS, which the return sends from: 4.15 cannot copy a map
 * value into a hash map (bpf_map_update_elem takes its value from the
 * stack only, and 2.6 KB do not fit there). Two execs in progress at
 * once whose threads share a slot are rare; the later one takes it, and
 * the return of the earlier one, no longer the owner, counts it as
 * untracked.
 *
 * A successful exec ends at sched:sched_process_exec (comm already the
 * new one), a failed one at the syscall's return: on arm64 the return
 * of a successful execve is not traced (start_thread forgets the
 * syscall: regs->syscallno is -1 at sys_exit, seen on 4.15), and one
 * way for both kinds of probe keeps one count.
 *
 * The parent without BTF: sched_process_fork, on the parent, names the
 * child; ppids keeps child -> parent's thread group (the user side reads
 * /proc/PID/status for a process forked before the run).
 *
 * Constants: filter_uid (-1: any), fails (send failed execs), max_args,
 * nr_execveat (the syscall number that picks execveat's offsets at the
 * shared tracepoint program), tpoff_nr, tpoff_execve_filename,
 * tpoff_execve_argv, tpoff_execveat_filename, tpoff_execveat_argv,
 * tpoff_exit_ret, tpoff_fork_child, bb_syscall_wrapper (the loader's).
 */
#include "bb_helpers.h"
#include "execsnoop.h"

BB_MAP(execs, BPF_MAP_TYPE_ARRAY, sizeof(u32),
       sizeof(struct execsnoop_event), EXECSNOOP_SLOTS);
BB_MAP(ppids, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u32), 16384);
BB_MAP(tp_jump, BPF_MAP_TYPE_PROG_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_MAP(kp_jump, BPF_MAP_TYPE_PROG_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       EXECSNOOP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

static __always_inline struct execsnoop_event *slot_get(u32 tid)
{
	u32 k = tid % EXECSNOOP_SLOTS;

	return bpf_map_lookup_elem(&execs, &k);
}

/* Start an exec in its slot: 0 to go on to its arguments. */
static __always_inline int exec_enter(u64 filename, u64 argv)
{
	u64 uid = bpf_get_current_uid_gid() & 0xffffffff;
	u64 id = bpf_get_current_pid_tgid();
	struct execsnoop_event *e;

	if ((u32)BB_CONST(filter_uid) != 0xffffffff &&
	    uid != (u32)BB_CONST(filter_uid))
		return -1;
	e = slot_get(id);
	if (!e)
		return -1;
	e->tid = id;
	e->pid = id >> 32;
	e->uid = uid;
	e->flags = 0;
	e->argv = argv;
	e->nargs = 1;
	bpf_probe_read_str(e->args[0], sizeof(e->args[0]), (void *)filename);
	return 0;
}

/* Read argv[nargs]: 1 if the chain goes on, 0 once all are read. */
static __always_inline int exec_arg(void)
{
	struct execsnoop_event *e = slot_get(bpf_get_current_pid_tgid());
	u64 ptr = 0;
	u32 i;

	if (!e)
		return 0;
	i = e->nargs;
	ptr = BB_KREAD_ULONG(e->argv + i * sizeof(bb_kulong));
	if (i >= EXECSNOOP_MAXARGS || i >= (u32)BB_CONST(max_args)) {
		if (ptr)
			e->flags |= EXECSNOOP_F_TRUNCATED;
		return 0;
	}
	if (!ptr)
		return 0;
	bpf_probe_read_str(e->args[i], EXECSNOOP_ARGSIZE, (void *)ptr);
	e->nargs = i + 1;
	return 1;
}

static __always_inline void exec_return(void *ctx, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id, pid = id >> 32, *ppid;
	struct execsnoop_event *e = slot_get(tid);
	u64 size;

	if (!e || !e->tid)
		return; /* entered before we started, or filtered out */
	if (e->tid != tid) {
		count(EXECSNOOP_UNTRACKED); /* or a thread's exec, which
					     * leaves as the leader */
		return;
	}
	if (ret && !BB_CONST(fails))
		goto out;
	e->ts = bpf_ktime_get_ns();
	e->ret = ret;
	e->pid = pid;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	ppid = bpf_map_lookup_elem(&ppids, &pid);
	if (ppid) {
		e->ppid = *ppid;
		e->flags |= EXECSNOOP_F_PPID;
	} else {
		e->ppid = 0;
	}
	/* clamped where the verifier sees it: clang turns the sum into an
	 * OR, whose bounds the verifier widens past the value */
	size = EXECSNOOP_HDR + (u64)e->nargs * EXECSNOOP_ARGSIZE;
	asm volatile("" : "+r"(size));
	if (size > sizeof(*e))
		size = sizeof(*e);
	count(EXECSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, size);
out:
	e->tid = 0;
}

/* Attached to sys_enter_execve and sys_enter_execveat: the syscall
 * number says which layout. */
SEC("tracepoint/syscalls/sys_enter_execve")
int tp_enter(void *ctx)
{
	int nr = 0;
	u64 filename = 0, argv = 0;

	BB_TP_READ(nr, ctx, tpoff_nr);
	if (nr == (int)BB_CONST(nr_execveat)) {
		filename = BB_TP_READ_ULONG(ctx, tpoff_execveat_filename);
		argv = BB_TP_READ_ULONG(ctx, tpoff_execveat_argv);
	} else {
		filename = BB_TP_READ_ULONG(ctx, tpoff_execve_filename);
		argv = BB_TP_READ_ULONG(ctx, tpoff_execve_argv);
	}
	if (exec_enter(filename, argv) == 0)
		bpf_tail_call(ctx, &tp_jump, 0);
	return 0;
}

/* tp_jump's program: never attached */
SEC("tracepoint/syscalls/sys_enter_execve")
int tp_args(void *ctx)
{
	if (exec_arg())
		bpf_tail_call(ctx, &tp_jump, 0);
	return 0;
}

/* failed execs: a successful one ends at exec_done */
SEC("tracepoint/syscalls/sys_exit_execve")
int tp_exit(void *ctx)
{
	long ret = BB_TP_READ_LONG(ctx, tpoff_exit_ret);

	if (ret)
		exec_return(ctx, ret);
	return 0;
}

SEC("tracepoint/sched/sched_process_exec")
int exec_done(void *ctx)
{
	exec_return(ctx, 0);
	return 0;
}

SEC("kprobe")
int kp_execve(struct pt_regs *ctx)
{
	if (exec_enter(BB_SYSCALL_ARG(ctx, 1), BB_SYSCALL_ARG(ctx, 2)) == 0)
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

SEC("kprobe")
int kp_execveat(struct pt_regs *ctx)
{
	if (exec_enter(BB_SYSCALL_ARG(ctx, 2), BB_SYSCALL_ARG(ctx, 3)) == 0)
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

/* kp_jump's program: never attached */
SEC("kprobe")
int kp_args(struct pt_regs *ctx)
{
	if (exec_arg())
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

SEC("kretprobe")
int kr_exec(struct pt_regs *ctx)
{
	long ret = PT_REGS_RC_LONG(ctx);

	if (ret)
		exec_return(ctx, ret);
	return 0;
}

SEC("tracepoint/sched/sched_process_fork")
int fork(void *ctx)
{
	u32 child = 0, parent = bpf_get_current_pid_tgid() >> 32;

	BB_TP_READ(child, ctx, tpoff_fork_child);
	bpf_map_update_elem(&ppids, &child, &parent, BPF_ANY);
	return 0;
}

/*
 * Before 4.11 (no bpf_probe_read_str), where helpers also write to and send
 * from the stack only (4.9: a map value is no helper memory), the same
 * slots are filled through the stack and sent in chunks (struct
 * execsnoop_chunk) that the tool puts together again, all from one program
 * run on one CPU. An argument is a fixed-size bpf_probe_read of
 * EXECSNOOP_ARGSIZE bytes (the tool stops at its NUL), or of 16 where the
 * string ends closer than that to unmapped memory. The tool picks these
 * *_old programs when bpf_probe_read_str is missing.
 */
static __always_inline void arg_copy_old(struct execsnoop_event *e, u32 i,
					 u64 ptr)
{
	u64 buf[EXECSNOOP_ARGSIZE / 8];
	u64 *dst;
	int k;

	if (i >= EXECSNOOP_MAXARGS)
		return;
	if (bpf_probe_read(buf, sizeof(buf), (void *)ptr))
		bpf_probe_read(buf, 16, (void *)ptr);
	dst = (u64 *)e->args[i];
#pragma unroll
	for (k = 0; k < EXECSNOOP_ARGSIZE / 8; k++)
		dst[k] = buf[k];
	dst[EXECSNOOP_ARGSIZE / 8 - 1] &= ~(0xffULL << 56); /* its NUL */
}

/* exec_enter on the old path: 0 to go on to the arguments */
static __always_inline int exec_enter_old(u64 filename, u64 argv)
{
	u64 id = bpf_get_current_pid_tgid(), uid;
	struct execsnoop_event *e;

	uid = bpf_get_current_uid_gid() & 0xffffffff;
	if ((u32)BB_CONST(filter_uid) != 0xffffffff &&
	    uid != (u32)BB_CONST(filter_uid))
		return -1;
	e = slot_get(id);
	if (!e)
		return -1;
	e->tid = id;
	e->pid = id >> 32;
	e->uid = uid;
	e->flags = 0;
	e->argv = argv;
	e->nargs = 1;
	arg_copy_old(e, 0, filename);
	return 0;
}

/* exec_arg on the old path: 1 if the chain goes on */
static __always_inline int exec_arg_old(void)
{
	struct execsnoop_event *e = slot_get(bpf_get_current_pid_tgid());
	u64 ptr = 0;
	u32 i;

	if (!e)
		return 0;
	i = e->nargs;
	if (i >= EXECSNOOP_MAXARGS)
		return 0;
	bpf_probe_read(&ptr, sizeof(ptr), (void *)(e->argv + i * 8));
	if (i >= (u32)BB_CONST(max_args)) {
		if (ptr)
			e->flags |= EXECSNOOP_F_TRUNCATED;
		return 0;
	}
	if (!ptr)
		return 0;
	arg_copy_old(e, i, ptr);
	e->nargs = i + 1;
	return 1;
}

SEC("tracepoint/syscalls/sys_enter_execve")
int tp_enter_old(void *ctx)
{
	int nr = 0;
	u64 filename = 0, argv = 0;

	BB_TP_READ(nr, ctx, tpoff_nr);
	if (nr == (int)BB_CONST(nr_execveat)) {
		BB_TP_READ(filename, ctx, tpoff_execveat_filename);
		BB_TP_READ(argv, ctx, tpoff_execveat_argv);
	} else {
		BB_TP_READ(filename, ctx, tpoff_execve_filename);
		BB_TP_READ(argv, ctx, tpoff_execve_argv);
	}
	if (exec_enter_old(filename, argv) == 0)
		bpf_tail_call(ctx, &tp_jump, 0);
	return 0;
}

/* tp_jump's program on the old path: never attached */
SEC("tracepoint/syscalls/sys_enter_execve")
int tp_args_old(void *ctx)
{
	if (exec_arg_old())
		bpf_tail_call(ctx, &tp_jump, 0);
	return 0;
}

/* 4.9-4.13: the syscall tracepoints take no BPF program, so the old
 * path has kprobes too */
SEC("kprobe")
int kp_execve_old(struct pt_regs *ctx)
{
	if (exec_enter_old(BB_SYSCALL_ARG(ctx, 1), BB_SYSCALL_ARG(ctx, 2)) == 0)
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

SEC("kprobe")
int kp_execveat_old(struct pt_regs *ctx)
{
	if (exec_enter_old(BB_SYSCALL_ARG(ctx, 2), BB_SYSCALL_ARG(ctx, 3)) == 0)
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

/* kp_jump's program on the old path: never attached */
SEC("kprobe")
int kp_args_old(struct pt_regs *ctx)
{
	if (exec_arg_old())
		bpf_tail_call(ctx, &kp_jump, 0);
	return 0;
}

static __always_inline void exec_return_old(void *ctx, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id, pid = id >> 32, *ppid, n;
	struct execsnoop_event *e = slot_get(tid);
	struct execsnoop_chunk c;
	char comm[16];
	u64 *src;
	int k, j;

	if (!e || !e->tid)
		return;
	if (e->tid != tid) {
		count(EXECSNOOP_UNTRACKED);
		return;
	}
	if (ret && !BB_CONST(fails))
		goto out;
	e->ts = bpf_ktime_get_ns();
	e->ret = ret;
	e->pid = pid;
	bpf_get_current_comm(comm, sizeof(comm));
	__builtin_memcpy(e->comm, comm, sizeof(comm));
	ppid = bpf_map_lookup_elem(&ppids, &pid);
	if (ppid) {
		e->ppid = *ppid;
		e->flags |= EXECSNOOP_F_PPID;
	} else {
		e->ppid = 0;
	}
	n = e->nargs;
	if (n > EXECSNOOP_MAXARGS)
		n = EXECSNOOP_MAXARGS;
	c.tid = tid;
	c.pad = 0;
	c.size = EXECSNOOP_HDR + n * EXECSNOOP_ARGSIZE;
	src = (u64 *)e;
	count(EXECSNOOP_EMITTED);
#pragma unroll
	for (k = 0; k < (sizeof(*e) + EXECSNOOP_CHUNK - 1) / EXECSNOOP_CHUNK;
	     k++) {
		if (k * EXECSNOOP_CHUNK < c.size) {
			c.idx = k;
#pragma unroll
			for (j = 0; j < EXECSNOOP_CHUNK / 8; j++)
				c.data[j] = k * EXECSNOOP_CHUNK + j * 8 <
						    sizeof(*e) ?
					    src[k * EXECSNOOP_CHUNK / 8 + j] : 0;
			bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU,
					      &c, sizeof(c));
		}
	}
out:
	e->tid = 0;
}

SEC("tracepoint/syscalls/sys_exit_execve")
int tp_exit_old(void *ctx)
{
	long ret = 0;

	BB_TP_READ(ret, ctx, tpoff_exit_ret);
	if (ret)
		exec_return_old(ctx, ret);
	return 0;
}

SEC("kretprobe")
int kr_exec_old(struct pt_regs *ctx)
{
	long ret = PT_REGS_RC(ctx);

	if (ret)
		exec_return_old(ctx, ret);
	return 0;
}

SEC("tracepoint/sched/sched_process_exec")
int exec_done_old(void *ctx)
{
	exec_return_old(ctx, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
