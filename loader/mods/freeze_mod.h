/* SPDX-License-Identifier: MIT */
/*
 * blk-mq queue freezes as the freeze tool and the exporter both see them:
 * the probes of bpf/freeze.bpf.c on every function of their roles this
 * kernel has and the disk of a queue (freeze_probes.c), the summary per disk
 * and per stack (freeze_sum.c, pure: tests/unit/test_freeze.c).
 */
#ifndef BAREBPF_FREEZE_MOD_H
#define BAREBPF_FREEZE_MOD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"
#include "tool.h"
#include "kfuncs.h"

/* One line of the summary: a disk, a queue/ file, or a kernel stack. */
struct freeze_agg {
	char disk[64];          /* for a disk or file line ("-": no file) */
	uint64_t *ips;          /* for a stack line (malloc'ed), nips frames */
	int nips;
	unsigned long count;
	uint64_t frozen_ns, max_ns, drain_ns;
};

struct freeze_sum {
	struct freeze_agg *disks, *attrs, *stacks;
	int ndisks, nattrs, nstacks;
	int no_stacks;          /* --no-stack: no per-stack part */
	unsigned long count;
	uint64_t frozen_ns;
	/* the queue states freeze.bpf.c healed, and the unfreezes of
	 * freezes it had not seen start (neither is reported) */
	unsigned long healed, unseen;
};

/* Count one freeze of disk (name, "?" if unknown) from a write to its
 * queue/ file attr (NULL or "": another cause) with its stack (nips 0:
 * none). Returns 0 or -ENOMEM. */
int freeze_sum_add(struct freeze_sum *s, const char *disk, const char *attr,
		   const uint64_t *ips, int nips, uint64_t frozen_ns,
		   uint64_t drain_ns);
/* Most frozen time first; ties by count, then name or stack. */
void freeze_sum_sort(struct freeze_sum *s);
void freeze_sum_free(struct freeze_sum *s);
/* Text (tables, stacks one frame a line) and JSON (one object). */
void freeze_sum_print(FILE *f, const struct freeze_sum *s,
		      const struct bb_ksyms *ks);
void freeze_sum_json(FILE *f, const struct freeze_sum *s,
		     const struct bb_ksyms *ks);

/* ---- the freeze tool's probes and queue names, for the exporter too ---- */
struct freeze_event;

/*
 * A wrapper and the function it wraps are seen within this time (and the
 * latter no shallower on the stack: see seen_in_wrapper). Microseconds
 * apart natively; under emulation on a busy host the guest can stall far
 * longer between the two, and a bound of 20 ms could count one freeze
 * twice: the queue would stay "frozen" for good.
 */
#define FREEZE_DEDUP_NS 1000000000ULL
/* blk_freeze_queue_start runs the hardware queues this soon after the
 * freeze began (microseconds; a busy emulated CPU may stall for more, and
 * then a stale state just does not heal at that freeze) */
#define FREEZE_CONFIRM_NS 10000000ULL

struct freeze_opts {
	int json, no_stack, correlate;
	const char *disk;
	double duration;
};

struct freeze_run {
	const struct freeze_opts *o;
	struct tool_ctx *t;
	struct bb_ksyms *ks;
	struct freeze_sum sum;
	int stacks_fd, qname_fd, qdev_fd, tasksysfs_fd, fstate_fd;
	const char *show_attr; /* queue/<attr> that queue_*_show serves */
	int show_state;        /* queue_state_show is probed */
	uint64_t received;
	int ks_tried, oom;
	int nstacks; /* stack ids read since the stack map was emptied */
};

/* Empty the stack map once half of it was read or a stack collided, but for
 * the stacks of freezes in progress (stackid: the record's). */
void freeze_stacks_maybe_clear(struct freeze_run *r, int stackid);
/* Which functions of the freeze chains (kfuncs.h) this kernel has, sorted,
 * freed with bb_free_strv: one pass over available_filter_functions. */
int freeze_find_functions(struct tool_ctx *t, char ***avail);
/*
 * Attach the freeze object's programs (loaded, in t) to every function of
 * their roles this kernel has (avail: kprobe_match's sorted list); sets
 * r->show_attr and r->show_state. -errno after printing why.
 */
int freeze_attach_probes(struct tool_ctx *t, struct freeze_run *r,
			 char **avail, int n);
/* The disk of the queue a freeze record is about, "?" if none knows;
 * needs r's qname_fd, tasksysfs_fd, qdev_fd (-1 without --correlate). */
void freeze_queue_disk(struct freeze_run *r, const struct freeze_event *ev,
		       char *disk, size_t len);

#endif
