/* SPDX-License-Identifier: MIT */
/*
 * runqlen: a perf_event program sampling every CPU at 99 Hz (bcc's
 * runqlen) reads the number of runnable tasks of the CPU's run queue,
 * struct rq's nr_running, and counts the length of the queue beside the
 * running task (nr_running - 1; 0 when idle).
 *
 * Where the CPU's struct rq is (load-time constant route, set by
 * loader/progs/runqlen.c with the rest):
 *  - RUNQLEN_PERCPU: the per-CPU variable `runqueues` (rq_addr, from
 *    /proc/kallsyms) plus this CPU's __per_cpu_offset[cpu] (the array at
 *    pcpu_offsets; 0 on a kernel without SMP), as per_cpu_ptr() does;
 *  - RUNQLEN_TASK: current->se.cfs_rq->rq (off_task_cfs_rq,
 *    off_cfs_rq_rq, from BTF; kernels with CONFIG_FAIR_GROUP_SCHED), for
 *    kernels whose kallsyms lists no data (no CONFIG_KALLSYMS_ALL). The
 *    idle task's cfs_rq is its CPU's root one, whose rq is its CPU's;
 *  - RUNQLEN_TABLE: rqs[cpu], filled by the loader with what the
 *    sched_update_nr_running_tp raw tracepoint (6.1 has it) handed a program
 *    on each CPU: kernels with neither BTF nor data symbols.
 * off_nr_running: rq.nr_running (BTF, or discovered with discover = 1:
 * the program then copies the first bytes of the rq into `snaps`).
 * per_cpu (-C): the key's cpu is this CPU's, else 0. cpu_map: this CPU
 * from the map `cpus` (this_cpu).
 * bcc reads task->se.cfs_rq->nr_running instead: the queue of the running
 * task's group only (its cgroup's, under systemd), and nr_queued from
 * 6.14 on. The whole CPU's count is what the tool's name says.
 */
#include "bb_helpers.h"
#include "runqlen.h"

BB_MAP(dist, BPF_MAP_TYPE_HASH, sizeof(struct runqlen_key), sizeof(u64),
       16384);
/* one entry per possible CPU (the loader sets max_entries) */
BB_MAP(snaps, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(struct runqlen_snap),
       1);
/* RUNQLEN_TABLE: the rq of each possible CPU (max_entries set by the
 * loader) */
BB_MAP(rqs, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 1);
/* cpu_map: each CPU's number, in its own slot (filled by the loader) */
BB_MAP(cpus, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64), 1);
BB_DROPS_MAP();

static __always_inline u64 this_rq(u32 cpu)
{
	u64 off = 0, task, cfs, *p;

	if (BB_CONST(route) == RUNQLEN_TABLE) {
		p = bpf_map_lookup_elem(&rqs, &cpu);
		return p ? *p : 0;
	}
	if (BB_CONST(route) == RUNQLEN_PERCPU) {
		if (BB_CONST(pcpu_offsets))
			off = BB_KREAD_ULONG(BB_CONST(pcpu_offsets) +
					     (u64)cpu * sizeof(bb_kulong));
		/* the kernel's unsigned long: wraps on 32-bit ARM */
		return (bb_kulong)(BB_CONST(rq_addr) + off);
	}
	task = bpf_get_current_task();
	cfs = BB_KREAD_ULONG(task + BB_CONST(off_task_cfs_rq));
	return BB_KREAD_ULONG(cfs + BB_CONST(off_cfs_rq_rq));
}

static __always_inline int snapshot(u32 cpu, u64 rq)
{
	struct runqlen_snap s = {}, *old = bpf_map_lookup_elem(&snaps, &cpu);

	if (!old)
		return 0;
	s.seq = old->seq + 1;
	bpf_probe_read(s.words, sizeof(s.words), (const void *)(long)rq);
	bpf_map_update_elem(&snaps, &cpu, &s, BPF_ANY);
	return 0;
}

/*
 * This CPU: bpf_get_smp_processor_id(), or with cpu_map this CPU's slot of
 * `cpus`, where the loader wrote each CPU's number, where that helper is
 * refused or answers 0 on every CPU (the JIT inlines it and is off:
 * riscv64 7.x, 6.12; probe.h, bpf_cpu_helper_ok). The interpreter calls
 * the map's lookup, which takes this CPU's slot.
 */
static __always_inline u32 this_cpu(void)
{
	u32 cpu = 0;
	u64 *p;

	if (!BB_CONST(cpu_map))
		return bpf_get_smp_processor_id();
	p = bpf_map_lookup_elem(&cpus, &cpu);
	return p ? (u32)*p : 0;
}

SEC("bb_perf_event")
int do_sample(void *ctx)
{
	u32 cpu = this_cpu(), n = 0;
	u64 rq = this_rq(cpu);
	struct runqlen_key key = {};

	if (!rq)
		return 0;
	if (BB_CONST(discover))
		return snapshot(cpu, rq);
	bpf_probe_read(&n, sizeof(n),
		       (const void *)(long)(rq + BB_CONST(off_nr_running)));
	if (n > 0)
		n--;
	key.len = n < RUNQLEN_SLOTS - 1 ? n : RUNQLEN_SLOTS - 1;
	if (BB_CONST(per_cpu))
		key.cpu = cpu;
	bb_hist_add(&dist, &key, 1, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
