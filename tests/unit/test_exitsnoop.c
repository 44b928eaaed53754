/* SPDX-License-Identifier: MIT */
/* exitsnoop's lines (bcc's columns and EXIT_CODE text, JSON that survives
 * any comm) and the matching of its discovery. */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "exitsnoop_out.h"
#include "mods.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct exitsnoop_event ev(int code)
{
	struct exitsnoop_event e;

	memset(&e, 0, sizeof(e));
	e.pid = 4000;
	e.tid = 4001;
	e.ppid = 1;
	e.start = 1000000000ull;
	e.exit = 3500000000ull;
	e.exit_code = code;
	memcpy(e.comm, "sleep", 6);
	return e;
}

START_TEST(test_exit_text_like_bcc)
{
	static const struct { int code; const char *text; } c[] = {
		{ 0, "0" },
		{ 2 << 8, "code 2" },
		{ 255 << 8, "code 255" },
		{ 9, "signal 9 (KILL)" },
		{ 11 | 0x80, "signal 11 (SEGV), core dumped" },
		{ 12, "signal 12 (USR2)" },
		{ 31, "signal 31 (SYS)" },
		{ 34, "signal 34 (RTMIN)" },
		{ 40, "signal 40 (unknown)" },
	};
	char buf[64];
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		exitsnoop_exit_text(buf, sizeof(buf), c[i].code);
		ck_assert_str_eq(buf, c[i].text);
	}
}
END_TEST

START_TEST(test_text_like_bcc)
{
	struct exitsnoop_event e = ev(2 << 8);
	char *out;

	RENDER(out, exitsnoop_print_header(f, NULL));
	/* bcc: "%-16s %-7s %-7s %-7s %-7s %-10s" (its trailing space not) */
	ck_assert_str_eq(out, "PCOMM            PID     PPID    TID     "
			 "AGE(s)  EXIT_CODE\n");
	free(out);
	RENDER(out, exitsnoop_print(f, &e, NULL, "x", 1, 0));
	ck_assert_str_eq(out, "sleep            4000    1       4001    "
			 "2.50    code 2\n");
	free(out);
	RENDER(out, exitsnoop_print_header(f, "UTC"));
	ck_assert_str_eq(out, "TIME-UTC     PCOMM            PID     PPID    "
			 "TID     AGE(s)  EXIT_CODE\n");
	free(out);
	RENDER(out, exitsnoop_print(f, &e, "01:02:03.456", "x", 0, 0));
	ck_assert_str_eq(out, "01:02:03.456 sleep            4000    1       "
			 "4001    -       code 2\n");
	free(out);
}
END_TEST

START_TEST(test_json_escapes_comm)
{
	struct exitsnoop_event e = ev(9 | 0x80);
	char *out;

	memcpy(e.comm, "a\033[2J\nb\xff_sixteen_", 16); /* no NUL */
	RENDER(out, exitsnoop_print(f, &e, NULL, "2026-01-02T01:02:03.456",
				    1, 1));
	ck_assert_str_eq(out, "{\"timestamp\":\"2026-01-02T01:02:03.456\","
			 "\"task\":\"a\\u001b[2J\\nb\\u00ff_sixteen\","
			 "\"pid\":4000,\"ppid\":1,\"tid\":4001,\"age\":2.500000000,"
			 "\"exit_code\":0,\"sig_info\":137}\n");
	free(out);
	RENDER(out, exitsnoop_print(f, &e, NULL, "t", 0, 1));
	ck_assert_msg(strstr(out, "\"age\":null"), "%s", out);
	free(out);
	RENDER(out, exitsnoop_print(f, &e, NULL, "t", 1, 0));
	ck_assert_msg(!strchr(out, '\033') && strstr(out, "a\\x1b[2J\\nb\\xff"),
		      "%s", out);
	free(out);
}
END_TEST

static void put32(struct exitsnoop_snap *s, int off, uint32_t v)
{
	memcpy(s->bytes + off, &v, 4);
}

