/* SPDX-License-Identifier: MIT */
/* bpf/biosnoop.bpf.c on the host: settings, offsets, maps, ring, probes. */
#include <string.h>
#include "mods.h"
#include "biosnoop.skel.h"
#include "../../bpf/biosnoop.h"

EMBEDDED_OBJ(biosnoop);

/* block_rq_insert only with -Q: without, its format is not read */
#define DEV BIOSNOOP_TP_DEV, 4
#define SECTOR BIOSNOOP_TP_SECTOR, 8
#define NR_SECTOR BIOSNOOP_TP_NR_SECTOR, 4
static const struct mod_tp_off insert_offs[] = {
	{ "block_rq_insert", "dev", BIOSNOOP_C_tpoff_insert_dev, DEV },
	{ "block_rq_insert", "sector", BIOSNOOP_C_tpoff_insert_sector, SECTOR },
};
static const struct mod_tp_off offs[] = {
	{ "block_rq_issue", "dev", BIOSNOOP_C_tpoff_issue_dev, DEV },
	{ "block_rq_issue", "sector", BIOSNOOP_C_tpoff_issue_sector, SECTOR },
	{ "block_rq_complete", "dev", BIOSNOOP_C_tpoff_complete_dev, DEV },
	{ "block_rq_complete", "sector", BIOSNOOP_C_tpoff_complete_sector,
	  SECTOR },
	{ "block_rq_complete", "nr_sector",
	  BIOSNOOP_C_tpoff_complete_nr_sector, NR_SECTOR },
	{ "block_rq_complete", "rwbs", BIOSNOOP_C_tpoff_complete_rwbs },
};

static const struct blkwho_ids who_ids = {
	BIOSNOOP_C_tpoff_getrq_dev, BIOSNOOP_C_tpoff_getrq_sector,
	BIOSNOOP_C_tpoff_frontmerge_dev, BIOSNOOP_C_tpoff_frontmerge_sector,
	BIOSNOOP_C_tpoff_frontmerge_nr_sector,
};

static int configure(struct tool_ctx *t, const struct biosnoop_settings *s)
{
	struct bb_map *start;
	int direct = 1;
	int ret = mod_tp_fields(t, &biosnoop_skel, "block", offs,
				sizeof(offs) / sizeof(offs[0]), 1, &direct);

	if (ret < 0 ||
	    (ret = blkwho_offsets(t, &biosnoop_skel, &who_ids, &direct)) < 0 ||
	    (ret = mod_tp_fields(t, &biosnoop_skel, "block", insert_offs, 2,
				 s->queued, &direct)) < 0)
		return ret;
	/* an update and a delete per request: from a free list (obj.h) */
	ret = biosnoop_map(t->obj, BIOSNOOP_M_start, &start);
	if (ret < 0)
		return tool_fail(t, ret, "internal: no start map");
	start->prealloc = 1;
	const int set[] = {
		biosnoop_set(t->obj, BIOSNOOP_C_tp_direct, direct),
		biosnoop_set(t->obj, BIOSNOOP_C_filter_dev, s->filter_dev),
	};
	if (!s->queued) /* not attached: not loaded */
		obj_set_noload(t->obj, BIOSNOOP_P_rq_insert);
	return MOD_CONSTS_SET(t, set);
}

int biosnoop_start(struct tool_ctx *t, const struct biosnoop_settings *s,
		   struct bb_perfbuf **pb)
{
	/*
	 * A completion ends both what an issue (-Q: an insert) opens and the
	 * submitter a block_getrq recorded; a front merge moves the latter.
	 */
	struct bb_probe p[] = {
		{ BIOSNOOP_P_rq_complete, NULL, 0, NULL, "start who", 0, 0 },
		{ BIOSNOOP_P_rq_issue, NULL, 0, "start", NULL, 0, 0 },
		{ BIOSNOOP_P_who_frontmerge, NULL, 0, "who", "who", 0, 0 },
		{ BIOSNOOP_P_who_getrq, NULL, 0, "who", NULL, 0, 0 },
		{ BIOSNOOP_P_rq_insert, NULL, 0, "start", NULL, 0, 0 },
	};
	int ret = tool_open(t, &biosnoop_skel, EMBEDDED_ARGS(biosnoop));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	blkwho_fill_part_disk(t, biosnoop_map_fd(t->obj, BIOSNOOP_M_part_disk),
			      s->disks);
	ret = tool_ring(t, biosnoop_map_fd(t->obj, BIOSNOOP_M_events),
			s->pages, s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, s->queued ? 5 : 4);
}

int biosnoop_stats_fd(struct tool_ctx *t)
{
	return biosnoop_map_fd(t->obj, BIOSNOOP_M_stats);
}
