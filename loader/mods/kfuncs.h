/* SPDX-License-Identifier: MIT */
/*
 * Kernel function names across kernels: the chains of names one role has
 * had (renames, inlined wrappers), and picking what this kernel has. Pure
 * (tests/unit/test_freeze.c), for every tool that probes block-layer
 * functions.
 */
#ifndef BAREBPF_KFUNCS_H
#define BAREBPF_KFUNCS_H

/*
 * `avail` is sorted (as kprobe_match returns it). fn_pick_first: index in
 * chain (NULL-terminated) of the first name this kernel has, or -ENOENT.
 * fn_pick_all: every name of chain this kernel has, in chain order, into
 * out (at most max); returns how many.
 */
int fn_available(char *const *avail, int navail, const char *name);
int fn_pick_first(const char *const *chain, char *const *avail, int navail);
int fn_pick_all(const char *const *chain, char *const *avail, int navail,
		const char **out, int max);

/* The chains (NULL-terminated). A queue freeze's start and end: every name
 * that exists is probed (see bpf/freeze.bpf.c); the others as said. */
extern const char *const freeze_start_fns[], *const freeze_end_fns[];
/* wrappers that also wait: their return ends the drain */
extern const char *const freeze_start_ret_fns[], *const freeze_wait_fns[];
/* the sysfs store/show of queue attributes, and the show methods that
 * take the request_queue (before 6.10) or show it (debugfs state) */
extern const char *const queue_sysfs_fns[], *const queue_show_q_fns[];
extern const char *const queue_show_state_fns[];
/* called only when a freeze is outermost; where a queue is made */
extern const char *const freeze_confirm_fns[], *const queue_new_fns[];
/* where a bio waits for a frozen queue: the slow path first (5.15+) */
extern const char *const queue_enter_fns[];
/* the slow path of queue entry (5.15+) alone */
extern const char *const qenter_slow_fns[];
/* the bio submission function, newest name first */
extern const char *const slowbio_submit_fns[];
/* cachestat's page added, accessed, dirtied; buffer dirtied */
extern const char *const cachestat_add_fns[], *const cachestat_access_fns[];
extern const char *const cachestat_dirtied_fns[], *const cachestat_buffer_fns[];

#endif
