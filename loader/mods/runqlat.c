/* SPDX-License-Identifier: MIT */
/* bpf/runqlat.bpf.c on the host: the scheduler tracepoints' offsets,
 * settings, probes, maps. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "runqlat.skel.h"
#include "../../bpf/runqlat.h"

EMBEDDED_OBJ(runqlat);

static int configure(struct tool_ctx *t, const struct runqlat_settings *s)
{
	static const struct mod_tp_off off[] = {
		{ "sched_wakeup", "pid", RUNQLAT_C_tpoff_wakeup_pid },
		{ "sched_wakeup_new", "pid", RUNQLAT_C_tpoff_wakeup_new_pid },
		{ "sched_switch", "prev_pid", RUNQLAT_C_tpoff_prev_pid },
		{ "sched_switch", "next_pid", RUNQLAT_C_tpoff_next_pid },
		{ "sched_process_free", "pid", RUNQLAT_C_tpoff_free_pid },
	};
	struct bb_obj *o = t->obj;
	struct bb_map *start = obj_map(o, "start"), *pend = obj_map(o, "pending");
	int deferred = s->filter_tgid || s->by == RUNQLAT_BY_TGID;
	int ret = mod_tp_offsets(t, &runqlat_skel, "sched", off, 5, 1);

	if (ret < 0)
		return ret;
	if (!start || !pend)
		return tool_fail(t, -EINVAL, "internal: no start map");
	/* an update and a delete per switch: from a free list */
	pend->prealloc = 1;
	if (deferred)
		pend->def.max_entries = RUNQLAT_STARTS;
	if (t->verbose && deferred)
		fprintf(stderr, "runqlat: waits counted at the switch out, by "
			"process\n");
	const int set[] = {
		runqlat_set(o, RUNQLAT_C_filter_tgid, s->filter_tgid),
		runqlat_set(o, RUNQLAT_C_deferred, deferred),
		runqlat_set(o, RUNQLAT_C_by, s->by),
		runqlat_set(o, RUNQLAT_C_unit_div, s->ms ? 1000000 : 1000),
		runqlat_set(o, RUNQLAT_C_keep_sum, s->keep_sum),
	};
	return MOD_CONSTS_SET(t, set);
}

int runqlat_start(struct tool_ctx *t, const struct runqlat_settings *s)
{
	/* a switch-in closes what a wakeup opens */
	struct bb_probe p[] = {
		{ RUNQLAT_P_on_switch, NULL, 0, NULL, "start", 0, 0 },
		{ RUNQLAT_P_on_wakeup, NULL, 0, "start", NULL, 0, 0 },
		{ RUNQLAT_P_on_wakeup_new, NULL, 0, "start", NULL, 0, 0 },
		{ RUNQLAT_P_on_free, NULL, 0, NULL, NULL, 0, 0 },
	};
	int ret = tool_open(t, &runqlat_skel, EMBEDDED_ARGS(runqlat));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, 4);
}

int runqlat_hist_fd(struct tool_ctx *t)
{
	return runqlat_map_fd(t->obj, RUNQLAT_M_hist);
}

int runqlat_sums_fd(struct tool_ctx *t)
{
	return runqlat_map_fd(t->obj, RUNQLAT_M_sums);
}
