/* SPDX-License-Identifier: MIT */
/*
 * The field-offset layer (loader/kernel/fieldoff.c) on small BTF blobs
 * made here: members through anonymous structs and unions, a typedef'd
 * struct, bitfields refused (kflag and old-style INT), a pointer's size
 * from the BTF's long, missing structs and members named, the order
 * BTF file -> discovery.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "barebpf.h"
#include "fieldoff.h"
#include "bbtest.h"

struct blob {
	unsigned char types[1024];
	size_t tlen;
	char strs[512];
	size_t slen;
	unsigned char out[2048];
	size_t len;
};

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = b->slen;

	if (!*s)
		return 0;
	memcpy(b->strs + b->slen, s, strlen(s) + 1);
	b->slen += strlen(s) + 1;
	return off;
}

static void u32s(struct blob *b, uint32_t v)
{
	put32(b->types + b->tlen, v);
	b->tlen += 4;
}

static void type(struct blob *b, const char *name, int kind, int kflag,
		 int vlen, uint32_t size_type)
{
	u32s(b, str(b, name));
	u32s(b, (uint32_t)kind << 24 | (uint32_t)kflag << 31 | vlen);
	u32s(b, size_type);
}

static void member(struct blob *b, const char *name, uint32_t t,
		   uint32_t off)
{
	u32s(b, str(b, name));
	u32s(b, t);
	u32s(b, off);
}

static void finish(struct blob *b)
{
	memset(b->out, 0, 24);
	b->out[0] = 0x9f;
	b->out[1] = 0xeb;
	b->out[2] = 1;
	put32(b->out + 4, 24);
	put32(b->out + 8, 0);
	put32(b->out + 12, b->tlen);
	put32(b->out + 16, b->tlen);
	put32(b->out + 20, b->slen);
	memcpy(b->out + 24, b->types, b->tlen);
	memcpy(b->out + 24 + b->tlen, b->strs, b->slen);
	b->len = 24 + b->tlen + b->slen;
}

/*
 * 1 int (signed); 2 long int (long_size, unsigned here); 3 struct inner { int a, b; };
 * 4 struct outer (kflag) { int x; struct inner in; union { int u;
 *   struct { int y0, y; }; }; int bf:3; struct inner *p; inner_t t; };
 * 5 ptr -> 3; 6 the anonymous union; 7 the anonymous struct;
 * 8 typedef inner_t -> 3; 9 struct old { int o:3 as an INT of 3 bits };
 * 10 that INT
 */
static void make(struct blob *b, int long_size)
{
	memset(b, 0, sizeof(*b));
	b->slen = 1;
	type(b, "int", 1, 0, 0, 4);
	u32s(b, 1u << 24 | 32); /* BTF_INT_SIGNED */
	type(b, "long int", 1, 0, 0, long_size);
	u32s(b, long_size * 8);
	type(b, "inner", 4, 0, 2, 8);
	member(b, "a", 1, 0);
	member(b, "b", 1, 32);
	type(b, "outer", 4, 1, 6, 48);
	member(b, "x", 1, 0);
	member(b, "in", 3, 32);
	member(b, "", 6, 96);
	member(b, "bf", 1, 3u << 24 | 160);
	member(b, "p", 5, 192);
	member(b, "t", 8, 256);
	type(b, "", 2, 0, 0, 3);
	type(b, "", 5, 0, 2, 8);
	member(b, "u", 1, 0);
	member(b, "", 7, 0);
	type(b, "", 4, 0, 2, 8);
	member(b, "y0", 1, 0);
	member(b, "y", 1, 32);
	type(b, "inner_t", 8, 0, 0, 3);
	type(b, "old", 4, 0, 1, 4);
	member(b, "o", 10, 0);
	type(b, "int", 1, 0, 0, 4);
	u32s(b, 3);
	finish(b);
}

static void open_blob(struct blob *b, struct bb_btf *btf, int long_size)
{
	struct bb_err err = { "" };

	make(b, long_size);
	ck_assert_msg(btf_open(btf, b->out, b->len, "test.btf", &err) == 0,
		      "%s", err.msg);
	btf->ptr_size = fieldoff_btf_long_size(btf);
}

static void expect(const struct bb_btf *btf, const char *path, uint32_t off,
		   uint32_t size)
{
	struct bb_err err = { "" };
	struct bb_field f;

	ck_assert_msg(fieldoff_btf(btf, path, &f, &err) == 0, "%s: %s", path,
		      err.msg);
	ck_assert_msg(f.offset == off && f.size == size,
		      "%s: offset %u size %u, not %u %u", path, f.offset,
		      f.size, off, size);
}

static void refused(const struct bb_btf *btf, const char *path, int code,
		    const char *words)
{
	struct bb_err err = { "" };
	struct bb_field f;

	ck_assert_int_eq(fieldoff_btf(btf, path, &f, &err), code);
	ck_assert_msg(strstr(err.msg, words), "%s: '%s' lacks '%s'", path,
		      err.msg, words);
}

