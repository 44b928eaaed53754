/* SPDX-License-Identifier: MIT */
/*
 * The one escaper of strings from the kernel or a process (output.c):
 * text keeps valid UTF-8 and shows controls and invalid bytes as \xNN;
 * JSON is always valid UTF-8 (checked with a strict parser).
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "output.h"

/* text and JSON of s (n bytes), into static buffers */
static const char *text(const char *s, size_t n)
{
	static char *buf;
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_textn(f, s, n);
	fclose(f);
	return buf;
}

static const char *json(const char *s, size_t n)
{
	static char *buf;
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	json_strn(f, s, n);
	fclose(f);
	ck_assert_msg(!json_check(buf, len), "not valid JSON: %s", buf);
	return buf;
}

#define T(s) text(s, sizeof(s) - 1)
#define J(s) json(s, sizeof(s) - 1)

START_TEST(test_ascii)
{
	/* a backslash is doubled: "\\n" (two characters) must not read as
	 * an escaped newline */
	ck_assert_str_eq(T("/usr/bin/ls -la x\\y \"q\""),
			 "/usr/bin/ls -la x\\\\y \"q\"");
	ck_assert_str_eq(T("a\\nb"), "a\\\\nb");
	ck_assert_str_eq(T("\\x1b"), "\\\\x1b");
	ck_assert_str_eq(J("/usr/bin/ls -la x\\y \"q\""),
			 "\"/usr/bin/ls -la x\\\\y \\\"q\\\"\"");
	ck_assert_str_eq(T(""), "");
	ck_assert_str_eq(J(""), "\"\"");
}
END_TEST

START_TEST(test_valid_utf8_stays)
{
	/* é (2 bytes), € (3), U+FFFD (3), 😀 (4), U+10FFFF (4), U+00A0 */
	static const char s[] = "\xc3\xa9 \xe2\x82\xac \xef\xbf\xbd "
				"\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf \xc2\xa0";

	ck_assert_str_eq(T(s), s);
	ck_assert_int_eq(strlen(J(s)), strlen(s) + 2);
	ck_assert_int_eq(memcmp(J(s) + 1, s, strlen(s)), 0);
}
END_TEST

START_TEST(test_controls)
{
	/* ESC and newline: no line of its own, no sequence reaches a
	 * terminal */
	ck_assert_str_eq(T("a\nb"), "a\\nb");
	ck_assert_str_eq(T("a\tb"), "a\\tb");
	ck_assert_str_eq(T("\033[31mred"), "\\x1b[31mred");
	ck_assert_str_eq(T("\r\x01\x7f"), "\\x0d\\x01\\x7f");
	ck_assert_str_eq(J("a\nb\tc"), "\"a\\nb\\tc\"");
	ck_assert_str_eq(J("\033[31m\r\x7f"), "\"\\u001b[31m\\u000d\\u007f\"");
	/* C1 controls as UTF-8 (U+009B is CSI to some terminals) */
	ck_assert_str_eq(T("\xc2\x9b" "1m\xc2\x80"), "\\xc2\\x9b1m\\xc2\\x80");
	ck_assert_str_eq(J("\xc2\x9b" "1m"), "\"\\u009b1m\"");
}
END_TEST

/* Bidirectional controls reorder what a terminal shows ("Trojan Source",
 * CVE-2021-42574): escaped by code point in text, as \uNNNN in JSON. */
START_TEST(test_bidi)
{
	/* U+202E RIGHT-TO-LEFT OVERRIDE */
	ck_assert_str_eq(T("ab\xe2\x80\xae" "cd"), "ab\\u{202e}cd");
	ck_assert_str_eq(J("ab\xe2\x80\xae" "cd"), "\"ab\\u202ecd\"");
	/* the embeddings, overrides and isolates; LRM, RLM and ALM */
	ck_assert_str_eq(T("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad"),
			 "\\u{202a}\\u{202b}\\u{202c}\\u{202d}");
	ck_assert_str_eq(T("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9"),
			 "\\u{2066}\\u{2067}\\u{2068}\\u{2069}");
	ck_assert_str_eq(T("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"),
			 "\\u{200e}\\u{200f}\\u{61c}");
	ck_assert_str_eq(J("\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c"),
			 "\"\\u2066\\u200f\\u061c\"");
	/* their neighbours are ordinary text: U+2029, U+202F, U+2065,
	 * U+206A, U+200D, U+061B */
	ck_assert_str_eq(T("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"
			   "\xe2\x80\x8d\xd8\x9b"),
			 "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"
			 "\xe2\x80\x8d\xd8\x9b");
	/* the escape fits whole or not at all */
	{
		char buf[9];

		ck_assert_int_eq(esc_text(buf, sizeof(buf), "\xe2\x80\xae", 3), 8);
		ck_assert_str_eq(buf, "\\u{202e}");
		ck_assert_int_eq(esc_text(buf, 8, "\xe2\x80\xae", 3), 0);
	}
}
END_TEST

