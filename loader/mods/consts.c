/* SPDX-License-Identifier: MIT */
/* What every module does with constants: tracepoint-field offsets, and
 * the results of setting them. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "mods.h"
#include "../../bpf/stackkey.h"

_Static_assert(sizeof(struct bb_stack_build_id) == 32,
	       "struct bpf_stack_build_id is 32 bytes");

int mod_tp_offsets(struct tool_ctx *t, const struct bb_skel *s,
		   const char *cat, const struct mod_tp_off *o, int n,
		   int read)
{
	return mod_tp_fields(t, s, cat, o, n, read, NULL);
}

int mod_tp_fields(struct tool_ctx *t, const struct bb_skel *s,
		  const char *cat, const struct mod_tp_off *o, int n,
		  int read, int *direct)
{
	struct bb_tp_field f;
	int i, ret;

	for (i = 0; i < n; i++) {
		f.offset = f.size = 0;
		if (read) {
			ret = tool_tp_field(t, cat, o[i].event, o[i].field, &f);
			if (ret < 0)
				return ret;
			if (direct && o[i].at &&
			    (f.offset != o[i].at || f.size != o[i].size))
				*direct = 0;
		}
		ret = obj_skel_set(t->obj, s, o[i].id, f.offset);
		if (ret < 0)
			return tool_fail(t, ret,
					 "internal: constant %d of %s: %s",
					 o[i].id, s->name, strerror(-ret));
	}
	return 0;
}

int mod_consts_set(struct tool_ctx *t, const int *results, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (results[i] < 0)
			return tool_fail(t, results[i],
					 "internal: load-time constant %d "
					 "of %d: %s", i, n,
					 strerror(-results[i]));
	return 0;
}

int mod_build_id_stacks(struct tool_ctx *t, const char *name,
			uint32_t entries)
{
	struct bb_map *m = obj_map(t->obj, name);
	int fd;

	if (!m)
		return tool_fail(t, -EINVAL, "internal: no map %s", name);
	/* asked of the kernel, not of its version (backports) */
	fd = bpf_map_create(BPF_MAP_TYPE_STACK_TRACE, sizeof(uint32_t),
			    sizeof(struct bb_stack_build_id), 1,
			    BPF_F_STACK_BUILD_ID, NULL);
	if (fd == -EINVAL)
		return tool_fail(t, -EOPNOTSUPP, "--build-id: this kernel has "
				 "no build-id stack maps (BPF_F_STACK_BUILD_ID, "
				 "Linux 4.17); without --build-id, the frames "
				 "of a process are named while it runs");
	if (fd >= 0)
		close(fd);
	/* else (EPERM, ENOMEM ...) the load says why */
	m->def.map_flags |= BPF_F_STACK_BUILD_ID;
	m->def.value_size = BB_MAX_STACK * sizeof(struct bb_stack_build_id);
	m->def.max_entries = entries;
	return 0;
}
