/* SPDX-License-Identifier: MIT */
/* bpf/vfsstat.bpf.c on the host: probes and counts. */
#include "mods.h"
#include "vfsstat.skel.h"
#include "../../bpf/vfsstat.h"

EMBEDDED_OBJ(vfsstat);

int vfsstat_start(struct tool_ctx *t)
{
	/* vfs_fsync, vfs_open and vfs_create may be missing or not
	 * probeable on some kernel: their columns then stay 0 */
	struct bb_probe p[] = {
		{ VFSSTAT_P_do_read, NULL, 0, NULL, NULL, 0, 0 },
		{ VFSSTAT_P_do_write, NULL, 0, NULL, NULL, 0, 0 },
		{ VFSSTAT_P_do_fsync, NULL, 0, NULL, NULL, 1, 0 },
		{ VFSSTAT_P_do_open, NULL, 0, NULL, NULL, 1, 0 },
		{ VFSSTAT_P_do_create, NULL, 0, NULL, NULL, 1, 0 },
	};
	int ret = tool_open(t, &vfsstat_skel, EMBEDDED_ARGS(vfsstat));

	if (ret < 0 || (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, VFS_NSTATS);
}

int vfsstat_stats_fd(struct tool_ctx *t)
{
	return vfsstat_map_fd(t->obj, VFSSTAT_M_stats);
}
