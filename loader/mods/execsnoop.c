/* SPDX-License-Identifier: MIT */
/* bpf/execsnoop.bpf.c on the host: settings, offsets, the readers the
 * entries tail-call, ring, probes (tracepoints or kprobes). */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include "mods.h"
#include "execsnoop.skel.h"
#include "../../bpf/execsnoop.h"

EMBEDDED_OBJ(execsnoop);

static int configure(struct tool_ctx *t, const struct execsnoop_settings *s)
{
	static const struct mod_tp_off execve[] = {
		{ "sys_enter_execve", "__syscall_nr", EXECSNOOP_C_tpoff_nr },
		{ "sys_enter_execve", "filename",
		  EXECSNOOP_C_tpoff_execve_filename },
		{ "sys_enter_execve", "argv", EXECSNOOP_C_tpoff_execve_argv },
		{ "sys_exit_execve", "ret", EXECSNOOP_C_tpoff_exit_ret },
	}, execveat[] = {
		{ "sys_enter_execveat", "filename",
		  EXECSNOOP_C_tpoff_execveat_filename },
		{ "sys_enter_execveat", "argv",
		  EXECSNOOP_C_tpoff_execveat_argv },
	}, fork[] = {
		{ "sched_process_fork", "child_pid",
		  EXECSNOOP_C_tpoff_fork_child },
	};
	const struct bb_skel *k = &execsnoop_skel;
	struct bb_obj *o = t->obj;
	/* not read: for the kprobe programs, or without execveat */
	int ret = mod_tp_offsets(t, k, "syscalls", execve, 4, s->tps);

	if (ret < 0 ||
	    (ret = mod_tp_offsets(t, k, "syscalls", execveat, 2,
				  s->tps && s->execveat)) < 0 ||
	    (ret = mod_tp_offsets(t, k, "sched", fork, 1, 1)) < 0)
		return ret;
	const int set[] = {
		execsnoop_set(o, EXECSNOOP_C_nr_execveat,
			      s->tps && s->execveat ? SYS_execveat :
			      0xffffffff),
		execsnoop_set(o, EXECSNOOP_C_filter_uid, s->filter_uid),
		execsnoop_set(o, EXECSNOOP_C_fails, s->fails),
		execsnoop_set(o, EXECSNOOP_C_max_args, s->max_args),
	};
	return MOD_CONSTS_SET(t, set);
}

/* The readers the entries tail-call (see execsnoop.bpf.c). */
static int fill_jumps(struct tool_ctx *t, int old)
{
	static const struct {
		enum execsnoop_map jump;
		const char *name, *prog;
	} jp[] = { { EXECSNOOP_M_tp_jump, "tp_jump", EXECSNOOP_P_tp_args },
		   { EXECSNOOP_M_kp_jump, "kp_jump", EXECSNOOP_P_kp_args },
		   { EXECSNOOP_M_tp_jump, "tp_jump", EXECSNOOP_P_tp_args_old },
		   { EXECSNOOP_M_kp_jump, "kp_jump", EXECSNOOP_P_kp_args_old } };
	uint32_t zero = 0;
	int i, fd, ret;

	for (i = old ? 2 : 0; i < (old ? 4 : 2); i++) {
		struct bb_prog *p = obj_prog(t->obj, jp[i].prog);

		fd = execsnoop_map_fd(t->obj, jp[i].jump);
		ret = fd < 0 ? fd : !p ? -ENOENT :
		      bpf_map_update_elem(fd, &zero, &p->fd, BPF_ANY);
		if (ret < 0)
			return tool_fail(t, ret,
					 "cannot fill %s: %s", jp[i].name,
					 strerror(-ret));
	}
	return 0;
}

/* an exit ends what an entry opens and reads the parent a fork names:
 * exits first */