static void put64(struct exitsnoop_snap *s, int off, uint64_t v)
{
	memcpy(s->bytes + off, &v, 8);
}

/* three tasks: exit_code at 100, tgid at 204 (pid at 200), real_parent
 * and parent at 304, 312, start_time and start_boottime at 400, 408 */
static struct exitsnoop_snap *snaps(void)
{
	static const int32_t codes[3] = { 0x5a00, 12, 0x3300 };
	struct exitsnoop_snap *s = calloc(3, sizeof(*s));
	int i;

	for (i = 0; i < 3; i++) {
		s[i].code = codes[i];
		s[i].tgid = 500 + i;
		s[i].parent = 0xffff888000001000ull;
		s[i].fork_lo = 1000 * (i + 1);
		s[i].fork_hi = 1000 * (i + 1) + 50;
		put32(&s[i], 100, codes[i]);
		put32(&s[i], 200, 500 + i + (i == 2)); /* 2: a thread */
		put32(&s[i], 204, 500 + i);
		put64(&s[i], 304, s[i].parent);
		put64(&s[i], 312, s[i].parent);
		put64(&s[i], 400, s[i].fork_lo + 10);
		put64(&s[i], 408, s[i].fork_lo + 20);
		put64(&s[i], 600, 12); /* not the same in all */
	}
	return s;
}

START_TEST(test_match_finds_each_field)
{
	struct exitsnoop_snap *s = snaps();
	int offs[4];

	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_EXIT_CODE, 8,
					 offs, 4), 1);
	ck_assert_int_eq(offs[0], 100);
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_TGID, 8, offs, 4),
			 1);
	ck_assert_int_eq(offs[0], 204);
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_REAL_PARENT, 8,
					 offs, 4), 2);
	ck_assert_int_eq(offs[0], 304);
	ck_assert_int_eq(offs[1], 312);
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_START_TIME, 8,
					 offs, 4), 2);
	ck_assert_int_eq(offs[0], 400);
	/* a 32-bit kernel's pointers: 4 bytes, here at 504; its
	 * bpf_get_current_task() sign-extends them */
	for (int i = 0; i < 3; i++) {
		s[i].parent = 0xffffffffc1001000ull;
		put32(&s[i], 504, 0xc1001000u);
	}
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_REAL_PARENT, 4,
					 offs, 4), 1);
	ck_assert_int_eq(offs[0], 504);
	free(s);
}
END_TEST

START_TEST(test_match_needs_all_and_two)
{
	struct exitsnoop_snap *s = snaps();
	int offs[4];

	/* one task disagrees: no place */
	put32(&s[1], 100, 0);
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_EXIT_CODE, 8,
					 offs, 4), 0);
	/* one task that says nothing does not count for a match */
	s[1].code = -1;
	s[2].code = -1;
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_EXIT_CODE, 8,
					 offs, 4), 0);
	s[2].code = 0x3300;
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_EXIT_CODE, 8,
					 offs, 4), 1);
	/* a start time out of its fork's window */
	put64(&s[0], 400, 5000);
	put64(&s[0], 408, 5000);
	ck_assert_int_eq(exitsnoop_match(s, 3, EXITSNOOP_F_START_TIME, 8,
					 offs, 4), 0);
	free(s);
}
END_TEST

static Suite *exitsnoop_suite(void)
{
	Suite *s = suite_create("exitsnoop");
	TCase *tc = tcase_create("format");
	TCase *tm = tcase_create("match");

	tcase_add_test(tc, test_exit_text_like_bcc);
	tcase_add_test(tc, test_text_like_bcc);
	tcase_add_test(tc, test_json_escapes_comm);
	tcase_add_test(tm, test_match_finds_each_field);
	tcase_add_test(tm, test_match_needs_all_and_two);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tm);
	return s;
}

BBTEST_SUITE(exitsnoop, exitsnoop_suite, NULL)
