/* SPDX-License-Identifier: MIT */
/* bpf_verifier_explain: why the verifier refused a program, in words. */
#include <errno.h>
#include <string.h>
#include "barebpf.h"
#include "bbtest.h"
#include "obj.h"

static char why[512];

static const char *explain(int err, const char *log, int truncated)
{
	bpf_verifier_explain(err, log, truncated, why, sizeof(why));
	return why;
}

/* 4.15: "BPF program is too large. Processed 131073 insn" ends the log. */
START_TEST(test_gave_up_415)
{
	explain(-E2BIG, "0: (b7) r6 = 1\nBPF program is too large. "
		"Processed 131073 insn\n", 0);
	ck_assert_msg(strstr(why, "the verifier gave up after 131073 "
			     "instructions") && strstr(why, "5.2+") &&
		      strstr(why, "1M"), "%s", why);
	ck_assert_msg(!strstr(why, "did not fit"), "%s", why);
}
END_TEST

/* 5.2+: the summary line, and the 1M limit reached. */
START_TEST(test_gave_up_1m)
{
	explain(-E2BIG, "BPF program is too large. Processed 1000001 insn\n"
		"processed 1000001 insns (limit 1000000) max_states_per_insn "
		"4 total_states 125000\n", 0);
	ck_assert_msg(strstr(why, "after 1000001 instructions (its limit)"),
		      "%s", why);
	ck_assert_msg(!strstr(why, "5.2+"), "%s", why);
}
END_TEST

/* 4.15 keeps the head of a log that does not fit: the count is lost, the
 * cause is still said, and that the log is partial. */
START_TEST(test_gave_up_truncated)
{
	explain(-E2BIG, "0: (b7) r6 = 1\n1: (85) call bpf_get_prandom_u32#7\n",
		1);
	ck_assert_msg(strstr(why, "the verifier gave up") &&
		      strstr(why, "131072 before 5.2") &&
		      strstr(why, "did not fit"), "%s", why);
	explain(-E2BIG, NULL, 0);
	ck_assert_msg(strstr(why, "the verifier gave up"), "%s", why);
}
END_TEST

/* Other refusals: the log says why; only a partial log is mentioned. */
START_TEST(test_other_errors)
{
	ck_assert_str_eq(explain(-EACCES, "invalid stack off=-520\n", 0), "");
	ck_assert_msg(strstr(explain(-EACCES, "invalid stack off=-520\n", 1),
			     "did not fit"), "%s", why);
	ck_assert_str_eq(explain(-EINVAL, NULL, 0), "");
}
END_TEST

static Suite *verifier_suite(void)
{
	Suite *s = suite_create("verifier");
	TCase *tc = tcase_create("explain");

	tcase_add_test(tc, test_gave_up_415);
	tcase_add_test(tc, test_gave_up_1m);
	tcase_add_test(tc, test_gave_up_truncated);
	tcase_add_test(tc, test_other_errors);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(verifier, verifier_suite, NULL)
