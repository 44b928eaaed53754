/* SPDX-License-Identifier: MIT */
/*
 * The .xz decoder of MiniDebugInfo (loader/user/xz.c) against the `xz` command
 * (xz-utils, scripts/deps.sh): known data compressed here at test time with
 * each check it reads (crc64, crc32, none), presets 0 to 9e, literal and
 * position settings, several blocks, and incompressible data (stored
 * LZMA2 chunks), decoded back byte for byte; what it must refuse (SHA-256,
 * a BCJ filter, past the output bound); and every truncation and every
 * one-byte change of a stream, none of which may decode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "user.h"

#define DATADIR "tests/unit/data/"

static char dir[4096];

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

/*
 * The data: text with repeats near and far (matches of every distance
 * class), a run of one byte, a counting pattern, then pseudo-random bytes
 * (incompressible: stored chunks); `n` bytes of it.
 */
static unsigned char *make_data(size_t n)
{
	unsigned char *d = malloc(n);
	uint32_t r = 1;
	size_t i;

	ck_assert_ptr_nonnull(d);
	for (i = 0; i < n; i++) {
		r = r * 1103515245 + 12345;
		if (i < n / 4)
			d[i] = "the quick brown fox jumps over the lazy dog "
			       "0123456789 vmtest_spin_inner\n"[(i * 7 / 5 +
								 (r >> 28)) %
								74];
		else if (i < n / 4 + 5000)
			d[i] = 'z';
		else if (i < n / 2)
			d[i] = (unsigned char)(i / 3 ^ i >> 9);
		else
			d[i] = (unsigned char)(r >> 16);
	}
	return d;
}

/* `xz ARGS` of the data in dir/plain, into dir/NAME.xz; read back. */
static unsigned char *xz_of(const char *args, const char *name, size_t *len)
{
	char cmd[8192 + 256], path[4200];

	snprintf(path, sizeof(path), "%s/%s.xz", dir, name);
	snprintf(cmd, sizeof(cmd), "xz --format=xz %s -c <%s/plain >%s", args,
		 dir, path);
	ck_assert_msg(system(cmd) == 0, "failed: %s (xz-utils installed?)",
		      cmd);
	return read_all(path, len);
}

static void write_plain(const unsigned char *d, size_t n)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/plain", dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(d, 1, n, f), n);
	fclose(f);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/xz-test-XXXXXX", BB_BUILD_DIR);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *const variants[] = {
	"--check=crc64 -6",
	"--check=crc32 -0",
	"--check=none -9e",
	"--check=crc64 -1e",
	"--check=crc32 --lzma2=preset=6,lc=0,lp=2,pb=0",
	"--check=crc64 --lzma2=preset=6,lc=4,lp=0,pb=4",
	"--check=crc64 --lzma2=preset=3,lc=1,lp=3,pb=1,mf=hc4",
	"--check=crc64 --block-size=70000 -6",    /* several blocks */
	"--check=crc32 --lzma2=preset=6,dict=4KiB", /* distances over 4 KiB */
	"-T2 --check=crc64 --block-size=100000",
};

/* _i: a variant of the options, on 1 MiB of data (several 64 KiB chunks) */
START_TEST(test_xz_matches_xz)
{
	size_t n = 1 << 20, clen, olen;
	unsigned char *d = make_data(n), *c, *out;
	char name[16];

	write_plain(d, n);
	snprintf(name, sizeof(name), "v%d", _i);
	c = xz_of(variants[_i], name, &clen);
	ck_assert_int_eq(xz_decode(c, clen, n, &out, &olen), 0);
	ck_assert_uint_eq(olen, n);
	ck_assert_msg(!memcmp(out, d, n), "%s: decoded bytes differ",
		      variants[_i]);
	free(out);
	/* the bound: one byte less is refused */
	ck_assert_int_eq(xz_decode(c, clen, n - 1, &out, &olen), -EFBIG);
	ck_assert_ptr_null(out);
	free(c);
	free(d);
}
END_TEST

START_TEST(test_xz_small)
{
	static const char *const small[] = { "", "a", "abcabcabcabcabcabc" };
	size_t i, clen, olen;
	unsigned char *c, *out;

	for (i = 0; i < 3; i++) {
		write_plain((const unsigned char *)small[i], strlen(small[i]));
		c = xz_of("--check=crc64", "s", &clen);
		ck_assert_int_eq(xz_decode(c, clen, 100, &out, &olen), 0);
		ck_assert_uint_eq(olen, strlen(small[i]));
		ck_assert(olen == 0 || !memcmp(out, small[i], olen));
		free(out);
		free(c);
	}
}
END_TEST

