/* SPDX-License-Identifier: MIT */
/* runqlat's pure part: the histograms by process, thread or PID
 * namespace, sorted and merged. */
#include <string.h>
#include "bbtest.h"
#include "dhist.h"

static void set(struct dhist *h, uint32_t id, int slot, uint64_t v)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->extra, &id, sizeof(id));
	h->slots[slot] = v;
}

START_TEST(test_sorted_by_id)
{
	struct dhist h[3];
	char s[32];

	set(&h[0], 70000, 1, 5);
	set(&h[1], 3, 2, 6);
	set(&h[2], 256, 3, 7); /* bytes 00 01: a strcmp would put it first */
	ck_assert_int_eq(dhist_by_id(h, 3, NULL, NULL), 3);
	ck_assert_uint_eq(dhist_id(&h[0]), 3);
	ck_assert_uint_eq(dhist_id(&h[1]), 256);
	ck_assert_uint_eq(dhist_id(&h[2]), 70000);
	ck_assert_uint_eq(h[2].slots[1], 5);
	dhist_id_str(h[2].extra, s, sizeof(s));
	ck_assert_str_eq(s, "70000");
}
END_TEST

/* processes 10 and 12 in one namespace, 11 in another, 13 gone */
static uint32_t fake_ns(uint32_t tgid, void *arg)
{
	(*(int *)arg)++;
	return tgid == 11 ? 4026532000u : tgid == 13 ? 0 : 4026531836u;
}

START_TEST(test_by_namespace)
{
	struct dhist h[4];
	char s[32];
	int calls = 0;

	set(&h[0], 12, 4, 1);
	set(&h[1], 11, 4, 2);
	set(&h[2], 10, 4, 3);
	h[2].slots[9] = 8;
	set(&h[3], 13, 5, 9);
	ck_assert_int_eq(dhist_by_id(h, 4, fake_ns, &calls), 3);
	ck_assert_int_eq(calls, 4);
	dhist_id_str(h[0].extra, s, sizeof(s));
	ck_assert_str_eq(s, "?");
	ck_assert_uint_eq(h[0].slots[5], 9);
	ck_assert_uint_eq(dhist_id(&h[1]), 4026531836u);
	ck_assert_uint_eq(h[1].slots[4], 4);
	ck_assert_uint_eq(h[1].slots[9], 8);
	ck_assert_uint_eq(dhist_id(&h[2]), 4026532000u);
	ck_assert_uint_eq(h[2].slots[4], 2);
	dhist_id_str(h[2].extra, s, sizeof(s));
	ck_assert_str_eq(s, "4026532000");
}
END_TEST

static Suite *runqlat_suite(void)
{
	Suite *s = suite_create("runqlat");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, test_sorted_by_id);
	tcase_add_test(tc, test_by_namespace);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(runqlat, runqlat_suite, NULL)
