/* SPDX-License-Identifier: MIT */
/*
 * Internal to perfbuf.c, exposed for the unit tests: the record walker,
 * a pure function over the data area of one perf ring.
 */
#ifndef BAREBPF_PERFBUF_H
#define BAREBPF_PERFBUF_H

#include <stddef.h>
#include <stdint.h>
#include "kernel.h"

/* A record is at most 64 KiB (perf_event_header.size is a u16). */
#define PERFBUF_SCRATCH_SIZE 65536

/*
 * Walk the records in ring[*tail, head) (positions are free-running byte
 * counters; the ring is ring_size bytes, a power of two). Each
 * PERF_RECORD_SAMPLE (header, u32 size, raw data) goes to fn; a record that
 * wraps past the end of the ring is first copied into scratch
 * (PERFBUF_SCRATCH_SIZE bytes). PERF_RECORD_LOST adds its count to *lost;
 * other types are skipped. *tail advances past each consumed record.
 * Returns the number of samples delivered, or -EBADMSG on a malformed
 * record (then *tail = head: the rest of the ring cannot be trusted).
 */
int perfbuf_ring_consume(const void *ring, size_t ring_size, uint64_t *tail,
			 uint64_t head, void *scratch, int cpu,
			 perfbuf_sample_fn fn, void *ctx, uint64_t *lost);

#endif
