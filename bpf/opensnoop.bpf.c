/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opensnoop: one record per open (open, openat, openat2), from the
 * syscall tracepoints, or from kprobes on the syscall functions where the
 * kernel was built without CONFIG_FTRACE_SYSCALLS. The entry keeps the
 * path's user pointer and the flags by thread; the return filters, reads
 * the path (as bcc does) and sends the record.
 *
 * One tracepoint program serves the three entries: every syscall
 * tracepoint has the layout of struct syscall_trace_enter (the number,
 * then the arguments as longs), so the number says where the path and
 * flags are. openat2 (5.6) passes its flags in a struct open_how, whose
 * first member they are.
 *
 * Constants: filter_pid, filter_tid (0: any), filter_uid (-1: any),
 * filter_flags (0: any, else one of these bits must be set), tpoff_nr,
 * tpoff_args (offset of the first argument), tpoff_ret, nr_open,
 * nr_openat2 (-1 where there is none), bb_syscall_wrapper (the loader's).
 */
#include "bb_helpers.h"
#include "opensnoop.h"

BB_MAP(starts, BPF_MAP_TYPE_HASH, sizeof(u32),
       sizeof(struct opensnoop_inflight), 10240);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       OPENSNOOP_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/* Kept small: it is inlined in four programs. The filters are applied
 * at the return, once. */
static __always_inline void open_enter(u64 fname, u64 flags)
{
	u32 tid = bpf_get_current_pid_tgid();
	struct opensnoop_inflight s = { fname, flags };

	if (bpf_map_update_elem(&starts, &tid, &s, BPF_ANY) < 0)
		count(OPENSNOOP_UNTRACKED);
}

static __always_inline u64 how_flags(u64 how)
{
	u64 flags = 0;

	bpf_probe_read(&flags, sizeof(flags), (void *)how);
	return flags;
}

static __always_inline void open_return(void *ctx, long ret)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id;
	struct opensnoop_inflight *s = bpf_map_lookup_elem(&starts, &tid);
	struct opensnoop_event e = {};

	u32 fpid = BB_CONST(filter_pid), ftid = BB_CONST(filter_tid);
	u32 fuid = BB_CONST(filter_uid);
	u64 fflags = BB_CONST(filter_flags);

	if (!s)
		return; /* entered before we started */
	e.flags = s->flags;
	e.pid = id >> 32;
	e.tid = tid;
	e.uid = bpf_get_current_uid_gid();
	if ((fpid && e.pid != fpid) || (ftid && tid != ftid) ||
	    (fuid != 0xffffffff && e.uid != fuid) ||
	    (fflags && !(e.flags & fflags)))
		goto out;
	e.ts = bpf_ktime_get_ns();
	e.ret = ret;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_probe_read_str(e.fname, sizeof(e.fname), (void *)s->fname);
	count(OPENSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
out:
	bpf_map_delete_elem(&starts, &tid);
}

/* Attached to sys_enter_open, _openat and _openat2. */
SEC("tracepoint/syscalls/sys_enter_openat")
int tp_enter(void *ctx)
{
	const char *args = (const char *)ctx + BB_CONST(tpoff_args);
	bb_kulong k[3] = {};
	u64 a[3];
	int nr = 0;

	BB_TP_READ(nr, ctx, tpoff_nr);
	/* the kernel's unsigned long args[6] (4 bytes each on 32-bit ARM) */
	bpf_probe_read(k, sizeof(k), args);
	a[0] = k[0];
	a[1] = k[1];
	a[2] = k[2];
	if (nr == (int)BB_CONST(nr_open)) {
		a[2] = a[1];
		a[1] = a[0];
	} else if (nr == (int)BB_CONST(nr_openat2)) {
		a[2] = how_flags(a[2]);
	}
	open_enter(a[1], a[2]);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_openat")
int tp_exit(void *ctx)
{
	long ret = BB_TP_READ_LONG(ctx, tpoff_ret);

	open_return(ctx, ret);
	return 0;
}

SEC("kprobe")
int kp_open(struct pt_regs *ctx)
{
	open_enter(BB_SYSCALL_ARG(ctx, 1), BB_SYSCALL_ARG(ctx, 2));
	return 0;
}

SEC("kprobe")
int kp_openat(struct pt_regs *ctx)
{
	open_enter(BB_SYSCALL_ARG(ctx, 2), BB_SYSCALL_ARG(ctx, 3));
	return 0;
}

SEC("kprobe")
int kp_openat2(struct pt_regs *ctx)
{
	open_enter(BB_SYSCALL_ARG(ctx, 2), how_flags(BB_SYSCALL_ARG(ctx, 3)));
	return 0;
}

SEC("kretprobe")
int kr_open(struct pt_regs *ctx)
{
	open_return(ctx, PT_REGS_RC_LONG(ctx));
	return 0;
}

char _license[] SEC("license") = "GPL";
