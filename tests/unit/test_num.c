/* SPDX-License-Identifier: MIT */
/*
 * bb_parse_double (num.c), which replaced strtod (issue 7), against the
 * host libc's strtod; parse_seconds, the option values built on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "tool.h"

/* s parses as strtod parses it: the same end, and the same value when
 * exact, or within a relative 1e-14 (4 of the smallest subnormals below
 * the normal range) */
static void same_as_strtod(const char *s)
{
	const char *end;
	char *want_end;
	double v = -1, want = strtod(s, &want_end);
	int r = bb_parse_double(s, &end, &v);

	ck_assert_msg(r >= 0, "'%s' refused", s);
	ck_assert_msg(end == want_end, "'%s': ends at %td, strtod at %td", s,
		      end - s, want_end - s);
	if (r == 1)
		ck_assert_msg(v == want, "'%s': %.17g, strtod %.17g", s, v, want);
	else
		ck_assert_msg(v == want || fabs(v - want) <= 1e-14 * fabs(want) ||
				      fabs(v - want) <= 4 * 4.9406564584124654e-324,
			      "'%s': %.17g, strtod %.17g", s, v, want);
}

START_TEST(test_parse_double_forms)
{
	static const char *const ok[] = {
		"0", "-0", "+2", "0.5", ".5", "5.", "1e-3", "1E3", "1e+3",
		"2.5e-1", "10", "1e9", "1000000000", "0.000001", "134.217727",
		"1e", "1e+", "2e-x", "1.2.3", "3s", "1e22", "1e23",
		"9007199254740993", "123456789012345678901234567890",
		"0.000000000000000000000000000001", "1e308", "1e400",
		"1e-400", "4.9406564584124654e-324", "1e99999999999999",
		"1.7976931348623157e308", "2.2250738585072014e-308",
	};
	static const char *const bad[] = { "", ".", "-", "+.", "e5", " 1",
					   "inf", "nan", "x" };
	const char *end;
	double v;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		same_as_strtod(ok[i]);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(bb_parse_double(bad[i], &end, &v) == -EINVAL,
			      "'%s' accepted", bad[i]);
	/* no hexadecimal: "0x10" is 0 followed by "x10" (strtod: 16) */
	ck_assert_int_eq(bb_parse_double("0x10", &end, &v), 1);
	ck_assert(v == 0 && *end == 'x');
	/* the fast path is exact */
	ck_assert_int_eq(bb_parse_double("0.1", &end, &v), 1);
	ck_assert(v == 0.1);
	ck_assert_int_eq(bb_parse_double("1e23", &end, &v), 0);
}
END_TEST

/* What prom_format_double prints, %.{1..17}g of many doubles, reads back
 * as strtod reads it. */
START_TEST(test_parse_double_printf_round_trip)
{
	uint64_t x = 88172645463325252ULL;
	char buf[64];
	int i, p, exact = 0;

	for (i = 0; i < 20000; i++) {
		double d;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&d, &x, sizeof(d));
		if (!isfinite(d))
			continue;
		/* half of them in the range metrics live in */
		if (i & 1)
			d = ldexp(fabs(frexp(d, &p)), (int)(x % 80) - 40);
		for (p = 1; p <= 17; p += 4) {
			const char *end;
			double v;

			snprintf(buf, sizeof(buf), "%.*g", p, d);
			same_as_strtod(buf);
			exact += bb_parse_double(buf, &end, &v) == 1;
		}
	}
	ck_assert_int_gt(exact, 10000);
}
END_TEST

START_TEST(test_parse_seconds)
{
	static const char *const bad[] = { "", "0", "-1", "0.0", "1e10",
					   "abc", "1s", " 1", "inf", "nan",
					   "1e-400", "1e-12", "1e-300",
					   "0.0009" };
	double v;
	size_t i;

	ck_assert_int_eq(parse_seconds("0.5", &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(parse_seconds("1e-3", &v), 0);
	ck_assert(v == 0.001);
	ck_assert_int_eq(parse_seconds("2", &v), 0);
	ck_assert(v == 2);
	ck_assert_int_eq(parse_seconds(".25", &v), 0);
	ck_assert(v == 0.25);
	ck_assert_int_eq(parse_seconds("1e9", &v), 0);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(parse_seconds(bad[i], &v) == -EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_int_eq(parse_seconds(NULL, &v), -EINVAL);
}
END_TEST

/* The next tick in one step, past now, whatever the interval and however
 * late the wake-up: 1e-12 added to 1e5 seconds changes nothing, and the
 * loop that added it until the sum passed now never ended (issue 32). */
START_TEST(test_next_tick)
{
	ck_assert(tool_next_tick(10, 1, 10) == 11);
	ck_assert(tool_next_tick(10, 1, 10.5) == 11);
	ck_assert(tool_next_tick(10, 1, 13) == 14);
	ck_assert(tool_next_tick(10, 0.25, 12.6) == 12.75);
	ck_assert(tool_next_tick(1e5, 1e-12, 1e5 + 1) > 1e5 + 1);
	ck_assert(tool_next_tick(1e5, 1e-300, 1e5) > 1e5);
	ck_assert(tool_next_tick(0, 1e-9, 1e9) > 1e9);
}
END_TEST

/* A map's entries: what a 32-bit max_entries and the kernel's 2^31
 * buckets can take; 4294967297 became 1 entry (issue 32). */
START_TEST(test_opt_map_entries)
{
	static const char *const bad[] = { "0", "-1", "4294967297",
					   "4294967296", "2147483649",
					   "18446744073709551617", "1e3", "" };
	struct tool_ctx t;
	unsigned long v;
	size_t i;
	int saved = dup(2), null = open("/dev/null", O_WRONLY);

	memset(&t, 0, sizeof(t));
	t.name = "test";
	ck_assert_int_ge(null, 0);
	ck_assert_int_eq(opt_map_entries(&t, "-x", "keys", "1", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(opt_map_entries(&t, "-x", "keys", "2147483648", &v),
			 0);
	ck_assert_uint_eq(v, 2147483648UL);
	fflush(stderr);
	dup2(null, 2);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (opt_map_entries(&t, "-x", "keys", bad[i], &v) != -EINVAL)
			break;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	ck_assert_msg(i == sizeof(bad) / sizeof(*bad), "'%s' accepted",
		      i < sizeof(bad) / sizeof(*bad) ? bad[i] : "");
}
END_TEST

static Suite *num_suite(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_parse_double_forms);
	tcase_add_test(tc, test_parse_double_printf_round_trip);
	tcase_add_test(tc, test_parse_seconds);
	tcase_add_test(tc, test_next_tick);
	tcase_add_test(tc, test_opt_map_entries);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(num, num_suite, NULL)
