/* SPDX-License-Identifier: MIT */
/*
 * perf events that run a BPF program, for every provider: a trace event
 * (tracepoints, and kprobes made in kprobe_events) or a probe of the perf
 * kprobe PMU (4.17+), then PERF_EVENT_IOC_SET_BPF and ENABLE.
 */
/* clone: _GNU_SOURCE comes from the Makefile */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "probe_internal.h"
#include "syscall.h"

/*
 * The program array hangs off the trace event, not off the perf event: one
 * perf event (pid -1, CPU 0) makes the program run on every CPU, and in
 * 4.15 a second SET_BPF of the same program on the same event fails with
 * EEXIST. So: one perf event per (program, event).
 */
static int perf_attach_task(struct perf_event_attr *attr, int pid,
			    int prog_fd)
{
	int pfd, ret;

	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->wakeup_events = 1;
	/* a uprobe of one process: that task's event on any CPU (the
	 * kernel installs the probe only in its mm) */
	pfd = sys_perf_event_open(attr, pid > 0 ? pid : -1, pid > 0 ? -1 : 0,
				  -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return pfd;
	ret = sys_ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd);
	if (ret < 0)
		goto err_close;
	ret = sys_ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	if (ret < 0)
		goto err_close;
	return pfd;

err_close:
	close(pfd);
	return ret;
}

static int perf_attach(struct perf_event_attr *attr, int prog_fd)
{
	return perf_attach_task(attr, -1, prog_fd);
}

static int sample_open(uint32_t type, int cpu, unsigned hz, int prog_fd)
{
	struct perf_event_attr attr;
	int pfd, ret;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = type == PERF_TYPE_HARDWARE ? PERF_COUNT_HW_CPU_CYCLES
						 : PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = hz; /* sample_freq, with the flag */
	attr.flags = PERF_ATTR_FLAG_FREQ | PERF_ATTR_FLAG_DISABLED;
	pfd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return pfd;
	ret = sys_ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd);
	if (ret >= 0)
		ret = sys_ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	if (ret < 0) {
		close(pfd);
		return ret;
	}
	return pfd;
}

int perf_sample_open(int cpu, unsigned hz, int prog_fd, int *sw)
{
	int pfd;

	if (!*sw) {
		pfd = sample_open(PERF_TYPE_HARDWARE, cpu, hz, prog_fd);
		/* no PMU (ENOENT), or not this event (EOPNOTSUPP, EINVAL) */
		if (pfd >= 0 || (pfd != -ENOENT && pfd != -EOPNOTSUPP &&
				 pfd != -EINVAL))
			return pfd;
		*sw = 1;
	}
	return sample_open(PERF_TYPE_SOFTWARE, cpu, hz, prog_fd);
}

int perf_tp_attach(int tp_id, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = tp_id;
	return perf_attach(&attr, prog_fd);
}

/*
 * Whether a BPF program attaches to this trace event: the syscalls/
 * events take one from 4.14 on (EINVAL before). 1: yes, or another error
 * that the real attach will report; 0: refused.
 */
int perf_tp_bpf_ok(int tp_id)
{
	const struct bpf_insn insns[] = {
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 }, /* r0 = 0 */
		{ .code = 0x95 },                         /* exit */
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, insns, 2, "GPL", 0,
			       "bb_tp_probe", NULL, NULL);
	int pfd;

	if (fd < 0)
		return 1;
	pfd = perf_tp_attach(tp_id, fd);
	close(fd);
	if (pfd == -EINVAL)
		return 0;
	perf_event_close(pfd);
	return 1;
}

/*
 * The kprobe PMU takes the function name by pointer in config1 and an
 * offset in config2, and a kretprobe is a config bit.
 */
int kprobe_pmu_open_at(int type, const char *fn, int off, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.config1 = (uint64_t)(uintptr_t)fn;
	attr.config2 = (uint64_t)off;
	return perf_attach(&attr, prog_fd);
}

