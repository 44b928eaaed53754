/* SPDX-License-Identifier: MIT */
/* bpf/freeze.bpf.c on the host: settings, maps, ring; the probes are
 * freeze_probes.c's (every function of the freeze chains this kernel has). */
#include "mods.h"
#include "freeze_mod.h"
#include "freeze.skel.h"
#include "../../bpf/freeze.h"

EMBEDDED_OBJ(freeze);

static int configure(struct tool_ctx *t, const struct freeze_opts *fo)
{
	static const struct mod_tp_off dev[] = {
		{ "block_bio_queue", "dev", FREEZE_C_tpoff_bio_queue_dev },
	};
	struct bb_obj *o = t->obj;
	const int set[] = {
		freeze_set(o, FREEZE_C_dedup_ns, FREEZE_DEDUP_NS),
		freeze_set(o, FREEZE_C_want_stack, !fo->no_stack),
		freeze_set(o, FREEZE_C_confirm_ns, FREEZE_CONFIRM_NS),
	};
	int ret = MOD_CONSTS_SET(t, set);

	/* the disk of a bio: only --correlate reads it */
	return ret < 0 ? ret : mod_tp_offsets(t, &freeze_skel, "block", dev, 1,
					      fo->correlate);
}

int freeze_start(struct tool_ctx *t, struct freeze_run *r,
		 perfbuf_sample_fn fn, void *ctx, struct bb_perfbuf **pb,
		 char **avail, int n)
{
	struct bb_obj *o;
	int ret = tool_open(t, &freeze_skel, EMBEDDED_ARGS(freeze));

	if (ret < 0 || (ret = configure(t, r->o)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	o = t->obj;
	r->stacks_fd = freeze_map_fd(o, FREEZE_M_stacks);
	r->fstate_fd = freeze_map_fd(o, FREEZE_M_fstate);
	r->qname_fd = freeze_map_fd(o, FREEZE_M_q_name);
	r->tasksysfs_fd = freeze_map_fd(o, FREEZE_M_task_sysfs);
	if (r->o->correlate)
		r->qdev_fd = freeze_map_fd(o, FREEZE_M_qdev);
	/* the ring before the probes: a record must find its reader */
	ret = tool_ring(t, freeze_map_fd(o, FREEZE_M_events), 64, fn, ctx, pb);
	return ret < 0 ? ret : freeze_attach_probes(t, r, avail, n);
}

int freeze_stats_fd(struct tool_ctx *t)
{
	return freeze_map_fd(t->obj, FREEZE_M_stats);
}
