/* SPDX-License-Identifier: MIT */
/*
 * bpf/runqlen.bpf.c on the host: where each CPU's struct rq is, where its
 * nr_running is (the field-offset layer: BTF, --btf, else discovered
 * here), a sampling event per CPU.
 *
 * The discovery of rq.nr_running, for kernels without BTF: the same
 * program, loaded with discover = 1, copies the first 128 bytes of each
 * CPU's rq at every sample. Spinners pinned to one CPU make a known
 * number K of tasks runnable there (2, 6, 3, then 8; this process moves
 * to the other CPUs meanwhile); the queue holds at least K at every
 * sample, K plus whatever else is runnable there, so for the counter the
 * least value over a step's 40 samples is K, or a little more on a busy
 * machine (this one, shared by several builds, had 1 to 3 more at most
 * samples). The u32 whose least value lies in [K, K + 2] at every step
 * is it; of several, the first (nr_running follows the rq's lock in every
 * kernel from 2.6 to 7.x; the cfs and rt queues' own counts come later).
 * None: a refusal, never a guess.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mods.h"
#include "fieldoff.h"
#include "runqlen.skel.h"
#include "runqlen_rq.h"
#include "../../bpf/runqlen.h"

EMBEDDED_OBJ(runqlen);

#define INSN(c, d, s, o, i) ((struct bpf_insn)BB_INSN(c, d, s, o, i))

#define DISC_HZ 499
#define DISC_SAMPLES 60
#define DISC_STEP_SECS 5.0
#define DISC_NSPIN 16
/* the first two apart by more than the slack, so that no constant can
 * pass for the count */
static const int disc_counts[] = { 1, 10, 4, 16 };
#define DISC_SLACK 8
#define DISC_STEPS (int)(sizeof(disc_counts) / sizeof(disc_counts[0]))
#define NWORDS (RUNQLEN_WINDOW / 4)

static int configure(struct tool_ctx *t, const struct rq_where *w,
		     int discover, uint32_t off_nr, int per_cpu)
{
	struct bb_obj *o = t->obj;
	struct bb_map *snaps = obj_map(o, "snaps"), *rqs = obj_map(o, "rqs");
	const int set[] = {
		runqlen_set(o, RUNQLEN_C_route, w->route),
		runqlen_set(o, RUNQLEN_C_rq_addr, w->rq_addr),
		runqlen_set(o, RUNQLEN_C_pcpu_offsets, w->pcpu_offsets),
		runqlen_set(o, RUNQLEN_C_off_task_cfs_rq, w->off_task_cfs_rq),
		runqlen_set(o, RUNQLEN_C_off_cfs_rq_rq, w->off_cfs_rq_rq),
		runqlen_set(o, RUNQLEN_C_discover, discover),
		runqlen_set(o, RUNQLEN_C_off_nr_running, off_nr),
		runqlen_set(o, RUNQLEN_C_per_cpu, per_cpu),
		runqlen_set(o, RUNQLEN_C_cpu_map, w->cpu_map),
	};
	int ncpus = bb_ncpus_possible();

	if (!snaps || !rqs)
		return tool_fail(t, -EINVAL, "internal: no snaps or rqs map");
	snaps->def.max_entries = discover && ncpus > 0 ? (uint32_t)ncpus : 1;
	rqs->def.max_entries = w->route == RUNQLEN_TABLE ? (uint32_t)w->nrqs : 1;
	return MOD_CONSTS_SET(t, set);
}

/* RUNQLEN_TABLE: the run queues found, into the loaded object's map;
 * cpu_map: each CPU's number into its slot of cpus */
static int fill_maps(struct tool_ctx *t, const struct rq_where *w)
{
	int fd = runqlen_map_fd(t->obj, RUNQLEN_M_rqs), ret;
	uint32_t cpu;

	if (w->cpu_map &&
	    (ret = runqlen_cpus_map(runqlen_map_fd(t->obj, RUNQLEN_M_cpus))) < 0)
		return tool_fail(t, ret, "cannot fill the map cpus: %s",
				 strerror(-ret));
	if (w->route != RUNQLEN_TABLE)
		return 0;
	for (cpu = 0; cpu < (uint32_t)w->nrqs; cpu++)
		if (bpf_map_update_elem(fd, &cpu, &w->rqs[cpu], BPF_ANY) < 0)
			return tool_fail(t, -EIO, "cannot fill the map rqs");
	return 0;
}

