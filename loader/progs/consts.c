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
	int i, off;

	for (i = 0; i < n; i++) {
		off = read ? tool_tp_offset(t, cat, o[i].event, o[i].field) : 0;
		if (off < 0)
			return off;
		off = obj_skel_set(t->obj, s, o[i].id, off);
		if (off < 0)
			return tool_fail(t, off,
					 "internal: constant %d of %s: %s",
					 o[i].id, s->name, strerror(-off));
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
