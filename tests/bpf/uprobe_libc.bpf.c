/* SPDX-License-Identifier: MIT */
/*
 * For tests/integration/test_run.c: libbpf-style uprobe sections on libc,
 * by its short name (found as trace finds it), counting the getppid()
 * calls of one process (bb_tgid, set with run -c) into slot 0 and the
 * returns of calls whose entry was seen into slot 1.
 *
 * Only paired returns count: the uprobe and the uretprobe are attached one
 * after the other, each into every process that maps libc, and under load
 * that takes long enough for hundreds of calls to enter with no uretprobe
 * yet (737 entries, 472 returns in one CI run), or to return after the
 * uprobe is gone. A return counted here proves the uretprobe fired for a
 * call the uprobe saw.
 */
#include "bb_helpers.h"

BB_MAP(counts, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 2);
BB_MAP(inside, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 1024);

static __always_inline int count(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&counts, &slot);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("uprobe/c:getppid")
int getppid_entry(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), one = 1;
	u32 tid = (u32)id;

	if (id >> 32 != BB_CONST(bb_tgid))
		return 0;
	bpf_map_update_elem(&inside, &tid, &one, BPF_ANY);
	return count(0);
}

SEC("uretprobe/c:getppid")
int getppid_return(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = (u32)id;

	if (id >> 32 != BB_CONST(bb_tgid) ||
	    !bpf_map_lookup_elem(&inside, &tid))
		return 0;
	bpf_map_delete_elem(&inside, &tid);
	return count(1);
}

char _license[] SEC("license") = "GPL";
