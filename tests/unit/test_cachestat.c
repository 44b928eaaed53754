/* SPDX-License-Identifier: MIT */
/* cachestat's arithmetic (bcc's) and its line, text and JSON. */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "cachestat_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static void counts(uint64_t *d, uint64_t apcl, uint64_t mpa, uint64_t mbd,
		   uint64_t apd)
{
	d[CACHESTAT_APCL] = apcl;
	d[CACHESTAT_MPA] = mpa;
	d[CACHESTAT_MBD] = mbd;
	d[CACHESTAT_APD] = apd;
}

START_TEST(test_arithmetic_like_bcc)
{
	uint64_t d[CACHESTAT_NSTATS];
	struct cachestat_row r;

	/* a cold read: every access added a page */
	counts(d, 1024, 1024, 0, 0);
	cachestat_compute(d, &r);
	ck_assert_uint_eq(r.hits, 0);
	ck_assert_uint_eq(r.misses, 1024);
	ck_assert(r.ratio == 0);
	/* a warm read */
	counts(d, 0, 1024, 0, 0);
	cachestat_compute(d, &r);
	ck_assert_uint_eq(r.hits, 1024);
	ck_assert_uint_eq(r.misses, 0);
	ck_assert(r.ratio == 1);
	/* writes: pages added and dirtied are no misses; buffers dirtied
	 * are no accesses, and are the DIRTIES column */
	counts(d, 300, 500, 100, 200);
	cachestat_compute(d, &r);
	ck_assert_uint_eq(r.misses, 100);
	ck_assert_uint_eq(r.hits, 300);
	ck_assert_uint_eq(r.dirties, 100);
	ck_assert(r.ratio == 0.75);
	/* read-ahead added more than was read: every access a miss */
	counts(d, 900, 100, 0, 0);
	cachestat_compute(d, &r);
	ck_assert_uint_eq(r.hits, 0);
	ck_assert_uint_eq(r.misses, 100);
	/* more dirtied than added, more buffers than accesses: 0, not less */
	counts(d, 1, 2, 5, 9);
	cachestat_compute(d, &r);
	ck_assert_uint_eq(r.hits, 0);
	ck_assert_uint_eq(r.misses, 0);
	ck_assert(r.ratio == 0);
}
END_TEST

START_TEST(test_line_like_bcc)
{
	struct cachestat_row r = { 300, 100, 7, 0.75 };
	char *out = NULL;

	RENDER(out, cachestat_print_header(f, 0));
	ck_assert_str_eq(out, "    HITS   MISSES  DIRTIES HITRATIO   "
			 "BUFFERS_MB  CACHED_MB\n");
	free(out);
	RENDER(out, cachestat_print_header(f, 1));
	ck_assert_str_eq(out, "TIME         HITS   MISSES  DIRTIES HITRATIO"
			 "   BUFFERS_MB  CACHED_MB\n");
	free(out);
	RENDER(out, cachestat_print(f, &r, 2048, 1536000, "12:00:01", 0, 0));
	ck_assert_str_eq(out, "     300      100        7   75.00%            "
			 "2       1500\n");
	free(out);
	RENDER(out, cachestat_print(f, &r, 2048, 1536000, "12:00:01", 1, 0));
	ck_assert_int_eq(strncmp(out, "12:00:01      300 ", 18), 0);
	free(out);
	RENDER(out, cachestat_print(f, &r, 2048, 1536000, "12:00:01", 0, 1));
	ck_assert_msg(json_check(out, strlen(out)) == 0, "%s", out);
	ck_assert_str_eq(out, "{\"time\":\"12:00:01\",\"hits\":300,\"misses\":"
			 "100,\"dirties\":7,\"hitratio\":0.7500,"
			 "\"buffers_mb\":2,\"cached_mb\":1500}\n");
	free(out);
}
END_TEST

static Suite *cachestat_suite(void)
{
	Suite *s = suite_create("cachestat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_arithmetic_like_bcc);
	tcase_add_test(tc, test_line_like_bcc);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(cachestat, cachestat_suite, NULL)