START_TEST(test_paths)
{
	struct blob b;
	struct bb_btf btf;

	open_blob(&b, &btf, 8);
	expect(&btf, "outer.x", 0, 4);
	expect(&btf, "outer.in", 4, 8);
	expect(&btf, "outer.in.b", 8, 4);
	/* through the anonymous union, then the anonymous struct in it */
	expect(&btf, "outer.u", 12, 4);
	expect(&btf, "outer.y", 16, 4);
	expect(&btf, "outer.p", 24, 8);
	/* a typedef'd struct is walked into */
	expect(&btf, "outer.t.b", 36, 4);
	expect(&btf, "inner.b", 4, 4);
	/* the sign of an integer member, for trace's sk->member */
	{
		struct bb_err err = { "" };
		struct bb_field f;

		ck_assert_int_eq(fieldoff_btf(&btf, "outer.t.b", &f, &err), 0);
		ck_assert_int_eq(f.is_signed, 1);
		ck_assert_int_eq(fieldoff_btf(&btf, "outer.in", &f, &err), 0);
		ck_assert_int_eq(f.is_signed, 0);
	}
	btf_close(&btf);
}
END_TEST

START_TEST(test_refusals)
{
	struct blob b;
	struct bb_btf btf;

	open_blob(&b, &btf, 8);
	refused(&btf, "outer.bf", -EINVAL, "field outer.bf is a bitfield");
	refused(&btf, "old.o", -EINVAL, "bitfield");
	refused(&btf, "outer.nope", -ENOENT, "outer has no member 'nope'");
	refused(&btf, "outer.in.zz", -ENOENT, "inner has no member 'zz'");
	refused(&btf, "nostruct.x", -ENOENT, "no struct or union 'nostruct'");
	refused(&btf, "outer.x.y", -EINVAL, "'x' is not a struct");
	/* the path does not follow pointers */
	refused(&btf, "outer.p.a", -EINVAL, "'p' is not a struct");
	refused(&btf, "outer", -EINVAL, "not struct.member");
	refused(&btf, "outer..x", -EINVAL, "not struct.member");
	refused(&btf, "outer.x.", -EINVAL, "not struct.member");
	refused(&btf, "", -EINVAL, "not struct.member");
	btf_close(&btf);
}
END_TEST

START_TEST(test_pointer_size_32bit)
{
	struct blob b;
	struct bb_btf btf;

	open_blob(&b, &btf, 4);
	ck_assert_uint_eq(btf.ptr_size, 4);
	expect(&btf, "outer.p", 24, 4);
	btf_close(&btf);
}
END_TEST

static int calls;
static int fake_discovery(void *ctx, const char *path, struct bb_field *out,
			  struct bb_err *err)
{
	calls++;
	ck_assert_str_eq(ctx, "ctx");
	if (!strcmp(path, "outer.gone"))
		return bb_fail(err, -ESRCH, "the count was never seen");
	out->offset = 44;
	out->size = 4;
	return 0;
}

static char *write_blob(const struct blob *b)
{
	static char path[] = "/tmp/bbtest-btf-XXXXXX";
	int fd;

	strcpy(path, "/tmp/bbtest-btf-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, b->out, b->len), (ssize_t)b->len);
	close(fd);
	return path;
}

START_TEST(test_file_then_discovery)
{
	struct bb_err err = { "" };
	struct bb_fieldoff fo;
	struct bb_field f;
	struct blob b;
	char *path;

	make(&b, 8);
	path = write_blob(&b);
	unsetenv("BAREBPF_FIELDS");
	fieldoff_init(&fo, path);
	fo.cache_file = NULL;
	ck_assert_int_eq(fieldoff_register(&fo, "outer.extra", fake_discovery,
					   "ctx"), 0);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.y", &f, &err), 0);
	ck_assert_int_eq(f.src, BB_FIELD_FILE_BTF);
	ck_assert_uint_eq(f.offset, 16);
	ck_assert_ptr_nonnull(strstr(f.how, path));
	/* not in the file, but a discovery is registered */
	calls = 0;
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 1);
	ck_assert_int_eq(f.src, BB_FIELD_DISCOVERED);
	ck_assert_uint_eq(f.offset, 44);
	/* neither: the BTF's own words */
	ck_assert_int_eq(fieldoff_find(&fo, "outer.none", &f, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "no member 'none'"));
	/* a bitfield is final, whatever is registered */
	ck_assert_int_eq(fieldoff_find(&fo, "outer.bf", &f, &err), -EINVAL);
	fieldoff_close(&fo);

	/* forced: the file is not read, the discovery answers or fails */
	setenv("BAREBPF_FIELDS", "discover", 1);
	fieldoff_init(&fo, path);
	fo.cache_file = NULL;
	fieldoff_register(&fo, "outer.y", fake_discovery, "ctx");
	fieldoff_register(&fo, "outer.gone", fake_discovery, "ctx");
	ck_assert_int_eq(fieldoff_have_btf(&fo), 0);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.y", &f, &err), 0);
	ck_assert_int_eq(f.src, BB_FIELD_DISCOVERED);
	ck_assert_uint_eq(f.offset, 44);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.gone", &f, &err), -ESRCH);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.x", &f, &err),
			 -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err.msg, "field outer.x"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--btf FILE"));
	fieldoff_close(&fo);

	/* forced for one field: the others still from the file */
	setenv("BAREBPF_FIELDS", "discover:outer.q,outer.y", 1);
	fieldoff_init(&fo, path);
	fo.cache_file = NULL;
	fieldoff_register(&fo, "outer.y", fake_discovery, "ctx");
	ck_assert_int_eq(fieldoff_find(&fo, "outer.y", &f, &err), 0);
	ck_assert_int_eq(f.src, BB_FIELD_DISCOVERED);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.x", &f, &err), 0);
	ck_assert_int_eq(f.src, BB_FIELD_FILE_BTF);
	fieldoff_close(&fo);
	unsetenv("BAREBPF_FIELDS");
	unlink(path);
}
END_TEST