static int attach(struct tool_ctx *t, unsigned hz, int *sw)
{
	struct bb_err err = { "" };
	struct bb_prog *p = obj_prog(t->obj, RUNQLEN_P_do_sample);
	int ret;

	if (!p)
		return tool_fail(t, -EINVAL, "internal: no program %s",
				 RUNQLEN_P_do_sample);
	ret = session_attach_sampling(&t->sess, p, hz, sw, &err);
	if (ret < 0)
		return tool_fail(t, ret, "%s", err.msg);
	return ret;
}

/* ---- the discovery ---- */

struct disc {
	struct tool_ctx *t;
	const struct rq_where *w;
	int cpu;                  /* the CPU the spinners run on */
	pid_t spin[DISC_NSPIN];
	int nspin;
};

static void spinner(int cpu, pid_t parent)
{
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		__asm__ volatile("" ::: "memory");
}

/* n spinners running on d->cpu (started or killed to get there) */
static int spinners(struct disc *d, int n)
{
	pid_t parent = getpid();

	while (d->nspin < n) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (!pid)
			spinner(d->cpu, parent);
		d->spin[d->nspin++] = pid;
	}
	while (d->nspin > n) {
		pid_t pid = d->spin[--d->nspin];

		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return 0;
}

/* The least value of each word of d->cpu's rq over DISC_SAMPLES samples. */
static int sample_min(struct disc *d, int fd, uint32_t *min)
{
	uint32_t key = d->cpu;
	uint64_t last = 0;
	double end = bb_now_mono() + DISC_STEP_SECS;
	int got = 0, i;

	for (i = 0; i < NWORDS; i++)
		min[i] = UINT32_MAX;
	while (got < DISC_SAMPLES) {
		struct runqlen_snap s;

		if (bb_stop)
			return -EINTR;
		if (bb_now_mono() > end)
			return -ETIMEDOUT;
		if (bpf_map_lookup_elem(fd, &key, &s) < 0)
			return -EIO;
		if (s.seq > last && last) {
			for (i = 0; i < NWORDS; i++)
				if (s.words[i] < min[i])
					min[i] = s.words[i];
			got++;
		}
		if (s.seq > last)
			last = s.seq;
		usleep(1000000 / DISC_HZ);
	}
	return 0;
}

/* The CPU for the spinners (the last we may run on), and this process
 * moved off it if there is another; *old to restore. */
static int pick_cpu(struct disc *d, cpu_set_t *old)
{
	cpu_set_t rest;
	int c;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -errno;
	for (c = CPU_SETSIZE - 1; c >= 0 && !CPU_ISSET(c, old); c--)
		;
	if (c < 0)
		return -ESRCH;
	d->cpu = c;
	rest = *old;
	CPU_CLR(c, &rest);
	if (CPU_COUNT(&rest))
		sched_setaffinity(0, sizeof(rest), &rest);
	return 0;
}

/* The steps: cand[i] stays 1 for the words that followed every count. */
static int run_steps(struct disc *d, int fd, int *cand)
{
	uint32_t min[NWORDS];
	int s, i, ret;

	for (i = 0; i < NWORDS; i++)
		cand[i] = 1;
	for (s = 0; s < DISC_STEPS; s++) {
		ret = spinners(d, disc_counts[s]);
		if (ret < 0)
			return ret;
		usleep(50000); /* let them be scheduled */
		ret = sample_min(d, fd, min);
		if (ret < 0)
			return ret;
		for (i = 0; i < NWORDS; i++)
			if (min[i] < (uint32_t)disc_counts[s] ||
			    min[i] > (uint32_t)disc_counts[s] + DISC_SLACK)
				cand[i] = 0;
	}
	return 0;
}

static int disc_result(struct disc *d, const int *cand, double secs,
		       struct bb_field *out, struct bb_err *err)
{
	int i;

