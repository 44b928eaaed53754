/* SPDX-License-Identifier: MIT */
/*
 * syscount: system calls counted by number (or by process), with their
 * time inside the kernel (-L), from raw_syscalls:sys_enter and sys_exit:
 * tracepoints every kernel from 4.9 has, whatever its syscall functions
 * are called. As bcc's syscount, a call is counted at its exit, so that
 * -x and -e see its return value; exit and exit_group are never counted.
 *
 * Constants: tpoff_enter_id, tpoff_exit_id, tpoff_exit_ret and tp_direct
 * (syscount.h), filter_pid, filter_tid (0: all), filter_cg (only tasks in
 * the cgroup of slot 0 of `cgroup`), filter_nr_on and filter_nr (one
 * call), filter_failed (ret < 0), filter_errno (ret == -errno; 0: any),
 * by_process (key: tgid), latency (time from sys_enter), nr_exit and
 * nr_exit_group (this architecture's numbers: no start is kept for them).
 */
#include "bb_helpers.h"
#include "syscount.h"

#define BPF_MAP_TYPE_CGROUP_ARRAY 8

BB_MAP(data, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct syscount_val),
       SYSCOUNT_MAX_KEYS);
BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64),
       SYSCOUNT_MAX_THREADS);
BB_MAP(cgroup, BPF_MAP_TYPE_CGROUP_ARRAY, sizeof(u32), sizeof(u32), 1);
BB_DROPS_MAP();

/* 4.9 */
static long (*bpf_current_task_under_cgroup)(void *map,
					     u32 index) = (void *)37;

static __always_inline int wanted(u64 id, bb_klong nr)
{
	u32 pid = BB_CONST(filter_pid), tid = BB_CONST(filter_tid);

	if (pid && (u32)(id >> 32) != pid)
		return 0;
	if (tid && (u32)id != tid)
		return 0;
	if (BB_CONST(filter_nr_on) && nr != (bb_klong)BB_CONST(filter_nr))
		return 0;
	if (BB_CONST(filter_cg) &&
	    bpf_current_task_under_cgroup(&cgroup, 0) != 1)
		return 0;
	return 1;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int sys_enter(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), ts;
	bb_klong nr;

	BB_TP_FIELD(nr, ctx, tp_direct, SYSCOUNT_TP_ID, tpoff_enter_id);
	if (!wanted(id, nr))
		return 0;
	if (nr == (bb_klong)BB_CONST(nr_exit) ||
	    nr == (bb_klong)BB_CONST(nr_exit_group))
		return 0;
	ts = bpf_ktime_get_ns();
	bb_update(&start, &id, &ts, BPF_ANY, &drops);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int sys_exit(void *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), ns = 0, *t0;
	struct syscount_val zero = {}, *v;
	bb_klong nr, ret;
	u32 key;
	s64 err = BB_CONST(filter_errno);

	BB_TP_FIELD(nr, ctx, tp_direct, SYSCOUNT_TP_ID, tpoff_exit_id);
	if (!wanted(id, nr))
		return 0;
	if (BB_CONST(latency)) {
		/* its start goes whatever the filters below say */
		t0 = bpf_map_lookup_elem(&start, &id);
		if (!t0)
			return 0; /* entered before we attached */
		ns = bpf_ktime_get_ns() - *t0;
		bpf_map_delete_elem(&start, &id);
	}
	BB_TP_FIELD(ret, ctx, tp_direct, SYSCOUNT_TP_RET, tpoff_exit_ret);
	if (BB_CONST(filter_failed) && ret >= 0)
		return 0;
	if (err && (s64)ret != -err)
		return 0;
	if (BB_CONST(by_process)) {
		key = id >> 32;
	} else {
		if (nr < 0) /* a call the kernel did not take as one */
			return 0;
		key = nr;
	}
	v = bpf_map_lookup_elem(&data, &key);
	if (!v) {
		bpf_map_update_elem(&data, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&data, &key);
		if (!v) {
			bb_drop(&drops); /* full */
			return 0;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	if (BB_CONST(latency))
		__sync_fetch_and_add(&v->total_ns, ns);
	if (BB_CONST(by_process)) {
		/* the latest name, as bcc's /proc/PID/comm at print time;
		 * through the stack: 4.9 writes the comm only there */
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		__builtin_memcpy(v->comm, zero.comm, sizeof(v->comm));
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
