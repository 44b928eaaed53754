/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"

/* Unsorted on purpose, with aliases, data symbols and module symbols. */
static const char sample[] =
	"ffffffff81200000 T vfs_read\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 D __data_alias\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffffc0a01000 t nvme_irq\t[nvme]\n"
	"ffffffff81100000 t blk_queue_enter\n"
	"ffffffff82000000 D jiffies\n"
	"ffffffffc0a00000 T nvme_queue_rq\t[nvme]\n"
	"ffffffff81100400 T submit_bio_noacct\n"
	"not a symbol line\n"
	"ffffffff81300000 W weak_fn"; /* no final newline */

START_TEST(test_lookup_names)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"0000000000032b40 A runqueues\n"
		"ffffffff82a5e0c0 D __per_cpu_offset\n"
		"ffffffffc0a00000 t runqueues_x\t[mod]\n"
		"0000000000000000 D hidden\n"
		"ffffffff81000010 t tail";
	const char *const names[] = { "runqueues", "__per_cpu_offset",
				      "hidden", "tail", "absent" };
	uint64_t a[5];

	ck_assert_int_eq(ksyms_lookup_text(text, names, 5, a), 3);
	ck_assert_uint_eq(a[0], 0x32b40);
	ck_assert_uint_eq(a[1], 0xffffffff82a5e0c0ULL);
	ck_assert_uint_eq(a[2], 0); /* kptr_restrict's zeros: not found */
	ck_assert_uint_eq(a[3], 0xffffffff81000010ULL);
	ck_assert_uint_eq(a[4], 0);
	ck_assert_int_eq(ksyms_lookup_text("garbage\n12 x\n", names, 5, a),
			 0);
}
END_TEST

START_TEST(test_parse_count)
{
	struct bb_ksyms *ks = NULL;

	ck_assert_int_eq(ksyms_parse(&ks, sample), 10);
	ksyms_free(ks);
}
END_TEST

START_TEST(test_find_exact_and_inside)
{
	struct bb_ksyms *ks = NULL;
	const struct bb_ksym *s;
	uint64_t off = 99;

	ck_assert_int_ge(ksyms_parse(&ks, sample), 0);

	s = ksyms_find(ks, 0xffffffff81100000ULL, &off);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "blk_queue_enter");
	ck_assert_uint_eq(off, 0);

	s = ksyms_find(ks, 0xffffffff811003ffULL, &off);
	ck_assert_str_eq(s->name, "blk_queue_enter");
	ck_assert_uint_eq(off, 0x3ff);

	s = ksyms_find(ks, 0xffffffff81100400ULL, &off);
	ck_assert_str_eq(s->name, "submit_bio_noacct");
	ck_assert_uint_eq(off, 0);

	/* module symbols: the name stops before "\t[module]" */
	s = ksyms_find(ks, 0xffffffffc0a00010ULL, &off);
	ck_assert_str_eq(s->name, "nvme_queue_rq");
	ck_assert_uint_eq(off, 0x10);
	s = ksyms_find(ks, 0xffffffffc0a01000ULL, NULL);
	ck_assert_str_eq(s->name, "nvme_irq");
	ksyms_free(ks);
}
END_TEST

START_TEST(test_find_alias_prefers_first_text)
{
	struct bb_ksyms *ks = NULL;
	const struct bb_ksym *s;
	uint64_t off;

	ck_assert_int_ge(ksyms_parse(&ks, sample), 0);
	s = ksyms_find(ks, 0xffffffff81000008ULL, &off);
	ck_assert_str_eq(s->name, "_stext");
	ck_assert_uint_eq(off, 8);
	ksyms_free(ks);
}
END_TEST

START_TEST(test_find_edges)
{
	struct bb_ksyms *ks = NULL;
	const struct bb_ksym *s;
	uint64_t off;

	ck_assert_int_ge(ksyms_parse(&ks, sample), 0);
	ck_assert_ptr_null(ksyms_find(ks, 0xffffffff80ffffffULL, &off));
	ck_assert_ptr_null(ksyms_find(ks, 0, &off));
	s = ksyms_find(ks, 0xffffffffffffffffULL, &off);
	ck_assert_str_eq(s->name, "nvme_irq");
	ck_assert_uint_eq(off, 0xffffffffffffffffULL - 0xffffffffc0a01000ULL);
	ksyms_free(ks);
}
END_TEST

