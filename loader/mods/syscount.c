/* SPDX-License-Identifier: MIT */
/* bpf/syscount.bpf.c on the host: settings, offsets, the cgroup, probes. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "mods.h"
#include "sysnames.h"
#include "syscount.skel.h"
#include "../../bpf/syscount.h"

EMBEDDED_OBJ(syscount);

#define LONG_AT(off) off, SYSCOUNT_TP_LONG
static const struct mod_tp_off offs[] = {
	{ "sys_enter", "id", SYSCOUNT_C_tpoff_enter_id,
	  LONG_AT(SYSCOUNT_TP_ID) },
	{ "sys_exit", "id", SYSCOUNT_C_tpoff_exit_id, LONG_AT(SYSCOUNT_TP_ID) },
	{ "sys_exit", "ret", SYSCOUNT_C_tpoff_exit_ret,
	  LONG_AT(SYSCOUNT_TP_RET) },
};

/* A number the table lacks: one no call can have. */
static uint64_t nr_or_none(const char *call)
{
	int nr = sysnames_number(call);

	return nr < 0 ? (uint64_t)0x7fffffff : (uint64_t)nr;
}

static int configure(struct tool_ctx *t, const struct syscount_settings *s)
{
	struct bb_obj *o = t->obj;
	struct bb_map *start;
	int direct = 1;
	int ret = mod_tp_fields(t, &syscount_skel, "raw_syscalls", offs, 3, 1,
				 &direct);

	if (ret < 0)
		return ret;
	/* an update and a delete per call with -L: from a free list */
	if (syscount_map(o, SYSCOUNT_M_start, &start) == 0)
		start->prealloc = s->latency;
	const int set[] = {
		syscount_set(o, SYSCOUNT_C_tp_direct, direct),
		syscount_set(o, SYSCOUNT_C_filter_pid, s->pid),
		syscount_set(o, SYSCOUNT_C_filter_tid, s->tid),
		syscount_set(o, SYSCOUNT_C_filter_cg, s->cgroup != NULL),
		syscount_set(o, SYSCOUNT_C_filter_nr_on, s->nr >= 0),
		syscount_set(o, SYSCOUNT_C_filter_nr,
			     s->nr >= 0 ? (uint64_t)s->nr : 0),
		syscount_set(o, SYSCOUNT_C_filter_failed, s->failed),
		syscount_set(o, SYSCOUNT_C_filter_errno, (uint64_t)s->err),
		syscount_set(o, SYSCOUNT_C_by_process, s->by_process),
		syscount_set(o, SYSCOUNT_C_latency, s->latency),
		syscount_set(o, SYSCOUNT_C_nr_exit, nr_or_none("exit")),
		syscount_set(o, SYSCOUNT_C_nr_exit_group,
			     nr_or_none("exit_group")),
	};
	if (!s->latency) /* not attached: not loaded */
		obj_set_noload(o, SYSCOUNT_P_sys_enter);
	return MOD_CONSTS_SET(t, set);
}

/* -c: the cgroup (v2) directory into slot 0 of the cgroup array. */
static int set_cgroup(struct tool_ctx *t, const char *path)
{
	uint32_t k = 0, fd;
	int cfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (cfd < 0)
		return tool_fail(t, -errno, "cannot open the cgroup '%s': %s",
				 path, strerror(errno));
	fd = (uint32_t)cfd;
	ret = bpf_map_update_elem(syscount_map_fd(t->obj, SYSCOUNT_M_cgroup),
				  &k, &fd, BPF_ANY);
	close(cfd);
	if (ret < 0)
		return tool_fail(t, ret, "cannot filter on the cgroup '%s': %s "
				 "(a directory of the cgroup v2 hierarchy, "
				 "e.g. /sys/fs/cgroup/system.slice, is "
				 "needed)", path, strerror(-ret));
	return 0;
}

int syscount_start(struct tool_ctx *t, const struct syscount_settings *s)
{
	/* an exit ends what an entry opens: the exit first */
	struct bb_probe p[] = {
		{ SYSCOUNT_P_sys_exit, NULL, 0, NULL, "start", 0, 0 },
		{ SYSCOUNT_P_sys_enter, NULL, 0, "start", NULL, 0, 0 },
	};
	int ret = tool_open(t, &syscount_skel, EMBEDDED_ARGS(syscount));

	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	if (s->cgroup && (ret = set_cgroup(t, s->cgroup)) < 0)
		return ret;
	return tool_attach_probes(t, p, s->latency ? 2 : 1);
}

int syscount_data_fd(struct tool_ctx *t)
{
	return syscount_map_fd(t->obj, SYSCOUNT_M_data);
}
