/* SPDX-License-Identifier: MIT */
/*
 * biosnoop: one record per completed block request, on tracepoints only
 * (bcc's biosnoop uses kprobes, which some kernels lack). Requests are
 * keyed by (dev, sector) as in biolatency.bpf.c; every field offset is a
 * load-time constant read from events/block/<event>/format.
 *
 * Who submitted a request: bcc's biosnoop.py and libbpf-tools take the
 * task current at blk_account_io_start, when the request is made from a
 * bio in the submitter's submit_bio. Without kprobes the same point is
 * block_getrq: it fires when a new request is taken for a bio (4.15:
 * blk_mq_make_request, or get_request on the legacy path; 5.x/6.x:
 * blk_mq_submit_bio), on the submitting task, with the bio's dev and
 * sector, which become the request's. It fires once per request (not per
 * bio, as block_bio_queue would) and also for the pieces of a split bio
 * (block_bio_queue is not traced again for the rest of a split). The task
 * current at insert or issue would be wrong whenever kblockd dispatches.
 * A bio merged in front of a request moves the request's start sector:
 * block_bio_frontmerge moves the entry with it. Entries left behind (a
 * request that never completes in our sight) age out of the LRU map. An
 * LRU map is always preallocated (16,384 entries took 2.4 ms to create at
 * start on 6.18): 4,096, the requests that can be in flight at once on
 * most hosts; beyond that the oldest lose their submitter (printed as ?).
 *
 * Since 5.12 blk_partition_remap() makes the sector absolute but leaves
 * the bio's device (and so block_getrq's dev) on the partition, while
 * block_rq_* report the whole disk: part_disk (filled by the tool from
 * /sys/class/block) maps a partition to its disk. The submitter is
 * recorded by bpf/blkwho.h, which bitesize and biotop share.
 *
 * Constants: tpoff_<event>_<field> (offsets), tp_direct (dev, sector and
 * nr_sector are where biosnoop.h says: read from ctx), filter_dev (0: all
 * disks).
 */
#include "bb_helpers.h"
#include "biosnoop.h"
/* who made each request: the maps who and part_disk, the programs
 * who_getrq and who_frontmerge, blkwho_filtered */
#include "blkwho.h"

/* start: as biolatency.bpf.c's (why 4,096, and preallocated) */
BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(struct biosnoop_rq),
       sizeof(struct biosnoop_stage), 4096);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       BIOSNOOP_NSTATS);
/* one slot per possible CPU: perfbuf_open fails plainly beyond that */
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/* -Q only: a new request entered the scheduler (or the dispatch list) */
SEC("tracepoint/block/block_rq_insert")
int rq_insert(void *ctx)
{
	struct biosnoop_rq rq = {};
	struct biosnoop_stage st = {};

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOSNOOP_TP_DEV, tpoff_insert_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOSNOOP_TP_SECTOR,
		    tpoff_insert_sector);
	if (blkwho_filtered(rq.dev))
		return 0;
	st.insert = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &rq, &st, BPF_ANY);
	return 0;
}

SEC("tracepoint/block/block_rq_issue")
int rq_issue(void *ctx)
{
	struct biosnoop_rq rq = {};
	struct biosnoop_stage st = {}, *stp;

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOSNOOP_TP_DEV, tpoff_issue_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOSNOOP_TP_SECTOR,
		    tpoff_issue_sector);
	if (blkwho_filtered(rq.dev))
		return 0;
	st.issue = bpf_ktime_get_ns();
	/* inserted before (-Q), or issued again after a requeue */
	stp = bpf_map_lookup_elem(&start, &rq);
	if (stp) {
		stp->issue = st.issue;
		return 0;
	}
	if (bpf_map_update_elem(&start, &rq, &st, BPF_NOEXIST) < 0)
		count(BIOSNOOP_UNTRACKED);
	return 0;
}

SEC("tracepoint/block/block_rq_complete")
int rq_complete(void *ctx)
{
	struct biosnoop_rq rq = {};
	struct biosnoop_event ev = {};
	struct biosnoop_stage *stp;
	struct blkwho *wp;

	BB_TP_FIELD(rq.dev, ctx, tp_direct, BIOSNOOP_TP_DEV, tpoff_complete_dev);
	BB_TP_FIELD(rq.sector, ctx, tp_direct, BIOSNOOP_TP_SECTOR,
		    tpoff_complete_sector);
	stp = bpf_map_lookup_elem(&start, &rq);
	if (!stp)
		return 0; /* issued before we started, filtered out, or the
			   * rest of a partly completed request */
	ev.ts = bpf_ktime_get_ns();
	if (stp->issue && ev.ts > stp->issue)
		ev.delta = ev.ts - stp->issue;
	if (stp->insert && stp->issue >= stp->insert) {
		ev.qdelta = stp->issue - stp->insert;
		ev.flags |= BIOSNOOP_F_INSERTED;
	}
	bpf_map_delete_elem(&start, &rq);
	ev.dev = rq.dev;
	ev.sector = rq.sector;
	BB_TP_FIELD(ev.nr_sector, ctx, tp_direct, BIOSNOOP_TP_NR_SECTOR,
		    tpoff_complete_nr_sector);
	/* 4.15 has rwbs[8], 6.x rwbs[10]: the first 8 hold any real value */
	BB_TP_READ(ev.rwbs, ctx, tpoff_complete_rwbs);
	wp = bpf_map_lookup_elem(&who, &rq);
	if (wp) {
		ev.pid = wp->pid;
		__builtin_memcpy(ev.comm, wp->comm, sizeof(ev.comm));
		ev.flags |= BIOSNOOP_F_WHO;
		bpf_map_delete_elem(&who, &rq);
	}
	count(BIOSNOOP_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev,
			      sizeof(ev));
	return 0;
}

char _license[] SEC("license") = "GPL";