START_TEST(test_has)
{
	struct bb_ksyms *ks = NULL;

	ck_assert_int_ge(ksyms_parse(&ks, sample), 0);
	ck_assert_int_eq(ksyms_has(ks, "blk_queue_enter"), 1);
	ck_assert_int_eq(ksyms_has(ks, "submit_bio_noacct"), 1);
	ck_assert_int_eq(ksyms_has(ks, "nvme_irq"), 1);
	ck_assert_int_eq(ksyms_has(ks, "jiffies"), 1);
	ck_assert_int_eq(ksyms_has(ks, "weak_fn"), 1);
	ck_assert_int_eq(ksyms_has(ks, "generic_make_request"), 0);
	ck_assert_int_eq(ksyms_has(ks, "blk_queue"), 0);
	ck_assert_int_eq(ksyms_has(ks, "nvme"), 0);
	ck_assert_int_eq(ksyms_has(ks, "[nvme]"), 0);
	ck_assert_int_eq(ksyms_has(ks, ""), 0);
	ksyms_free(ks);
}
END_TEST

START_TEST(test_zero_addresses)
{
	struct bb_ksyms *ks = NULL;

	/* kptr_restrict: every address reads as zero */
	ck_assert_int_eq(ksyms_parse(&ks,
				     "0000000000000000 T _stext\n"
				     "0000000000000000 t blk_queue_enter\n"),
			 -EACCES);

	/* a few zero addresses among real ones are just skipped */
	ck_assert_int_eq(ksyms_parse(&ks,
				     "0000000000000000 A fixed_percpu_data\n"
				     "ffffffff81000000 T _stext\n"),
			 1);
	ck_assert_int_eq(ksyms_has(ks, "fixed_percpu_data"), 0);
	ck_assert_str_eq(ksyms_find(ks, 0xffffffff81000001ULL, NULL)->name,
			 "_stext");
	ksyms_free(ks);
}
END_TEST

START_TEST(test_empty)
{
	struct bb_ksyms *ks = NULL;

	ck_assert_int_eq(ksyms_parse(&ks, ""), 0);
	ck_assert_ptr_null(ksyms_find(ks, 0xffffffff81000000ULL, NULL));
	ck_assert_int_eq(ksyms_has(ks, "x"), 0);
	ksyms_free(ks);
	ksyms_free(NULL);
}
END_TEST

