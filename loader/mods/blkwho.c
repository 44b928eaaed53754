/* SPDX-License-Identifier: MIT */
/* The host side of bpf/blkwho.h, which objects include: its tracepoint
 * offsets and its partition -> disk map. */
#include <string.h>
#include "mods.h"

int blkwho_offsets(struct tool_ctx *t, const struct bb_skel *s,
		   const struct blkwho_ids *id, int *direct)
{
	const struct mod_tp_off offs[] = {
		{ "block_getrq", "dev", id->getrq_dev, 8, 4 },
		{ "block_getrq", "sector", id->getrq_sector, 16, 8 },
		{ "block_bio_frontmerge", "dev", id->frontmerge_dev, 8, 4 },
		{ "block_bio_frontmerge", "sector", id->frontmerge_sector,
		  16, 8 },
		{ "block_bio_frontmerge", "nr_sector",
		  id->frontmerge_nr_sector, 24, 4 },
	};

	return mod_tp_fields(t, s, "block", offs, 5, 1, direct);
}

void blkwho_fill_part_disk(struct tool_ctx *t, int fd,
			   const struct blkdisks *disks)
{
	int i, ret;

	for (i = 0; i < disks->n; i++) {
		const struct blkdisk *d = &disks->v[i];

		if (d->disk == d->kdev)
			continue;
		ret = fd < 0 ? fd : bpf_map_update_elem(fd, &d->kdev, &d->disk,
							BPF_ANY);
		if (ret < 0) {
			tool_error(t, "warning: partition %s: its requests' "
				   "submitter will not be known: %s", d->name,
				   strerror(-ret));
			return;
		}
	}
}
