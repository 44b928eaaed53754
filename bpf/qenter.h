/* SPDX-License-Identifier: MIT */
/* qenter: what crosses between bpf/qenter.bpf.c and the tool. */
#ifndef BAREBPF_QENTER_H
#define BAREBPF_QENTER_H

#define QENTER_SLOTS 64

/* start: one task entering a queue, by thread id */
struct qenter_inflight {
	unsigned long long ts;
	unsigned int dev; /* kernel dev_t, 0: unknown or not asked (-D) */
	unsigned int pad;
};

/* pend: generic_make_request's bio on one task, until its block_bio_queue */
struct qenter_pend {
	unsigned int dev;     /* kernel dev_t of bio->bi_disk, 0: unreadable */
	unsigned int entered; /* an enter took dev before the tracepoint */
};

/* hist: one log2 slot of one disk (dev 0 without -D, or unknown) */
struct qenter_key {
	unsigned int dev;
	unsigned int slot;
};

/* sums (keep_sum): nanoseconds waited in all, by the hist key with slot 0,
 * for a histogram's _sum */

#endif