static int probes(const struct execsnoop_settings *s, struct bb_probe *p)
{
	/* [old]: the *_old programs, before 4.11 */
	static const char *const tx[] = { EXECSNOOP_P_tp_exit,
					  EXECSNOOP_P_tp_exit_old },
			  *const te[] = { EXECSNOOP_P_tp_enter,
					  EXECSNOOP_P_tp_enter_old },
			  *const kr[] = { EXECSNOOP_P_kr_exec,
					  EXECSNOOP_P_kr_exec_old },
			  *const kx[] = { EXECSNOOP_P_kp_execve,
					  EXECSNOOP_P_kp_execve_old },
			  *const kxat[] = { EXECSNOOP_P_kp_execveat,
					    EXECSNOOP_P_kp_execveat_old },
			  *const done[] = { EXECSNOOP_P_exec_done,
					    EXECSNOOP_P_exec_done_old };
	int n = 0, old = !!s->old;

	if (s->tps) {
		p[n++] = (struct bb_probe){ tx[old],
			"syscalls/sys_exit_execve", 0, NULL, "exec parent", 0,
			0 };
		if (s->execveat)
			p[n++] = (struct bb_probe){ tx[old],
				"syscalls/sys_exit_execveat", 0, NULL,
				"exec parent", 0, 0 };
		p[n++] = (struct bb_probe){ te[old], s->fn[0], 0,
					    "exec", NULL, 0, 0 };
		if (s->execveat)
			p[n++] = (struct bb_probe){ te[old],
				s->fn[1], 0, "exec", NULL, 0, 0 };
	} else {
		p[n++] = (struct bb_probe){ kr[old], s->fn[0], 0,
					    NULL, "exec parent", 0, 0 };
		if (s->execveat)
			p[n++] = (struct bb_probe){ kr[old],
				s->fn[1], 0, NULL, "exec parent", 0, 0 };
		p[n++] = (struct bb_probe){ kx[old], s->fn[0], 0,
					    "exec", NULL, 0, 0 };
		if (s->execveat)
			p[n++] = (struct bb_probe){ kxat[old],
				s->fn[1], 0, "exec", NULL, 0, 0 };
	}
	p[n++] = (struct bb_probe){ done[old], NULL, 0, NULL,
				    "exec parent", 0, 0 };
	p[n++] = (struct bb_probe){ EXECSNOOP_P_fork, NULL, 0, "parent", NULL,
				    0, 0 };
	return n;
}

/* bpf_probe_read_str (4.11) */
#define HELPER_PROBE_READ_STR 45

/* Before 4.11 (no bpf_probe_read_str) the *_old programs, which read and
 * send through the stack (execsnoop.bpf.c) */
int execsnoop_sends_chunks(void)
{
	return bpf_helper_available(BPF_PROG_TYPE_TRACEPOINT,
				    HELPER_PROBE_READ_STR) == 0;
}

int execsnoop_start(struct tool_ctx *t, const struct execsnoop_settings *s,
		    struct bb_perfbuf **pb)
{
	/* one of the two sets is loaded: the *_old ones where the kernel
	 * has no bpf_probe_read_str (s->old), the others elsewhere */
	static const char *const progs[][2] = {
		{ EXECSNOOP_P_tp_enter, EXECSNOOP_P_tp_enter_old },
		{ EXECSNOOP_P_tp_args, EXECSNOOP_P_tp_args_old },
		{ EXECSNOOP_P_tp_exit, EXECSNOOP_P_tp_exit_old },
		{ EXECSNOOP_P_exec_done, EXECSNOOP_P_exec_done_old },
		{ EXECSNOOP_P_kp_execve, EXECSNOOP_P_kp_execve_old },
		{ EXECSNOOP_P_kp_execveat, EXECSNOOP_P_kp_execveat_old },
		{ EXECSNOOP_P_kp_args, EXECSNOOP_P_kp_args_old },
		{ EXECSNOOP_P_kr_exec, EXECSNOOP_P_kr_exec_old } };
	struct bb_probe p[6];
	size_t i;
	int ret = tool_open(t, &execsnoop_skel, EMBEDDED_ARGS(execsnoop));

	for (i = 0; ret >= 0 && i < sizeof(progs) / sizeof(progs[0]); i++)
		ret = obj_set_noload(t->obj, progs[i][!s->old]);
	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0 || (ret = fill_jumps(t, s->old)) < 0)
		return ret;
	ret = tool_ring(t, execsnoop_map_fd(t->obj, EXECSNOOP_M_events), 64,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, probes(s, p));
}

int execsnoop_stats_fd(struct tool_ctx *t)
{
	return execsnoop_map_fd(t->obj, EXECSNOOP_M_stats);
}
