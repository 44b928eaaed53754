/* SPDX-License-Identifier: MIT */
/*
 * The embedded objects' codec: lz_decode (loader/obj/lz.c) on hand-made and
 * damaged streams, every embedded object decoded back to the .bpf.o it
 * was built from, and the build's encoder (BB_BUILD_DIR/lzpack) on inputs
 * that need long lengths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "barebpf.h"
#include "bbtest.h"
#include "tool.h"

static unsigned char *read_all(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	FILE *f = fopen(path, "rb");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	*len = st.st_size;
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

/* Decode s (n bytes) with room for cap bytes; the result, and the bytes. */
static long dec(const char *s, size_t n, size_t cap, unsigned char *out)
{
	return lz_decode(out, cap, s, n);
}

START_TEST(test_lz_valid)
{
	unsigned char out[64];

	/* empty: the header and an empty last sequence */
	ck_assert_int_eq(dec("\0\0\0\0\0", 5, 0, out), 0);
	/* literals only */
	ck_assert_int_eq(dec("\3\0\0\0\x30" "abc", 8, 3, out), 3);
	ck_assert(!memcmp(out, "abc", 3));
	/* a match overlapping its own output: "a" then 8 x "a" (offset 1) */
	ck_assert_int_eq(dec("\x09\0\0\0\x14" "a\1\0\0", 9, 64, out), 9);
	ck_assert(!memcmp(out, "aaaaaaaaa", 9));
	/* "abcd" twice then "xy": a match then the last literals */
	ck_assert_int_eq(dec("\x0a\0\0\0\x40" "abcd\4\0\x20xy", 14, 10, out),
			 10);
	ck_assert(!memcmp(out, "abcdabcdxy", 10));
	/* length extensions: 15 + 3 literals; a match of 4 + 15 + 255 + 1 */
	{
		unsigned char s[40], big[300];

		memcpy(s, "\x12\0\0\0\xf0\x03" "abcdefghijklmnopqr", 24);
		ck_assert_int_eq(lz_decode(big, 18, s, 24), 18);
		ck_assert(!memcmp(big, "abcdefghijklmnopqr", 18));
		memcpy(s, "\x14\x01\0\0\x1f" "z\1\0\xff\x01\0", 11);
		ck_assert_int_eq(lz_decode(big, 300, s, 11), 1 + 275);
		ck_assert(big[0] == 'z' && big[275] == 'z');
	}
	ck_assert_int_eq(lz_size("\x17\x01\0\x80", 4), 0x80000117L);
}
END_TEST

START_TEST(test_lz_corrupt)
{
	unsigned char out[64];
	unsigned char s[2000];
	size_t i;

	/* no header; no last sequence */
	ck_assert_int_eq(lz_size("\0\0\0", 3), -EINVAL);
	ck_assert_int_eq(dec("\0\0\0", 3, 64, out), -EINVAL);
	ck_assert_int_eq(dec("\0\0\0\0", 4, 64, out), -EINVAL);
	/* ending with a match, not a (maybe empty) last literal run */
	ck_assert_int_eq(dec("\x09\0\0\0\x14" "a\1\0", 8, 64, out), -EINVAL);
	/* a declared size larger than the buffer */
	ck_assert_int_eq(dec("\3\0\0\0\x30" "abc", 8, 2, out), -EINVAL);
	/* literals past the input's end */
	ck_assert_int_eq(dec("\3\0\0\0\x30" "ab", 7, 64, out), -EINVAL);
	/* literals past the declared size */
	ck_assert_int_eq(dec("\1\0\0\0\x20" "ab", 7, 64, out), -EINVAL);
	/* offset 0, and an offset before the output's start */
	ck_assert_int_eq(dec("\5\0\0\0\x10" "a\0\0", 8, 64, out), -EINVAL);
	ck_assert_int_eq(dec("\6\0\0\0\x10" "a\2\0", 8, 64, out), -EINVAL);
	/* a match past the declared size */
	ck_assert_int_eq(dec("\x08\0\0\0\x14" "a\1\0\0", 9, 64, out), -EINVAL);
	/* a cut offset, a missing length extension */
	ck_assert_int_eq(dec("\x09\0\0\0\x14" "a\1", 7, 64, out), -EINVAL);
	ck_assert_int_eq(dec("\x20\0\0\0\xf0", 5, 64, out), -EINVAL);
	ck_assert_int_eq(dec("\x20\0\0\0\x1f" "a\1\0", 8, 64, out), -EINVAL);
	/* output shorter than declared */
	ck_assert_int_eq(dec("\x0a\0\0\0\x14" "a\1\0\0", 9, 64, out), -EINVAL);
	/* an extension that never ends, and one that runs to 4 GiB */
	memcpy(s, "\x20\0\0\0\xf0", 5);
	memset(s + 5, 255, sizeof(s) - 5);
	ck_assert_int_eq(lz_decode(out, 64, s, sizeof(s)), -EINVAL);
	memcpy(s, "\xff\xff\xff\xff\x10" "a\1\0\0", 9);
	ck_assert_int_eq(lz_decode(out, 64, s, 9), -EINVAL);
	for (i = 0; i < 9; i++) /* every cut of a valid stream */
		ck_assert_int_eq(dec("\x09\0\0\0\x14" "a\1\0\0", i, 64, out),
				 -EINVAL);
}
END_TEST

