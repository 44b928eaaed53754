/* SPDX-License-Identifier: MIT */
/*
 * hardirqs' and softirqs' output against bcc's format strings: "%-26s
 * %11s" and "%-26s %11d" (softirqs: 16 wide, smallest first), totals
 * divided as bcc's v.value / factor; histograms under "\nhardirq = name"
 * (print_log2_hist's section header); escaped names; valid JSON; the
 * vector names of kernel/softirq.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "namedhist.h"
#include "output.h"
#include "softirqs_out.h"

static const struct nh_table hard = { "HARDIRQ", 26, "usecs", "hardirq", 0 };
static const struct nh_table soft = { "SOFTIRQ", 16, "count", "softirq", 1 };

START_TEST(test_irqs_totals_as_bcc)
{
	struct nh_row r[3] = { { "nvme0q1", 0, 1999 }, { "eth0", 0, 5000000 },
			       { "esc\033x", 0, 42000 } };
	char want[512], *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	nh_print_totals(f, &hard, r, 3, 1000, "12:00:00", 0);
	fclose(f);
	snprintf(want, sizeof(want), "%-26s %11s\n%-26s %11d\n%-26s %11d\n"
		 "%-26s %11d\n", "HARDIRQ", "TOTAL_usecs", "eth0", 5000,
		 "esc\\x1bx", 42, "nvme0q1", 1);
	ck_assert_str_eq(got, want);
	free(got);
	f = open_memstream(&got, &len);
	nh_print_totals(f, &soft, r, 3, 1, "12:00:00", 0);
	fclose(f);
	snprintf(want, sizeof(want), "%-16s %11s\n%-16s %11d\n%-16s %11d\n"
		 "%-16s %11d\n", "SOFTIRQ", "TOTAL_count", "nvme0q1", 1999,
		 "esc\\x1bx", 42000, "eth0", 5000000);
	ck_assert_str_eq(got, want);
	free(got);
	f = open_memstream(&got, &len);
	nh_print_totals(f, &soft, r, 3, 1, "12:00:00", 1);
	fclose(f);
	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_msg(strstr(got, "{\"time\":\"12:00:00\",\"softirqs\":[{"
			     "\"name\":\"nvme0q1\",\"total_count\":1999}"),
		      "%s", got);
	free(got);
}
END_TEST

START_TEST(test_irqs_dists_as_bcc)
{
	struct nh_row r[3] = { { "b", 3, 7 }, { "a", 1, 2 }, { "b", 0, 1 } };
	uint64_t va[64] = { 0, 2 }, vb[64] = { 1, 0, 0, 7 };
	char *got = NULL, *want = NULL;
	size_t len = 0, wl = 0;
	FILE *f = open_memstream(&got, &len);

	nh_print_dists(f, &hard, r, 3, "12:00:00", 0);
	fclose(f);
	f = open_memstream(&want, &wl);
	fputs("\nhardirq = a\n", f);
	hist_print_log2(f, va, 64, "usecs");
	fputs("\nhardirq = b\n", f);
	hist_print_log2(f, vb, 64, "usecs");
	fclose(f);
	ck_assert_str_eq(got, want);
	free(got);
	free(want);
	f = open_memstream(&got, &len);
	nh_print_dists(f, &hard, r, 3, "12:00:00", 1);
	fclose(f);
	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_msg(strstr(got, "\"name\":\"b\",\"dist\":{\"unit\":"
			     "\"usecs\""), "%s", got);
	free(got);
}
END_TEST

START_TEST(test_softirqs_vec_names)
{
	static const char *const want[] = { "hi", "timer", "net_tx", "net_rx",
		"block", "irq_poll", "tasklet", "sched", "hrtimer", "rcu" };
	char b[16];
	unsigned int i;

	for (i = 0; i < 10; i++) {
		softirqs_vec_name(i, b, sizeof(b));
		ck_assert_str_eq(b, want[i]);
	}
	softirqs_vec_name(10, b, sizeof(b));
	ck_assert_str_eq(b, "vec10");
}
END_TEST

static Suite *irqs_suite(void)
{
	Suite *s = suite_create("irqs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_irqs_totals_as_bcc);
	tcase_add_test(tc, test_irqs_dists_as_bcc);
	tcase_add_test(tc, test_softirqs_vec_names);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(irqs, irqs_suite, NULL)
