/* SPDX-License-Identifier: MIT */
/*
 * The tools' help texts (loader/cli/help.c): the blob the build made of
 * loader/tools/.../NAME.help decodes; each text is found by its whole
 * name only, begins with its usage line and ends with a line break; no
 * @MACRO@ is left in any; tool_help writes exactly one text. Every
 * tool's --help through the binary: integration suite help.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "tool.h"

START_TEST(test_help_texts)
{
	size_t len, tl, n = 0;
	char *blob = tool_help_blob(&len), *p, *end;
	char usage[64];

	ck_assert_msg(blob && len > 50000, "the help blob did not decode");
	ck_assert_msg(!strstr(blob, "@BB_") && !memchr(blob, 0, len),
		      "a help text keeps a macro or a NUL");
	ck_assert_int_eq(blob[0], '\001');
	for (p = blob; p && p < blob + len; p = end) {
		char name[32];
		const char *text;
		size_t nl = strcspn(p + 1, "\n");

		ck_assert(nl > 0 && nl < sizeof(name));
		memcpy(name, p + 1, nl);
		name[nl] = 0;
		end = memchr(p + 1, '\001', (size_t)(blob + len - p - 1));
		text = tool_help_find(blob, len, name, &tl);
		ck_assert_msg(text == p + 2 + nl, "%s: not found where it is",
			      name);
		ck_assert_uint_eq(tl, (size_t)((end ? end : blob + len) - text));
		snprintf(usage, sizeof(usage), "usage: barebpf %s ", name);
		ck_assert_msg(!strncmp(text, usage, strlen(usage)) ||
			      !strcmp(name, "trace"),
			      "%s: begins '%.40s'", name, text);
		ck_assert_msg(tl > 200 && text[tl - 1] == '\n' &&
			      text[tl - 2] != '\n', "%s: %zu bytes, ends "
			      "badly", name, tl);
		n++;
	}
	ck_assert_uint_ge(n, 38);
	ck_assert_ptr_null(tool_help_find(blob, len, "runql", &tl));
	ck_assert_ptr_null(tool_help_find(blob, len, "runqlenx", &tl));
	ck_assert_ptr_null(tool_help_find(blob, len, "", &tl));
	free(blob);
}
END_TEST

START_TEST(test_help_writes_one)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	ck_assert_int_eq(tool_help("runqlen", f), 0);
	fclose(f);
	ck_assert_msg(!strncmp(buf, "usage: barebpf runqlen ", 23) &&
		      !strstr(buf, "\001") && !strstr(buf, "usage: barebpf runqlat"),
		      "%.80s", buf);
	free(buf);
	f = fopen("/dev/null", "w");
	ck_assert_int_eq(tool_help("nosuchtool", f), -ENOENT);
	fclose(f);
}
END_TEST

static Suite *help_suite(void)
{
	Suite *s = suite_create("help");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_help_texts);
	tcase_add_test(tc, test_help_writes_one);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(help, help_suite, NULL)