	for (i = 0; i < NWORDS; i++)
		if (cand[i])
			break;
	if (i == NWORDS)
		return bb_fail(err, -ESRCH, "no u32 in the first %d bytes of "
			       "CPU %d's run queue followed %d, %d, %d and %d "
			       "pinned spinners, as nr_running does (a busy "
			       "machine? try again); or give this kernel's BTF "
			       "with --btf FILE", RUNQLEN_WINDOW, d->cpu,
			       disc_counts[0], disc_counts[1], disc_counts[2],
			       disc_counts[3]);
	out->offset = i * 4;
	out->size = 4;
	snprintf(out->how, sizeof(out->how), "discovered: the u32 at offset "
		 "%d of CPU %d's run queue followed %d, %d, %d, %d pinned "
		 "spinners (%d samples each, %.2f s)", i * 4, d->cpu,
		 disc_counts[0], disc_counts[1], disc_counts[2],
		 disc_counts[3], DISC_SAMPLES, secs);
	return 0;
}

static int discover_nr_running(void *ctx, const char *path,
			       struct bb_field *out, struct bb_err *err)
{
	struct disc *d = ctx;
	struct tool_ctx td;
	cpu_set_t old;
	double t0 = bb_now_mono();
	int cand[NWORDS], fd, sw = 0, ret;

	(void)path;
	tool_init(&td, d->t->name);
	td.verbose = d->t->verbose;
	td.kver_override = d->t->kver_override;
	ret = tool_open(&td, &runqlen_skel, EMBEDDED_ARGS(runqlen));
	if (ret < 0 || (ret = configure(&td, d->w, 1, 0, 0)) < 0 ||
	    (ret = tool_load(&td)) < 0 || (ret = fill_maps(&td, d->w)) < 0 ||
	    (ret = attach(&td, DISC_HZ, &sw)) < 0)
		goto out; /* said */
	fd = runqlen_map_fd(td.obj, RUNQLEN_M_snaps);
	ret = pick_cpu(d, &old);
	if (ret < 0) {
		bb_fail(err, ret, "discovery: no CPU to run on: %s",
			strerror(-ret));
		goto out;
	}
	ret = run_steps(d, fd, cand);
	spinners(d, 0);
	sched_setaffinity(0, sizeof(old), &old);
	if (ret == -EINTR)
		bb_fail(err, ret, "discovery of %s interrupted", path);
	else if (ret < 0)
		bb_fail(err, ret, "discovery of %s: CPU %d's samples: %s",
			path, d->cpu, strerror(-ret));
	else
		ret = disc_result(d, cand, bb_now_mono() - t0, out, err);
out:
	tool_cleanup(&td);
	if (ret < 0 && !err->msg[0])
		bb_fail(err, ret, "discovery of %s failed (above)", path);
	return ret;
}

/* ---- where the run queue is (the raw tracepoint: runqlen_rq.c) ---- */

static int rq_by_btf(struct tool_ctx *t, struct bb_fieldoff *fo,
		     struct rq_where *w, const char *why)
{
	struct bb_err err = { "" };
	struct bb_field a, b;

	if (w->no_task)
		bb_fail(&err, -EOPNOTSUPP, "bpf_get_current_task() needs the "
			"JIT here, which is off");
	if (w->no_task || fieldoff_find(fo, "task_struct.se.cfs_rq", &a,
					&err) < 0 ||
	    fieldoff_find(fo, "cfs_rq.rq", &b, &err) < 0) {
		char why2[1200];

		snprintf(why2, sizeof(why2), "%s, and no BTF places "
			 "current->se.cfs_rq->rq: %s", why, err.msg);
		return runqlen_rq_by_rawtp(t, w, why2);
	}
	w->route = RUNQLEN_TASK;
	w->off_task_cfs_rq = a.offset;
	w->off_cfs_rq_rq = b.offset;
	if (t->verbose)
		fprintf(stderr, "run queue: current->se.cfs_rq->rq "
			"(task_struct.se.cfs_rq at %u, cfs_rq.rq at %u: "
			"%s)\n", a.offset, b.offset, a.how);
	return 0;
}

static int find_rq(struct tool_ctx *t, struct bb_fieldoff *fo,
		   struct rq_where *w)
{
	static const char *const names[] = { "runqueues", "__per_cpu_offset" };
	const char *force = getenv("BAREBPF_RUNQLEN_RQ");
	struct bb_err err = { "" };
	uint64_t a[2];
	int ret;

