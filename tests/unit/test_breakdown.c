/* SPDX-License-Identifier: MIT */
/*
 * breakdown's pure parts: the order of the children (a tree of parents,
 * longest first), the summary over slow calls, and the text and JSON of
 * records and summaries.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "breakdown_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static const char *const names[] = {
	"submit_bio_noacct", "__bio_queue_enter", "blk_mq_submit_bio",
	"blk_mq_get_new_requests", "unused",
};
static const struct bd_fmt fmt_us = { names, 5, 1000, "us" };
static const struct bd_fmt fmt_ms = { names, 5, 1000000, "ms" };

static void child(struct bd_task *t, int id, unsigned calls, uint64_t total,
		  uint64_t max, unsigned parent)
{
	t->c[id].calls = calls;
	t->c[id].total = total;
	t->c[id].max = max;
	t->c[id].parent = parent;
}

/* A frozen queue: submit_bio_noacct 1.0042 s, in blk_mq_submit_bio
 * 1.004 s, of which __bio_queue_enter 1.0039 s and get_new_requests
 * 12 us. */
static struct bd_task frozen(void)
{
	struct bd_task t;

	memset(&t, 0, sizeof(t));
	t.dur = 1004200000;
	t.self = 200000;
	t.pid = 812;
	t.tid = 813;
	memcpy(t.comm, "dd", 3);
	child(&t, 2, 1, 1004000000, 1004000000, 0);
	child(&t, 1, 1, 1003900000, 1003900000, 2);
	child(&t, 3, 1, 12000, 12000, 2);
	return t;
}

START_TEST(test_order_tree_longest_first)
{
	struct bd_task t = frozen();
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS];
	int n = bd_order(t.c, 5, ids, depth);

	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(ids[0], 2); ck_assert_int_eq(depth[0], 1);
	ck_assert_int_eq(ids[1], 1); ck_assert_int_eq(depth[1], 2);
	ck_assert_int_eq(ids[2], 3); ck_assert_int_eq(depth[2], 2);
}
END_TEST

START_TEST(test_order_siblings_mixed_cycle)
{
	struct bd_child c[BD_MAX_FUNCS];
	int ids[BD_MAX_FUNCS], depth[BD_MAX_FUNCS], n;

	memset(c, 0, sizeof(c));
	/* 1 and 3 under MAIN, 3 longer; 2 called from several places;
	 * 4 absent (no calls) */
	c[1] = (struct bd_child){ 10, 10, 1, 0 };
	c[2] = (struct bd_child){ 50, 50, 2, BD_MIXED };
	c[3] = (struct bd_child){ 30, 30, 1, 0 };
	n = bd_order(c, 5, ids, depth);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(ids[0], 2);
	ck_assert_int_eq(ids[1], 3);
	ck_assert_int_eq(ids[2], 1);
	ck_assert_int_eq(depth[0] + depth[1] + depth[2], 3);
	/* a cycle of parents (1 seen under 2, 2 under 1) has no root: both
	 * still listed, at the top */
	memset(c, 0, sizeof(c));
	c[1] = (struct bd_child){ 10, 10, 1, 2 };
	c[2] = (struct bd_child){ 20, 20, 1, 1 };
	n = bd_order(c, 5, ids, depth);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(depth[0], 1);
	ck_assert_int_eq(depth[1], 1);
}
END_TEST

START_TEST(test_record_text)
{
	struct bd_task t = frozen();
	char *out = NULL;

	RENDER(out, bd_print_record(f, &t, "14:00:11", &fmt_us));
	ck_assert_str_eq(out,
		"14:00:11 dd               812     813          1004200 submit_bio_noacct\n"
		"    FUNCTION                            CALLS    TOTAL(us)  SHARE      MAX(us)\n"
		"    blk_mq_submit_bio                       1      1004000 100.0%      1004000\n"
		"      __bio_queue_enter                     1      1003900 100.0%      1003900\n"
		"      blk_mq_get_new_requests               1           12   0.0%           12\n"
		"    [self]                                             200   0.0%\n");
	free(out);
	t.drops = 2;
	RENDER(out, bd_print_record(f, &t, "14:00:11", &fmt_ms));
	ck_assert_ptr_nonnull(strstr(out, " 1004.200 submit_bio_noacct\n"));
	ck_assert_ptr_nonnull(strstr(out, "      __bio_queue_enter                     1     1003.900 100.0%     1003.900\n"));
	ck_assert_ptr_nonnull(strstr(out, "    (2 child calls dropped: their returns were missed)\n"));
	free(out);
	/* a task's name is escaped: ESC and a newline stay on the line */
	memcpy(t.comm, "x\033[2J\ny", 7);
	RENDER(out, bd_print_record(f, &t, "14:00:11", &fmt_us));
	ck_assert_ptr_nonnull(strstr(out, "14:00:11 x\\x1b[2J\\ny      812 "));
	free(out);
}
END_TEST