/* Every embedded object decodes to the object it was made from, and no
 * cut or changed byte of it makes the decoder go past its buffers. */
START_TEST(test_lz_embedded_round_trip)
{
	const struct embedded_obj *e;
	size_t raw_total = 0, lz_total = 0;
	int nobj = 0;

	for (e = embedded_objs; e->name; e++) {
		char path[256];
		size_t len, n = e->end - e->buf, i;
		unsigned char *raw, *out, *copy;
		long size;

		snprintf(path, sizeof(path), BB_BUILD_DIR "/bpf/%s.bpf.o",
			 e->name);
		raw = read_all(path, &len);
		size = lz_size(e->buf, n);
		ck_assert_int_eq(size, (long)len);
		out = malloc(len + 1);
		copy = malloc(n);
		ck_assert(out && copy);
		ck_assert_int_eq(lz_decode(out, len, e->buf, n), size);
		ck_assert_msg(!memcmp(out, raw, len), "%s differs", e->name);
		/* less room than the header says: refused */
		ck_assert_int_eq(lz_decode(out, len - 1, e->buf, n), -EINVAL);
		for (i = 0; i < n; i++)
			ck_assert_int_eq(lz_decode(out, len, e->buf, i),
					 -EINVAL);
		memcpy(copy, e->buf, n);
		for (i = 4; i < n; i++) {
			long r;

			copy[i] ^= 0x5a;
			r = lz_decode(out, len, copy, n);
			ck_assert(r == -EINVAL || r == size);
			copy[i] ^= 0x5a;
		}
		raw_total += len;
		lz_total += n;
		free(raw);
		free(out);
		free(copy);
		nobj++;
	}
	ck_assert_int_ge(nobj, 2);
	/* what this is for: the objects take much less room */
	ck_assert_msg(lz_total * 2 < raw_total, "%zu bytes compressed to %zu",
		      raw_total, lz_total);
}
END_TEST

/* The encoder on what the objects do not exercise: an empty input, long
 * runs (length extensions), incompressible bytes (long literal runs). */
static void pack_and_check(const unsigned char *in, size_t n, size_t max_out)
{
	const char *src = BB_BUILD_DIR "/tests/lz_in", *dst =
		BB_BUILD_DIR "/tests/lz_out";
	unsigned char *lz, *out;
	size_t m;
	FILE *f = fopen(src, "wb");
	int st;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(in, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	st = system(BB_BUILD_DIR "/lzpack " BB_BUILD_DIR "/tests/lz_in "
		    BB_BUILD_DIR "/tests/lz_out");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "lzpack failed");
	lz = read_all(dst, &m);
	ck_assert_msg(m <= max_out, "%zu bytes packed to %zu", n, m);
	out = malloc(n + 1);
	ck_assert_int_eq(lz_decode(out, n, lz, m), (long)n);
	ck_assert(!memcmp(out, in, n));
	free(lz);
	free(out);
	unlink(src);
	unlink(dst);
}

START_TEST(test_lz_encoder)
{
	size_t n = 200000, i;
	unsigned char *b = malloc(n);
	uint32_t x = 1;

	ck_assert_ptr_nonnull(b);
	pack_and_check(b, 0, 5);
	memset(b, 0, n);
	pack_and_check(b, n, 4 + 4 * (n / 65535 + 1) + n / 255 + 16);
	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		b[i] = x >> 24;
	}
	/* incompressible: at most the literals, their run's length and
	 * the header */
	pack_and_check(b, n, 4 + 1 + n + n / 255 + 1);
	/* the random bytes three times over: matches at long offsets */
	memcpy(b + 65000, b, 65000);
	memcpy(b + 130000, b, 65000);
	pack_and_check(b, 195000, 66000);
	free(b);
}
END_TEST

static Suite *lz_suite(void)
{
	Suite *s = suite_create("lz");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lz_valid);
	tcase_add_test(tc, test_lz_corrupt);
	tcase_add_test(tc, test_lz_embedded_round_trip);
	tcase_add_test(tc, test_lz_encoder);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(lz, lz_suite, NULL)