	/* to check the ways a kernel does not need against each other */
	if (force && !strcmp(force, "tracepoint"))
		return runqlen_rq_by_rawtp(t, w, "BAREBPF_RUNQLEN_RQ=tracepoint");
	ret = ksyms_lookup(NULL, names, 2, a, &err);
	if (force && !strcmp(force, "btf"))
		ret = bb_fail(&err, -ENOENT, "BAREBPF_RUNQLEN_RQ=btf");
	if (ret < 0)
		return rq_by_btf(t, fo, w, err.msg);
	/* a kernel without SMP has no offsets: its one rq is the symbol */
	if (!a[0] || (!a[1] && bb_ncpus_possible() != 1))
		return rq_by_btf(t, fo, w, "/proc/kallsyms lists no "
				 "runqueues and __per_cpu_offset (a kernel "
				 "without CONFIG_KALLSYMS_ALL, or "
				 "kptr_restrict)");
	w->route = RUNQLEN_PERCPU;
	w->rq_addr = a[0];
	w->pcpu_offsets = a[1];
	if (t->verbose)
		fprintf(stderr, "run queue: runqueues at 0x%llx + "
			"__per_cpu_offset[cpu] (at 0x%llx; /proc/kallsyms)\n",
			(unsigned long long)a[0], (unsigned long long)a[1]);
	return 0;
}

/* Where bpf_get_smp_processor_id() is refused or answers 0 on every CPU
 * (probe.h, bpf_cpu_helper_ok), the CPU from a map of each CPU's own. */
static void cpu_by_map(struct tool_ctx *t, struct rq_where *w)
{
	const char *force = getenv("BAREBPF_RUNQLEN_CPU");
	/* BAREBPF_RUNQLEN_CPU=map: to test that way on any kernel */
	int forced = force && !strcmp(force, "map");

	if (!forced && bpf_cpu_helper_ok())
		return;
	w->cpu_map = 1;
	/* riscv64 7.x, its JIT off, refuses this one too; 6.12 takes it */
	w->no_task = bpf_helper_needs_jit(BPF_PROG_TYPE_PERF_EVENT, 35);
	if (t->verbose)
		fprintf(stderr, "CPU: the map cpus, each CPU's number in its "
			"own slot, as %s%s\n", forced ?
			"BAREBPF_RUNQLEN_CPU=map asks" :
			"bpf_get_smp_processor_id() is refused or answers 0 "
			"(the JIT inlines it and is off)", w->no_task ?
			"; bpf_get_current_task() is refused too" : "");
}

int runqlen_start(struct tool_ctx *t, const struct runqlen_settings *s,
		  struct runqlen_run *r)
{
	struct bb_err err = { "" };
	struct bb_fieldoff fo;
	struct bb_field nr;
	struct rq_where w;
	struct disc d = { t, &w, 0, { 0 }, 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	fieldoff_init(&fo, t->btf_file);
	fieldoff_register(&fo, "rq.nr_running", discover_nr_running, &d);
	memset(&w, 0, sizeof(w));
	cpu_by_map(t, &w);
	ret = find_rq(t, &fo, &w);
	if (ret == 0) {
		ret = fieldoff_find(&fo, "rq.nr_running", &nr, &err);
		if (ret < 0)
			tool_error(t, "%s", err.msg);
	}
	fieldoff_close(&fo);
	if (ret < 0) {
		free(w.rqs);
		return ret;
	}
	if (t->verbose)
		fprintf(stderr, "rq.nr_running at offset %u (%u bytes): %s\n",
			nr.offset, nr.size, nr.how);
	if (nr.size != 4) {
		free(w.rqs);
		return tool_fail(t, -EINVAL, "rq.nr_running has %u bytes "
				 "here, not 4: a kernel barebpf does not know",
				 nr.size);
	}
	r->off_nr_running = nr.offset;
	r->src = nr.src;
	ret = tool_open(t, &runqlen_skel, EMBEDDED_ARGS(runqlen));
	if (ret < 0 || (ret = configure(t, &w, 0, nr.offset, s->per_cpu)) < 0 ||
	    (ret = tool_load(t)) < 0 || (ret = fill_maps(t, &w)) < 0)
		goto out;
	r->dist_fd = runqlen_map_fd(t->obj, RUNQLEN_M_dist);
	ret = attach(t, s->hz, &r->software);
	if (ret < 0)
		goto out;
	r->ncpus = ret;
	ret = 0;
out:
	free(w.rqs);
	return ret;
}
