/* SPDX-License-Identifier: MIT */
/* What every module does with constants: tracepoint-field offsets, and
 * the results of setting them. */
#include <errno.h>
#include <string.h>
#include "progs.h"

int prog_tp_offsets(struct tool_ctx *t, const struct bb_skel *s,
		    const char *cat, const struct prog_tp_off *o, int n,
		    int read)
{
	return prog_tp_fields(t, s, cat, o, n, read, NULL);
}

int prog_tp_fields(struct tool_ctx *t, const struct bb_skel *s,
		   const char *cat, const struct prog_tp_off *o, int n,
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

int prog_consts_set(struct tool_ctx *t, const int *results, int n)
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
