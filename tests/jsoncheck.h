/* SPDX-License-Identifier: MIT */
/*
 * A strict check of one JSON text (RFC 8259), for the tests of -j: the
 * grammar, and UTF-8 that a strict decoder (Python's json.loads on bytes,
 * Rust's serde_json) accepts: no invalid byte, overlong form or encoded
 * surrogate, and no \u escape of a lone surrogate. Header-only, for both
 * the unit and the integration tests.
 */
#ifndef BB_TEST_JSONCHECK_H
#define BB_TEST_JSONCHECK_H

#include <stddef.h>
#include <string.h>

struct jsonck {
	const unsigned char *p, *end;
	int depth;
};

static void jsonck_ws(struct jsonck *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* A valid UTF-8 sequence at p: its length, 0 if invalid. */
static int jsonck_utf8(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], lo = 0x80, hi = 0xbf;
	int n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (end - p < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static int jsonck_hex4(const unsigned char *p, const unsigned char *end,
		       unsigned *v)
{
	int i;

	if (end - p < 4)
		return -1;
	*v = 0;
	for (i = 0; i < 4; i++) {
		unsigned c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v |= (c | 0x20) - 'a' + 10;
		else
			return -1;
	}
	return 0;
}

static int jsonck_string(struct jsonck *j)
{
	if (j->p >= j->end || *j->p != '"')
		return -1;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		unsigned v, w;
		int n;

		if (*j->p < 0x20)
			return -1;
		if (*j->p != '\\') {
			n = jsonck_utf8(j->p, j->end);
			if (!n)
				return -1;
			j->p += n;
			continue;
		}
		if (++j->p >= j->end)
			return -1;
		if (strchr("\"\\/bfnrt", *j->p)) {
			j->p++;
			continue;
		}
		if (*j->p != 'u' || jsonck_hex4(j->p + 1, j->end, &v))
			return -1;
		j->p += 5;
		if (v >= 0xdc00 && v <= 0xdfff)
			return -1; /* a low surrogate alone */
		if (v >= 0xd800 && v <= 0xdbff) {
			if (j->end - j->p < 6 || j->p[0] != '\\' ||
			    j->p[1] != 'u' || jsonck_hex4(j->p + 2, j->end, &w) ||
			    w < 0xdc00 || w > 0xdfff)
				return -1;
			j->p += 6;
		}
	}
	if (j->p >= j->end)
		return -1;
	j->p++;
	return 0;
}

static int jsonck_number(struct jsonck *j)
{
	const unsigned char *s;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end)
		return -1;
	if (*j->p == '0') {
		j->p++;
	} else if (*j->p >= '1' && *j->p <= '9') {
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	} else {
		return -1;
	}
	if (j->p < j->end && *j->p == '.') {
		s = ++j->p;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
		if (j->p == s)
			return -1;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		s = j->p;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
		if (j->p == s)
			return -1;
	}
	return 0;
}

static int jsonck_value(struct jsonck *j);

/* An object or array: close is '}' or ']'. */
static int jsonck_items(struct jsonck *j, int close)
{
	j->p++;
	jsonck_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (jsonck_string(j))
				return -1;
			jsonck_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return -1;
		}
		if (jsonck_value(j))
			return -1;
		jsonck_ws(j);
		if (j->p >= j->end)
			return -1;
		if (*j->p == close) {
			j->p++;
			return 0;
		}
		if (*j->p++ != ',')
			return -1;
		jsonck_ws(j);
	}
}

static int jsonck_value(struct jsonck *j)
{
	static const char *const words[] = { "true", "false", "null" };
	int i, ret;

	jsonck_ws(j);
	if (j->p >= j->end)
		return -1;
	if (*j->p == '{' || *j->p == '[') {
		if (++j->depth > 64)
			return -1;
		ret = jsonck_items(j, *j->p == '{' ? '}' : ']');
		j->depth--;
		return ret;
	}
	if (*j->p == '"')
		return jsonck_string(j);
	for (i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[i], n)) {
			j->p += n;
			return 0;
		}
	}
	return jsonck_number(j);
}

/* 0 if [s, s + n) is exactly one JSON value (white space around it). */
static int json_check(const char *s, size_t n)
{
	struct jsonck j = { (const unsigned char *)s,
			    (const unsigned char *)s + n, 0 };

	if (jsonck_value(&j))
		return -1;
	jsonck_ws(&j);
	return j.p == j.end ? 0 : -1;
}

#endif
