/* SPDX-License-Identifier: MIT */
/* The perf ring record walker, over a plain memory buffer. */
#include <errno.h>
#include <string.h>
#include "barebpf.h"
#include "perfbuf.h"
#include "bbtest.h"

#define RING 256

static uint8_t ring[RING];
static uint8_t scratch[PERFBUF_SCRATCH_SIZE];

struct got {
	int n;
	int cpu;
	uint32_t size[16];
	uint8_t data[16][128];
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct got *g = ctx;

	ck_assert_int_lt(g->n, 16);
	ck_assert_uint_le(size, sizeof(g->data[0]));
	g->cpu = cpu;
	g->size[g->n] = size;
	memcpy(g->data[g->n], data, size);
	g->n++;
}

/* Write bytes at free-running position *head, wrapping like the kernel. */
static void put(uint64_t *head, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		ring[(*head + i) % RING] = b[i];
	*head += len;
}

/* A sample as the kernel writes it for PERF_SAMPLE_RAW: the u32 size and
 * the data are padded together to a multiple of 8. */
static void put_sample(uint64_t *head, const void *data, uint32_t len)
{
	uint32_t raw = ((4 + len + 7) & ~7u) - 4;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 + 4 + raw };
	uint8_t pad[8] = { 0 };

	put(head, &h, sizeof(h));
	put(head, &raw, 4);
	put(head, data, len);
	put(head, pad, raw - len);
}

static void put_lost(uint64_t *head, uint64_t count)
{
	struct perf_event_header h = { PERF_RECORD_LOST, 0, 24 };
	uint64_t id = 7;

	put(head, &h, sizeof(h));
	put(head, &id, 8);
	put(head, &count, 8);
}

START_TEST(test_several_samples)
{
	uint64_t head = 0, tail = 0, lost = 0;
	struct got g = { 0 };
	uint32_t a = 0x11111111;
	uint64_t b = 0x2222222222222222ULL;
	char c[20] = "hello, ring";

	memset(ring, 0xee, sizeof(ring));
	put_sample(&head, &a, sizeof(a));
	put_sample(&head, &b, sizeof(b));
	put_sample(&head, c, sizeof(c));
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      3, on_sample, &g, &lost),
			 3);
	ck_assert_uint_eq(tail, head);
	ck_assert_uint_eq(lost, 0);
	ck_assert_int_eq(g.cpu, 3);
	ck_assert_uint_eq(g.size[0], 4);
	ck_assert_mem_eq(g.data[0], &a, 4);
	ck_assert_uint_eq(g.size[1], 12); /* padded: 4 + 8 -> 16 */
	ck_assert_mem_eq(g.data[1], &b, 8);
	ck_assert_uint_eq(g.size[2], 20);
	ck_assert_str_eq((char *)g.data[2], "hello, ring");

	/* nothing new: nothing delivered, tail unchanged */
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      3, on_sample, &g, &lost),
			 0);
	ck_assert_int_eq(g.n, 3);
}
END_TEST

START_TEST(test_wraparound)
{
	uint64_t head, tail, lost = 0;
	struct got g = { 0 };
	uint8_t big[100];
	size_t i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = i;
	/* start near the end and many laps in: positions are free-running */
	head = tail = 10 * RING + RING - 40;
	put_sample(&head, big, sizeof(big)); /* 112 bytes, 72 past the end */
	put_sample(&head, big, 8);
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 2);
	ck_assert_uint_eq(tail, head);
	ck_assert_uint_eq(g.size[0], 100);
	ck_assert_mem_eq(g.data[0], big, 100);
	ck_assert_uint_eq(g.size[1], 12);
	ck_assert_mem_eq(g.data[1], big, 8);
}
END_TEST

START_TEST(test_data_split_at_end)
{
	/* the header fits before the end, the raw size word does not */
	uint64_t head = RING - 8, tail = RING - 8, lost = 0;
	struct got g = { 0 };
	uint32_t v = 0xabcdef01;

	put_sample(&head, &v, 4);
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 1);
	ck_assert_mem_eq(g.data[0], &v, 4);
}
END_TEST

