/* SPDX-License-Identifier: MIT */
/* bpf/funclatency.bpf.c on the host: settings, programs, maps. */
#include <errno.h>
#include "mods.h"
#include "funclatency.skel.h"
#include "../../bpf/funclatency.h"

EMBEDDED_OBJ(funclatency);

int funclatency_load(struct tool_ctx *t, uint32_t pid, uint64_t unit_div,
		     struct bb_prog **entry, struct bb_prog **ret)
{
	int r = tool_open(t, &funclatency_skel, EMBEDDED_ARGS(funclatency));

	if (r < 0)
		return r;
	const int set[] = {
		funclatency_set(t->obj, FUNCLATENCY_C_filter_tgid, pid),
		funclatency_set(t->obj, FUNCLATENCY_C_unit_div, unit_div),
	};
	r = MOD_CONSTS_SET(t, set);
	if (r < 0 || (r = tool_load(t)) < 0)
		return r;
	*entry = obj_prog(t->obj, FUNCLATENCY_P_func_entry);
	*ret = obj_prog(t->obj, FUNCLATENCY_P_func_return);
	return *entry && *ret ? 0 : -ENOENT;
}

int funclatency_stats_fd(struct tool_ctx *t)
{
	return funclatency_map_fd(t->obj, FUNCLATENCY_M_stats);
}

/* Their copies as a uprobe and a uretprobe (one more load each). */
int funclatency_user_progs(struct tool_ctx *t, struct bb_prog **entry,
			   struct bb_prog **ret)
{
	struct bb_err err = { "" };
	int r = obj_prog_load_copy(t->obj, FUNCLATENCY_P_func_entry,
				   BB_PROG_UPROBE, entry, &err);

	if (r == 0)
		r = obj_prog_load_copy(t->obj, FUNCLATENCY_P_func_return,
				       BB_PROG_URETPROBE, ret, &err);
	return r < 0 ? tool_fail(t, r, "%s", err.msg) : 0;
}
