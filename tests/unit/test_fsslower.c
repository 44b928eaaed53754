/* SPDX-License-Identifier: MIT */
/*
 * fsslower's lines (bcc's ext4slower columns, JSON that survives any file
 * name), the functions picked on each kernel's names, and the word search
 * of the discovery.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "mods.h"
#include "fsslower_mod.h"
#include "fsslower_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct fss_event ev(const char *name)
{
	struct fss_event e;

	memset(&e, 0, sizeof(e));
	e.delta = 10260000; /* 10.26 ms */
	e.size = 16384;
	e.offset = 32768 + 100;
	e.pid = 6014;
	e.tid = 6015;
	e.op = FSS_READ;
	strncpy(e.comm, "cksum", sizeof(e.comm));
	strncpy(e.name, name, sizeof(e.name));
	return e;
}

START_TEST(test_columns_like_bcc)
{
	struct fss_event e = ev("chsh");
	char *out = NULL;

	RENDER(out, fsslower_print_header(f));
	ck_assert_str_eq(out, "TIME     COMM           PID     T BYTES   "
			 "OFF_KB   LAT(ms) FILENAME\n");
	free(out);
	RENDER(out, fsslower_print(f, &e, "06:35:01", 0));
	ck_assert_str_eq(out, "06:35:01 cksum          6014    R 16384   "
			 "32         10.26 chsh\n");
	free(out);
	e.op = FSS_FSYNC;
	e.size = -5;
	RENDER(out, fsslower_print(f, &e, "06:35:01", 0));
	ck_assert_str_eq(out, "06:35:01 cksum          6014    S -5      "
			 "32         10.26 chsh\n");
	free(out);
	ck_assert_int_eq(fsslower_op_char(FSS_OPEN), 'O');
	ck_assert_int_eq(fsslower_op_char(FSS_WRITE), 'W');
	ck_assert_int_eq(fsslower_op_char(9), '?');
	ck_assert_str_eq(fsslower_op_name(FSS_FSYNC), "fsync");
}
END_TEST

START_TEST(test_hostile_name_and_json)
{
	struct fss_event e = ev("h\033[31m\nx\377y");
	char *out = NULL;

	RENDER(out, fsslower_print(f, &e, "06:35:01", 0));
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_ptr_null(strchr(out, '\377'));
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	free(out);
	RENDER(out, fsslower_print(f, &e, "06:35:01", 1));
	ck_assert_msg(json_check(out, strlen(out)) == 0, "%s", out);
	ck_assert_msg(strstr(out, "\"type\":\"R\",\"bytes\":16384,\"offset\":"
			     "32868,\"lat_ms\":10.260,\"file\":\"h\\u001b[31m"
			     "\\nx\\u00ffy\"}"), "%s", out);
	free(out);
	/* a name that fills the record: no NUL in it */
	memset(e.name, 'a', sizeof(e.name));
	RENDER(out, fsslower_print(f, &e, "06:35:01", 1));
	ck_assert_msg(json_check(out, strlen(out)) == 0, "%s", out);
	ck_assert_uint_eq(strspn(strstr(out, "\"file\":\"") + 8, "a"),
			  FSS_NAME);
	free(out);
}
END_TEST

START_TEST(test_pick)
{
	/* 4.9: ext4 reads through generic_file_read_iter */
	char *k49[] = { "ext4_file_open", "ext4_file_write_iter",
			"ext4_sync_file", "generic_file_read_iter" };
	char *k510[] = { "ext4_file_open", "ext4_file_read_iter",
			 "ext4_file_write_iter", "ext4_sync_file",
			 "generic_file_read_iter" };
	char *none[] = { "generic_file_read_iter" };
	const struct fss_fs *fs = fsslower_fs("ext4");
	struct fss_pick p;
	char why[300];

	ck_assert_ptr_nonnull(fs);
	ck_assert_ptr_null(fsslower_fs("ext3"));
	ck_assert_ptr_null(fsslower_fs(NULL));
	ck_assert_int_eq(fsslower_pick(fs, k49, 4, &p, why, sizeof(why)), 0);
	ck_assert_str_eq(p.fn[FSS_READ], "generic_file_read_iter");
	ck_assert_int_eq(p.generic, 1);
	ck_assert_int_eq(fsslower_pick(fs, k510, 5, &p, why, sizeof(why)), 0);
	ck_assert_str_eq(p.fn[FSS_READ], "ext4_file_read_iter");
	ck_assert_str_eq(p.fn[FSS_FSYNC], "ext4_sync_file");
	ck_assert_int_eq(p.generic, 0);
	fs = fsslower_fs("xfs");
	ck_assert_int_lt(fsslower_pick(fs, none, 1, &p, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "this kernel has no xfs"), "%s", why);
}
END_TEST

START_TEST(test_find_word)
{
	unsigned char win[64] = { 0 };
	uint64_t v = 0xffff888012345678ULL;
	uint32_t v4 = 0xc1234568, out[4];

	memcpy(win + 24, &v, 8);
	memcpy(win + 40, &v, 8);
	memcpy(win + 12, &v4, 4);
	ck_assert_int_eq(fss_find_word(win, sizeof(win), 8, 8, v, out, 4), 2);
	ck_assert_uint_eq(out[0], 24);
	ck_assert_uint_eq(out[1], 40);
	/* 4-byte words (32-bit kernels) at 4-byte steps */
	ck_assert_int_eq(fss_find_word(win, sizeof(win), 4, 4, v4, out, 4), 1);
	ck_assert_uint_eq(out[0], 12);
	/* at 8-byte steps, offset 12 is not looked at */
	ck_assert_int_eq(fss_find_word(win, sizeof(win), 4, 8, v4, out, 4), 0);
	/* counts beyond max, fills max */
	ck_assert_int_eq(fss_find_word(win, sizeof(win), 8, 8, v, out, 1), 2);
	ck_assert_uint_eq(out[0], 24);
	ck_assert_int_eq(fss_find_word(win, sizeof(win), 8, 8, 1, out, 4), 0);
}
END_TEST

static Suite *fsslower_suite(void)
{
	Suite *s = suite_create("fsslower");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_columns_like_bcc);
	tcase_add_test(tc, test_hostile_name_and_json);
	tcase_add_test(tc, test_pick);
	tcase_add_test(tc, test_find_word);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(fsslower, fsslower_suite, NULL)