START_TEST(test_record_json)
{
	struct bd_task t = frozen();
	char *out = NULL;

	memcpy(t.comm, "a\"b", 4);
	RENDER(out, bd_print_record_json(f, &t, "14:00:11", &fmt_ms, NULL,
					 NULL, 0));
	ck_assert_str_eq(out,
		"{\"time\":\"14:00:11\",\"comm\":\"a\\\"b\",\"pid\":812,\"tid\":813,"
		"\"main\":\"submit_bio_noacct\",\"dur_us\":1004200.000,"
		"\"self_us\":200.000,\"drops\":0,\"children\":["
		"{\"name\":\"blk_mq_submit_bio\",\"parent\":\"submit_bio_noacct\","
		"\"calls\":1,\"total_us\":1004000.000,\"share\":0.9998,\"max_us\":1004000.000},"
		"{\"name\":\"__bio_queue_enter\",\"parent\":\"blk_mq_submit_bio\","
		"\"calls\":1,\"total_us\":1003900.000,\"share\":0.9997,\"max_us\":1003900.000},"
		"{\"name\":\"blk_mq_get_new_requests\",\"parent\":\"blk_mq_submit_bio\","
		"\"calls\":1,\"total_us\":12.000,\"share\":0.0000,\"max_us\":12.000}]}\n");
	free(out);
}
END_TEST

START_TEST(test_agg_sums_and_hist)
{
	struct bd_agg a;
	struct bd_task t = frozen(), u = frozen();
	char *out = NULL;

	memset(&a, 0, sizeof(a));
	bd_agg_add(&a, &t, &fmt_us);
	/* a second slow call: two queue entries of 300 us, called from
	 * MAIN this time, so its parent becomes mixed */
	u.dur = 2000;
	u.self = 1400;
	memset(u.c, 0, sizeof(u.c));
	child(&u, 1, 2, 600000, 300000, 0);
	u.drops = 1;
	bd_agg_add(&a, &u, &fmt_us);
	ck_assert_uint_eq(a.slow, 2);
	ck_assert_uint_eq(a.dur, 1004202000);
	ck_assert_uint_eq(a.self, 201400);
	ck_assert_uint_eq(a.drops, 1);
	ck_assert_uint_eq(a.calls[1], 3);
	ck_assert_uint_eq(a.total[1], 1004500000);
	ck_assert_uint_eq(a.parent[1], BD_MIXED);
	ck_assert_uint_eq(a.parent[3], 2);
	/* per slow call, in the unit: 1003900 us in slot 19
	 * [524288, 1048575], 600 us in slot 9 [512, 1023] */
	ck_assert_uint_eq(a.hist[1][19], 1);
	ck_assert_uint_eq(a.hist[1][9], 1);
	ck_assert_uint_eq(a.hist[3][3], 1); /* 12 us: [8, 15] */
	ck_assert_uint_eq(a.hist[4][0], 0);
	RENDER(out, bd_print_agg(f, &a, 50, 1000000, &fmt_us));
	ck_assert_ptr_nonnull(strstr(out, "\nsubmit_bio_noacct: 50 calls, 2 of them at least 1000 us, in all 1004202 us\n"
		"FUNCTION                            CALLS    TOTAL(us)  SHARE\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n__bio_queue_enter                       3      1004500 100.0%\n"));
	ck_assert_ptr_nonnull(strstr(out, "\nblk_mq_submit_bio                       1      1004000 100.0%\n"
		"  blk_mq_get_new_requests               1           12   0.0%\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n[self]                                             201   0.0%\n"));
	ck_assert_ptr_nonnull(strstr(out, "(1 child calls dropped"));
	ck_assert_ptr_nonnull(strstr(out, "\n__bio_queue_enter: time per slow submit_bio_noacct call\n"));
	ck_assert_ptr_nonnull(strstr(out, "    524288 -> 1048575    : 1 "));
	ck_assert_ptr_nonnull(strstr(out, "       512 -> 1023       : 1 "));
	free(out);
	RENDER(out, bd_print_agg_json(f, &a, 50, 1000000, &fmt_us));
	ck_assert_ptr_nonnull(strstr(out, "{\"summary\":true,\"main\":\"submit_bio_noacct\",\"main_calls\":50,\"slow\":2,\"threshold_us\":1000.000,"));
	ck_assert_ptr_nonnull(strstr(out, "{\"name\":\"__bio_queue_enter\",\"parent\":null,\"calls\":3,\"total_us\":1004500.000,"));
	ck_assert_ptr_nonnull(strstr(out, "\"hist\":{\"unit\":\"usecs\""));
	ck_assert_int_eq(out[strlen(out) - 1], '\n');
	free(out);
}
END_TEST

START_TEST(test_agg_none_slow)
{
	struct bd_agg a;
	char *out = NULL;

	memset(&a, 0, sizeof(a));
	RENDER(out, bd_print_agg(f, &a, 40, 500000000, &fmt_ms));
	ck_assert_str_eq(out, "\nsubmit_bio_noacct: 40 calls, 0 of them at least 500.000 ms\n");
	free(out);
}
END_TEST

static Suite *breakdown_suite(void)
{
	Suite *s = suite_create("breakdown");
	TCase *tc = tcase_create("aggregate");

	tcase_add_test(tc, test_order_tree_longest_first);
	tcase_add_test(tc, test_order_siblings_mixed_cycle);
	tcase_add_test(tc, test_record_text);
	tcase_add_test(tc, test_record_json);
	tcase_add_test(tc, test_agg_sums_and_hist);
	tcase_add_test(tc, test_agg_none_slow);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(breakdown, breakdown_suite, NULL)
