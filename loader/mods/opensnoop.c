/* SPDX-License-Identifier: MIT */
/* bpf/opensnoop.bpf.c on the host: settings, offsets, ring, probes
 * (tracepoints or kprobes). */
#include <sys/syscall.h>
#include "mods.h"
#include "opensnoop.skel.h"
#include "../../bpf/opensnoop.h"

EMBEDDED_OBJ(opensnoop);

#ifndef SYS_openat2
#define SYS_openat2 437 /* 5.6, one number on every architecture */
#endif
#ifndef SYS_open
#define SYS_open 0xffffffff /* arm64: none */
#endif

static int configure(struct tool_ctx *t, const struct opensnoop_settings *s)
{
	/* not read for the kprobe programs */
	static const struct mod_tp_off offs[] = {
		{ "sys_enter_openat", "__syscall_nr", OPENSNOOP_C_tpoff_nr },
		{ "sys_enter_openat", "dfd", OPENSNOOP_C_tpoff_args },
		{ "sys_exit_openat", "ret", OPENSNOOP_C_tpoff_ret },
	};
	struct bb_obj *o = t->obj;
	int ret = mod_tp_offsets(t, &opensnoop_skel, "syscalls", offs, 3,
				 s->tps);

	if (ret < 0)
		return ret;
	const int set[] = {
		opensnoop_set(o, OPENSNOOP_C_nr_open, SYS_open),
		opensnoop_set(o, OPENSNOOP_C_nr_openat2, SYS_openat2),
		opensnoop_set(o, OPENSNOOP_C_filter_pid, s->pid),
		opensnoop_set(o, OPENSNOOP_C_filter_tid, s->tid),
		opensnoop_set(o, OPENSNOOP_C_filter_uid, s->filter_uid),
		opensnoop_set(o, OPENSNOOP_C_filter_flags, s->flags),
	};
	return MOD_CONSTS_SET(t, set);
}

int opensnoop_start(struct tool_ctx *t, const struct opensnoop_settings *s,
		    struct bb_perfbuf **pb)
{
	static const char *const kp[] = { OPENSNOOP_P_kp_openat,
		OPENSNOOP_P_kp_open, OPENSNOOP_P_kp_openat2 };
	struct bb_probe p[6];
	int ret = tool_open(t, &opensnoop_skel, EMBEDDED_ARGS(opensnoop));
	int i, n = 0;

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	/* a return ends what an entry opens: returns first */
	for (i = 0; i < 3; i++) {
		if (!s->fn[i][0] || s->fn[i][0] == '-')
			continue;
		p[n++] = (struct bb_probe){
			s->tps ? OPENSNOOP_P_tp_exit : OPENSNOOP_P_kr_open,
			s->tps ? s->ex[i] : s->fn[i], 0, NULL, "open", 0, 0 };
		p[n++] = (struct bb_probe){ s->tps ? OPENSNOOP_P_tp_enter :
					    kp[i], s->fn[i], 0, "open", NULL,
					    0, 0 };
	}
	ret = tool_ring(t, opensnoop_map_fd(t->obj, OPENSNOOP_M_events), 128,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, n);
}

int opensnoop_stats_fd(struct tool_ctx *t)
{
	return opensnoop_map_fd(t->obj, OPENSNOOP_M_stats);
}