START_TEST(test_load_errors)
{
	struct bb_ksyms *ks = NULL;
	struct bb_err err = { "" };

	ck_assert_int_eq(ksyms_load(&ks, "/nonexistent/kallsyms", &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/kallsyms"));
}
END_TEST

/* The real /proc/kallsyms: exercises size and speed, checks consistency. */
START_TEST(test_load_proc)
{
	struct bb_ksyms *ks = NULL;
	struct bb_err err = { "" };
	const struct bb_ksym *s;
	uint64_t off;
	int n;

	n = ksyms_load(&ks, NULL, &err);
	if (n == -EACCES) {
		ck_assert_ptr_nonnull(strstr(err.msg, "kptr_restrict"));
		return;
	}
	ck_assert_msg(n > 1000, "%d: %s", n, err.msg);
	ck_assert_int_eq(ksyms_has(ks, "schedule"), 1);
	ck_assert_int_eq(ksyms_has(ks, "no_such_symbol_barebpf"), 0);
	s = ksyms_find(ks, 0xffffffffffffffffULL, &off);
	ck_assert_ptr_nonnull(s);
	ksyms_free(ks);
}
END_TEST

/* Every address of addrs named by part as by whole (names and offsets). */
static void same_answers(const struct bb_ksyms *whole,
			 const struct bb_ksyms *part, const uint64_t *addrs,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t o1 = 0, o2 = 0;
		const struct bb_ksym *a = ksyms_find(whole, addrs[i], &o1);
		const struct bb_ksym *b = ksyms_find(part, addrs[i], &o2);

		ck_assert_msg(!a == !b, "%#llx: %s / %s",
			      (unsigned long long)addrs[i], a ? a->name : "-",
			      b ? b->name : "-");
		if (a) {
			ck_assert_str_eq(a->name, b->name);
			ck_assert_uint_eq(o1, o2);
		}
	}
}

/*
 * The symbols of some addresses only (what a stack printer needs): the
 * same answers as the whole table for those addresses (aliases: the first
 * text symbol; below every symbol: none; above: the last), in a table of
 * only those symbols.
 */
START_TEST(test_parse_for)
{
	static const uint64_t addrs[] = {
		0xffffffff81100010, 0xffffffff81000000, 0xffffffff81000004,
		0xfffffffff0000000, 0xffffffffc0a01008, 0xffffffff81100400,
		0xffffffff81100010, 0x1000, 0xffffffff82000001,
		0xffffffffc0a00fff, 0xffffffff81300000,
	};
	const size_t n = sizeof(addrs) / sizeof(addrs[0]);
	struct bb_ksyms *whole = NULL, *part = NULL;

	ck_assert_int_ge(ksyms_parse(&whole, sample), 0);
	/* 7 symbols name the 10 distinct addresses (one below all) */
	ck_assert_int_eq(ksyms_parse_for(&part, sample, addrs, n), 7);
	same_answers(whole, part, addrs, n);
	ck_assert_int_eq(ksyms_has(part, "startup_64"), 0);
	ck_assert_int_eq(ksyms_has(part, "_stext"), 1);
	ck_assert_int_eq(ksyms_has(part, "jiffies"), 1);
	ksyms_free(part);
	ck_assert_int_eq(ksyms_parse_for(&part, sample, addrs, 0), 0);
	ck_assert_ptr_null(ksyms_find(part, addrs[0], NULL));
	ksyms_free(part);
	ck_assert_int_eq(ksyms_parse_for(&part,
					 "0000000000000000 T a\n"
					 "0000000000000000 T b\n", addrs, n),
			 -EACCES);
	ksyms_free(whole);
}
END_TEST

/* The same from the real /proc/kallsyms, streamed: 20000 addresses in
 * and around its symbols, the answers of the whole table. */
START_TEST(test_load_for_proc)
{
	struct bb_ksyms *whole = NULL, *part = NULL;
	struct bb_err err = { "" };
	static uint64_t addrs[20000];
	size_t i;
	int n;

	n = ksyms_load(&whole, NULL, &err);
	if (n == -EACCES)
		bbtest_skip("%s", err.msg);
	ck_assert_msg(n > 1000, "%d: %s", n, err.msg);
	srand(32);
	for (i = 0; i < 20000; i++) {
		const struct bb_ksym *s = ksyms_find(whole,
			0xffffffff80000000ULL + (uint64_t)rand() * 64, NULL);

		addrs[i] = (s ? s->addr : 0) + (uint64_t)(rand() % 300);
	}
	n = ksyms_load_for(&part, NULL, addrs, 20000, &err);
	ck_assert_msg(n > 0 && n <= 20000, "%d: %s", n, err.msg);
	same_answers(whole, part, addrs, 20000);
	ksyms_free(part);
	ksyms_free(whole);
	ck_assert_int_eq(ksyms_load_for(&part, "/nonexistent/kallsyms", addrs,
					1, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/kallsyms"));
}
END_TEST

static Suite *kallsyms_suite(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_count);
	tcase_add_test(tc, test_lookup_names);
	tcase_add_test(tc, test_find_exact_and_inside);
	tcase_add_test(tc, test_find_alias_prefers_first_text);
	tcase_add_test(tc, test_find_edges);
	tcase_add_test(tc, test_has);
	tcase_add_test(tc, test_zero_addresses);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_load_proc);
	tcase_add_test(tc, test_parse_for);
	tcase_add_test(tc, test_load_for_proc);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(kallsyms, kallsyms_suite, NULL)
