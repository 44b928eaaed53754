/* SPDX-License-Identifier: MIT */
/* bpf/offcputime.bpf.c on the host: settings, the sched_switch
 * tracepoint, the counts and stacks. */
#include "progs.h"
#include "offcputime.skel.h"
#include "../../bpf/offcputime.h"

EMBEDDED_OBJ(offcputime);

static int configure(struct tool_ctx *t, const struct offcpu_settings *s)
{
	static const struct prog_tp_off off[] = {
		{ "sched_switch", "next_pid", OFFCPUTIME_C_tpoff_next_pid },
	};
	struct bb_obj *o = t->obj;
	const int set[] = {
		offcputime_set(o, OFFCPUTIME_C_filter_tgid, s->tgid),
		offcputime_set(o, OFFCPUTIME_C_filter_pid, s->tid),
		offcputime_set(o, OFFCPUTIME_C_user_only, s->user_only),
		offcputime_set(o, OFFCPUTIME_C_kernel_only, s->kernel_only),
		offcputime_set(o, OFFCPUTIME_C_min_us, s->min_us),
		offcputime_set(o, OFFCPUTIME_C_max_us, s->max_us),
	};
	struct bb_map *m = obj_map(o, "stacks");
	int ret = PROG_CONSTS_SET(t, set);

	if (m && s->stack_storage)
		m->def.max_entries = s->stack_storage;
	return ret < 0 ? ret : prog_tp_offsets(t, &offcputime_skel, "sched",
					       off, 1, 1);
}

int offcpu_start(struct tool_ctx *t, const struct offcpu_settings *s,
		 int *counts_fd, int *stacks_fd)
{
	struct bb_probe p[] = {
		{ OFFCPUTIME_P_on_switch, NULL, 0, NULL, NULL, 0, 0 },
	};
	int ret = tool_open(t, &offcputime_skel, EMBEDDED_ARGS(offcputime));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	*counts_fd = offcputime_map_fd(t->obj, OFFCPUTIME_M_counts);
	*stacks_fd = offcputime_map_fd(t->obj, OFFCPUTIME_M_stacks);
	return tool_attach_probes(t, p, 1);
}
