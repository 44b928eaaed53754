/* SPDX-License-Identifier: MIT */
/*
 * vfsstat: calls of the vfs_* functions, counted per CPU (no atomic
 * operation, no shared cache line on the hottest of them, vfs_read).
 */
#include "bb_helpers.h"
#include "vfsstat.h"

BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       VFS_NSTATS);

static __always_inline void inc(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v)
		(*v)++;
}

SEC("kprobe/vfs_read")
int do_read(struct pt_regs *ctx) { inc(VFS_READ); return 0; }
SEC("kprobe/vfs_write")
int do_write(struct pt_regs *ctx) { inc(VFS_WRITE); return 0; }
SEC("kprobe/vfs_fsync")
int do_fsync(struct pt_regs *ctx) { inc(VFS_FSYNC); return 0; }
SEC("kprobe/vfs_open")
int do_open(struct pt_regs *ctx) { inc(VFS_OPEN); return 0; }
SEC("kprobe/vfs_create")
int do_create(struct pt_regs *ctx) { inc(VFS_CREATE); return 0; }

char _license[] SEC("license") = "GPL";
