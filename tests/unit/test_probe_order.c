/* SPDX-License-Identifier: MIT */
/* probe_order: closers before openers, the list's order otherwise. */
#include <errno.h>
#include <string.h>
#include "barebpf.h"
#include "bbtest.h"
#include "probe.h"

/* The order as a string of the programs' names, "a b c". */
static const char *order_of(struct bb_probe *p, int n)
{
	static char buf[256];
	int order[16], i;

	ck_assert_int_le(n, 16);
	ck_assert_int_eq(probe_order(p, n, order), 0);
	buf[0] = 0;
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", p[order[i]].prog);
	return buf;
}

START_TEST(test_entry_after_return)
{
	/* funclatency: entries open "start", returns close it */
	struct bb_probe p[] = {
		{ .prog = "entA", .opens = "start" },
		{ .prog = "retA", .closes = "start" },
		{ .prog = "entB", .opens = "start" },
		{ .prog = "retB", .closes = "start" },
	};

	ck_assert_str_eq(order_of(p, 4), "retA retB entA entB");
}
END_TEST

START_TEST(test_list_order_kept)
{
	/* nothing to order: as given */
	struct bb_probe p[] = {
		{ .prog = "a" }, { .prog = "b" }, { .prog = "c" },
	};

	ck_assert_str_eq(order_of(p, 3), "a b c");
}
END_TEST

START_TEST(test_chain)
{
	/* qenter: the return closes "start"; the entry opens it and takes
	 * (closes) the task's disk, which the tracepoint opens */
	struct bb_probe p[] = {
		{ .prog = "taskdev", .opens = "taskdev" },
		{ .prog = "entry", .opens = "start", .closes = "taskdev" },
		{ .prog = "ret", .closes = "start" },
	};

	ck_assert_str_eq(order_of(p, 3), "ret entry taskdev");
}
END_TEST

START_TEST(test_self_and_several_words)
{
	/* biosnoop: a front merge moves (closes and opens) "who"; the
	 * completion closes both states */
	struct bb_probe p[] = {
		{ .prog = "getrq", .opens = "who" },
		{ .prog = "frontmerge", .opens = "who", .closes = "who" },
		{ .prog = "issue", .opens = "start" },
		{ .prog = "complete", .closes = "start  who" },
	};

	ck_assert_str_eq(order_of(p, 4), "complete frontmerge issue getrq");
}
END_TEST

START_TEST(test_contradiction)
{
	struct bb_probe p[] = {
		{ .prog = "a", .opens = "x", .closes = "y" },
		{ .prog = "b", .opens = "y", .closes = "x" },
	};
	int order[2];

	ck_assert_int_eq(probe_order(p, 2, order), -ELOOP);
	ck_assert_int_eq(probe_order(p, 0, order), 0);
}
END_TEST

START_TEST(test_too_many_states)
{
	static char names[65][8];
	struct bb_probe p[65];
	int order[65], i;

	memset(p, 0, sizeof(p));
	for (i = 0; i < 65; i++) {
		snprintf(names[i], sizeof(names[i]), "s%d", i);
		p[i].prog = "x";
		p[i].opens = names[i];
	}
	ck_assert_int_eq(probe_order(p, 64, order), 0);
	ck_assert_int_eq(probe_order(p, 65, order), -E2BIG);
}
END_TEST

static Suite *probe_order_suite(void)
{
	Suite *s = suite_create("probe_order");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_entry_after_return);
	tcase_add_test(tc, test_list_order_kept);
	tcase_add_test(tc, test_chain);
	tcase_add_test(tc, test_self_and_several_words);
	tcase_add_test(tc, test_contradiction);
	tcase_add_test(tc, test_too_many_states);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(probe_order, probe_order_suite, NULL)
