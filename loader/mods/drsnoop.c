/* SPDX-License-Identifier: MIT */
/* bpf/drsnoop.bpf.c on the host: settings, offsets, ring, probes. */
#include "mods.h"
#include "drsnoop.skel.h"
#include "../../bpf/drsnoop.h"

EMBEDDED_OBJ(drsnoop);

static int configure(struct tool_ctx *t, const struct drsnoop_settings *s)
{
	static const struct mod_tp_off direct[] = {
		{ "mm_vmscan_direct_reclaim_end", "nr_reclaimed",
		  DRSNOOP_C_tpoff_end_nr },
	};
	static const struct mod_tp_off memcg[] = {
		{ "mm_vmscan_memcg_reclaim_end", "nr_reclaimed",
		  DRSNOOP_C_tpoff_memcg_end_nr },
	};
	struct bb_obj *o = t->obj;
	int ret = mod_tp_offsets(t, &drsnoop_skel, "vmscan", direct, 1, 1);

	if (ret < 0 || (ret = mod_tp_offsets(t, &drsnoop_skel, "vmscan",
					      memcg, 1, s->memcg)) < 0)
		return ret;
	const int set[] = {
		drsnoop_set(o, DRSNOOP_C_filter_pid, s->pid),
		drsnoop_set(o, DRSNOOP_C_filter_tid, s->tid),
		drsnoop_set(o, DRSNOOP_C_filter_uid, s->filter_uid),
		drsnoop_set(o, DRSNOOP_C_free_addr, s->free_addr),
	};
	if (!s->memcg) { /* not attached: not loaded */
		obj_set_noload(o, DRSNOOP_P_memcg_begin);
		obj_set_noload(o, DRSNOOP_P_memcg_end);
	}
	return MOD_CONSTS_SET(t, set);
}

int drsnoop_start(struct tool_ctx *t, const struct drsnoop_settings *s,
		  struct bb_perfbuf **pb)
{
	/* an end closes what a begin opens */
	struct bb_probe p[] = {
		{ DRSNOOP_P_direct_end, NULL, 0, NULL, "reclaim", 0, 0 },
		{ DRSNOOP_P_memcg_end, NULL, 0, NULL, "reclaim", 0, 0 },
		{ DRSNOOP_P_direct_begin, NULL, 0, "reclaim", NULL, 0, 0 },
		{ DRSNOOP_P_memcg_begin, NULL, 0, "reclaim", NULL, 0, 0 },
	};
	int ret = tool_open(t, &drsnoop_skel, EMBEDDED_ARGS(drsnoop));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	ret = tool_ring(t, drsnoop_map_fd(t->obj, DRSNOOP_M_events), 64,
			s->on_event, s->ctx, pb);
	if (ret < 0)
		return ret;
	if (s->memcg)
		return tool_attach_probes(t, p, 4);
	p[1] = p[2];
	return tool_attach_probes(t, p, 2);
}

int drsnoop_stats_fd(struct tool_ctx *t)
{
	return drsnoop_map_fd(t->obj, DRSNOOP_M_stats);
}
