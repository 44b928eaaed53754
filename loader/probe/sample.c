/* SPDX-License-Identifier: MIT */
/*
 * perf_event programs (libbpf's and samples/bpf's SEC("perf_event")): a
 * sampling event on every online CPU (perf_sample_open: the hardware
 * cycles counter, or the software cpu-clock where there is no PMU), each
 * a link of the session, so that session_detach_all closes them with the
 * rest. session_attach has no rate to give such a program: it is attached
 * with session_attach_sampling.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_internal.h"

static int sample_attach(struct bb_session *s, struct bb_link *l,
			 int prog_fd, int maxactive, struct bb_err *err)
{
	(void)s;
	(void)l;
	(void)prog_fd;
	(void)maxactive;
	return bb_fail(err, -EINVAL, "internal: a perf_event program is "
		       "attached with session_attach_sampling");
}

static int sample_detach(struct bb_session *s, struct bb_link *l)
{
	(void)s;
	perf_event_close(l->pfd); /* -1 if close_events took it */
	l->pfd = -1;
	return 0;
}

const struct bb_provider sample_provider = {
	"perf_event", BB_PROG_PERF_EVENT, sample_attach, sample_detach,
};

static int sample_link(struct bb_session *s, struct bb_prog *prog, int cpu,
		       int pfd)
{
	struct bb_link *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->kind = BB_PROG_PERF_EVENT;
	l->pfd = pfd;
	l->prog_fd = prog->fd;
	snprintf(l->target, sizeof(l->target), "cpu%d", cpu);
	l->next = s->links;
	s->links = l;
	return 0;
}

int session_attach_sampling(struct bb_session *s, struct bb_prog *prog,
			    unsigned hz, int *sw, struct bb_err *err)
{
	int ncpu = bb_ncpus_possible(), cpu, pfd, n = 0;

	if (prog->fd < 0)
		return bb_fail(err, -EBADF, "program %s is not loaded",
			       prog->name);
	if (ncpu < 1)
		return bb_fail(err, ncpu < 0 ? ncpu : -ENODEV,
			       "no CPU to sample: /sys/devices/system/cpu/"
			       "possible unreadable");
	for (cpu = 0; cpu < ncpu; cpu++) {
		pfd = perf_sample_open(cpu, hz, prog->fd, sw);
		if (pfd == -ENODEV) /* offline */
			continue;
		if (pfd < 0)
			return bb_fail(err, pfd, "program %s: cannot sample "
				       "CPU %d at %u Hz: perf_event_open/"
				       "SET_BPF: %s%s", prog->name, cpu, hz,
				       strerror(-pfd), pfd == -EINVAL ?
				       " (above kernel.perf_event_max_"
				       "sample_rate?)" : "");
		if (sample_link(s, prog, cpu, pfd) < 0) {
			perf_event_close(pfd);
			return bb_fail(err, -ENOMEM, "out of memory");
		}
		n++;
	}
	if (!n)
		return bb_fail(err, -ENODEV, "program %s: no CPU could be "
			       "sampled (all offline?)", prog->name);
	return n;
}

/* r0 = bpf_get_smp_processor_id() (helper 8), run by BPF_PROG_TEST_RUN
 * on the CPU this task is pinned to: the number it returns, or -errno */
static int cpu_by_helper(int fd, int cpu)
{
	unsigned char pkt[64] = { 0 };
	cpu_set_t one;
	struct {
		uint32_t prog_fd, retval, size_in, size_out;
		uint64_t data_in, data_out;
		uint32_t repeat, duration;
	} a;
	long ret;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		return -errno;
	memset(&a, 0, sizeof(a));
	a.prog_fd = (uint32_t)fd;
	a.size_in = sizeof(pkt);
	a.data_in = (uint64_t)(unsigned long)pkt;
	ret = sys_bpf(BPF_PROG_TEST_RUN, &a, sizeof(a));
	return ret < 0 ? (int)ret : (int)a.retval;
}

int bpf_cpu_helper_ok(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_CALL_CODE, .imm = 8 }, /* get_smp_processor_id */
		{ .code = 0x95 },                    /* exit */
	}, ret0[] = {
		{ .code = 0xb7 },                    /* r0 = 0 */
		{ .code = 0x95 },                    /* exit */
	};
	int ncpu = bb_ncpus_possible(), fd, cpu, got = -ENODEV;
	cpu_set_t old;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, 2, "GPL", 0,
			   "bb_cpu_probe", NULL, NULL);
	if (fd < 0) {
		/* refused for the helper alone (riscv64 7.x with the JIT off:
		 * "program requires BPF JIT compiler"), or for the type? */
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, ret0, 2, "GPL",
				   0, "bb_cpu_probe", NULL, NULL);
		if (fd < 0)
			return 1;
		close(fd);
		return 0;
	}
	if (ncpu < 2 || sched_getaffinity(0, sizeof(old), &old) < 0) {
		close(fd);
		return 1;
	}
	/* the highest CPU this task may run on, other than 0 */
	for (cpu = ncpu - 1; cpu > 0; cpu--)
		if (CPU_ISSET(cpu, &old)) {
			got = cpu_by_helper(fd, cpu);
			sched_setaffinity(0, sizeof(old), &old);
			break;
		}
	close(fd);
	return got < 0 || got == cpu;
}
