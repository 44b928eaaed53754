/* SPDX-License-Identifier: MIT */
/*
 * Which disk the current task is submitting a bio to, without BTF or
 * struct offsets: the block_bio_queue tracepoint (which carries dev) fires
 * in generic_make_request_checks() (4.15) / submit_bio_checks() (5.x) /
 * submit_bio_noacct_nocheck() (6.x), on the submitting task, before that
 * same task enters the queue (blk_queue_enter, __bio_queue_enter) and
 * before generic_make_request/submit_bio_noacct returns. So a kprobe on
 * those functions can ask taskdev_get() for the disk.
 *
 * The tool sets the constant tpoff_bio_queue_dev (tool_tp_offset on
 * block/block_bio_queue "dev") and attaches program taskdev_bio_queue.
 * For stacked devices (dm, md) the last disk queued by the task wins.
 */
#ifndef BAREBPF_TASKDEV_H
#define BAREBPF_TASKDEV_H

#include "bb_helpers.h"

/* LRU (4.10+): threads that exit never delete their entry */
BB_MAP(task_dev, BPF_MAP_TYPE_LRU_HASH, sizeof(u32), sizeof(u32), 16384);

SEC("tracepoint/block/block_bio_queue")
int taskdev_bio_queue(void *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u32 dev = 0;

	BB_TP_READ(dev, ctx, tpoff_bio_queue_dev);
	bpf_map_update_elem(&task_dev, &tid, &dev, BPF_ANY);
	return 0;
}

/* The kernel dev_t (major << 20 | minor) last queued by this task, or 0. */
static __always_inline u32 taskdev_get(void)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	u32 *dev = bpf_map_lookup_elem(&task_dev, &tid);

	return dev ? *dev : 0;
}

#endif