START_TEST(test_invalid_bytes)
{
	ck_assert_str_eq(T("a\xff" "b"), "a\\xffb");
	ck_assert_str_eq(J("a\xff" "b"), "\"a\\u00ffb\"");
	ck_assert_str_eq(T("\xfe\xf5\x80"), "\\xfe\\xf5\\x80");
	ck_assert_str_eq(J("\xfe\xf5\x80"), "\"\\u00fe\\u00f5\\u0080\"");
}
END_TEST

START_TEST(test_overlong)
{
	/* '/' as 2, 3 and 4 bytes; U+07FF as 3 bytes; NUL as C0 80 */
	ck_assert_str_eq(T("\xc0\xaf"), "\\xc0\\xaf");
	ck_assert_str_eq(T("\xc1\xbf"), "\\xc1\\xbf");
	ck_assert_str_eq(T("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
	ck_assert_str_eq(T("\xe0\x9f\xbf"), "\\xe0\\x9f\\xbf");
	ck_assert_str_eq(T("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");
	ck_assert_str_eq(T("\xf0\x8f\xbf\xbf"), "\\xf0\\x8f\\xbf\\xbf");
	ck_assert_str_eq(J("\xc0\x80"), "\"\\u00c0\\u0080\"");
	J("\xe0\x80\xaf\xf0\x80\x80\xaf");
}
END_TEST

START_TEST(test_surrogates_and_beyond)
{
	/* U+D800, U+DFFF encoded: not UTF-8; U+110000: past the end */
	ck_assert_str_eq(T("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	ck_assert_str_eq(T("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");
	ck_assert_str_eq(J("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\"");
	ck_assert_str_eq(T("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
	/* the last ones before them are fine */
	ck_assert_str_eq(T("\xed\x9f\xbf"), "\xed\x9f\xbf");
}
END_TEST

START_TEST(test_truncated)
{
	/* cut sequences, at the end and followed by ASCII */
	ck_assert_str_eq(T("a\xc3"), "a\\xc3");
	ck_assert_str_eq(T("\xe2\x82"), "\\xe2\\x82");
	ck_assert_str_eq(T("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");
	ck_assert_str_eq(T("\xe2\x82z\xc3\xa9"), "\\xe2\\x82z\xc3\xa9");
	ck_assert_str_eq(J("\xf0\x9f\x98"), "\"\\u00f0\\u009f\\u0098\"");
	/* a length that cuts a valid sequence: its bytes are escaped */
	ck_assert_str_eq(text("\xc3\xa9", 1), "\\xc3");
	/* a NUL ends the string */
	ck_assert_str_eq(text("ab\0cd", 5), "ab");
}
END_TEST

START_TEST(test_esc_text_buffer)
{
	char buf[8];

	ck_assert_int_eq(esc_text(buf, sizeof(buf), "ab\033", 3), 6);
	ck_assert_str_eq(buf, "ab\\x1b");
	/* an escape that does not fit is left out whole */
	ck_assert_int_eq(esc_text(buf, sizeof(buf), "abcd\033", 5), 4);
	ck_assert_str_eq(buf, "abcd");
	ck_assert_int_eq(esc_text(buf, 4, "\xc3\xa9\xc3\xa9", 4), 2);
	ck_assert_str_eq(buf, "\xc3\xa9");
}
END_TEST

/* Every byte pair and some triples: JSON always valid, text without a
 * control byte or an invalid sequence. */
START_TEST(test_every_byte)
{
	char s[3];
	int a, b;

	for (a = 1; a < 256; a++)
		for (b = 1; b < 256; b++) {
			const unsigned char *t, *end;
			int k;

			s[0] = (char)a;
			s[1] = (char)b;
			s[2] = (char)0xbf;
			json(s, 3);
			t = (const unsigned char *)text(s, 3);
			end = t + strlen((const char *)t);
			for (; t < end; t += k) {
				k = jsonck_utf8(t, end);
				ck_assert_msg(k && *t >= 0x20 && *t != 0x7f &&
					      !(*t == 0xc2 && t[1] < 0xa0),
					      "%02x %02x: %s", a, b,
					      text(s, 3));
			}
		}
}
END_TEST

static Suite *escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ascii);
	tcase_add_test(tc, test_valid_utf8_stays);
	tcase_add_test(tc, test_controls);
	tcase_add_test(tc, test_bidi);
	tcase_add_test(tc, test_invalid_bytes);
	tcase_add_test(tc, test_overlong);
	tcase_add_test(tc, test_surrogates_and_beyond);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_esc_text_buffer);
	tcase_add_test(tc, test_every_byte);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(escape, escape_suite, NULL)
