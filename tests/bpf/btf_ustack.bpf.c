/* SPDX-License-Identifier: MIT */
/*
 * bcc's profile/offcputime key: a pid beside a user stack id. At every
 * context switch of one process (bb_tgid), its user stack goes into a
 * stack map and the pair is counted; barebpf run names the stack's frames
 * with that pid (tests/integration/test_run.c).
 */
#include "bb_helpers.h"
#include "bb_libbpf.h"

struct key_t {
	u32 pid;
	s32 user_stack_id;
	s32 kernel_stack_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct key_t);
	__type(value, u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 64);
	__uint(key_size, sizeof(u32));
	__uint(value_size, 127 * sizeof(u64));
} ustacks SEC(".maps");

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct key_t k = {};
	u64 one = 1, *v;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	k.pid = tgid;
	k.user_stack_id = bpf_get_stackid(ctx, &ustacks, BPF_F_USER_STACK);
	k.kernel_stack_id = -1;
	v = bpf_map_lookup_elem(&counts, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &k, &one, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
