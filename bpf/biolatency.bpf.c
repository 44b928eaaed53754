/* SPDX-License-Identifier: MIT */
/*
 * biolatency: block request latency, from issue (or insert, with -Q) to
 * completion, on tracepoints only, so it runs where kprobes do not. The
 * record layout of block_rq_* changed across kernels (4.15: rwbs[8] at 32;
 * 6.x: ioprio at 32, rwbs[10] at 34): every field offset is a load-time
 * constant read from events/block/<event>/format.
 *
 * Constants: tpoff_<event>_<field> (offsets), tp_direct (dev and sector
 * are where biolatency.h says: read from ctx), filter_dev (0: all disks),
 * per_disk, per_flags, unit_div (1000: usecs, 1000000: msecs),
 * issue_update_flags (BPF_ANY; BPF_NOEXIST with -Q so that the insert
 * time is kept when a request was inserted before it was issued);
 * for the exporter, per_op (split by operation, BIOLAT_OP_*) and keep_sum
 * (add each latency to `sums`, for a histogram's _sum).
 */
#include "bb_helpers.h"
#include "biolatency.h"

/*
 * start: a request from its issue (-Q: its insert) to its completion, so
 * it holds at most the requests that exist at once. A disk has at most
 * nr_requests of them per hardware queue (the driver's tags; with an I/O
 * scheduler the scheduler's, which -Q counts too): 32 on SATA (NCQ), up
 * to 254 on SAS, 128 on a loop device, 256 per queue on virtio-blk and
 * with mq-deadline, 1,023 per queue on NVMe, 1 to 32 on eMMC and SD
 * cards. 4,096 is what 128 SATA disks or 16 SAS ones keep in flight, or
 * four NVMe queues filled to the brim; beyond that an issue is not
 * counted, and the tool says so at exit (tool_report_drops). Preallocated
 * (loader/mods/biolatency.c): on 64-bit a 72-byte element and a 16-byte
 * bucket per entry, 352 KiB (10,240 entries: 977 KiB). Its size costs
 * time as well: on 6.18 rq_issue took 283 ns a run with 10,240 entries,
 * 195 ns with 4,096 (bpftrace's, 4,096 too: 201 ns; medians of 5
 * alternating rounds under the same fio load, by the kernel's own
 * accounting): more memory touched for the same work, 16,384 buckets
 * instead of 4,096.
 */
BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(struct biolat_rq), sizeof(u64), 4096);
BB_MAP(hist, BPF_MAP_TYPE_HASH, sizeof(struct biolat_key), sizeof(u64), 4096);
BB_DROPS_MAP();
BB_MAP(sums, BPF_MAP_TYPE_HASH, sizeof(struct biolat_key), sizeof(u64), 1024);

/*
 * The operation in rwbs (blk_fill_rwbs, 4.15 to 7.x): an optional 'F' for
 * a preflush, then the operation: R, W, D (DE: secure erase), F (a flush
 * request: "FF" with its preflush), N (anything else).
 */
static __always_inline char rwbs_op(const char *r)
{
	char c = r[0];

	if (c == 'F' && (r[1] == 'R' || r[1] == 'W' || r[1] == 'D' ||
			 r[1] == 'F' || r[1] == 'N'))
		c = r[1];
	if (c == 'R' || c == 'W' || c == 'D' || c == 'F')
		return c;
	return BIOLAT_OP_OTHER;
}

static __always_inline void add_sum(struct biolat_key *key, u64 ns)
{
	struct biolat_key k = *key;

	k.slot = 0;
	bb_hist_add(&sums, &k, ns, &drops);
}

static __always_inline int rq_start(struct biolat_rq *rq, u64 flags)
{
	u64 ts = bpf_ktime_get_ns();
	u32 filter = BB_CONST(filter_dev);

	if (filter && rq->dev != filter)
		return 0;
	bb_update(&start, rq, &ts, flags, &drops);
	return 0;
}

SEC("tracepoint/block/block_rq_insert")
int rq_insert(void *ctx)
{
	struct biolat_rq rq = {};

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOLAT_TP_DEV, tpoff_insert_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOLAT_TP_SECTOR,
		    tpoff_insert_sector);
	return rq_start(&rq, BPF_ANY);
}

SEC("tracepoint/block/block_rq_issue")
int rq_issue(void *ctx)
{
	struct biolat_rq rq = {};

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOLAT_TP_DEV, tpoff_issue_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOLAT_TP_SECTOR,
		    tpoff_issue_sector);
	return rq_start(&rq, BB_CONST(issue_update_flags));
}

SEC("tracepoint/block/block_rq_complete")
int rq_complete(void *ctx)
{
	struct biolat_rq rq = {};
	struct biolat_key key = {};
	u64 *tsp, delta, ns;

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOLAT_TP_DEV, tpoff_complete_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOLAT_TP_SECTOR,
		    tpoff_complete_sector);
	tsp = bpf_map_lookup_elem(&start, &rq);
	if (!tsp)
		return 0; /* issued before we started, or filtered out */
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &rq);
	if ((s64)delta < 0)
		return 0;
	ns = delta;
	delta /= BB_CONST(unit_div);
	key.slot = bb_log2l(delta);
	if (key.slot >= BIOLAT_SLOTS)
		key.slot = BIOLAT_SLOTS - 1;
	if (BB_CONST(per_disk))
		key.dev = rq.dev;
	if (BB_CONST(per_flags) || BB_CONST(per_op))
		BB_TP_READ(key.rwbs, ctx, tpoff_complete_rwbs);
	if (BB_CONST(per_op)) {
		key.rwbs[0] = rwbs_op(key.rwbs);
		__builtin_memset(key.rwbs + 1, 0, sizeof(key.rwbs) - 1);
	}
	if (BB_CONST(keep_sum))
		add_sum(&key, ns);
	bb_hist_add(&hist, &key, 1, &drops);
	return 0;
}

char _license[] SEC("license") = "GPL";
