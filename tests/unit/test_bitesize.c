/* SPDX-License-Identifier: MIT */
/*
 * bitesize's pure parts: an interval's histograms from the map's running
 * totals (what each command gained, commands in byte order), bcc's text
 * and JSON that survive any comm.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "bitesize_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct bitesize_kv kv(const char *comm, unsigned slot, uint64_t v)
{
	struct bitesize_kv e;

	memset(&e, 0, sizeof(e));
	strncpy(e.key.comm, comm, sizeof(e.key.comm));
	e.key.slot = slot;
	e.val = v;
	return e;
}

START_TEST(test_hists_group_and_sort)
{
	struct bitesize_kv now[] = {
		kv("fio", 2, 5), kv("dd", 8, 3), kv("dd", 2, 10),
		kv("kworker/0:1", 0, 1), kv("dd", 4, 0),
	};
	struct bitesize_hist *h;
	int n;

	bitesize_sort(now, 5);
	n = bitesize_hists(now, 5, NULL, 0, &h);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(h[0].comm, "dd");
	ck_assert_str_eq(h[1].comm, "fio");
	ck_assert_str_eq(h[2].comm, "kworker/0:1");
	ck_assert_uint_eq(h[0].slots[2], 10);
	ck_assert_uint_eq(h[0].slots[8], 3);
	ck_assert_uint_eq(h[0].slots[4], 0);
	ck_assert_uint_eq(h[1].slots[2], 5);
	ck_assert_uint_eq(h[2].slots[0], 1);
	free(h);
}
END_TEST

/* a second interval shows what each key gained; a command that gained
 * nothing is left out; a total that went down (a key made anew) counts
 * whole */
START_TEST(test_hists_deltas)
{
	struct bitesize_kv prev[] = { kv("dd", 2, 10), kv("fio", 2, 5),
				      kv("cat", 3, 9) };
	struct bitesize_kv now[] = { kv("dd", 2, 14), kv("fio", 2, 5),
				     kv("dd", 5, 2), kv("cat", 3, 4) };
	struct bitesize_hist *h;
	int n;

	bitesize_sort(prev, 3);
	bitesize_sort(now, 4);
	n = bitesize_hists(now, 4, prev, 3, &h);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].comm, "cat");
	ck_assert_uint_eq(h[0].slots[3], 4);
	ck_assert_str_eq(h[1].comm, "dd");
	ck_assert_uint_eq(h[1].slots[2], 4);
	ck_assert_uint_eq(h[1].slots[5], 2);
	free(h);
	/* a slot beyond the histogram is not counted anywhere */
	now[0] = kv("x", BITESIZE_SLOTS, 7);
	n = bitesize_hists(now, 1, NULL, 0, &h);
	ck_assert_int_eq(n, 0);
	free(h);
}
END_TEST

START_TEST(test_text_like_bcc)
{
	struct bitesize_hist h[2];
	char *out = NULL;

	memset(h, 0, sizeof(h));
	strcpy(h[0].comm, "dd");
	h[0].slots[2] = 100;
	h[0].slots[6] = 10;
	strcpy(h[1].comm, "jbd2/sda1-8");
	h[1].slots[0] = 1;
	RENDER(out, bitesize_print(f, h, 2, "12:34:56", 0));
	ck_assert_str_eq(out,
		"\n12:34:56\n"
		"\nProcess Name = dd\n"
		"     Kbytes              : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 100      |****************************************|\n"
		"         8 -> 15         : 0        |                                        |\n"
		"        16 -> 31         : 0        |                                        |\n"
		"        32 -> 63         : 0        |                                        |\n"
		"        64 -> 127        : 10       |****                                    |\n"
		"\nProcess Name = jbd2/sda1-8\n"
		"     Kbytes              : count     distribution\n"
		"         0 -> 1          : 1        |****************************************|\n");
	free(out);
	/* no timestamp, nothing counted: the empty line alone */
	RENDER(out, bitesize_print(f, h, 0, NULL, 0));
	ck_assert_str_eq(out, "\n");
	free(out);
}
END_TEST

/* A comm holding ESC, a newline and bytes that are not UTF-8 reaches
 * neither the terminal raw nor breaks the line or the JSON. */
START_TEST(test_hostile_comm)
{
	struct bitesize_hist h;
	char *out = NULL;

	memset(&h, 0, sizeof(h));
	memcpy(h.comm, "a\033[31m\nb\xff\xc3", 10);
	h.slots[3] = 2;
	RENDER(out, bitesize_print(f, &h, 1, NULL, 0));
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_msg(strstr(out, "\nProcess Name = a\\x1b[31m\\nb\\xff\\xc3\n"),
		      "%s", out);
	free(out);
	RENDER(out, bitesize_print(f, &h, 1, "01:02:03", 1));
	ck_assert_msg(json_check(out, strlen(out) - 1) == 0, "%s", out);
	/* one line: its only newline is the last byte */
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	ck_assert_msg(strstr(out, "\"time\":\"01:02:03\",\"unit\":\"Kbytes\","
			     "\"hists\":[{\"comm\":\"a\\u001b[31m\\nb\\u00ff"
			     "\\u00c3\",\"hist\":{\"unit\":\"Kbytes\",\"buckets\":"
			     "[{\"lo\":8,\"hi\":15,\"count\":2}],\"count\":2}}]}"),
		      "%s", out);
	free(out);
}
END_TEST

static Suite *bitesize_suite(void)
{
	Suite *s = suite_create("bitesize");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hists_group_and_sort);
	tcase_add_test(tc, test_hists_deltas);
	tcase_add_test(tc, test_text_like_bcc);
	tcase_add_test(tc, test_hostile_comm);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(bitesize, bitesize_suite, NULL)
