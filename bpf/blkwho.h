/* SPDX-License-Identifier: MIT */
/*
 * Who submitted a block request, on tracepoints only, for the tools that
 * name a request's process (bitesize, biotop), as bcc's took it at
 * blk_account_io_start: the task that made the request from its bio.
 * block_getrq fires on that task when a new request is taken for a bio
 * (4.9/4.15: blk_mq_make_request or get_request; 5.x/6.x:
 * blk_mq_submit_bio), with the bio's dev and sector, which become the
 * request's, once per request (also for the pieces of a split bio). The
 * task current at block_rq_issue is a kworker (kblockd) whenever the
 * queue is run later: on 4.9 and 4.15 every direct read of a null_blk
 * disk was issued by kworker/1:1H. A bio merged in front of a request
 * moves the request's start sector: block_bio_frontmerge moves the entry
 * with it. Entries left behind age out of the LRU map (a plain hash before
 * 4.10: loader/obj/mapload.c; the tool deletes what it looks up).
 *
 * Since 5.12 block_getrq's dev is the partition's while block_rq_* report
 * the whole disk: part_disk (filled by blkwho_fill_part_disk,
 * loader/progs/blkwho.c) maps a partition to its disk.
 *
 * The object sets: tp_direct (as biosnoop's: dev, sector and nr_sector at
 * BLKWHO_TP_*), tpoff_getrq_dev, tpoff_getrq_sector, tpoff_frontmerge_dev,
 * tpoff_frontmerge_sector, tpoff_frontmerge_nr_sector, filter_dev (0:
 * every disk).
 */
#ifndef BAREBPF_BLKWHO_H
#define BAREBPF_BLKWHO_H

#include "bb_helpers.h"

#define BLKWHO_TP_DEV 8
#define BLKWHO_TP_SECTOR 16
#define BLKWHO_TP_NR_SECTOR 24

struct blkwho_rq {
	u32 dev; /* kernel dev_t: major << 20 | minor */
	u32 pad;
	u64 sector;
};

struct blkwho {
	u32 pid; /* thread group id, as bcc shows it */
	u32 pad;
	char comm[16];
};

BB_MAP(who, BPF_MAP_TYPE_LRU_HASH, sizeof(struct blkwho_rq),
       sizeof(struct blkwho), 4096);
BB_MAP(part_disk, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u32), 4096);

static __always_inline int blkwho_filtered(u32 dev)
{
	u32 filter = BB_CONST(filter_dev);

	return filter && dev != filter;
}

static __always_inline u32 blkwho_whole_disk(u32 dev)
{
	u32 *disk = bpf_map_lookup_elem(&part_disk, &dev);

	return disk ? *disk : dev;
}

SEC("tracepoint/block/block_getrq")
int who_getrq(void *ctx)
{
	struct blkwho_rq rq = {};
	struct blkwho w = {};

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BLKWHO_TP_DEV, tpoff_getrq_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BLKWHO_TP_SECTOR,
		    tpoff_getrq_sector);
	rq.dev = blkwho_whole_disk(rq.dev);
	if (blkwho_filtered(rq.dev))
		return 0;
	w.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(&w.comm, sizeof(w.comm));
	bpf_map_update_elem(&who, &rq, &w, BPF_ANY);
	return 0;
}

/* The request that started at sector + nr_sector now starts at sector. */
SEC("tracepoint/block/block_bio_frontmerge")
int who_frontmerge(void *ctx)
{
	struct blkwho_rq old = {}, rq = {};
	struct blkwho w, *wp;
	u32 nr = 0;

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BLKWHO_TP_DEV,
		    tpoff_frontmerge_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BLKWHO_TP_SECTOR,
		    tpoff_frontmerge_sector);
	BB_TP_FIELD(nr, ctx, tp_direct, BLKWHO_TP_NR_SECTOR,
		    tpoff_frontmerge_nr_sector);
	rq.dev = blkwho_whole_disk(rq.dev);
	if (blkwho_filtered(rq.dev))
		return 0;
	old.dev = rq.dev;
	old.sector = rq.sector + nr;
	wp = bpf_map_lookup_elem(&who, &old);
	if (!wp)
		return 0;
	__builtin_memcpy(&w, wp, sizeof(w));
	bpf_map_delete_elem(&who, &old);
	bpf_map_update_elem(&who, &rq, &w, BPF_ANY);
	return 0;
}

#endif
