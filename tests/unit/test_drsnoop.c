/* SPDX-License-Identifier: MIT */
/*
 * drsnoop's lines: bcc's columns with and without -T, -U, -t and -e,
 * JSON that survives any comm, and the symbol -e reads.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "outrec.h"
#include "drsnoop_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct drsnoop_event ev(const char *comm)
{
	struct drsnoop_event e;

	memset(&e, 0, sizeof(e));
	e.ts = 3000000000ULL + 1500000; /* 1.5 ms after the first */
	e.delta = 35370000;             /* 35.37 ms */
	e.nr_reclaimed = 256;
	e.free_pages = 1000;
	e.pid = 29142;
	e.tid = 29143;
	e.uid = 1000;
	strncpy(e.comm, comm, sizeof(e.comm));
	return e;
}

START_TEST(test_columns_like_bcc)
{
	struct drsnoop_event e = ev("dd");
	unsigned all = OUT_BIT(DRSNOOP_COL_TIME) | OUT_BIT(DRSNOOP_COL_UID) |
		       OUT_BIT(DRSNOOP_COL_TID) | OUT_BIT(DRSNOOP_COL_FREE);
	char *out = NULL;

	RENDER(out, drsnoop_print_header(f, OUT_BIT(DRSNOOP_COL_PID)));
	ck_assert_str_eq(out, "COMM           PID     LAT(ms) PAGES\n");
	free(out);
	RENDER(out, drsnoop_print(f, &e, 3000000000ULL, 4,
				  OUT_BIT(DRSNOOP_COL_PID), 0));
	ck_assert_str_eq(out, "dd             29142     35.37   256\n");
	free(out);
	/* bcc glues TIME(s), UID and FREE(KB) to their neighbours */
	RENDER(out, drsnoop_print_header(f, all));
	ck_assert_str_eq(out, "TIME(s)       UID   COMM           TID     "
			 "LAT(ms) PAGES  FREE(KB)\n");
	free(out);
	RENDER(out, drsnoop_print(f, &e, 3000000000ULL, 4, all, 0));
	ck_assert_str_eq(out, "0.001500000   1000  dd             29143     "
			 "35.37   256      4000\n");
	free(out);
}
END_TEST

START_TEST(test_hostile_comm_and_json)
{
	struct drsnoop_event e = ev("a\033]0;x\a\nverylongname");
	char *out = NULL;

	RENDER(out, drsnoop_print(f, &e, e.ts, 4, OUT_BIT(DRSNOOP_COL_PID),
				  0));
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	free(out);
	e.flags = DRSNOOP_F_MEMCG;
	RENDER(out, drsnoop_print(f, &e, e.ts, 4, OUT_BIT(DRSNOOP_COL_PID),
				  1));
	ck_assert_msg(json_check(out, strlen(out)) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\"comm\":\"a\\u001b]0;x\\u0007\\nverylong"
			     "\",\"pid\":29142,\"tid\":29143,\"lat_ms\":"
			     "35.370,\"pages\":256,\"memcg\":true}"), "%s",
		      out);
	ck_assert_ptr_null(strstr(out, "free_kb"));
	free(out);
}
END_TEST

START_TEST(test_ksym_addr)
{
	const char *text = "ffffffff81000000 T _text\n"
			   "ffffffff82a1b2c0 D vm_zone_stat_x\n"
			   "ffffffff82a1b3c0 D vm_zone_stat\n"
			   "ffffffffc0001000 d vm_stat\t[mod]\n";

	ck_assert_uint_eq(drsnoop_ksym_addr(text, "vm_zone_stat"),
			  0xffffffff82a1b3c0ULL);
	ck_assert_uint_eq(drsnoop_ksym_addr(text, "vm_stat"),
			  0xffffffffc0001000ULL);
	ck_assert_uint_eq(drsnoop_ksym_addr(text, "vm_zone"), 0);
	ck_assert_uint_eq(drsnoop_ksym_addr("", "vm_stat"), 0);
}
END_TEST

static Suite *drsnoop_suite(void)
{
	Suite *s = suite_create("drsnoop");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_columns_like_bcc);
	tcase_add_test(tc, test_hostile_comm_and_json);
	tcase_add_test(tc, test_ksym_addr);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(drsnoop, drsnoop_suite, NULL)
