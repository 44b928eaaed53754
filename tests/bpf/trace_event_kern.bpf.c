/* SPDX-License-Identifier: MIT */
/*
 * samples/bpf/trace_event_kern.c as Linux 4.15 and 4.16 shipped it: a
 * SEC("perf_event") program that counts samples by command, kernel stack
 * and user stack (bpf_get_stackid into a stack trace map, bpf_load's
 * struct bpf_map_def maps), skips the first samples of a frequency-driven
 * event while the kernel still tunes its period, says with
 * bpf_trace_printk when neither stack could be taken, and reads the
 * event's enabled and running times (bpf_perf_prog_read_value, 4.15).
 * 4.17 added a printk of ctx->addr, a context field older kernels refuse:
 * this is the version that runs on 4.15.
 */
#include "bb_helpers.h"

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int inner_map_idx, numa_node;
};

struct bpf_perf_event_data {
	struct pt_regs regs;
	u64 sample_period;
};

struct bpf_perf_event_value {
	u64 counter, enabled, running;
};

/* 4.15: helper 56 */
static long (*bpf_perf_prog_read_value)(void *ctx, void *buf,
					u32 size) = (void *)56;

#define TASK_COMM_LEN 16
#define PERF_MAX_STACK_DEPTH 127

struct key_t {
	char comm[TASK_COMM_LEN];
	u32 kernstack;
	u32 userstack;
};

struct bpf_map_def SEC("maps") counts = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(struct key_t),
	.value_size = sizeof(u64),
	.max_entries = 10000,
};

struct bpf_map_def SEC("maps") stackmap = {
	.type = BPF_MAP_TYPE_STACK_TRACE,
	.key_size = sizeof(u32),
	.value_size = PERF_MAX_STACK_DEPTH * sizeof(u64),
	.max_entries = 10000,
};

#define KERN_STACKID_FLAGS (0 | BPF_F_FAST_STACK_CMP)
#define USER_STACKID_FLAGS (0 | BPF_F_FAST_STACK_CMP | BPF_F_USER_STACK)

SEC("perf_event")
int bpf_prog1(struct bpf_perf_event_data *ctx)
{
	char enabled_fmt[] = "Time Enabled: %llu, Time Running: %llu";
	char failed_fmt[] = "Get Time Failed, ErrCode: %d";
	char nostack_fmt[] = "CPU-%d period %lld ip %llx";
	u32 cpu = bpf_get_smp_processor_id();
	struct bpf_perf_event_value times;
	struct key_t key;
	u64 *count, one = 1;
	int ret;

	if (ctx->sample_period < 10000) /* the period still warming up */
		return 0;
	bpf_get_current_comm(&key.comm, sizeof(key.comm));
	key.kernstack = bpf_get_stackid(ctx, &stackmap, KERN_STACKID_FLAGS);
	key.userstack = bpf_get_stackid(ctx, &stackmap, USER_STACKID_FLAGS);
	if ((int)key.kernstack < 0 && (int)key.userstack < 0) {
		bpf_trace_printk(nostack_fmt, sizeof(nostack_fmt), cpu,
				 ctx->sample_period, PT_REGS_IP(&ctx->regs));
		return 0;
	}
	ret = bpf_perf_prog_read_value(ctx, &times, sizeof(times));
	if (!ret)
		bpf_trace_printk(enabled_fmt, sizeof(enabled_fmt),
				 times.enabled, times.running);
	else
		bpf_trace_printk(failed_fmt, sizeof(failed_fmt), ret);
	count = bpf_map_lookup_elem(&counts, &key);
	if (count)
		(*count)++;
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char _license[] SEC("license") = "GPL";
