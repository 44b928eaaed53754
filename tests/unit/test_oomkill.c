/* SPDX-License-Identifier: MIT */
/*
 * oomkill's line against bcc's format string ("%s Triggered by PID %d
 * (\"%s\"), OOM kill of PID %d (\"%s\"), %d pages, loadavg: %s"), "?"
 * for what is not known, escaped names, valid JSON with nulls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "oomkill_out.h"

static char *render(const struct oomkill_event *e, const char *vcomm,
		    long long pages, int json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	oomkill_print(f, e, "01:02:03", vcomm, pages, "0.15 0.10 0.05 1/99 7",
		      json);
	fclose(f);
	return out;
}

START_TEST(test_oomkill_as_bcc)
{
	struct oomkill_event e = { .tpid = 1234, .vpid = 5678,
				   .tcomm = "stress", .vcomm = "" };
	char want[256], *got = render(&e, "victim", 12345, 0);

	snprintf(want, sizeof(want), "%s Triggered by PID %d (\"%s\"), OOM kill"
		 " of PID %d (\"%s\"), %d pages, loadavg: %s\n", "01:02:03",
		 1234, "stress", 5678, "victim", 12345,
		 "0.15 0.10 0.05 1/99 7");
	ck_assert_str_eq(got, want);
	free(got);
	got = render(&e, NULL, -1, 0);
	ck_assert_str_eq(got, "01:02:03 Triggered by PID 1234 (\"stress\"), "
			 "OOM kill of PID 5678 (\"?\"), ? pages, loadavg: "
			 "0.15 0.10 0.05 1/99 7\n");
	free(got);
	memcpy(e.tcomm, "a\033[2J\"\nb", 9);
	got = render(&e, "x\033", 1, 0);
	ck_assert_msg(!strchr(got, '\033') && strstr(got, "(\"a\\x1b[2J\"\\nb\")")
		      && strstr(got, "(\"x\\x1b\")"), "%s", got);
	free(got);
	got = render(&e, NULL, -1, 1);
	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_msg(strstr(got, "\"vcomm\":null,\"pages\":null"), "%s", got);
	free(got);
	got = render(&e, "v", 7, 1);
	ck_assert_int_eq(json_check(got, strlen(got) - 1), 0);
	ck_assert_msg(strstr(got, "\"tpid\":1234,\"tcomm\":\"a\\u001b[2J\\\"\\nb\","
			     "\"vpid\":5678,\"vcomm\":\"v\",\"pages\":7"),
		      "%s", got);
	free(got);
}
END_TEST

static Suite *oomkill_suite(void)
{
	Suite *s = suite_create("oomkill");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_oomkill_as_bcc);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(oomkill, oomkill_suite, NULL)
