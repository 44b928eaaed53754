/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Many threads hammering histograms through sys_enter_getppid (the calls
 * of thread group bb_tgid only), for tests/integration/test_hist.c:
 *  - big: a new slot every 65 us (ktime >> 16), so that CPUs keep racing
 *    to create the same slot: bb_hist_add must count every call;
 *  - old: the same, the old way (look up; if missing, update with 1 and
 *    BPF_NOEXIST), whose loser's count is lost: measured, not asserted;
 *  - small: 4 slots for many keys: what does not fit is counted in
 *    drops_small, so that slots + drops is every call;
 *  - dh: dhist's key ({ dev 0, slot (ktime >> 16) & 63 }), read as deltas
 *    by dhist_collect while the threads run.
 */
#include "bb_helpers.h"

struct key {
	u32 a, b;
};

BB_MAP(big, BPF_MAP_TYPE_HASH, sizeof(struct key), sizeof(u64), 1 << 17);
BB_MAP(old, BPF_MAP_TYPE_HASH, sizeof(struct key), sizeof(u64), 1 << 17);
BB_MAP(small, BPF_MAP_TYPE_HASH, sizeof(struct key), sizeof(u64), 4);
BB_MAP(dh, BPF_MAP_TYPE_HASH, sizeof(struct key), sizeof(u64), 64);
BB_DROPS_MAP();
BB_MAP(drops_small, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), 1);

SEC("tracepoint/syscalls/sys_enter_getppid")
int hammer(void *ctx)
{
	struct key k = {}, d = {};
	u64 one = 1, *v;

	if ((u32)(bpf_get_current_pid_tgid() >> 32) != BB_CONST(bb_tgid))
		return 0;
	k.a = bpf_ktime_get_ns() >> 16;
	bb_hist_add(&big, &k, 1, &drops);
	bb_hist_add(&small, &k, 1, &drops_small);
	d.b = k.a & 63;
	bb_hist_add(&dh, &d, 1, &drops);
	v = bpf_map_lookup_elem(&old, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&old, &k, &one, BPF_NOEXIST);
	return 0;
}

char _license[] SEC("license") = "GPL";