START_TEST(test_lost)
{
	uint64_t head = 0, tail = 0, lost = 5;
	struct got g = { 0 };
	uint32_t a = 1, b = 2;

	put_sample(&head, &a, 4);
	put_lost(&head, 17);
	put_sample(&head, &b, 4);
	put_lost(&head, 3);
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 2);
	ck_assert_uint_eq(lost, 5 + 17 + 3);
	ck_assert_mem_eq(g.data[1], &b, 4);
	ck_assert_uint_eq(tail, head);
}
END_TEST

START_TEST(test_other_records_skipped)
{
	uint64_t head = 0, tail = 0, lost = 0;
	struct got g = { 0 };
	struct perf_event_header h = { 3 /* PERF_RECORD_COMM */, 0, 32 };
	uint8_t body[24] = { 0 };
	uint32_t a = 42;

	put(&head, &h, sizeof(h));
	put(&head, body, sizeof(body));
	put_sample(&head, &a, 4);
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 1);
	ck_assert_mem_eq(g.data[0], &a, 4);
}
END_TEST

START_TEST(test_malformed)
{
	uint64_t head = 0, tail = 0, lost = 0;
	struct got g = { 0 };
	struct perf_event_header zero = { PERF_RECORD_SAMPLE, 0, 0 };
	struct perf_event_header too_long = { PERF_RECORD_SAMPLE, 0, 64 };
	uint32_t raw_too_big[2] = { 100, 0 };

	/* size 0 would loop forever */
	put(&head, &zero, sizeof(zero));
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 -EBADMSG);
	ck_assert_uint_eq(tail, head);

	/* record claims more than head - tail */
	put(&head, &too_long, sizeof(too_long));
	put(&head, raw_too_big, sizeof(raw_too_big));
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 -EBADMSG);
	ck_assert_uint_eq(tail, head);

	/* raw size larger than the record */
	too_long.size = 16;
	put(&head, &too_long, sizeof(too_long));
	put(&head, raw_too_big, sizeof(raw_too_big));
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, head, scratch,
					      0, on_sample, &g, &lost),
			 -EBADMSG);

	/* head more than a ring ahead of tail */
	tail = 0;
	ck_assert_int_eq(perfbuf_ring_consume(ring, RING, &tail, RING + 8,
					      scratch, 0, on_sample, &g, &lost),
			 -EBADMSG);
	ck_assert_int_eq(g.n, 0);
}
END_TEST

/* Rings scale with the memory: 1/512 of it over the CPUs, a power of two
 * of pages, 16 MiB at most, never below the tool's own size. */
START_TEST(test_pages_scaled)
{
	const uint64_t G = 1ULL << 30;

	/* this host: 24 GiB, 2 CPUs: 24 MiB each, capped to 16 MiB */
	ck_assert_int_eq(perfbuf_pages_scaled(64, 24 * G, 2, 4096), 4096);
	/* 1 GiB, 4 CPUs: 512 KiB each */
	ck_assert_int_eq(perfbuf_pages_scaled(64, G, 4, 4096), 128);
	/* 1 GiB, 2 CPUs: 1 MiB each */
	ck_assert_int_eq(perfbuf_pages_scaled(64, G, 2, 4096), 256);
	/* 64 MiB, 4 CPUs: 32 KiB is less than the tool's 256 KiB */
	ck_assert_int_eq(perfbuf_pages_scaled(64, 64ULL << 20, 4, 4096), 64);
	/* 64 KiB pages (arm64): 16 MiB is 256 of them */
	ck_assert_int_eq(perfbuf_pages_scaled(8, 64 * G, 1, 65536), 256);
	/* nothing known */
	ck_assert_int_eq(perfbuf_pages_scaled(64, 0, 0, 4096), 64);
}
END_TEST

static Suite *perfbuf_ring_suite(void)
{
	Suite *s = suite_create("perfbuf_ring");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_several_samples);
	tcase_add_test(tc, test_pages_scaled);
	tcase_add_test(tc, test_wraparound);
	tcase_add_test(tc, test_data_split_at_end);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_other_records_skipped);
	tcase_add_test(tc, test_malformed);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(perfbuf_ring, perfbuf_ring_suite, NULL)
