/* SPDX-License-Identifier: MIT */
/* bpf/hardirqs.bpf.c on the host: offsets, mode, probes. */
#include "mods.h"
#include "hardirqs.skel.h"
#include "../../bpf/hardirqs.h"

EMBEDDED_OBJ(hardirqs);

static const struct mod_tp_off offs[] = {
	{ "irq_handler_entry", "name", HARDIRQS_C_tpoff_entry_name,
	  HARDIRQS_TP_NAME, 4 },
	{ "irq_handler_exit", "ret", HARDIRQS_C_tpoff_exit_ret,
	  HARDIRQS_TP_RET, 4 },
};

int hardirqs_start(struct tool_ctx *t, int mode, uint64_t unit_div)
{
	/* an exit ends what an entry opens: the exit first */
	struct bb_probe p[] = {
		{ HARDIRQS_P_irq_exit, NULL, 0, NULL, "irq", 0, 0 },
		{ HARDIRQS_P_irq_entry, NULL, 0, "irq", NULL, 0, 0 },
	};
	int direct = 1;
	int ret = tool_open(t, &hardirqs_skel, EMBEDDED_ARGS(hardirqs));

	if (ret < 0 || (ret = mod_tp_fields(t, &hardirqs_skel, "irq", offs,
					     2, 1, &direct)) < 0)
		return ret;
	const int set[] = {
		hardirqs_set(t->obj, HARDIRQS_C_tp_direct, direct),
		hardirqs_set(t->obj, HARDIRQS_C_mode, (uint64_t)mode),
		hardirqs_set(t->obj, HARDIRQS_C_unit_div, unit_div),
	};
	if ((ret = MOD_CONSTS_SET(t, set)) < 0 || (ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, 2);
}

int hardirqs_dist_fd(struct tool_ctx *t)
{
	return hardirqs_map_fd(t->obj, HARDIRQS_M_dist);
}
