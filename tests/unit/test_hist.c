/* SPDX-License-Identifier: MIT */
/* Histogram text must match bcc's print_log2_hist, byte for byte. */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "output.h"

static char *render(void (*fn)(FILE *, const uint64_t *, int, const char *),
		    const uint64_t *vals, int n, const char *unit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, vals, n, unit);
	fclose(f);
	return buf;
}

START_TEST(test_text_like_bcc)
{
	/* slot i holds [2^i, 2^(i+1)-1]; slot 0 holds 0 and 1 */
	uint64_t v[64] = { 0 };
	char *out;
	const char *want =
		"     usecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 1        |**********                              |\n"
		"         4 -> 7          : 4        |****************************************|\n"
		"         8 -> 15         : 3        |******************************          |\n";

	v[1] = 1;
	v[2] = 4;
	v[3] = 3;
	out = render(hist_print_log2, v, 64, "usecs");
	ck_assert_str_eq(out, want);
	free(out);
}
END_TEST

/* bcc's print_linear_hist, as tools/runqlen_example.txt shows it */
START_TEST(test_linear_like_bcc)
{
	uint64_t v[256] = { 1068, 642, 369, 183, 104, 42, 13, 2, 1 };
	char *out = render(hist_print_linear, v, 256, "runqlen");
	const char *want =
		"     runqlen       : count     distribution\n"
		"        0          : 1068     |****************************************|\n"
		"        1          : 642      |************************                |\n"
		"        2          : 369      |*************                           |\n"
		"        3          : 183      |******                                  |\n"
		"        4          : 104      |***                                     |\n"
		"        5          : 42       |*                                       |\n"
		"        6          : 13       |                                        |\n"
		"        7          : 2        |                                        |\n"
		"        8          : 1        |                                        |\n";

	ck_assert_str_eq(out, want);
	free(out);
	memset(v, 0, sizeof(v));
	out = render(hist_print_linear, v, 256, "runqlen");
	ck_assert_str_eq(out, "");
	free(out);
	v[2] = 5;
	out = render(hist_json_linear, v, 256, "len");
	ck_assert_str_eq(out, "[{\"len\":2,\"count\":5}]");
	free(out);
}
END_TEST

START_TEST(test_empty_prints_nothing)
{
	uint64_t v[64] = { 0 };
	char *out = render(hist_print_log2, v, 64, "usecs");

	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

START_TEST(test_wide_columns_past_2_32)
{
	uint64_t v[64] = { 0 };
	char *out;

	v[40] = 2;
	out = render(hist_print_log2, v, 64, "nsecs");
	/* bcc widens to 20-digit columns and 20 stars past slot 32 */
	ck_assert_ptr_nonnull(strstr(out,
		"               nsecs                         : count     distribution\n"));
	ck_assert_ptr_nonnull(strstr(out,
		"       1099511627776 -> 2199023255551        : 2        |********************|\n"));
	free(out);
}
END_TEST

START_TEST(test_json)
{
	uint64_t v[64] = { 0 };
	char *out;

	v[0] = 5;
	v[10] = 7;
	out = render(hist_json_log2, v, 64, "msecs");
	ck_assert_str_eq(out, "{\"unit\":\"msecs\",\"buckets\":["
			 "{\"lo\":0,\"hi\":1,\"count\":5},"
			 "{\"lo\":1024,\"hi\":2047,\"count\":7}],\"count\":12}");
	free(out);
}
END_TEST

START_TEST(test_json_str_escapes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_str(f, "a\"b\\c\n\x01");
	fclose(f);
	ck_assert_str_eq(buf, "\"a\\\"b\\\\c\\n\\u0001\"");
	free(buf);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_text_like_bcc);
	tcase_add_test(tc, test_empty_prints_nothing);
	tcase_add_test(tc, test_linear_like_bcc);
	tcase_add_test(tc, test_wide_columns_past_2_32);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_json_str_escapes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(hist, hist_suite, NULL)
