/* SPDX-License-Identifier: MIT */
/*
 * samples/bpf/sampleip_kern.c as Linux 4.9 to 5.9 shipped it (bpf_load's
 * struct bpf_map_def in section maps; from 5.10 the sample has a BTF map
 * instead): a SEC("perf_event") program that counts the instruction
 * pointer of every sample in a hash, user-space and kernel addresses
 * alike. Its loader, sampleip_user.c, opened a sampling event per CPU;
 * barebpf run does that at -F HZ.
 */
#include "bb_helpers.h"

/* bpf_load's map definition (samples/bpf/bpf_load.h, 4.12+) */
struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
	unsigned int inner_map_idx, numa_node;
};

/* include/uapi/linux/bpf_perf_event.h: the registers of the sample */
struct bpf_perf_event_data {
	struct pt_regs regs;
	u64 sample_period;
};

#define MAX_IPS 8192

struct bpf_map_def SEC("maps") ip_map = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(u64),
	.value_size = sizeof(u32),
	.max_entries = MAX_IPS,
};

SEC("perf_event")
int do_sample(struct bpf_perf_event_data *ctx)
{
	u64 ip = PT_REGS_IP(&ctx->regs);
	u32 *count, first = 1;

	count = bpf_map_lookup_elem(&ip_map, &ip);
	if (count)
		*count += 1;
	else /* as the sample: a full map (E2BIG) is not checked */
		bpf_map_update_elem(&ip_map, &ip, &first, BPF_NOEXIST);
	return 0;
}

char _license[] SEC("license") = "GPL";
