/* SPDX-License-Identifier: MIT */
/* bpf/cpudist.bpf.c on the host: sched_switch's offsets, settings,
 * probes, maps. */
#include <errno.h>
#include "mods.h"
#include "cpudist.skel.h"
#include "../../bpf/cpudist.h"

EMBEDDED_OBJ(cpudist);

static int configure(struct tool_ctx *t, const struct cpudist_settings *s)
{
	static const struct mod_tp_off off[] = {
		{ "sched_switch", "prev_pid", CPUDIST_C_tpoff_prev_pid },
		{ "sched_switch", "next_pid", CPUDIST_C_tpoff_next_pid },
		{ "sched_process_free", "pid", CPUDIST_C_tpoff_free_pid },
	};
	struct bb_obj *o = t->obj;
	struct bb_map *pend = obj_map(o, "pending");
	/* off CPU, a time ends where only the thread is named */
	int deferred = s->offcpu && (s->filter_tgid ||
				     s->by == RUNQLAT_BY_TGID);
	int ret = mod_tp_offsets(t, &cpudist_skel, "sched", off, 3, 1);

	if (ret < 0)
		return ret;
	if (!pend)
		return tool_fail(t, -EINVAL, "internal: no pending map");
	pend->prealloc = 1;
	if (deferred)
		pend->def.max_entries = CPUDIST_STARTS;
	const int set[] = {
		cpudist_set(o, CPUDIST_C_offcpu, s->offcpu),
		cpudist_set(o, CPUDIST_C_filter_tgid, s->filter_tgid),
		cpudist_set(o, CPUDIST_C_deferred, deferred),
		cpudist_set(o, CPUDIST_C_by, s->by),
		cpudist_set(o, CPUDIST_C_unit_div, s->ms ? 1000000 : 1000),
	};
	return MOD_CONSTS_SET(t, set);
}

int cpudist_start(struct tool_ctx *t, const struct cpudist_settings *s)
{
	struct bb_probe p[] = {
		{ CPUDIST_P_on_switch, NULL, 0, NULL, NULL, 0, 0 },
		{ CPUDIST_P_on_free, NULL, 0, NULL, NULL, 0, 0 },
	};
	int ret = tool_open(t, &cpudist_skel, EMBEDDED_ARGS(cpudist));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, 2);
}

int cpudist_hist_fd(struct tool_ctx *t)
{
	return cpudist_map_fd(t->obj, CPUDIST_M_hist);
}