int kprobe_pmu_open(int type, int retbit, const char *fn, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.config = retbit >= 0 ? 1ULL << retbit : 0;
	attr.config1 = (uint64_t)(uintptr_t)fn;
	attr.config2 = 0;
	return perf_attach(&attr, prog_fd);
}

int perf_tp_attach_pid(int tp_id, int pid, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = tp_id;
	return perf_attach_task(&attr, pid, prog_fd);
}

/* The uprobe PMU (4.17): the path by pointer in config1 (uprobe_path), the
 * file offset in config2 (probe_offset), a uretprobe as a config bit. */
int uprobe_pmu_open(int type, int retbit, const char *path, uint64_t off,
		    uint64_t ref_ctr, int pid, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.config = retbit >= 0 ? 1ULL << retbit : 0;
	/* format/ref_ctr_offset: "config:32-63" (4.20+) */
	attr.config |= ref_ctr << 32;
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = off;
	return perf_attach_task(&attr, pid, prog_fd);
}

void perf_event_close(int pfd)
{
	if (pfd >= 0) {
		sys_ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
		close(pfd);
	}
}

/*
 * Closing the last perf event of a trace event waits for the kernel:
 * perf_trace_event_unreg -> tracepoint_synchronize_unregister, RCU grace
 * periods, 20-50 ms each here, one tracepoint after the other when one task
 * closes them all. So the closes are shared out among up to CLOSERS tasks
 * that share our memory and file table (clone, as vfork children would:
 * raw system calls only, no libc, every signal blocked). The kernel still
 * holds event_mutex across part of that wait, so the waits overlap only in
 * part (about 2x for 2-26 tracepoints).
 * Without a watch the caller is one of them. With one, the caller only
 * watches (its close could not be left: the wait is uninterruptible), woken
 * by a signal, by the last helper out (a byte on a pipe) or every
 * CLOSE_TICK_MS; the watch may stop the helpers, who finish the close they
 * are in and take no other.
 * A helper that cannot start, or is killed, leaves its share to the caller:
 * each fd is set to -1 once closed, and what is not is closed at the end
 * (nothing opens fds meanwhile, so a number cannot have been reused).
 */
#ifndef CLOSERS
#define CLOSERS 16
#endif
#define CLOSER_STACK (16 * 1024)
#define CLOSE_TICK_MS 100

struct closers {
	int *fds;
	int n;
	int next;    /* the next index to take, shared */
	int done;    /* closed so far */
	int stop;    /* set: take no more */
	int running; /* helpers not yet out */
	int wake;    /* write end of the caller's pipe, or -1 */
};

static void closer_loop(struct closers *c)
{
	int i;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) &&
	       (i = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED)) < c->n) {
		int fd = __atomic_load_n(&c->fds[i], __ATOMIC_RELAXED);

		if (fd >= 0) {
			bb_syscall6(BB_NR_close, fd, 0, 0, 0, 0, 0);
			__atomic_store_n(&c->fds[i], -1, __ATOMIC_RELEASE);
		}
		__atomic_fetch_add(&c->done, 1, __ATOMIC_RELAXED);
	}
}

static int closer_main(void *arg)
{
	struct closers *c = arg;
	static const char b = 0;

	closer_loop(c);
	if (__atomic_sub_fetch(&c->running, 1, __ATOMIC_ACQ_REL) == 0 &&
	    c->wake >= 0)
		bb_syscall6(BB_NR_write, c->wake, (long)&b, 1, 0, 0, 0);
	return 0;
}

/* Whether every helper is out (one killed never says so on the pipe). */
static int helpers_gone(const pid_t *pids, int nh)
{
	int i;

	for (i = 0; i < nh; i++)
		if (pids[i] > 0 && waitpid(pids[i], NULL, __WCLONE | WNOHANG) == 0)
			return 0;
	return 1;
}