START_TEST(test_xz_refused)
{
	unsigned char *d = make_data(20000), *c, *out;
	size_t clen, olen;

	write_plain(d, 20000);
	c = xz_of("--check=sha256", "sha", &clen);
	ck_assert_int_eq(xz_decode(c, clen, 1 << 20, &out, &olen), -EOPNOTSUPP);
	free(c);
	c = xz_of("--check=crc64 --x86 --lzma2", "bcj", &clen);
	ck_assert_int_eq(xz_decode(c, clen, 1 << 20, &out, &olen), -EOPNOTSUPP);
	free(c);
	/* not xz at all; the legacy .lzma format */
	ck_assert_int_eq(xz_decode("hello", 5, 100, &out, &olen), -EBADMSG);
	c = xz_of("--format=lzma", "lz", &clen);
	ck_assert_int_eq(xz_decode(c, clen, 1 << 20, &out, &olen), -EBADMSG);
	ck_assert_ptr_null(out);
	free(c);
	free(d);
}
END_TEST

/*
 * Damage: every truncation fails; every byte changed (each of two ways)
 * fails too, since the checks cover every byte of a CRC64 or CRC32 stream
 * (the data by the block check, headers, index and footer by their CRC32s).
 */
START_TEST(test_xz_damaged)
{
	static const char *const checks[] = { "--check=crc64 -6",
					      "--check=crc32 -0" };
	unsigned char *d = make_data(6000), *c, *out;
	size_t clen, olen, i, k;

	write_plain(d, 6000);
	for (k = 0; k < 2; k++) {
		c = xz_of(checks[k], "dmg", &clen);
		for (i = 0; i < clen; i++)
			ck_assert_msg(xz_decode(c, i, 1 << 20, &out, &olen) < 0,
				      "%s cut at %zu decoded", checks[k], i);
		for (i = 0; i < clen; i++) {
			unsigned char was = c[i];

			c[i] = was ^ 0x01;
			ck_assert_msg(xz_decode(c, clen, 1 << 20, &out,
						&olen) < 0,
				      "%s: byte %zu ^ 1 decoded", checks[k], i);
			ck_assert_ptr_null(out);
			c[i] = was ^ 0xA5;
			ck_assert_msg(xz_decode(c, clen, 1 << 20, &out,
						&olen) < 0,
				      "%s: byte %zu ^ 0xA5 decoded", checks[k],
				      i);
			c[i] = was;
		}
		ck_assert_int_eq(xz_decode(c, clen, 1 << 20, &out, &olen), 0);
		ck_assert_uint_eq(olen, 6000);
		free(out);
		free(c);
	}
	free(d);
}
END_TEST

/* Without a check, damage to the data may decode (to other bytes): it
 * must stay within the bound and never crash. */
START_TEST(test_xz_unchecked_damage)
{
	unsigned char *d = make_data(6000), *c, *out;
	size_t clen, olen, i;
	uint32_t r = 7;

	write_plain(d, 6000);
	c = xz_of("--check=none -6", "none", &clen);
	for (i = 0; i < 20000; i++) {
		size_t at;
		unsigned char was;

		r = r * 1103515245 + 12345;
		at = (r >> 8) % clen;
		was = c[at];
		c[at] = (unsigned char)(r >> 3);
		if (xz_decode(c, clen, 8000, &out, &olen) == 0) {
			ck_assert_uint_le(olen, 8000);
			free(out);
		}
		c[at] = was;
	}
	free(c);
	free(d);
}
END_TEST

/*
 * Found by fuzz_xz (UBSan: a null pointer plus 0): a block that decodes to
 * nothing before anything was decoded, whose check is still computed. Run
 * under UBSan by make test-asan; here, refused (its CRC64 does not match).
 */
START_TEST(test_xz_fuzz_empty_block)
{
	unsigned char *c, *out;
	size_t clen, olen;

	c = read_all(DATADIR "xz-empty-block.bin", &clen);
	ck_assert_int_eq(xz_decode(c, clen, 1 << 20, &out, &olen), -EBADMSG);
	ck_assert_ptr_null(out);
	free(c);
}
END_TEST

static Suite *xz_suite(void)
{
	Suite *s = suite_create("xz");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_xz_matches_xz, 0,
			    sizeof(variants) / sizeof(variants[0]));
	tcase_add_test(tc, test_xz_small);
	tcase_add_test(tc, test_xz_refused);
	tcase_add_test(tc, test_xz_damaged);
	tcase_add_test(tc, test_xz_unchecked_damage);
	tcase_add_test(tc, test_xz_fuzz_empty_block);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(xz, xz_suite, NULL)
