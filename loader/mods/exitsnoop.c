/* SPDX-License-Identifier: MIT */
/* bpf/exitsnoop.bpf.c on the host: the task_struct's fields (the
 * field-offset layer: BTF, --btf, else exitsnoop_disc.c), the ring, the
 * tracepoint sched:sched_process_exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "exitsnoop.skel.h"
#include "../../bpf/exitsnoop.h"

EMBEDDED_OBJ(exitsnoop);

static const char *const paths[EXITSNOOP_NF] = {
	"task_struct.exit_code", "task_struct.tgid",
	"task_struct.real_parent", "task_struct.start_time",
};

/* the offsets into off[]: 0, or -errno said; start_time may be missing
 * (info->have_start 0, why in info->start_why) */
static int find_fields(struct tool_ctx *t, uint32_t *off,
		       struct exitsnoop_info *info, int raw)
{
	static const uint32_t want[EXITSNOOP_NF] = { 4, 4, 0, 8 };
	struct exitsnoop_disc *d = calloc(1, sizeof(*d));
	struct bb_fieldoff fo;
	int f, ret = 0;

	if (!d)
		return tool_fail(t, -ENOMEM, "out of memory");
	d->t = t;
	d->raw = raw;
	fieldoff_init(&fo, t->btf_file);
	for (f = 0; f < EXITSNOOP_NF; f++)
		fieldoff_register(&fo, paths[f], exitsnoop_discover, d);
	for (f = 0; f < EXITSNOOP_NF && ret == 0; f++) {
		struct bb_err err = { "" };
		struct bb_field fl;
		uint32_t size = want[f] ? want[f] : sizeof(void *);

		ret = fieldoff_find(&fo, paths[f], &fl, &err);
		if (ret == 0 && fl.size != size)
			ret = bb_fail(&err, -EINVAL, "%s has %u bytes here, "
				      "not %u: a kernel barebpf does not "
				      "know", paths[f], fl.size, size);
		if (ret < 0 && f == EXITSNOOP_F_START_TIME &&
		    ret != -EINTR) {
			snprintf(info->start_why, sizeof(info->start_why),
				 "%s", err.msg);
			ret = 0;
			continue;
		}
		if (ret < 0) {
			tool_error(t, "%s", err.msg);
			break;
		}
		off[f] = fl.offset;
		info->have_start |= f == EXITSNOOP_F_START_TIME;
		if (t->verbose)
			fprintf(stderr, "%s at offset %u (%u bytes): %s\n",
				paths[f], fl.offset, fl.size, fl.how);
	}
	fieldoff_close(&fo);
	free(d);
	return ret;
}

static int configure(struct tool_ctx *t, const struct exitsnoop_settings *s,
		     const uint32_t *off, int have_start, int raw)
{
	struct bb_obj *o = t->obj;
	const int set[] = {
		exitsnoop_set(o, EXITSNOOP_C_filter_pid, s->pid),
		exitsnoop_set(o, EXITSNOOP_C_per_thread, s->per_thread),
		exitsnoop_set(o, EXITSNOOP_C_failed_only, s->failed),
		exitsnoop_set(o, EXITSNOOP_C_off_exit_code,
			      off[EXITSNOOP_F_EXIT_CODE]),
		exitsnoop_set(o, EXITSNOOP_C_off_tgid, off[EXITSNOOP_F_TGID]),
		exitsnoop_set(o, EXITSNOOP_C_off_real_parent,
			      off[EXITSNOOP_F_REAL_PARENT]),
		/* 0: unknown (no task_struct starts with start_time) */
		exitsnoop_set(o, EXITSNOOP_C_off_start_time, have_start ?
			      off[EXITSNOOP_F_START_TIME] : 0),
		exitsnoop_set(o, EXITSNOOP_C_disc_comm, 0),
		exitsnoop_set(o, EXITSNOOP_C_task_arg, raw),
	};
	obj_set_noload(o, EXITSNOOP_P_tp_disc);
	if (raw) /* its copy only (exitsnoop_attach) */
		obj_set_noload(o, EXITSNOOP_P_tp_exit);
	return MOD_CONSTS_SET(t, set);
}

int exitsnoop_start(struct tool_ctx *t, const struct exitsnoop_settings *s,
		    struct bb_perfbuf **pb, struct exitsnoop_info *info)
{
	uint32_t off[EXITSNOOP_NF] = { 0 };
	/* the exiting task from the raw tracepoint where the helper that
	 * says it needs the JIT, which is off (bpf_helper_needs_jit); or
	 * where asked, to test that way on any kernel (4.17+) */
	const char *force = getenv("BAREBPF_EXITSNOOP_TASK");
	int forced = force && !strcmp(force, "tracepoint"), ret;
	int raw = forced || bpf_helper_needs_jit(BPF_PROG_TYPE_TRACEPOINT, 35);

	memset(info, 0, sizeof(*info));
	if (raw && t->verbose)
		fprintf(stderr, "the exiting task: the raw tracepoint "
			"sched_process_exit's argument (%s)\n", forced ?
			"BAREBPF_EXITSNOOP_TASK=tracepoint" :
			"bpf_get_current_task needs the JIT here, which is "
			"off");
	ret = find_fields(t, off, info, raw);
	if (ret < 0)
		return ret;
	ret = tool_open(t, &exitsnoop_skel, EMBEDDED_ARGS(exitsnoop));
	if (ret < 0 ||
	    (ret = configure(t, s, off, info->have_start, raw)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	ret = tool_ring(t, exitsnoop_map_fd(t->obj, EXITSNOOP_M_events), 16,
			s->on_event, s->ctx, pb);
	return ret < 0 ? ret : exitsnoop_attach(t, EXITSNOOP_P_tp_exit, raw);
}

int exitsnoop_stats_fd(struct tool_ctx *t)
{
	return exitsnoop_map_fd(t->obj, EXITSNOOP_M_stats);
}
