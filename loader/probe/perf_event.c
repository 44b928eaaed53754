/* SPDX-License-Identifier: MIT */
/*
 * perf events that run a BPF program, for every provider: a trace event
 * (tracepoints, and kprobes made in kprobe_events) or a probe of the perf
 * kprobe PMU (4.17+), then PERF_EVENT_IOC_SET_BPF and ENABLE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe.h"

/*
 * The program array hangs off the trace event, not off the perf event: one
 * perf event (pid -1, CPU 0) makes the program run on every CPU, and in
 * 4.15 a second SET_BPF of the same program on the same event fails with
 * EEXIST. So: one perf event per (program, event).
 */
static int perf_attach(struct perf_event_attr *attr, int prog_fd)
{
	int pfd, ret;

	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->wakeup_events = 1;
	pfd = sys_perf_event_open(attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
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

int perf_tp_attach(int tp_id, int prog_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = tp_id;
	return perf_attach(&attr, prog_fd);
}

/*
 * The kprobe PMU takes the function name by pointer in config1 and an
 * offset in config2, and a kretprobe is a config bit.
 */
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

void perf_event_close(int pfd)
{
	if (pfd >= 0) {
		sys_ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
		close(pfd);
	}
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

#define PMU_DIR "/sys/bus/event_source/devices/kprobe"

int kprobe_pmu_type(int *retbit)
{
	const char *env = getenv("BAREBPF_KPROBES");
	char buf[64];
	int ret;

	*retbit = -1;
	if (env && !strcmp(env, "tracefs"))
		return -ENOENT;
	ret = bb_read_small(PMU_DIR "/type", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	ret = atoi(buf);
	if (ret <= 0)
		return -EINVAL;
	if (bb_read_small(PMU_DIR "/format/retprobe", buf, sizeof(buf)) >= 0)
		*retbit = kprobe_pmu_format_bit(buf);
	return ret;
}
