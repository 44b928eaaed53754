/* SPDX-License-Identifier: MIT */
/* bpf/bitesize.bpf.c on the host: settings, offsets, probes, maps. */
#include <string.h>
#include "mods.h"
#include "bitesize.skel.h"
#include "../../bpf/bitesize.h"

EMBEDDED_OBJ(bitesize);

static const struct mod_tp_off offs[] = {
	{ "block_rq_issue", "dev", BITESIZE_C_tpoff_issue_dev, 8, 4 },
	{ "block_rq_issue", "sector", BITESIZE_C_tpoff_issue_sector, 16, 8 },
	{ "block_rq_issue", "nr_sector", BITESIZE_C_tpoff_issue_nr_sector,
	  24, 4 },
	{ "block_rq_issue", "bytes", BITESIZE_C_tpoff_issue_bytes,
	  BITESIZE_TP_BYTES, 4 },
};
static const struct blkwho_ids who_ids = {
	BITESIZE_C_tpoff_getrq_dev, BITESIZE_C_tpoff_getrq_sector,
	BITESIZE_C_tpoff_frontmerge_dev, BITESIZE_C_tpoff_frontmerge_sector,
	BITESIZE_C_tpoff_frontmerge_nr_sector,
};

static int configure(struct tool_ctx *t, const struct bitesize_settings *s)
{
	struct bb_obj *o = t->obj;
	uint64_t comm[2] = { 0, 0 };
	int direct = 1;
	int ret = mod_tp_fields(t, &bitesize_skel, "block", offs, 4, 1,
				 &direct);

	if (ret < 0 ||
	    (ret = blkwho_offsets(t, &bitesize_skel, &who_ids, &direct)) < 0)
		return ret;
	/* the 16 bytes bpf_get_current_comm gives: the name, NUL-padded,
	 * compared as two words in the machine's own byte order */
	if (s->comm)
		strncpy((char *)comm, s->comm, sizeof(comm) - 1);
	const int set[] = {
		bitesize_set(o, BITESIZE_C_tp_direct, direct),
		bitesize_set(o, BITESIZE_C_filter_dev, s->filter_dev),
		bitesize_set(o, BITESIZE_C_filter_comm, s->comm != NULL),
		bitesize_set(o, BITESIZE_C_comm_lo, comm[0]),
		bitesize_set(o, BITESIZE_C_comm_hi, comm[1]),
	};
	return MOD_CONSTS_SET(t, set);
}

int bitesize_start(struct tool_ctx *t, const struct bitesize_settings *s)
{
	/* an issue reads (and deletes) what block_getrq records and a front
	 * merge moves */
	struct bb_probe p[] = {
		{ BITESIZE_P_rq_issue, NULL, 0, NULL, "who", 0, 0 },
		{ BITESIZE_P_who_frontmerge, NULL, 0, "who", "who", 0, 0 },
		{ BITESIZE_P_who_getrq, NULL, 0, "who", NULL, 0, 0 },
	};
	int ret = tool_open(t, &bitesize_skel, EMBEDDED_ARGS(bitesize));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	blkwho_fill_part_disk(t, bitesize_map_fd(t->obj, BITESIZE_M_part_disk),
			      s->disks);
	return tool_attach_probes(t, p, 3);
}

int bitesize_hist_fd(struct tool_ctx *t)
{
	return bitesize_map_fd(t->obj, BITESIZE_M_hist);
}
