/* SPDX-License-Identifier: MIT */
/*
 * biotop's pure parts: -s names, the order of the rows (largest first by
 * the sort key, ties in a fixed order), an interval's deltas from the
 * map's running totals (idle keys marked for deletion), bcc's head and
 * columns, and JSON that survives any comm.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "biotop_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct biotop_row row(unsigned pid, const char *comm, int w,
			     uint64_t io, uint64_t bytes, uint64_t us)
{
	struct biotop_row r;

	memset(&r, 0, sizeof(r));
	r.key.pid = pid;
	r.key.write = w;
	r.key.dev = 7 << 20 | 3;
	strncpy(r.key.comm, comm, sizeof(r.key.comm));
	r.val.io = io;
	r.val.bytes = bytes;
	r.val.us = us;
	return r;
}

START_TEST(test_sort_names)
{
	ck_assert_int_eq(biotop_sort_by("bytes"), BIOTOP_SORT_BYTES);
	ck_assert_int_eq(biotop_sort_by("all"), BIOTOP_SORT_ALL);
	ck_assert_int_eq(biotop_sort_by("io"), BIOTOP_SORT_IO);
	ck_assert_int_eq(biotop_sort_by("time"), BIOTOP_SORT_TIME);
	ck_assert_int_eq(biotop_sort_by("Bytes"), -1);
	ck_assert_int_eq(biotop_sort_by(""), -1);
}
END_TEST

START_TEST(test_sort_orders)
{
	struct biotop_row r[4];

	r[0] = row(10, "a", 0, 1, 1 << 20, 10);
	r[1] = row(20, "b", 0, 50, 4096, 900000);
	r[2] = row(30, "c", 1, 9, 8192, 20);
	r[3] = row(5, "d", 0, 9, 8192, 20); /* ties c: lower pid first */
	biotop_sort(r, 4, BIOTOP_SORT_BYTES);
	ck_assert_uint_eq(r[0].key.pid, 10);
	ck_assert_uint_eq(r[1].key.pid, 5);
	ck_assert_uint_eq(r[2].key.pid, 30);
	ck_assert_uint_eq(r[3].key.pid, 20);
	biotop_sort(r, 4, BIOTOP_SORT_IO);
	ck_assert_uint_eq(r[0].key.pid, 20);
	ck_assert_uint_eq(r[1].key.pid, 5);
	ck_assert_uint_eq(r[2].key.pid, 30);
	ck_assert_uint_eq(r[3].key.pid, 10);
	biotop_sort(r, 4, BIOTOP_SORT_TIME);
	ck_assert_uint_eq(r[0].key.pid, 20);
	ck_assert_uint_eq(r[3].key.pid, 10);
	biotop_sort(r, 4, BIOTOP_SORT_ALL); /* io + bytes + us */
	ck_assert_uint_eq(r[0].key.pid, 10);
	ck_assert_uint_eq(r[1].key.pid, 20);
}
END_TEST

START_TEST(test_deltas_and_idle)
{
	struct biotop_row prev[3], now[4], *d;
	unsigned char idle[4];
	int n, i;

	prev[0] = row(1, "a", 0, 10, 40960, 100);
	prev[1] = row(2, "b", 0, 5, 20480, 50);
	prev[2] = row(3, "c", 1, 1, 4096, 7);
	now[0] = row(1, "a", 0, 14, 57344, 180); /* +4 */
	now[1] = row(2, "b", 0, 5, 20480, 50);   /* idle */
	now[2] = row(3, "c", 1, 1, 4096, 7);     /* idle */
	now[3] = row(4, "d", 0, 2, 8192, 30);    /* new */
	biotop_sort_keys(prev, 3);
	biotop_sort_keys(now, 4);
	n = biotop_deltas(now, 4, prev, 3, &d, idle);
	ck_assert_int_eq(n, 2);
	for (i = 0; i < n; i++) {
		if (d[i].key.pid == 1) {
			ck_assert_uint_eq(d[i].val.io, 4);
			ck_assert_uint_eq(d[i].val.bytes, 16384);
			ck_assert_uint_eq(d[i].val.us, 80);
		} else {
			ck_assert_uint_eq(d[i].key.pid, 4);
			ck_assert_uint_eq(d[i].val.io, 2);
		}
	}
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(idle[i], now[i].key.pid == 2 ||
				 now[i].key.pid == 3);
	free(d);
}
END_TEST

START_TEST(test_text_like_bcc)
{
	struct biotop_row r = row(1683, "dd", 0, 100, 409600, 3000);
	char *out = NULL;

	RENDER(out, biotop_print_head(f, "01:04:26", "0.47 0.20 0.74 4/145 "
				      "1835\n", 0));
	ck_assert_str_eq(out, "\n01:04:26 loadavg: 0.47 0.20 0.74 4/145 "
			 "1835\n\nPID     COMM             D MAJ MIN DISK     "
			 "  I/O  Kbytes  AVGms\n");
	free(out);
	RENDER(out, biotop_print_head(f, "01:04:26", "?\n", 1));
	ck_assert_int_eq(strncmp(out, "\033[H\033[2J01:04:26 loadavg: ", 25),
			 0);
	free(out);
	RENDER(out, biotop_print_row(f, &r, "loop0", "01:04:26", 0));
	ck_assert_str_eq(out, "1683    dd               R 7   3   loop0      "
			 "100     400   0.03\n");
	free(out);
}
END_TEST

START_TEST(test_hostile_comm)
{
	struct biotop_row r = row(9, "a\033[2J\nb\xff", 1, 3, 3072, 999);
	char *out = NULL;

	RENDER(out, biotop_print_row(f, &r, "sda", "01:02:03", 0));
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	ck_assert_msg(strstr(out, " a\\x1b[2J\\nb\\xff "), "%s", out);
	free(out);
	RENDER(out, biotop_print_row(f, &r, "sda", "01:02:03", 1));
	ck_assert_msg(json_check(out, strlen(out)) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\"time\":\"01:02:03\",\"pid\":9,\"comm\":"
			     "\"a\\u001b[2J\\nb\\u00ff\",\"d\":\"W\",\"maj\":"
			     "7,\"min\":3,\"disk\":\"sda\",\"io\":3,"
			     "\"kbytes\":3,\"avg_ms\":0.333}"), "%s", out);
	free(out);
}
END_TEST

static Suite *biotop_suite(void)
{
	Suite *s = suite_create("biotop");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sort_names);
	tcase_add_test(tc, test_sort_orders);
	tcase_add_test(tc, test_deltas_and_idle);
	tcase_add_test(tc, test_text_like_bcc);
	tcase_add_test(tc, test_hostile_comm);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(biotop, biotop_suite, NULL)
