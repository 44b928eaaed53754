/* SPDX-License-Identifier: MIT */
/* runqlen's module: the run queues from the raw tracepoint
 * sched_update_nr_running_tp (moved from runqlen.c). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runqlen_rq.h"
#include "../../bpf/runqlen.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn)BB_INSN(c, d, s, o, i))

/*
 * counts[{rq, cpu}] += 1 at sched_update_nr_running_tp(rq, change), the
 * bare tracepoint of add_nr_running and sub_nr_running (BPF attaches to
 * it on 6.1, not on Debian's 5.10: ENOENT): by hand, as the object
 * loader takes no raw tracepoint programs.
 */
static int rawtp_prog(int map_fd, int cpus_fd)
{
	/* r0 = the CPU: get_smp_processor_id, or where that helper is
	 * refused or answers 0 on every CPU, this CPU's slot of cpus_fd */
	const struct bpf_insn cpu_helper[] = {
		INSN(BPF_CALL_CODE, 0, 0, 0, 8),     /* get_smp_processor_id */
	}, cpu_map[] = {
		INSN(0x62, 10, 0, -32, 0),           /* *(u32 *)(r10 - 32) = 0 */
		INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, cpus_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(0xbf, 2, 10, 0, 0),             /* r2 = r10 - 32 */
		INSN(0x07, 2, 0, 0, -32),
		INSN(BPF_CALL_CODE, 0, 0, 0, 1),     /* map_lookup_elem */
		INSN(0x15, 0, 0, 1, 0),              /* if !r0: CPU 0 */
		INSN(0x61, 0, 0, 0, 0),              /* r0 = *(u32 *)r0 */
	};
	const struct bpf_insn head[] = {
		INSN(0x79, 7, 1, 0, 0),              /* r7 = ctx[0]: rq */
	}, tail[] = {
		INSN(0x7b, 10, 7, -16, 0),           /* key.rq = r7 */
		INSN(0x63, 10, 0, -8, 0),            /* key.cpu = r0 */
		INSN(0x62, 10, 0, -4, 0),            /* key.pad = 0 */
		INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(0xbf, 2, 10, 0, 0),             /* r2 = &key */
		INSN(0x07, 2, 0, 0, -16),
		INSN(BPF_CALL_CODE, 0, 0, 0, 1),     /* map_lookup_elem */
		INSN(0x15, 0, 0, 3, 0),              /* if !r0: create */
		INSN(0xb7, 1, 0, 0, 1),              /* r1 = 1 */
		INSN(0xdb, 0, 1, 0, 0),              /* lock *(u64 *)r0 += r1 */
		INSN(0x05, 0, 0, 9, 0),              /* goto out */
		INSN(0x7a, 10, 0, -24, 1),           /* create: value = 1 */
		INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		INSN(0xbf, 2, 10, 0, 0),
		INSN(0x07, 2, 0, 0, -16),
		INSN(0xbf, 3, 10, 0, 0),
		INSN(0x07, 3, 0, 0, -24),
		INSN(0xb7, 4, 0, 0, 0),              /* BPF_ANY */
		INSN(BPF_CALL_CODE, 0, 0, 0, 2),     /* map_update_elem */
		INSN(0xb7, 0, 0, 0, 0),              /* out: r0 = 0 */
		INSN(0x95, 0, 0, 0, 0),              /* exit */
	};
	struct bpf_insn in[1 + 8 + sizeof(tail) / sizeof(tail[0])];
	const struct bpf_insn *cpu = cpus_fd >= 0 ? cpu_map : cpu_helper;
	size_t ncpu = cpus_fd >= 0 ? sizeof(cpu_map) : sizeof(cpu_helper);

	memcpy(in, head, sizeof(head));
	memcpy(in + 1, cpu, ncpu);
	memcpy(in + 1 + ncpu / sizeof(in[0]), tail, sizeof(tail));
	return bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, in,
			     1 + (ncpu + sizeof(tail)) / sizeof(in[0]), "GPL",
			     0, "runqlen_rq", NULL, NULL);
}

