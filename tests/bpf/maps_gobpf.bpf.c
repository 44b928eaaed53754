/* SPDX-License-Identifier: MIT */
/* Maps as gobpf defines them: one per section maps/<name>, 280 bytes. */
#include "bb_helpers.h"

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int pinning;
	char namespace[256];
};

struct bpf_map_def SEC("maps/gcounts") gcounts = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8,
	.max_entries = 16,
};

SEC("tracepoint/sched/sched_switch")
int on_switch(void *ctx)
{
	u32 tgid = bpf_get_current_pid_tgid() >> 32;
	u64 one = 1, *v;

	if (tgid != BB_CONST(bb_tgid))
		return 0;
	v = bpf_map_lookup_elem(&gcounts, &tgid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&gcounts, &tgid, &one, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
