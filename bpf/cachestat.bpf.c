/* SPDX-License-Identifier: MIT */
/*
 * cachestat: calls of the page-cache functions bcc's cachestat counts,
 * per CPU. Each program is attached to the name this kernel has (the
 * section's is the 4.x one; loader/progs/cachestat.c picks): a page added
 * (add_to_page_cache_lru, filemap_add_folio 5.16+), accessed
 * (mark_page_accessed, folio_mark_accessed 5.16+), dirtied
 * (account_page_dirtied, folio_account_dirtied 5.15+, or where that is
 * inlined the writeback_dirty_page/folio tracepoint), a buffer dirtied
 * (mark_buffer_dirty).
 */
#include "bb_helpers.h"
#include "cachestat.h"

BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       CACHESTAT_NSTATS);

static __always_inline int inc(u32 slot)
{
	u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v)
		(*v)++;
	return 0;
}

SEC("kprobe/add_to_page_cache_lru")
int do_apcl(void *ctx)
{
	return inc(CACHESTAT_APCL);
}

SEC("kprobe/mark_page_accessed")
int do_mpa(void *ctx)
{
	return inc(CACHESTAT_MPA);
}

SEC("kprobe/mark_buffer_dirty")
int do_mbd(void *ctx)
{
	return inc(CACHESTAT_MBD);
}

SEC("kprobe/account_page_dirtied")
int do_apd(void *ctx)
{
	return inc(CACHESTAT_APD);
}

SEC("tracepoint/writeback/writeback_dirty_page")
int do_apd_tp(void *ctx)
{
	return inc(CACHESTAT_APD);
}

char _license[] SEC("license") = "GPL";
