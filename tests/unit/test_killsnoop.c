/* SPDX-License-Identifier: MIT */
/* killsnoop's lines: bcc's columns, and JSON that survives any comm. */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "killsnoop_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct killsnoop_event ev(void)
{
	struct killsnoop_event e;

	memset(&e, 0, sizeof(e));
	e.pid = 4000;
	e.tid = 4001;
	e.tpid = -1234;
	e.sig = 15;
	e.ret = -3;
	memcpy(e.comm, "bash", 5);
	return e;
}

START_TEST(test_text_like_bcc)
{
	struct killsnoop_event e = ev();
	char *out;

	RENDER(out, killsnoop_print_header(f));
	/* bcc: "%-9s %-6s %-16s %-4s %-6s %s" */
	ck_assert_str_eq(out, "TIME      PID    COMM             SIG  TPID   "
			 "RESULT\n");
	free(out);
	RENDER(out, killsnoop_print(f, &e, "12:34:56", 0));
	ck_assert_str_eq(out, "12:34:56  4001   bash             15   -1234  "
			 "-3\n");
	free(out);
}
END_TEST

START_TEST(test_json_escapes_comm)
{
	struct killsnoop_event e = ev();
	char *out;

	memcpy(e.comm, "a\033[2J\nb\xff_sixteen_", 16); /* no NUL */
	RENDER(out, killsnoop_print(f, &e, "01:02:03", 1));
	ck_assert_str_eq(out, "{\"time\":\"01:02:03\",\"pid\":4001,"
			 "\"tgid\":4000,\"comm\":\"a\\u001b[2J\\nb\\u00ff_sixte"
			 "en\",\"sig\":15,\"tpid\":-1234,\"result\":-3}\n");
	free(out);
	RENDER(out, killsnoop_print(f, &e, "01:02:03", 0));
	ck_assert_msg(!strchr(out, '\033') && strstr(out, "a\\x1b[2J\\nb\\xff"),
		      "%s", out);
	free(out);
}
END_TEST

static Suite *killsnoop_suite(void)
{
	Suite *s = suite_create("killsnoop");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_text_like_bcc);
	tcase_add_test(tc, test_json_escapes_comm);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(killsnoop, killsnoop_suite, NULL)
