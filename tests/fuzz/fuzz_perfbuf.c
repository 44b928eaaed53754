/* SPDX-License-Identifier: MIT */
/*
 * The perf ring record walker (perfbuf.c) over a ring in memory. Input:
 * u64 tail (free-running, so wrap-around of the counters is reached), u32
 * distance from tail to head, then the ring's bytes; the ring is the
 * largest power of two that fits (at most 64 KiB).
 */
#include <errno.h>
#include "fuzz.h"
#include "barebpf.h"
#include "perfbuf.h"

static uint8_t scratch[PERFBUF_SCRATCH_SIZE];

struct seen {
	uint64_t bytes;
	int n;
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct seen *s = ctx;
	volatile uint8_t sink = 0;
	uint32_t i;

	FUZZ_ASSERT(cpu == 3);
	for (i = 0; i < size; i++) /* every byte handed out must be readable */
		sink ^= ((const uint8_t *)data)[i];
	(void)sink;
	s->bytes += size;
	s->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen seen = { 0, 0 };
	uint64_t tail, head, t0, lost = 0;
	uint32_t dist;
	size_t ring_size = 8;
	uint8_t *ring;
	int n;

	if (size < 12 + 8)
		return 0;
	memcpy(&tail, data, 8);
	memcpy(&dist, data + 8, 4);
	data += 12;
	size -= 12;
	while (ring_size * 2 <= size && ring_size < 65536)
		ring_size *= 2;
	/* a copy of exactly ring_size bytes, so that ASan sees overreads */
	ring = malloc(ring_size);
	if (!ring)
		abort();
	memcpy(ring, data, ring_size);
	head = tail + dist % (2 * ring_size + 1);
	t0 = tail;
	n = perfbuf_ring_consume(ring, ring_size, &tail, head, scratch, 3,
				 on_sample, &seen, &lost);
	if (n >= 0) {
		FUZZ_ASSERT(tail == head);
		FUZZ_ASSERT(n == seen.n);
		FUZZ_ASSERT(seen.bytes <= head - t0);
	} else {
		FUZZ_ASSERT(n == -EBADMSG && tail == head);
	}
	free(ring);
	return 0;
}
