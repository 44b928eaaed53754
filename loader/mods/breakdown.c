/* SPDX-License-Identifier: MIT */
/* bpf/breakdown.bpf.c on the host: settings, the program array, ring,
 * probes (a pair of slot programs per function). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mods.h"
#include "breakdown.skel.h"
#include "../../bpf/breakdown.h"

EMBEDDED_OBJ(breakdown);

static int configure(struct tool_ctx *t, const struct breakdown_settings *s)
{
	uint64_t comm[2] = { 0 };
	struct bb_obj *o = t->obj;

	if (s->comm) /* little-endian words */
		memcpy(comm, s->comm, strnlen(s->comm, sizeof(comm)));
	const int set[] = {
		breakdown_set(o, BREAKDOWN_C_min_ns, s->min_ns),
		breakdown_set(o, BREAKDOWN_C_filter_tgid, s->pid),
		breakdown_set(o, BREAKDOWN_C_comm0, comm[0]),
		breakdown_set(o, BREAKDOWN_C_comm1, comm[1]),
		breakdown_set(o, BREAKDOWN_C_kstack, s->kstack),
	};
	return MOD_CONSTS_SET(t, set);
}

/* jmp: the slot programs tail-call the entry and the return */
static int fill_jmp(struct tool_ctx *t)
{
	int fd = breakdown_map_fd(t->obj, BREAKDOWN_M_jmp);
	uint32_t k;

	for (k = 0; k < 2; k++) {
		struct bb_prog *p = obj_prog(t->obj, k ? BREAKDOWN_P_bd_return :
						     BREAKDOWN_P_bd_entry);
		int r = fd < 0 ? fd : !p ? -ENOENT :
			bpf_map_update_elem(fd, &k, &p->fd, 0);

		if (r < 0)
			return tool_fail(t, r, "cannot fill the program array: "
					 "%s", strerror(-r));
	}
	return 0;
}

int breakdown_start(struct tool_ctx *t, const struct breakdown_settings *s,
		    struct bb_perfbuf **pb)
{
	static char pn[BD_MAX_FUNCS][2][8];
	struct bb_probe p[2 * BD_MAX_FUNCS];
	int ret = tool_open(t, &breakdown_skel, EMBEDDED_ARGS(breakdown)), i;

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0 || (ret = fill_jmp(t)) < 0)
		return ret;
	/* every return before any entry (the attach rule): an entry opens
	 * a frame that only its return closes */
	for (i = 0; i < s->n && i < BD_MAX_FUNCS; i++) {
		snprintf(pn[i][0], sizeof(pn[i][0]), "bd_e%d", i);
		snprintf(pn[i][1], sizeof(pn[i][1]), "bd_r%d", i);
		p[2 * i] = (struct bb_probe){ pn[i][0], s->fns[i], 0, "frame",
					      NULL, 0, 0 };
		p[2 * i + 1] = (struct bb_probe){ pn[i][1], s->fns[i],
						  s->maxactive, NULL, "frame",
						  0, 0 };
	}
	ret = tool_ring(t, breakdown_map_fd(t->obj, BREAKDOWN_M_events),
			s->pages, s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, 2 * i);
}

int breakdown_stacks_fd(struct tool_ctx *t)
{
	return breakdown_map_fd(t->obj, BREAKDOWN_M_stacks);
}

int breakdown_stats_fd(struct tool_ctx *t)
{
	return breakdown_map_fd(t->obj, BREAKDOWN_M_stats);
}
