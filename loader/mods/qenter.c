/* SPDX-License-Identifier: MIT */
/* bpf/qenter.bpf.c on the host: settings, functions, probes, maps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mods.h"
#include "kfuncs.h"
#include "qenter.skel.h"
#include "../../bpf/qenter.h"

EMBEDDED_OBJ(qenter);

/* 5.15+ has the first two: then the others do not matter.
 * generic_make_request: where the kernel may enter before block_bio_queue
 * (qenter.bpf.c) */
const char *const qenter_wanted_fns[4] = {
	"__bio_queue_enter", "blk_queue_enter", "bio_queue_enter",
	"generic_make_request"
};

static int configure(struct tool_ctx *t, const struct qenter_settings *s,
		     int slow)
{
	static const struct mod_tp_off dev[] = {
		{ "block_bio_queue", "dev", QENTER_C_tpoff_bio_queue_dev },
	};
	struct bb_obj *o = t->obj;
	int ret = mod_tp_offsets(t, &qenter_skel, "block", dev, 1,
				 s->need_dev);

	if (ret < 0)
		return ret;
	const int set[] = {
		qenter_set(o, QENTER_C_filter_dev, s->filter_dev),
		qenter_set(o, QENTER_C_per_disk, s->per_disk),
		qenter_set(o, QENTER_C_need_dev, s->need_dev),
		/* without the slow path function, bios enter via
		 * blk_queue_enter */
		qenter_set(o, QENTER_C_blk_is_bio, slow < 0),
		qenter_set(o, QENTER_C_unit_div, s->ms ? 1000000 : 1000),
		qenter_set(o, QENTER_C_keep_sum, s->keep_sum),
	};
	return MOD_CONSTS_SET(t, set);
}

int qenter_start(struct tool_ctx *t, const struct qenter_settings *s,
		 char **avail, int n, char *what, size_t len)
{
	int slow = fn_pick_first(qenter_slow_fns, avail, n);
	int blk = fn_available(avail, n, "blk_queue_enter");
	/* bios enter through blk_queue_enter, maybe before their
	 * block_bio_queue: generic_make_request's entry names their disk */
	int submit = slow < 0 && blk && s->need_dev &&
		     fn_available(avail, n, "generic_make_request");
	/* the returns close what the entries open; an entry takes (closes)
	 * the disk the task's block_bio_queue left (taskdev.h), or the one
	 * of generic_make_request's bio */
	struct bb_probe p[6];
	struct bb_map *m;
	int ret, np = 0, i;

	if (slow < 0 && !blk)
		return -ENOENT;
	ret = tool_open(t, &qenter_skel, EMBEDDED_ARGS(qenter));
	if (ret < 0 || (ret = configure(t, s, slow)) < 0)
		return ret;
	/* qenter_bio_queue does what taskdev_bio_queue does, and more */
	obj_set_noload(t->obj, QENTER_P_taskdev_bio_queue);
	if (!submit) {
		obj_set_noload(t->obj, QENTER_P_qenter_submit);
		/* nothing fills it: no memory for it (qdev, a queue's
		 * disk, serves every kernel) */
		if (!qenter_map(t->obj, QENTER_M_pend, &m))
			m->def.max_entries = 1;
	}
	if ((ret = tool_load(t)) < 0)
		return ret;
	if (slow >= 0) {
		p[np++] = (struct bb_probe){ QENTER_P_qenter_bio,
			qenter_slow_fns[slow], 0, "start", "taskdev", 0 };
		p[np++] = (struct bb_probe){ QENTER_P_qenter_ret,
			qenter_slow_fns[slow], s->maxactive, NULL, "start", 0 };
	}
	if (blk) {
		p[np++] = (struct bb_probe){ QENTER_P_qenter_blk,
			"blk_queue_enter", 0, "start", "taskdev pend", 0 };
		p[np++] = (struct bb_probe){ QENTER_P_qenter_ret,
			"blk_queue_enter", s->maxactive, NULL, "start", 0 };
	}
	if (s->need_dev)
		p[np++] = (struct bb_probe){ QENTER_P_qenter_bio_queue, NULL,
					     0, "taskdev", "pend", 0 };
	/* optional: without it, every enter takes block_bio_queue's disk */
	if (submit)
		p[np++] = (struct bb_probe){ QENTER_P_qenter_submit,
			"generic_make_request", 0, "pend", NULL, 1 };
	ret = tool_attach_probes(t, p, np);
	if (ret < 0)
		return ret;
	if (len)
		*what = 0;
	for (i = 0; i < np && len; i++)
		if (!strcmp(p[i].prog, QENTER_P_qenter_ret))
			snprintf(what + strlen(what), len - strlen(what),
				 "%s%s", *what ? ", " : "", p[i].target);
	return 0;
}

int qenter_hist_fd(struct tool_ctx *t)
{
	return qenter_map_fd(t->obj, QENTER_M_hist);
}

int qenter_sums_fd(struct tool_ctx *t)
{
	return qenter_map_fd(t->obj, QENTER_M_sums);
}