START_TEST(test_bad_file)
{
	struct bb_err err = { "" };
	struct bb_fieldoff fo;
	struct bb_field f;
	struct blob b;
	char *path;

	fieldoff_init(&fo, "/nonexistent/vmlinux.btf");
	fieldoff_register(&fo, "outer.x", fake_discovery, "ctx");
	/* the user's file must be there: no silent fallback */
	ck_assert_int_eq(fieldoff_find(&fo, "outer.x", &f, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/vmlinux.btf"));
	fieldoff_close(&fo);

	make(&b, 8);
	b.out[0] = 0x7f; /* an ELF, say */
	path = write_blob(&b);
	fieldoff_init(&fo, path);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.x", &f, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not raw BTF"));
	fieldoff_close(&fo);
	unlink(path);
}
END_TEST

START_TEST(test_cache_parse)
{
	static const char text[] =
		"b1 rq.nr_running 4 4\n"
		"b2 rq.nr_running 8 4\n"
		"b2 rq.nr_running_x 12 4\n"
		"b2 sock.x 9 0\n"       /* size 0: refused */
		"b2 sock.y 9 4";          /* no newline: cut, refused */
	uint32_t off = 0, size = 0;

	ck_assert_int_eq(fieldcache_parse(text, "b2", "rq.nr_running", &off,
					  &size), 0);
	ck_assert_uint_eq(off, 8);
	ck_assert_uint_eq(size, 4);
	ck_assert_int_eq(fieldcache_parse(text, "b1", "rq.nr_running", &off,
					  &size), 0);
	ck_assert_uint_eq(off, 4);
	ck_assert_int_eq(fieldcache_parse(text, "b3", "rq.nr_running", &off,
					  &size), -ENOENT);
	ck_assert_int_eq(fieldcache_parse(text, "b2", "sock.x", &off, &size),
			 -ENOENT);
	ck_assert_int_eq(fieldcache_parse(text, "b2", "sock.y", &off, &size),
			 -ENOENT);
}
END_TEST

/* a discovery is run once a boot: the second lookup reads the cache;
 * forced, it runs again; a cache file others may write is ignored */
START_TEST(test_cache_file)
{
	char dir[] = "/tmp/bbtest-fcache-XXXXXX", file[64];
	struct bb_err err = { "" };
	struct bb_fieldoff fo;
	struct bb_field f;
	struct blob b;
	char *path;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/sub/fieldoff", dir);
	make(&b, 8);
	path = write_blob(&b);
	unsetenv("BAREBPF_FIELDS");
	fieldoff_init(&fo, path);
	fo.cache_file = file;
	fieldoff_register(&fo, "outer.extra", fake_discovery, "ctx");
	calls = 0;
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 1);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 1);
	ck_assert_uint_eq(f.offset, 44);
	ck_assert_uint_eq(f.size, 4);
	ck_assert_int_eq(f.src, BB_FIELD_DISCOVERED);
	ck_assert_ptr_nonnull(strstr(f.how, "earlier this boot"));
	chmod(file, 0666);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 2);
	chmod(file, 0600);
	setenv("BAREBPF_FIELDS", "discover:outer.extra", 1);
	fieldoff_close(&fo);
	fieldoff_init(&fo, path);
	fo.cache_file = file;
	fieldoff_register(&fo, "outer.extra", fake_discovery, "ctx");
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 3);
	ck_assert_int_eq(fieldoff_find(&fo, "outer.extra", &f, &err), 0);
	ck_assert_int_eq(calls, 4);
	unsetenv("BAREBPF_FIELDS");
	fieldoff_close(&fo);
	unlink(file);
	snprintf(file, sizeof(file), "%s/sub", dir);
	rmdir(file);
	rmdir(dir);
	unlink(path);
}
END_TEST

static Suite *fieldoff_suite(void)
{
	Suite *s = suite_create("fieldoff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_pointer_size_32bit);
	tcase_add_test(tc, test_file_then_discovery);
	tcase_add_test(tc, test_bad_file);
	tcase_add_test(tc, test_cache_parse);
	tcase_add_test(tc, test_cache_file);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(fieldoff, fieldoff_suite, NULL)
