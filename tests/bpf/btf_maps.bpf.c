/* SPDX-License-Identifier: MIT */
/*
 * Maps written the libbpf way (SEC(".maps"), __uint/__type/__array),
 * read from the object's BTF: a hash with a struct key, a per-CPU array,
 * a map of maps filled by .values, a stack trace map, a pinned map.
 */
#include "bb_helpers.h"
#include "bb_libbpf.h"

struct key_t {
	u32 tgid;
	u32 tag;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, struct key_t);
	__type(value, u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} percpu SEC(".maps");

struct inner_t {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} inner0 SEC(".maps"), inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, u32);
	__array(values, struct inner_t);
} outer SEC(".maps") = {
	.values = { [0] = &inner0, [1] = &inner1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 64);
	__uint(key_size, sizeof(u32));
	__uint(value_size, 127 * sizeof(u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bbtest_btfpin SEC(".maps");

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0, one = 1;
	struct key_t k = { .tgid = tgid, .tag = 7 };
	u64 init = 1, *v;
	void *in;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	v = bpf_map_lookup_elem(&counts, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &k, &init, BPF_ANY);
	v = bpf_map_lookup_elem(&percpu, &zero);
	if (v)
		*v += 1;
	in = bpf_map_lookup_elem(&outer, &one);
	if (in) {
		v = bpf_map_lookup_elem(in, &zero);
		if (v)
			__sync_fetch_and_add(v, 1);
	}
	v = bpf_map_lookup_elem(&bbtest_btfpin, &zero);
	if (v)
		__sync_fetch_and_add(v, 1);
	bpf_get_stackid(ctx, &stacks, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
