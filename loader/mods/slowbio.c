/* SPDX-License-Identifier: MIT */
/* bpf/slowbio.bpf.c on the host: settings, probes, ring, maps. */
#include "mods.h"
#include "slowbio.skel.h"
#include "../../bpf/slowbio.h"

EMBEDDED_OBJ(slowbio);

static int configure(struct tool_ctx *t, const struct slowbio_settings *s)
{
	static const struct mod_tp_off dev[] = {
		{ "block_bio_queue", "dev", SLOWBIO_C_tpoff_bio_queue_dev },
	};
	struct bb_obj *o = t->obj;
	int ret = mod_tp_offsets(t, &slowbio_skel, "block", dev, 1, 1);

	if (ret < 0)
		return ret;
	const int set[] = {
		slowbio_set(o, SLOWBIO_C_min_ns, s->min_ns),
		slowbio_set(o, SLOWBIO_C_emit, s->emit),
		slowbio_set(o, SLOWBIO_C_count, s->count),
	};
	return MOD_CONSTS_SET(t, set);
}

int slowbio_start(struct tool_ctx *t, const struct slowbio_settings *s,
		  struct bb_perfbuf **pb)
{
	/*
	 * The return probe before the entry probe (the attach rule), which
	 * also matters for timing: registering a probe stalls the CPUs (text
	 * patching) while calls may be in flight, and had the entry been
	 * probed first, such a call would be timed with the stall in it. The
	 * return reads the disk that block_bio_queue leaves (taskdev.h).
	 */
	struct bb_probe p[] = {
		{ SLOWBIO_P_submit_entry, s->fn, 0, "call", NULL, 0, 0 },
		{ SLOWBIO_P_submit_return, s->fn, s->maxactive, NULL,
		  "call taskdev", 0, 0 },
		{ SLOWBIO_P_taskdev_bio_queue, NULL, 0, "taskdev", NULL, 0, 0 },
	};
	int ret = tool_open(t, &slowbio_skel, EMBEDDED_ARGS(slowbio));
	int events;

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	events = slowbio_map_fd(t->obj, SLOWBIO_M_events);
	if (s->emit)
		ret = tool_ring(t, events, SLOWBIO_PAGES, s->on_event, s->ctx,
				pb);
	else /* nothing is sent */
		tool_ring_unread(t, events);
	return ret < 0 ? ret : tool_attach_probes(t, p, 3);
}

int slowbio_counts_fd(struct tool_ctx *t)
{
	return slowbio_map_fd(t->obj, SLOWBIO_M_counts);
}

int slowbio_stats_fd(struct tool_ctx *t)
{
	return slowbio_map_fd(t->obj, SLOWBIO_M_stats);
}
