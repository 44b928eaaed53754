/* SPDX-License-Identifier: MIT */
/*
 * bitesize: block request sizes as a log2 histogram (KiB) per command,
 * counted at block_rq_issue (the request's bytes then, as bcc's
 * bitesize.py counts them), under the name of the task that submitted the
 * request (blkwho.h), as bcc's did at blk_account_io_start before it
 * moved to the tracepoint's comm in 2019: that is the task running at
 * issue, a kworker whenever the queue is run later (every direct read of
 * a null_blk disk on 4.9 and 4.15). A request whose submitter was not seen
 * (made before the start, or by the block layer itself: a flush sequence)
 * counts under the task current at issue, bcc's choice.
 *
 * Constants: blkwho.h's, tpoff_issue_dev, tpoff_issue_sector,
 * tpoff_issue_nr_sector, tpoff_issue_bytes (tp_direct: at blkwho.h's and
 * bitesize.h's offsets), filter_comm (1: only the command whose 16
 * NUL-padded bytes are comm_lo, comm_hi).
 */
#include "bb_helpers.h"
#include "blkwho.h"
#include "bitesize.h"

/* a command has a slot per size class it issued: 4,096 keys are about
 * 400 commands of 10 classes each; beyond, counts are dropped (said) */
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct bitesize_key), sizeof(u64),
       4096);
BB_DROPS_MAP();

SEC("tracepoint/block/block_rq_issue")
int rq_issue(void *ctx)
{
	struct bitesize_key key = {};
	struct blkwho_rq rq = {};
	struct blkwho *w;
	u64 comm[2] = {};
	u32 bytes = 0, nr = 0;

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BLKWHO_TP_DEV, tpoff_issue_dev);
	if (blkwho_filtered(rq.dev))
		return 0;
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BLKWHO_TP_SECTOR,
		    tpoff_issue_sector);
	w = bpf_map_lookup_elem(&who, &rq);
	if (w) {
		__builtin_memcpy(comm, w->comm, sizeof(comm));
		bpf_map_delete_elem(&who, &rq);
	} else {
		bpf_get_current_comm(comm, sizeof(comm));
	}
	if (BB_CONST(filter_comm) &&
	    (comm[0] != BB_CONST(comm_lo) || comm[1] != BB_CONST(comm_hi)))
		return 0;
	/* 4.9 sets bytes for passthrough requests only (0 for every read)
	 * and nr_sector for the others; 4.15 on, bytes for all */
	BB_TP_FIELD(nr, ctx, tp_direct, BLKWHO_TP_NR_SECTOR,
		    tpoff_issue_nr_sector);
	if (nr)
		bytes = nr << 9;
	else
		BB_TP_FIELD(bytes, ctx, tp_direct, BITESIZE_TP_BYTES,
			    tpoff_issue_bytes);
	__builtin_memcpy(key.comm, comm, sizeof(key.comm));
	key.slot = bb_log2(bytes / 1024);
	bb_hist_add(&hist, &key, 1, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
