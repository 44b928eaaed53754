/* SPDX-License-Identifier: MIT */
/* bpf/biosnoop.bpf.c on the host: settings, offsets, maps, ring, probes. */
#include <string.h>
#include "progs.h"
#include "biosnoop.skel.h"
#include "../../bpf/biosnoop.h"

EMBEDDED_OBJ(biosnoop);

/* block_rq_insert only with -Q: without, its format is not read */
static const struct prog_tp_off insert_offs[] = {
	{ "block_rq_insert", "dev", BIOSNOOP_C_tpoff_insert_dev },
	{ "block_rq_insert", "sector", BIOSNOOP_C_tpoff_insert_sector },
};
static const struct prog_tp_off offs[] = {
	{ "block_getrq", "dev", BIOSNOOP_C_tpoff_getrq_dev },
	{ "block_getrq", "sector", BIOSNOOP_C_tpoff_getrq_sector },
	{ "block_bio_frontmerge", "dev", BIOSNOOP_C_tpoff_frontmerge_dev },
	{ "block_bio_frontmerge", "sector",
	  BIOSNOOP_C_tpoff_frontmerge_sector },
	{ "block_bio_frontmerge", "nr_sector",
	  BIOSNOOP_C_tpoff_frontmerge_nr_sector },
	{ "block_rq_issue", "dev", BIOSNOOP_C_tpoff_issue_dev },
	{ "block_rq_issue", "sector", BIOSNOOP_C_tpoff_issue_sector },
	{ "block_rq_complete", "dev", BIOSNOOP_C_tpoff_complete_dev },
	{ "block_rq_complete", "sector", BIOSNOOP_C_tpoff_complete_sector },
	{ "block_rq_complete", "nr_sector",
	  BIOSNOOP_C_tpoff_complete_nr_sector },
	{ "block_rq_complete", "rwbs", BIOSNOOP_C_tpoff_complete_rwbs },
};

static int configure(struct tool_ctx *t, const struct biosnoop_settings *s)
{
	int ret = prog_tp_offsets(t, &biosnoop_skel, "block", offs,
				  sizeof(offs) / sizeof(offs[0]), 1);

	if (ret < 0 || (ret = prog_tp_offsets(t, &biosnoop_skel, "block",
					      insert_offs, 2, s->queued)) < 0)
		return ret;
	const int set[] = {
		biosnoop_set(t->obj, BIOSNOOP_C_filter_dev, s->filter_dev),
	};
	if (!s->queued) /* not attached: not loaded */
		obj_set_noload(t->obj, BIOSNOOP_P_rq_insert);
	return PROG_CONSTS_SET(t, set);
}

/* part_disk: partition -> disk, for block_getrq on 5.12+ */
static void fill_part_disk(struct tool_ctx *t, const struct blkdisks *disks)
{
	int fd = biosnoop_map_fd(t->obj, BIOSNOOP_M_part_disk), i, ret;

	for (i = 0; i < disks->n; i++) {
		const struct blkdisk *d = &disks->v[i];

		if (d->disk == d->kdev)
			continue;
		ret = fd < 0 ? fd : bpf_map_update_elem(fd, &d->kdev, &d->disk,
							BPF_ANY);
		if (ret < 0) {
			tool_error(t, "warning: partition %s will show '?' as "
				   "its submitter: %s", d->name, strerror(-ret));
			return;
		}
	}
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
		{ BIOSNOOP_P_bio_frontmerge, NULL, 0, "who", "who", 0, 0 },
		{ BIOSNOOP_P_rq_getrq, NULL, 0, "who", NULL, 0, 0 },
		{ BIOSNOOP_P_rq_insert, NULL, 0, "start", NULL, 0, 0 },
	};
	int ret = tool_open(t, &biosnoop_skel, EMBEDDED_ARGS(biosnoop));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	fill_part_disk(t, s->disks);
	ret = tool_ring(t, biosnoop_map_fd(t->obj, BIOSNOOP_M_events),
			s->pages, s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, s->queued ? 5 : 4);
}

int biosnoop_stats_fd(struct tool_ctx *t)
{
	return biosnoop_map_fd(t->obj, BIOSNOOP_M_stats);
}
