/* SPDX-License-Identifier: MIT */
/* runqlen's module: where the CPUs' run queues are, shared by runqlen.c
 * and runqlen_rq.c (the raw tracepoint route). */
#ifndef BAREBPF_RUNQLEN_RQ_H
#define BAREBPF_RUNQLEN_RQ_H

#include <stdint.h>
#include "mods.h"

/* where the CPU's struct rq is (bpf/runqlen.bpf.c) */
struct rq_where {
	int route;               /* RUNQLEN_* */
	uint64_t rq_addr, pcpu_offsets;
	uint32_t off_task_cfs_rq, off_cfs_rq_rq;
	int cpu_map;             /* the CPU from a map of each CPU's number
				  * (runqlen_cpus_map), not
				  * bpf_get_smp_processor_id() */
	int no_task;             /* bpf_get_current_task() refused too */
	uint64_t *rqs;           /* RUNQLEN_TABLE: by CPU (0: unknown) */
	int nrqs;
};

/*
 * RUNQLEN_TABLE: the rq that sched_update_nr_running_tp names on each CPU
 * (6.1+), for kernels with neither BTF nor data symbols; why: what the
 * other routes said, for the refusal. 0, or -errno (said through t).
 */
int runqlen_rq_by_rawtp(struct tool_ctx *t, struct rq_where *w,
			const char *why);
/* Fill fd, a BPF_MAP_TYPE_PERCPU_ARRAY of one u64 (or create one if fd is
 * negative): each CPU's slot holds its number. The fd, or -errno. */
int runqlen_cpus_map(int fd);

#endif
