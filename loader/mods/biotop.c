/* SPDX-License-Identifier: MIT */
/* bpf/biotop.bpf.c on the host: settings, offsets, probes, maps. */
#include "mods.h"
#include "biotop.skel.h"
#include "../../bpf/biotop.h"

EMBEDDED_OBJ(biotop);

static const struct mod_tp_off offs[] = {
	{ "block_rq_issue", "dev", BIOTOP_C_tpoff_issue_dev, 8, 4 },
	{ "block_rq_issue", "sector", BIOTOP_C_tpoff_issue_sector, 16, 8 },
	{ "block_rq_issue", "nr_sector", BIOTOP_C_tpoff_issue_nr_sector,
	  24, 4 },
	{ "block_rq_issue", "bytes", BIOTOP_C_tpoff_issue_bytes,
	  BIOTOP_TP_BYTES, 4 },
	{ "block_rq_issue", "rwbs", BIOTOP_C_tpoff_issue_rwbs },
	{ "block_rq_complete", "dev", BIOTOP_C_tpoff_complete_dev, 8, 4 },
	{ "block_rq_complete", "sector", BIOTOP_C_tpoff_complete_sector,
	  16, 8 },
};
static const struct blkwho_ids who_ids = {
	BIOTOP_C_tpoff_getrq_dev, BIOTOP_C_tpoff_getrq_sector,
	BIOTOP_C_tpoff_frontmerge_dev, BIOTOP_C_tpoff_frontmerge_sector,
	BIOTOP_C_tpoff_frontmerge_nr_sector,
};

static int configure(struct tool_ctx *t, const struct biotop_settings *s)
{
	struct bb_obj *o = t->obj;
	struct bb_map *start;
	int direct = 1;
	int ret = mod_tp_fields(t, &biotop_skel, "block", offs,
				 sizeof(offs) / sizeof(offs[0]), 1, &direct);

	if (ret < 0 ||
	    (ret = blkwho_offsets(t, &biotop_skel, &who_ids, &direct)) < 0)
		return ret;
	/* an update and a delete per request: from a free list (barebpf.h) */
	ret = biotop_map(o, BIOTOP_M_start, &start);
	if (ret < 0)
		return tool_fail(t, ret, "internal: no start map");
	start->prealloc = 1;
	const int set[] = {
		biotop_set(o, BIOTOP_C_tp_direct, direct),
		biotop_set(o, BIOTOP_C_filter_dev, s->filter_dev),
		biotop_set(o, BIOTOP_C_filter_pid, s->pid),
	};
	return MOD_CONSTS_SET(t, set);
}

int biotop_start(struct tool_ctx *t, const struct biotop_settings *s)
{
	/* a completion ends what an issue opens and what block_getrq
	 * recorded (a front merge moves the latter) */
	struct bb_probe p[] = {
		{ BIOTOP_P_rq_complete, NULL, 0, NULL, "start who", 0, 0 },
		{ BIOTOP_P_rq_issue, NULL, 0, "start", NULL, 0, 0 },
		{ BIOTOP_P_who_frontmerge, NULL, 0, "who", "who", 0, 0 },
		{ BIOTOP_P_who_getrq, NULL, 0, "who", NULL, 0, 0 },
	};
	int ret = tool_open(t, &biotop_skel, EMBEDDED_ARGS(biotop));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	blkwho_fill_part_disk(t, biotop_map_fd(t->obj, BIOTOP_M_part_disk),
			      s->disks);
	return tool_attach_probes(t, p, 4);
}

int biotop_counts_fd(struct tool_ctx *t)
{
	return biotop_map_fd(t->obj, BIOTOP_M_counts);
}