/* Wait for the helpers; 1 if the watch stopped them. */
static int closers_watch(struct closers *c, int rfd, const pid_t *pids,
			 int nh, perf_close_watch_fn watch, void *ctx)
{
	struct pollfd pfd = { rfd, POLLIN, 0 };

	for (;;) {
		int ret = poll(&pfd, 1, CLOSE_TICK_MS);

		if (ret > 0)
			return 0;
		if (ret == 0 && helpers_gone(pids, nh))
			return 0;
		/* a timeout, or a signal (never restarted: signal(7)) */
		if (watch(ctx, __atomic_load_n(&c->done, __ATOMIC_RELAXED),
			  c->n)) {
			__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
			return 1;
		}
	}
}

int perf_events_close_watch(int *fds, int n, perf_close_watch_fn watch,
			    void *ctx)
{
	struct closers c = { fds, n, 0, 0, 0, 0, -1 };
	pid_t pids[CLOSERS];
	int i, nh = 0, tasks = n < CLOSERS ? n : CLOSERS, p[2] = { -1, -1 };
	int stopped = 0;
	char *stacks = NULL;
	sigset_t all, old;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			sys_ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	/* watched: every task a helper, the caller free to watch */
	if (watch && tasks > 0 && pipe2(p, O_CLOEXEC) == 0)
		c.wake = p[1];
	else if (watch)
		watch = NULL;
	else
		tasks--;
	if (tasks > 0)
		stacks = malloc((size_t)tasks * CLOSER_STACK);
	if (stacks) {
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, &old);
		for (i = 0; i < tasks; i++) {
			pid_t pid;

			__atomic_fetch_add(&c.running, 1, __ATOMIC_RELAXED);
			/* exit signal 0: reaped with __WCLONE, no SIGCHLD */
			pid = clone(closer_main,
				    stacks + (size_t)(i + 1) * CLOSER_STACK,
				    CLONE_VM | CLONE_FILES, &c);
			if (pid < 0) {
				__atomic_fetch_sub(&c.running, 1,
						   __ATOMIC_RELAXED);
				break;
			}
			pids[nh++] = pid;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (watch && nh)
		stopped = closers_watch(&c, p[0], pids, nh, watch, ctx);
	else
		closer_loop(&c);
	for (i = 0; i < nh; i++)
		while (waitpid(pids[i], NULL, __WCLONE) < 0 && errno == EINTR)
			;
	free(stacks);
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
	if (stopped)
		return -EINTR;
	for (i = 0; i < n; i++) /* a helper's share if it was killed */
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
	return 0;
}

void perf_events_close(int *fds, int n)
{
	perf_events_close_watch(fds, n, NULL, NULL);
}

int kprobe_pmu_format_bit(const char *text)
{
	char *end;
	long bit;

	if (strncmp(text, "config:", 7))
		return -EINVAL;
	bit = strtol(text + 7, &end, 10);
	if (end == text + 7 || bit < 0 || bit > 63 ||
	    (*end && *end != '\n'))
		return -EINVAL;
	return (int)bit;
}

#define PMU_DIR "/sys/bus/event_source/devices/"

static int pmu_type(const char *pmu, const char *env_name, int *retbit)
{
	const char *env = getenv(env_name);
	char buf[64], path[128];
	int ret;

	*retbit = -1;
	if (env && !strcmp(env, "tracefs"))
		return -ENOENT;
	snprintf(path, sizeof(path), PMU_DIR "%s/type", pmu);
	ret = bb_read_small(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	ret = atoi(buf);
	if (ret <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), PMU_DIR "%s/format/retprobe", pmu);
	if (bb_read_small(path, buf, sizeof(buf)) >= 0)
		*retbit = kprobe_pmu_format_bit(buf);
	return ret;
}

int kprobe_pmu_type(int *retbit)
{
	return pmu_type("kprobe", "BAREBPF_KPROBES", retbit);
}

int uprobe_pmu_type(int *retbit)
{
	return pmu_type("uprobe", "BAREBPF_UPROBES", retbit);
}
