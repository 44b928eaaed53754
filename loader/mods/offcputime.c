/* SPDX-License-Identifier: MIT */
/* bpf/offcputime.bpf.c on the host: settings, the sched_switch
 * tracepoint, the counts and stacks. */
#include <errno.h>
#include "mods.h"
#include "offcputime.skel.h"
#include "../../bpf/offcputime.h"

EMBEDDED_OBJ(offcputime);

/*
 * Build ids at sched_switch: the kernel takes the task's mmap lock there,
 * with the runqueue's lock held; releasing it could wake a writer waiting
 * for it, which takes the runqueue lock again: a deadlock until commit
 * eac9153f2b58 ("bpf/stackmap: Fix deadlock with rq_lock in
 * bpf_get_stack()"), in 5.5, 5.4.7 and 4.19.92. No probe can tell, so the
 * version decides.
 */
static int build_id_safe(struct tool_ctx *t)
{
	struct bb_err err = { "" };
	char src[64];
	uint32_t kver;

	if (kver_detect(t->kver_override, &kver, src, sizeof(src), &err) < 0)
		return tool_fail(t, -EINVAL, "%s", err.msg);
	if (kver >= KVER(5, 4, 7) ||
	    (kver >= KVER(4, 19, 92) && kver < KVER(4, 20, 0)))
		return 0;
	return tool_fail(t, -EOPNOTSUPP, "--build-id: refused on %u.%u.%u: "
			 "build-id stacks taken at sched_switch could deadlock "
			 "the CPU there before 5.5, 5.4.7 and 4.19.92 (commit "
			 "eac9153f2b58); without --build-id, the frames of a "
			 "process are named while it runs", kver >> 16,
			 kver >> 8 & 0xff, kver & 0xff);
}

static int configure(struct tool_ctx *t, const struct offcpu_settings *s)
{
	static const struct mod_tp_off off[] = {
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
		offcputime_set(o, OFFCPUTIME_C_build_id, s->build_id),
	};
	struct bb_map *m = obj_map(o, "stacks");
	int ret = MOD_CONSTS_SET(t, set);

	if (m && s->stack_storage)
		m->def.max_entries = s->stack_storage;
	if (ret == 0 && s->build_id)
		ret = build_id_safe(t) < 0 ? -EOPNOTSUPP :
		      mod_build_id_stacks(t, "ustacks", s->stack_storage ?
					  s->stack_storage : OFFCPU_STACKS);
	return ret < 0 ? ret : mod_tp_offsets(t, &offcputime_skel, "sched",
					      off, 1, 1);
}

int offcpu_start(struct tool_ctx *t, const struct offcpu_settings *s,
		 int *counts_fd, int *stacks_fd, int *ustacks_fd)
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
	*ustacks_fd = s->build_id ?
		      offcputime_map_fd(t->obj, OFFCPUTIME_M_ustacks) : -1;
	return tool_attach_probes(t, p, 1);
}
