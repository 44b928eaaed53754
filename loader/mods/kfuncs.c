/* SPDX-License-Identifier: MIT */
/* Kernel function names across kernels (kfuncs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kfuncs.h"

/* Freeze start: wrappers first (their stack is the caller's), then the
 * functions that do it; all that exist are probed (see freeze.bpf.c). */
const char *const freeze_start_fns[] = {
	"blk_mq_freeze_queue",           /* 4.15-6.14 */
	"blk_freeze_queue",              /* 4.15-6.1 */
	"blk_mq_freeze_queue_nomemsave", /* 6.15+ */
	"blk_freeze_queue_start",        /* 4.15+ */
	"__blk_freeze_queue_start",      /* 6.14+ */
	"blk_mq_freeze_queue_start",     /* before 4.13 */
	NULL
};
/* wrappers that also wait: their return ends the drain */
const char *const freeze_start_ret_fns[] = {
	"blk_mq_freeze_queue", "blk_freeze_queue",
	"blk_mq_freeze_queue_nomemsave", NULL
};
const char *const freeze_wait_fns[] = {
	"blk_mq_freeze_queue_wait", "blk_mq_freeze_queue_wait_timeout", NULL
};
const char *const freeze_end_fns[] = {
	"blk_mq_unfreeze_queue",              /* -6.14 */
	"blk_mq_unfreeze_queue_nomemrestore", /* 6.15+ */
	"blk_mq_unfreeze_queue_non_owner",    /* 6.14+ */
	"__blk_mq_unfreeze_queue",            /* 5.16+ */
	NULL
};
const char *const queue_sysfs_fns[] = {
	"queue_attr_store", "queue_attr_show", NULL
};
/* a queue show method that takes the request_queue (4.15-6.9; 6.10 gave
 * them the gendisk) */
const char *const queue_show_q_fns[] = {
	"queue_requests_show", "queue_ra_show", NULL
};
/* debugfs block/<disk>/state: queue_state_show(q, m) on every kernel (4.11+) */
const char *const queue_show_state_fns[] = { "queue_state_show", NULL };
/* what the kernel calls only when a freeze is outermost, and where it
 * makes a queue (see freeze.bpf.c: healing) */
const char *const freeze_confirm_fns[] = { "blk_mq_run_hw_queues", NULL };
const char *const queue_new_fns[] = {
	"blk_alloc_queue", "blk_alloc_queue_node", NULL
};
/* where a bio waits for a frozen queue: the slow path first (5.15+) */
const char *const queue_enter_fns[] = {
	"__bio_queue_enter", "blk_queue_enter", NULL
};
/* the slow path of 5.15+ (bio_queue_enter was out of line for a while) */
const char *const qenter_slow_fns[] = {
	"__bio_queue_enter", "bio_queue_enter", NULL
};
/* generic_make_request became submit_bio_noacct in 5.9 */
const char *const slowbio_submit_fns[] = {
	"submit_bio_noacct", "generic_make_request", NULL
};

/* cachestat's four page-cache events, newest name first: the folio
 * functions of 5.16+ (folio_account_dirtied 5.15+) leave the page ones as
 * wrappers or gone; bcc's cachestat picks in this order */
const char *const cachestat_add_fns[] = {
	"filemap_add_folio", "add_to_page_cache_lru", NULL
};
const char *const cachestat_access_fns[] = {
	"folio_mark_accessed", "mark_page_accessed", NULL
};
const char *const cachestat_dirtied_fns[] = {
	"folio_account_dirtied", "account_page_dirtied", NULL
};
const char *const cachestat_buffer_fns[] = { "mark_buffer_dirty", NULL };

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(char *const *)b);
}

int fn_available(char *const *avail, int navail, const char *name)
{
	return navail > 0 &&
	       bsearch(&name, avail, navail, sizeof(*avail), cmp_name) != NULL;
}

int fn_pick_first(const char *const *chain, char *const *avail, int navail)
{
	int i;

	for (i = 0; chain[i]; i++)
		if (fn_available(avail, navail, chain[i]))
			return i;
	return -ENOENT;
}

int fn_pick_all(const char *const *chain, char *const *avail, int navail,
		const char **out, int max)
{
	int i, n = 0;

	for (i = 0; chain[i] && n < max; i++)
		if (fn_available(avail, navail, chain[i]))
			out[n++] = chain[i];
	return n;
}
