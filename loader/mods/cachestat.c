/* SPDX-License-Identifier: MIT */
/* bpf/cachestat.bpf.c on the host: which function each program takes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mods.h"
#include "kfuncs.h"
#include "cachestat.skel.h"
#include "../../bpf/cachestat.h"

EMBEDDED_OBJ(cachestat);

const char *const cachestat_wanted_fns[7] = {
	"filemap_add_folio", "add_to_page_cache_lru", "folio_mark_accessed",
	"mark_page_accessed", "folio_account_dirtied", "account_page_dirtied",
	"mark_buffer_dirty",
};

/* The first name of chain in avail, or NULL after saying none is. */
static const char *pick(struct tool_ctx *t, const char *const *chain,
			char **avail, int n, int say)
{
	int i = fn_pick_first(chain, avail, n);

	if (i >= 0)
		return chain[i];
	if (say)
		tool_error(t, "this kernel has none of %s%s%s: cachestat "
			   "cannot count it", chain[0], chain[1] ? ", " : "",
			   chain[1] ? chain[1] : "");
	return NULL;
}

/* Where account_page_dirtied is inlined (folio_account_dirtied is
 * static): the writeback tracepoint of a page or folio dirtied, as bcc. */
static const char *dirty_tracepoint(struct tool_ctx *t)
{
	static const char *const tps[] = { "writeback/writeback_dirty_folio",
					   "writeback/writeback_dirty_page" };
	const char *tfs = tool_tracefs(t);
	char path[256];
	int i;

	for (i = 0; tfs && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", tfs, tps[i]);
		if (access(path, F_OK) == 0)
			return tps[i];
	}
	return NULL;
}

int cachestat_start(struct tool_ctx *t, char **avail, int n, char *what,
		    size_t len)
{
	const char *add = pick(t, cachestat_add_fns, avail, n, 1);
	const char *acc = pick(t, cachestat_access_fns, avail, n, 1);
	const char *mbd = pick(t, cachestat_buffer_fns, avail, n, 1);
	const char *apd = pick(t, cachestat_dirtied_fns, avail, n, 0);
	const char *tp = apd ? NULL : dirty_tracepoint(t);
	struct bb_probe p[] = {
		{ CACHESTAT_P_do_apcl, add, 0, NULL, NULL, 0, 0 },
		{ CACHESTAT_P_do_mpa, acc, 0, NULL, NULL, 0, 0 },
		{ CACHESTAT_P_do_mbd, mbd, 0, NULL, NULL, 0, 0 },
		{ apd ? CACHESTAT_P_do_apd : CACHESTAT_P_do_apd_tp,
		  apd ? apd : tp, 0, NULL, NULL, 0, 0 },
	};
	int ret;

	if (!add || !acc || !mbd)
		return -ENOENT;
	if (!apd && !tp)
		return tool_fail(t, -ENOENT, "this kernel has neither "
				 "folio_account_dirtied nor account_page_"
				 "dirtied, nor a writeback_dirty_folio or "
				 "_page tracepoint: cachestat cannot count "
				 "dirtied pages");
	snprintf(what, len, "%s, %s, %s, %s", add, acc, mbd, apd ? apd : tp);
	ret = tool_open(t, &cachestat_skel, EMBEDDED_ARGS(cachestat));
	if (ret < 0)
		return ret;
	obj_set_noload(t->obj, apd ? CACHESTAT_P_do_apd_tp :
		       CACHESTAT_P_do_apd);
	if ((ret = tool_load(t)) < 0)
		return ret;
	return tool_attach_probes(t, p, 4);
}

int cachestat_stats_fd(struct tool_ctx *t)
{
	return cachestat_map_fd(t->obj, CACHESTAT_M_stats);
}
