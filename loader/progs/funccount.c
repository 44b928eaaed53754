/* SPDX-License-Identifier: MIT */
/* bpf/funccount.bpf.c on the host: settings, probes, the counts. */
#include "progs.h"
#include "funccount.skel.h"
#include "../../bpf/funccount.h"

EMBEDDED_OBJ(funccount);

int funccount_load(struct tool_ctx *t, uint32_t pid)
{
	int ret = tool_open(t, &funccount_skel, EMBEDDED_ARGS(funccount));

	if (ret < 0)
		return ret;
	const int set[] = {
		funccount_set(t->obj, FUNCCOUNT_C_filter_tgid, pid),
		funccount_set(t->obj, FUNCCOUNT_C_ukey, 0),
	};
	ret = PROG_CONSTS_SET(t, set);
	return ret < 0 ? ret : tool_load(t);
}

void funccount_probes(struct bb_probe *p, char **names, int n, int tp)
{
	int i;

	/* each counts alone: no order between them */
	for (i = 0; i < n; i++) {
		p[i].prog = tp ? FUNCCOUNT_P_count_tp : FUNCCOUNT_P_count_kprobe;
		p[i].target = names[i];
		p[i].optional = n > 1;
	}
}

int funccount_counts_fd(struct tool_ctx *t)
{
	return funccount_map_fd(t->obj, FUNCCOUNT_M_counts);
}

/*
 * uprobes: one copy of count_uprobe per function, counting under its
 * index (names[i] then names the row, as a tracepoint's does).
 */
int funccount_uprobe_progs(struct tool_ctx *t, struct bb_probe *p, int n,
			   struct bb_prog **progs)
{
	struct bb_err err = { "" };
	int i, ret;

	for (i = 0; i < n; i++) {
		p[i].prog = FUNCCOUNT_P_count_uprobe;
		ret = funccount_set(t->obj, FUNCCOUNT_C_ukey, i);
		if (ret < 0)
			return tool_fail(t, ret, "internal: no constant ukey");
		ret = obj_prog_load_copy(t->obj, FUNCCOUNT_P_count_uprobe,
					 BB_PROG_UPROBE, &progs[i], &err);
		if (ret < 0)
			return tool_fail(t, ret, "%s", err.msg);
	}
	return 0;
}