int runqlen_cpus_map(int fd)
{
	int n = bb_ncpus_possible(), own = fd < 0, i, ret = 0;
	uint64_t *v;
	uint32_t k = 0;

	if (n < 1)
		return n < 0 ? n : -ENODEV;
	if (own)
		fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0,
				    NULL);
	v = calloc(n, sizeof(*v));
	if (fd < 0 || !v) {
		free(v);
		return fd < 0 ? fd : -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)i;
	ret = bpf_map_update_elem(fd, &k, v, BPF_ANY);
	free(v);
	if (ret < 0 && own)
		close(fd);
	return ret < 0 ? ret : fd;
}

struct rq_key {
	uint64_t rq;
	uint32_t cpu, pad;
};

/* This process sleeps on each CPU it may run on in turn: each sleep and
 * wake-up changes that CPU's nr_running, on that CPU (mostly). */
static void visit_cpus(void)
{
	cpu_set_t old, one;
	int c, i;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &old))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		for (i = 0; i < 40; i++)
			usleep(1000);
	}
	sched_setaffinity(0, sizeof(old), &old);
}

/* w->rqs[cpu]: the rq that cpu's events named most, if 8 or more and
 * more than all others together; -ESRCH where no CPU has one */
static int rqs_vote(int map_fd, struct rq_where *w)
{
	struct rq_key k, next, *kp = NULL;
	uint64_t *best, *all, v;
	int found = 0, c;

	best = calloc(w->nrqs, sizeof(*best));
	all = calloc(w->nrqs, sizeof(*all));
	if (!best || !all) {
		free(best);
		free(all);
		return -ENOMEM;
	}
	while (bpf_map_get_next_key(map_fd, kp, &next) == 0) {
		k = next;
		kp = &k;
		if (bpf_map_lookup_elem(map_fd, &k, &v) < 0 ||
		    k.cpu >= (uint32_t)w->nrqs || !k.rq)
			continue;
		all[k.cpu] += v;
		if (v > best[k.cpu]) {
			best[k.cpu] = v;
			w->rqs[k.cpu] = k.rq;
		}
	}
	for (c = 0; c < w->nrqs; c++) {
		if (best[c] < 8 || best[c] * 2 <= all[c])
			w->rqs[c] = 0;
		found += w->rqs[c] != 0;
	}
	free(best);
	free(all);
	return found ? found : -ESRCH;
}

int runqlen_rq_by_rawtp(struct tool_ctx *t, struct rq_where *w,
		       const char *why)
{
	int map, cpus = -1, prog = -1, link = -1, ret;

	/* before 5.11 the map is charged to RLIMIT_MEMLOCK (tool_load
	 * raises it too, later) */
	bb_raise_memlock(NULL);
	w->nrqs = bb_ncpus_possible();
	if (w->nrqs < 1)
		w->nrqs = 1;
	w->rqs = calloc(w->nrqs, sizeof(*w->rqs));
	map = bpf_map_create(BPF_MAP_TYPE_HASH, sizeof(struct rq_key),
			     sizeof(uint64_t), 4096, 0, NULL);
	if (!w->rqs || map < 0) {
		ret = map < 0 ? map : -ENOMEM;
		goto out;
	}
	if (w->cpu_map && (cpus = runqlen_cpus_map(-1)) < 0) {
		ret = cpus;
		goto out;
	}
	prog = rawtp_prog(map, cpus);
	ret = prog < 0 ? prog : bpf_raw_tp_open("sched_update_nr_running_tp",
						prog);
	if (ret < 0)
		goto out;
	link = ret;
	visit_cpus();
	close(link);
	link = -1;
	ret = rqs_vote(map, w);
out:
	if (prog >= 0)
		close(prog);
	if (cpus >= 0)
		close(cpus);
	if (map >= 0)
		close(map);
	if (ret < 0)
		return tool_fail(t, -EOPNOTSUPP, "cannot find the CPUs' run "
				 "queues: %s; and the raw tracepoint "
				 "sched_update_nr_running_tp: %s", why,
				 ret == -ESRCH ? "named none" :
				 strerror(-ret));
	w->route = RUNQLEN_TABLE;
	if (t->verbose)
		fprintf(stderr, "run queue: the rq sched_update_nr_running_tp "
			"named on each CPU (%d of %d CPUs)\n", ret, w->nrqs);
	return 0;
}
