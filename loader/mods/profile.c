/* SPDX-License-Identifier: MIT */
/* bpf/profile.bpf.c on the host: settings, a sampling event per CPU (the
 * session's), the counts and stacks. */
#include <errno.h>
#include <string.h>
#include "mods.h"
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
	    mod_build_id_stacks(t, "ustacks", s->stack_storage ?
				s->stack_storage : PROFILE_STACKS) < 0)
		return -EOPNOTSUPP;
	return MOD_CONSTS_SET(t, set);
}

int profile_start(struct tool_ctx *t, const struct profile_settings *s,
		  struct profile_run *r)
{
	struct bb_err err = { "" };
	struct bb_prog *p;
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
	/* the session's rule, as run's: an offline CPU is skipped, any other
	 * that cannot be sampled fails the tool (a profile without some
	 * CPUs, said nowhere, would show a wrong picture); tool_detach
	 * closes the events */
	p = obj_prog(t->obj, PROFILE_P_do_sample);
	if (!p)
		return tool_fail(t, -EINVAL, "internal: no program %s",
				 PROFILE_P_do_sample);
	ret = session_attach_sampling(&t->sess, p, s->hz, &r->software, &err);
	if (ret < 0)
		return tool_fail(t, ret, "%s", err.msg);
	r->ncpus = ret;
	return 0;
}
