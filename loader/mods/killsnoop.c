/* SPDX-License-Identifier: MIT */
/* bpf/killsnoop.bpf.c on the host: settings, offsets, ring, probes
 * (syscall tracepoints or kprobes). */
#include "mods.h"
#include "killsnoop.skel.h"
#include "../../bpf/killsnoop.h"

EMBEDDED_OBJ(killsnoop);

static int configure(struct tool_ctx *t, const struct killsnoop_settings *s)
{
	/* not read for the kprobe programs */
	static const struct mod_tp_off offs[] = {
		{ "sys_enter_kill", "pid", KILLSNOOP_C_tpoff_args },
		{ "sys_exit_kill", "ret", KILLSNOOP_C_tpoff_ret },
	};
	struct bb_obj *o = t->obj;
	int ret = mod_tp_offsets(t, &killsnoop_skel, "syscalls", offs, 2,
				  s->tps);

	if (ret < 0)
		return ret;
	const int set[] = {
		killsnoop_set(o, KILLSNOOP_C_filter_tid, s->tid),
		killsnoop_set(o, KILLSNOOP_C_filter_sig, s->sig),
		killsnoop_set(o, KILLSNOOP_C_failed_only, s->failed),
	};
	/* what is not attached is not loaded */
	obj_set_noload(o, s->tps ? KILLSNOOP_P_kp_kill : KILLSNOOP_P_tp_enter);
	obj_set_noload(o, s->tps ? KILLSNOOP_P_kr_kill : KILLSNOOP_P_tp_exit);
	return MOD_CONSTS_SET(t, set);
}

int killsnoop_start(struct tool_ctx *t, const struct killsnoop_settings *s,
		    struct bb_perfbuf **pb)
{
	/* a return ends what an entry opens: the return first */
	struct bb_probe p[2] = {
		{ s->tps ? KILLSNOOP_P_tp_exit : KILLSNOOP_P_kr_kill,
		  s->tps ? "syscalls/sys_exit_kill" : s->fn, 0, NULL, "kill",
		  0, 0 },
		{ s->tps ? KILLSNOOP_P_tp_enter : KILLSNOOP_P_kp_kill,
		  s->tps ? "syscalls/sys_enter_kill" : s->fn, 0, "kill", NULL,
		  0, 0 },
	};
	int ret = tool_open(t, &killsnoop_skel, EMBEDDED_ARGS(killsnoop));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	ret = tool_ring(t, killsnoop_map_fd(t->obj, KILLSNOOP_M_events), 16,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, 2);
}

int killsnoop_stats_fd(struct tool_ctx *t)
{
	return killsnoop_map_fd(t->obj, KILLSNOOP_M_stats);
}
