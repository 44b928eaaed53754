/* SPDX-License-Identifier: MIT */
/* bpf/softirqs.bpf.c on the host: offsets, mode, probes. */
#include "mods.h"
#include "softirqs.skel.h"
#include "../../bpf/softirqs.h"

EMBEDDED_OBJ(softirqs);

static const struct mod_tp_off offs[] = {
	{ "softirq_exit", "vec", SOFTIRQS_C_tpoff_exit_vec, SOFTIRQS_TP_VEC,
	  4 },
};

int softirqs_start(struct tool_ctx *t, int mode, uint64_t unit_div)
{
	/* an exit ends what an entry opens: the exit first */
	struct bb_probe p[] = {
		{ SOFTIRQS_P_softirq_exit, NULL, 0, NULL, "softirq", 0, 0 },
		{ SOFTIRQS_P_softirq_entry, NULL, 0, "softirq", NULL, 0, 0 },
	};
	int direct = 1;
	int ret = tool_open(t, &softirqs_skel, EMBEDDED_ARGS(softirqs));

	if (ret < 0 || (ret = mod_tp_fields(t, &softirqs_skel, "irq", offs,
					     1, 1, &direct)) < 0)
		return ret;
	const int set[] = {
		softirqs_set(t->obj, SOFTIRQS_C_tp_direct, direct),
		softirqs_set(t->obj, SOFTIRQS_C_mode, (uint64_t)mode),
		softirqs_set(t->obj, SOFTIRQS_C_unit_div, unit_div),
	};
	if ((ret = MOD_CONSTS_SET(t, set)) < 0 || (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, 2);
}

int softirqs_dist_fd(struct tool_ctx *t)
{
	return softirqs_map_fd(t->obj, SOFTIRQS_M_dist);
}
