/* SPDX-License-Identifier: MIT */
/*
 * bpf/trace.bpf.c on the host: the settings every probe's copy shares,
 * the constants trace's compiler (tools/trace_prog.c) names, the copies,
 * maps and ring.
 */
#include <errno.h>
#include <string.h>
#include "mods.h"
#include "trace.skel.h"
#include "../../bpf/trace.h"

EMBEDDED_OBJ(trace);

/* the program each probe loads a copy of: trace_kprobe, or before 4.11
 * trace_kprobe_old (traceobj_settings.old); one object a run */
static const char *copied = TRACE_P_trace_kprobe;

static int configure(struct tool_ctx *t, const struct traceobj_settings *s)
{
	static const struct mod_tp_off dev[] = {
		{ "block_bio_queue", "dev", TRACE_C_tpoff_bio_queue_dev },
	};
	struct bb_obj *o = t->obj;
	const int set[] = {
		trace_set(o, TRACE_C_split_helpers, s->split),
		trace_set(o, TRACE_C_filter_tgid, s->pid),
		trace_set(o, TRACE_C_filter_tid, s->tid),
		trace_set(o, TRACE_C_self_tgid, s->self_tgid),
		trace_set(o, TRACE_C_kstack, s->kstack),
		trace_set(o, TRACE_C_ustack, s->ustack),
		trace_set(o, TRACE_C_filter_dev, s->filter_dev),
	};
	int ret = MOD_CONSTS_SET(t, set);

	/* the disk of a bio: only -d reads it */
	return ret < 0 ? ret : mod_tp_offsets(t, &trace_skel, "block", dev, 1,
					      s->disk);
}

/* helper 115: bpf_probe_read_kernel_str, 5.5+ (with _user_str, 114) */
#define HELPER_READ_KERNEL_STR 115

/* bpf_probe_read_{user,kernel}_str came in one commit (5.5): one test load
 * tells for both */
int traceobj_split_strs(void)
{
	return bpf_helper_available(BPF_PROG_TYPE_TRACEPOINT,
				    HELPER_READ_KERNEL_STR) == 1;
}

int traceobj_open(struct tool_ctx *t, const struct traceobj_settings *s)
{
	struct bb_map *m;
	int ret = tool_open(t, &trace_skel, EMBEDDED_ARGS(trace));

	if (ret < 0 || (ret = configure(t, s)) < 0)
		return ret;
	if (!s->kstack && !s->ustack) {
		/* 2 x 4 MB of kernel memory for nothing */
		if (trace_map(t->obj, TRACE_M_stacks, &m) == 0)
			m->def.max_entries = 1;
		if (trace_map(t->obj, TRACE_M_stacks1, &m) == 0)
			m->def.max_entries = 1;
	}
	if (!s->disk)
		tool_taskdev_unused(t);
	/* every probe loads its own copy (traceobj_load_copy): the object's
	 * own programs would be more verifications of 1,600 instructions */
	copied = s->old ? TRACE_P_trace_kprobe_old : TRACE_P_trace_kprobe;
	if (s->old) {
		obj_set_const_mov(t->obj);
		obj_set_str_fallback(t->obj);
	}
	ret = obj_set_noload(t->obj, TRACE_P_trace_kprobe);
	return ret < 0 ? ret : obj_set_noload(t->obj, TRACE_P_trace_kprobe_old);
}

int traceobj_set(struct tool_ctx *t, const char *name, uint64_t v)
{
	int i;

	for (i = 0; i < TRACE_NCONSTS; i++)
		if (!strcmp(trace_const_names[i], name))
			return trace_set(t->obj, (enum trace_const)i, v);
	return -ENOENT;
}

int traceobj_load_copy(struct tool_ctx *t, enum bb_prog_kind kind,
		       struct bb_prog **copy, struct bb_err *err)
{
	return obj_prog_load_copy(t->obj, copied, kind, copy, err);
}

void traceobj_stack_fds(struct tool_ctx *t, int stacks[2], int *gen)
{
	stacks[0] = trace_map_fd(t->obj, TRACE_M_stacks);
	stacks[1] = trace_map_fd(t->obj, TRACE_M_stacks1);
	*gen = trace_map_fd(t->obj, TRACE_M_stack_gen);
}

int traceobj_events_fd(struct tool_ctx *t)
{
	return trace_map_fd(t->obj, TRACE_M_events);
}
