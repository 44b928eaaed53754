/* SPDX-License-Identifier: MIT */
/* Constants and maps by the ids of a generated header (skel.h). */
#include <errno.h>
#include <string.h>
#include "obj_internal.h"
#include "skel.h"

static int has_const(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nconsts; i++)
		if (!strcmp(obj->consts[i].name, name))
			return 1;
	for (i = 0; i < obj->nvars; i++)
		if (!strcmp(obj->vars[i].name, name))
			return 1;
	return 0;
}

int obj_skel_bind(struct bb_obj *obj, const struct bb_skel *s,
		  struct bb_err *err)
{
	int i;

	for (i = 0; i < s->nconsts; i++)
		if (!has_const(obj, s->consts[i]))
			return bb_fail(err, -ENOENT, "%s: no constant %s, which "
				       "the build's header of %s names (an "
				       "object out of step with its build)",
				       obj->name, s->consts[i], s->name);
	for (i = 0; i < s->nmaps; i++)
		if (!obj_map(obj, s->maps[i]))
			return bb_fail(err, -ENOENT, "%s: no map %s, which the "
				       "build's header of %s names (an object "
				       "out of step with its build)", obj->name,
				       s->maps[i], s->name);
	obj->skel = s;
	return 0;
}

static int check(const struct bb_obj *obj, const struct bb_skel *s, int id,
		 int n)
{
	return obj && obj->skel == s && id >= 0 && id < n ? 0 : -EINVAL;
}

int obj_skel_set(struct bb_obj *obj, const struct bb_skel *s, int id,
		 uint64_t value)
{
	int ret = check(obj, s, id, s->nconsts);

	return ret < 0 ? ret : obj_set_const(obj, s->consts[id], value);
}

int obj_skel_map(struct bb_obj *obj, const struct bb_skel *s, int id,
		 struct bb_map **m)
{
	int ret = check(obj, s, id, s->nmaps);

	if (ret < 0)
		return ret;
	*m = obj_map(obj, s->maps[id]);
	return *m ? 0 : -ENOENT;
}

int obj_skel_map_fd(struct bb_obj *obj, const struct bb_skel *s, int id)
{
	struct bb_map *m;
	int ret = obj_skel_map(obj, s, id, &m);

	if (ret < 0)
		return ret;
	return m->fd >= 0 ? m->fd : -EBADF;
}
