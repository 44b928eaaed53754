/* SPDX-License-Identifier: MIT */
/*
 * biotop: block I/O by process, as bcc's biotop counts it: requests,
 * bytes and the time from issue to completion, by the process that
 * submitted them (blkwho.h: the task at block_getrq, where bcc takes it
 * at blk_account_io_start or block_io_start), read or write, and disk.
 * Tracepoints only; requests are keyed by (dev, sector), as biosnoop's.
 *
 * Constants: blkwho.h's, tpoff_issue_dev, tpoff_issue_sector,
 * tpoff_issue_nr_sector, tpoff_issue_bytes, tpoff_issue_rwbs,
 * tpoff_complete_dev, tpoff_complete_sector (tp_direct: the fields with a
 * fixed place at it), filter_pid (0: every process).
 */
#include "bb_helpers.h"
#include "blkwho.h"
#include "biotop.h"

/* as biolatency.bpf.c's start map: 4,096 requests in flight at once */
BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(struct blkwho_rq),
       sizeof(struct biotop_start), 4096);
/* the processes of an interval or two (the tool deletes idle keys) */
BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(struct biotop_key),
       sizeof(struct biotop_val), 4096);
BB_DROPS_MAP();

SEC("tracepoint/block/block_rq_issue")
int rq_issue(void *ctx)
{
	struct blkwho_rq rq = {};
	struct biotop_start st = {};
	u32 nr = 0;
	char rwbs[2] = {};

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BLKWHO_TP_DEV, tpoff_issue_dev);
	if (blkwho_filtered(rq.dev))
		return 0;
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BLKWHO_TP_SECTOR,
		    tpoff_issue_sector);
	/* 4.9 sets bytes for passthrough requests only (bitesize.bpf.c) */
	BB_TP_FIELD(nr, ctx, tp_direct, BLKWHO_TP_NR_SECTOR,
		    tpoff_issue_nr_sector);
	if (nr)
		st.bytes = nr << 9;
	else
		BB_TP_FIELD(st.bytes, ctx, tp_direct, BIOTOP_TP_BYTES,
			    tpoff_issue_bytes);
	/* the operation: an optional F (preflush), then R, W, D, F, N */
	BB_TP_READ(rwbs, ctx, tpoff_issue_rwbs);
	st.write = rwbs[0] == 'W' || (rwbs[0] == 'F' && rwbs[1] == 'W');
	st.ts = bpf_ktime_get_ns();
	bb_update(&start, &rq, &st, BPF_ANY, &drops);
	return 0;
}

SEC("tracepoint/block/block_rq_complete")
int rq_complete(void *ctx)
{
	struct blkwho_rq rq = {};
	struct biotop_key key = {};
	struct biotop_val *v;
	struct biotop_start *st;
	struct blkwho *w;
	u64 delta, bytes;
	u32 filter = BB_CONST(filter_pid);

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BLKWHO_TP_DEV,
		    tpoff_complete_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BLKWHO_TP_SECTOR,
		    tpoff_complete_sector);
	st = bpf_map_lookup_elem(&start, &rq);
	if (!st)
		return 0; /* issued before the start, or filtered out */
	delta = bpf_ktime_get_ns() - st->ts;
	key.write = st->write;
	bytes = st->bytes; /* st goes with the delete */
	bpf_map_delete_elem(&start, &rq);
	w = bpf_map_lookup_elem(&who, &rq);
	if (w) {
		key.pid = w->pid;
		__builtin_memcpy(key.comm, w->comm, sizeof(key.comm));
		bpf_map_delete_elem(&who, &rq);
	}
	if (filter && key.pid != filter)
		return 0;
	key.dev = rq.dev;
	if ((s64)delta < 0)
		delta = 0;
	v = bpf_map_lookup_elem(&counts, &key);
	if (!v) {
		struct biotop_val none = {};

		bpf_map_update_elem(&counts, &key, &none, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&counts, &key);
		if (!v) {
			bb_drop(&drops); /* full */
			return 0;
		}
	}
	__sync_fetch_and_add(&v->bytes, bytes);
	__sync_fetch_and_add(&v->us, delta / 1000);
	__sync_fetch_and_add(&v->io, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
