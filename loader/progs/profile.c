/* SPDX-License-Identifier: MIT */
/* bpf/profile.bpf.c on the host: settings, a sampling event per CPU, the
 * counts and stacks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progs.h"
#include "profile.skel.h"
#include "../../bpf/profile.h"

EMBEDDED_OBJ(profile);

static int configure(struct tool_ctx *t, const struct profile_settings *s)
{
	struct bb_obj *o = t->obj;
	const int set[] = {
		profile_set(o, PROFILE_C_filter_tgid, s->pid),
		profile_set(o, PROFILE_C_kstack, s->kstack),
		profile_set(o, PROFILE_C_ustack, s->ustack),
		profile_set(o, PROFILE_C_idle, s->idle),
		profile_set(o, PROFILE_C_build_id, s->build_id),
	};
	struct bb_map *m = obj_map(o, "stacks"), *c = obj_map(o, "counts");

	/* --stack-storage-size, --hash-storage-size: the load creates them */
	if (m && s->stack_storage)
		m->def.max_entries = s->stack_storage;
	if (c && s->hash_storage)
		c->def.max_entries = s->hash_storage;
	if (s->build_id && s->ustack &&
	    prog_build_id_stacks(t, "ustacks", s->stack_storage ?
				 s->stack_storage : PROFILE_STACKS) < 0)
		return -EOPNOTSUPP;
	return PROG_CONSTS_SET(t, set);
}

/* A sampling event on every CPU there is; offline ones are skipped. */
static int attach_cpus(struct tool_ctx *t, struct profile_run *r,
		       unsigned hz)
{
	struct bb_prog *p = obj_prog(t->obj, PROFILE_P_do_sample);
	int ncpu = bb_ncpus_possible(), cpu, fd, last = 0;

	if (!p || ncpu < 1)
		return tool_fail(t, -EINVAL, "no program or no CPU to sample");
	r->fds = malloc(ncpu * sizeof(*r->fds));
	if (!r->fds)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (cpu = 0; cpu < ncpu; cpu++) {
		fd = perf_sample_open(cpu, hz, p->fd, &r->software);
		if (fd < 0) {
			last = fd;
			continue;
		}
		r->fds[r->nfds++] = fd;
	}
	if (!r->nfds)
		return tool_fail(t, last ? last : -ENODEV,
				 "no CPU could be sampled: perf_event_open: "
				 "%s", strerror(last ? -last : ENODEV));
	return 0;
}

int profile_start(struct tool_ctx *t, const struct profile_settings *s,
		  struct profile_run *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = tool_open(t, &profile_skel, EMBEDDED_ARGS(profile));
	if (ret < 0 || (ret = configure(t, s)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	r->counts_fd = profile_map_fd(t->obj, PROFILE_M_counts);
	r->stacks_fd = profile_map_fd(t->obj, PROFILE_M_stacks);
	r->ustacks_fd = s->build_id && s->ustack ?
			profile_map_fd(t->obj, PROFILE_M_ustacks) : -1;
	return attach_cpus(t, r, s->hz);
}

void profile_stop(struct profile_run *r)
{
	int i;

	/* closing a perf event stops its program */
	for (i = 0; i < r->nfds; i++)
		close(r->fds[i]);
	free(r->fds);
	r->fds = NULL;
	r->nfds = 0;
}
