/* SPDX-License-Identifier: GPL-2.0 */
/*
 * killsnoop: one record per kill() system call, as bcc's killsnoop: the
 * entry keeps the target and the signal by thread, the return sends them
 * with the result. From the syscall tracepoints sys_enter_kill and
 * sys_exit_kill, or kprobes on the kill syscall function where they are
 * missing or take no BPF program (before 4.14), as opensnoop. The record
 * is built on the stack: 4.9's helpers take no map value as memory.
 *
 * Constants: filter_tid (0: any; bcc's -p is the sender's thread id),
 * filter_sig (-1: any), failed_only (-x), tpoff_args (the first argument
 * of sys_enter_kill), tpoff_ret, bb_syscall_wrapper (the loader's).
 */
#include "bb_helpers.h"
#include "killsnoop.h"

BB_MAP(starts, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct killsnoop_start),
       4096);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       KILLSNOOP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/* pid_t and int arguments: the low 32 bits of the register */
static __always_inline void kill_enter(u64 tpid, u64 sig)
{
	u32 tid = bpf_get_current_pid_tgid();
	u32 ftid = BB_CONST(filter_tid), fsig = BB_CONST(filter_sig);
	struct killsnoop_start s = { (int)tpid, (int)sig };

	if ((ftid && tid != ftid) || (fsig != 0xffffffff && (u32)sig != fsig))
		return;
	if (bpf_map_update_elem(&starts, &tid, &s, BPF_ANY) < 0)
		count(KILLSNOOP_UNTRACKED);
}

static __always_inline void kill_return(void *ctx, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id;
	struct killsnoop_start *s = bpf_map_lookup_elem(&starts, &tid);
	struct killsnoop_event e = {};

	if (!s)
		return; /* entered before we started, or filtered out */
	e.tpid = s->tpid;
	e.sig = s->sig;
	bpf_map_delete_elem(&starts, &tid);
	if (BB_CONST(failed_only) && ret >= 0)
		return;
	e.ts = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.tid = tid;
	e.ret = ret;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	count(KILLSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
}

SEC("tracepoint/syscalls/sys_enter_kill")
int tp_enter(void *ctx)
{
	/* the kernel's unsigned long args[6] (4 bytes each on 32-bit ARM) */
	bb_kulong a[2] = {};

	bpf_probe_read(a, sizeof(a), (const char *)ctx + BB_CONST(tpoff_args));
	kill_enter(a[0], a[1]);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_kill")
int tp_exit(void *ctx)
{
	kill_return(ctx, BB_TP_READ_LONG(ctx, tpoff_ret));
	return 0;
}

SEC("kprobe")
int kp_kill(struct pt_regs *ctx)
{
	kill_enter(BB_SYSCALL_ARG(ctx, 1), BB_SYSCALL_ARG(ctx, 2));
	return 0;
}

SEC("kretprobe")
int kr_kill(struct pt_regs *ctx)
{
	kill_return(ctx, PT_REGS_RC_LONG(ctx));
	return 0;
}

char _license[] SEC("license") = "GPL";
