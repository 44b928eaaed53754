/* SPDX-License-Identifier: MIT */
/*
 * slowbio: calls of the bio submission function (generic_make_request up
 * to 5.8, submit_bio_noacct from 5.9) slower than a threshold, as the tool
 * of ceph-latency-to-kernel-patch.txt. Bare "kprobe"/"kretprobe" sections:
 * the tool picks the function name that exists.
 *
 * The disk comes from taskdev.h: block_bio_queue fires inside the call, on
 * the same task, before it can block in blk_queue_enter().
 *
 * Stacked devices (dm, md, bcache) and bio splits call the function again
 * from inside itself, on the same task: current->bio_list is set by then,
 * so the inner call only queues the bio and returns (4.15: after
 * generic_make_request_checks; 4.17-4.20: after blk_queue_enter of the
 * lower queue; 5.9+: submit_bio_noacct_nocheck), and the outer call
 * submits it. Only the outermost call is timed: a per-task depth counts the
 * nested calls. A nested call is also deeper on the stack, which tells it
 * from a call made after a missed kretprobe (maxactive exhausted) left a
 * stale entry behind: a stale entry must not swallow later calls.
 *
 * Constants: min_ns (report calls at least this slow),
 * tpoff_bio_queue_dev (taskdev.h), emit (send a record of each: the
 * tool), count (count them per disk in `counts`: the exporter).
 */
#include "bb_helpers.h"
#include "taskdev.h"
#include "slowbio.h"

BB_MAP(calls, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct slowbio_call),
       10240);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       SLOWBIO_NSTATS);
/* slow calls by disk (kernel dev_t, 0: unknown), with count */
BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 1024);
/* one slot per possible CPU: perfbuf_open fails plainly beyond that */
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

SEC("kprobe")
int submit_entry(struct pt_regs *ctx)
{
	u32 tid = (u32)bpf_get_current_pid_tgid();
	struct slowbio_call c = {}, *cp;
	u64 sp = PT_REGS_SP(ctx);

	cp = bpf_map_lookup_elem(&calls, &tid);
	if (cp && cp->depth && sp < cp->sp) {
		cp->depth++; /* nested in the outer call */
		return 0;
	}
	c.ts = bpf_ktime_get_ns();
	c.sp = sp;
	c.depth = 1;
	bpf_map_update_elem(&calls, &tid, &c, BPF_ANY);
	return 0;
}

SEC("kretprobe")
int submit_return(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	u32 tid = (u32)id, key = SLOWBIO_EMITTED;
	struct slowbio_event ev = {};
	struct slowbio_call *cp;
	u64 *emitted, *count, one = 1;

	cp = bpf_map_lookup_elem(&calls, &tid);
	if (!cp)
		return 0; /* entered before we attached */
	if (cp->depth > 1) {
		cp->depth--;
		return 0;
	}
	ev.lat = now - cp->ts;
	bpf_map_delete_elem(&calls, &tid);
	if ((s64)ev.lat < 0 || ev.lat < BB_CONST(min_ns))
		return 0;
	ev.ts = now;
	ev.pid = id >> 32;
	ev.tid = tid;
	ev.dev = taskdev_get();
	if (BB_CONST(count)) {
		count = bpf_map_lookup_elem(&counts, &ev.dev);
		if (count)
			__sync_fetch_and_add(count, 1);
		else
			bpf_map_update_elem(&counts, &ev.dev, &one,
					    BPF_NOEXIST);
	}
	if (!BB_CONST(emit))
		return 0;
	bpf_get_current_comm(&ev.comm, sizeof(ev.comm));
	emitted = bpf_map_lookup_elem(&stats, &key);
	if (emitted)
		*emitted += 1; /* per-CPU: no other writer */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
	return 0;
}

char _license[] SEC("license") = "GPL";
