/* SPDX-License-Identifier: MIT */
/* bpf/biolatency.bpf.c on the host: settings, offsets, probes, maps. */
#include "mods.h"
#include "biolatency.skel.h"
#include "../../bpf/biolatency.h"

EMBEDDED_OBJ(biolatency);

/* the tracepoint fields the programs read (block_rq_insert only with -Q) */
#define DEV BIOLAT_TP_DEV, 4
#define SECTOR BIOLAT_TP_SECTOR, 8
static const struct mod_tp_off insert_offs[] = {
	{ "block_rq_insert", "dev", BIOLATENCY_C_tpoff_insert_dev, DEV },
	{ "block_rq_insert", "sector", BIOLATENCY_C_tpoff_insert_sector,
	  SECTOR },
};
static const struct mod_tp_off offs[] = {
	{ "block_rq_issue", "dev", BIOLATENCY_C_tpoff_issue_dev, DEV },
	{ "block_rq_issue", "sector", BIOLATENCY_C_tpoff_issue_sector, SECTOR },
	{ "block_rq_complete", "dev", BIOLATENCY_C_tpoff_complete_dev, DEV },
	{ "block_rq_complete", "sector", BIOLATENCY_C_tpoff_complete_sector,
	  SECTOR },
	{ "block_rq_complete", "rwbs", BIOLATENCY_C_tpoff_complete_rwbs },
};

static int configure(struct tool_ctx *t, const struct biolat_settings *s)
{
	struct bb_obj *o = t->obj;
	struct bb_map *start;
	int direct = 1;
	int ret = mod_tp_fields(t, &biolatency_skel, "block", insert_offs, 2,
				s->queued, &direct);

	if (ret < 0 || (ret = mod_tp_fields(t, &biolatency_skel, "block",
					    offs, 5, 1, &direct)) < 0)
		return ret;
	/* an update and a delete per request: from a free list (obj.h) */
	ret = biolatency_map(o, BIOLATENCY_M_start, &start);
	if (ret < 0)
		return tool_fail(t, ret, "internal: no start map");
	start->prealloc = 1;
	const int set[] = {
		biolatency_set(o, BIOLATENCY_C_tp_direct, direct),
		biolatency_set(o, BIOLATENCY_C_filter_dev, s->filter_dev),
		biolatency_set(o, BIOLATENCY_C_per_disk, s->per_disk),
		biolatency_set(o, BIOLATENCY_C_per_flags, s->per_flags),
		biolatency_set(o, BIOLATENCY_C_per_op, s->per_op),
		biolatency_set(o, BIOLATENCY_C_keep_sum, s->keep_sum),
		biolatency_set(o, BIOLATENCY_C_unit_div,
			       s->ms ? 1000000 : 1000),
		/* with -Q an insert time stays when the issue follows */
		biolatency_set(o, BIOLATENCY_C_issue_update_flags,
			       s->queued ? BPF_NOEXIST : BPF_ANY),
	};
	if (!s->queued) /* not attached: not loaded */
		obj_set_noload(o, BIOLATENCY_P_rq_insert);
	return MOD_CONSTS_SET(t, set);
}

int biolat_start(struct tool_ctx *t, const struct biolat_settings *s)
{
	/* a completion closes what an issue (or, with -Q, an insert) opens */
	struct bb_probe p[] = {
		{ BIOLATENCY_P_rq_complete, NULL, 0, NULL, "start", 0, 0 },
		{ BIOLATENCY_P_rq_issue, NULL, 0, "start", NULL, 0, 0 },
		{ BIOLATENCY_P_rq_insert, NULL, 0, "start", NULL, 0, 0 },
	};
	int ret = tool_open(t, &biolatency_skel, EMBEDDED_ARGS(biolatency));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, s->queued ? 3 : 2);
}

int biolat_hist_fd(struct tool_ctx *t)
{
	return biolatency_map_fd(t->obj, BIOLATENCY_M_hist);
}

int biolat_sums_fd(struct tool_ctx *t)
{
	return biolatency_map_fd(t->obj, BIOLATENCY_M_sums);
}
