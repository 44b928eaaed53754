/* SPDX-License-Identifier: MIT */
/*
 * What a uprobe needs before the kernel: a function's file offset by name
 * (elfsyms_lookup) on real files built here by the compilers at hand
 * (checked against libelf's reading through the sections, a different
 * route than the segments the library takes), ld.so.cache images of each
 * format, and the LIB:FUNC forms of uprobe_resolve.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "user.h"
#include "probe.h"

static const char src[] =
	"#define N __attribute__((noinline, used))\n"
	"N int ufunc_a(int x) { return x + 1; }\n"
	"N int ufunc_b(int x) { return x * 3 + ufunc_a(x); }\n"
	"int ufunc_alias(int) __attribute__((alias(\"ufunc_b\")));\n"
	"N static int ufunc_static(int x) { return x - 1; }\n"
	"int data_not_func = 3;\n"
	"int _start(void) { return ufunc_b(data_not_func) + "
	"ufunc_static(2); }\n";

static char dir[64];

/* Build src with cc and flags into dir/name; 0, or -1 if cc cannot. */
static int build(const char *cc, const char *flags, const char *name)
{
	char cmd[1024], path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/u.c", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s %s -O1 -nostdlib -o %s/%s %s "
		 ">/dev/null 2>&1", cc, flags, dir, name, path);
	return system(cmd) == 0 ? 0 : -1;
}

/* The offset through the sections, by libelf: value - sh_addr + sh_offset
 * (ARM: Thumb's bit 0 off). */
static uint64_t libelf_offset(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	uint64_t found = 0;

	ck_assert_int_ge(fd, 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(gelf_getehdr(e, &ehdr));
	while (!found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			GElf_Shdr tsh;
			uint64_t v;

			gelf_getsym(d, (int)i, &sym);
			if (strcmp(elf_strptr(e, sh.sh_link, sym.st_name),
				   name))
				continue;
			gelf_getshdr(elf_getscn(e, sym.st_shndx), &tsh);
			v = sym.st_value;
			if (ehdr.e_machine == EM_ARM)
				v &= ~1ULL;
			found = v - tsh.sh_addr + tsh.sh_offset;
			break;
		}
	}
	elf_end(e);
	close(fd);
	ck_assert_msg(found, "libelf: no %s in %s", name, path);
	return found;
}

struct hits {
	char names[8][32];
	uint64_t offs[8];
	int n;
};

static int collect(void *ctx, const char *name, uint64_t foff)
{
	struct hits *h = ctx;

	ck_assert_int_lt(h->n, 8);
	snprintf(h->names[h->n], sizeof(h->names[0]), "%s", name);
	h->offs[h->n++] = foff;
	return 0;
}

static uint64_t offset_of(const struct hits *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->names[i], name))
			return h->offs[i];
	ck_abort_msg("%s not reported", name);
	return 0;
}

static void check_file(const char *name)
{
	char path[128];
	struct hits h = { .n = 0 };
	uint64_t b;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(elfsyms_lookup(path, "ufunc_*", collect, &h), 4);
	b = libelf_offset(path, "ufunc_b");
	ck_assert_uint_eq(offset_of(&h, "ufunc_b"), b);
	/* an alias: the same code, not lost to the other name */
	ck_assert_uint_eq(offset_of(&h, "ufunc_alias"), b);
	ck_assert_uint_eq(offset_of(&h, "ufunc_a"),
			  libelf_offset(path, "ufunc_a"));
	ck_assert_uint_eq(offset_of(&h, "ufunc_static"),
			  libelf_offset(path, "ufunc_static"));
	/* data is not a function */
	h.n = 0;
	ck_assert_int_eq(elfsyms_lookup(path, "data_not_func", collect, &h),
			 0);
	ck_assert_int_eq(elfsyms_lookup(path, "nosuch", collect, &h), 0);
}

START_TEST(test_lookup_native)
{
	ck_assert_int_eq(build("cc", "-static -fno-pie -no-pie", "exec"), 0);
	check_file("exec");
	ck_assert_int_eq(build("cc", "-shared -fPIC", "lib.so"), 0);
	check_file("lib.so");
}
END_TEST

/* ELF32; ARM's Thumb functions (bit 0 set in the symbol) are refused */
START_TEST(test_lookup_elf32)
{
	int done = 0;

	if (build("arm-linux-gnueabihf-gcc", "-static -marm", "arm") == 0) {
		check_file("arm");
		done++;
	}
	/* Thumb: refused, never offered at an offset the kernel would
	 * decode as ARM code */
	if (build("arm-linux-gnueabihf-gcc", "-static -mthumb", "thumb") ==
	    0) {
		char path[128];
		struct hits h = { .n = 0 };

		snprintf(path, sizeof(path), "%s/thumb", dir);
		ck_assert_int_eq(elfsyms_lookup(path, "ufunc_*", collect, &h),
				 -EOPNOTSUPP);
		ck_assert_int_eq(h.n, 0);
	}
	if (build("cc", "-m32 -static -fno-pie -no-pie", "i386") == 0) {
		check_file("i386");
		done++;
	}
	if (!done)
		bbtest_skip("no compiler for 32-bit ELF here "
			    "(arm-linux-gnueabihf-gcc, cc -m32)");
}
END_TEST

/* Where sym's st_name lies in the file (its .symtab entry), by libelf. */
static long st_name_at(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	long at = -1;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (at < 0 && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			gelf_getsym(d, (int)i, &sym);
			if (!strcmp(elf_strptr(e, sh.sh_link, sym.st_name),
				    name))
				at = (long)(sh.sh_offset + i * sh.sh_entsize);
		}
	}
	elf_end(e);
	close(fd);
	ck_assert_int_ge(at, 0);
	return at;
}

static int no_empty_name(void *ctx, const char *name, uint64_t foff)
{
	(void)foff;
	ck_assert_msg(name[0], "an empty name reported");
	(*(int *)ctx)++;
	return 0;
}

/* A function whose name is the string table's empty first entry is no
 * function to probe (found by fuzz_elflookup: "*" matched it) */
START_TEST(test_lookup_empty_name)
{
	char path[128];
	uint32_t zero = 0;
	int fd, n = 0;

	ck_assert_int_eq(build("cc", "-static -fno-pie -no-pie", "exec"), 0);
	snprintf(path, sizeof(path), "%s/exec", dir);
	fd = open(path, O_RDWR);
	ck_assert_int_eq(pwrite(fd, &zero, 4, st_name_at(path, "ufunc_a")), 4);
	close(fd);
	ck_assert_int_ge(elfsyms_lookup(path, "*", no_empty_name, &n), 0);
	ck_assert_int_eq(n, 4); /* ufunc_b, its alias, ufunc_static, _start */
}
END_TEST

START_TEST(test_lookup_not_elf)
{
	char path[128];
	struct hits h = { .n = 0 };
	FILE *f;

	build("cc", "-static", "exec");
	snprintf(path, sizeof(path), "%s/text", dir);
	f = fopen(path, "w");
	fputs("not an ELF file at all, but long enough to read a header "
	      "from, and then some", f);
	fclose(f);
	ck_assert_int_eq(elfsyms_lookup(path, "*", collect, &h), -ENOEXEC);
	ck_assert_int_eq(elfsyms_lookup("/nonexistent", "*", collect, &h),
			 -ENOENT);
	ck_assert_int_eq(elfsyms_lookup("/", "*", collect, &h), -ENOEXEC);
}
END_TEST

/*
 * MiniDebugInfo (as Fedora ships): a program with no .symtab, whose static
 * functions and main are only in .gnu_debugdata's compressed .symtab, is
 * searched there too, as bcc does. The offsets are those of the
 * unstripped program (stripping moves no code).
 */
START_TEST(test_lookup_minidebuginfo)
{
	static const char *const files[] = { "mdi-crc64", "mdi-crc32",
					     "mdi-none" };
	static const char *const names[] = { "mdi_local", "mdi_global",
					     "main" };
	struct hits full = { .n = 0 }, h = { .n = 0 };
	size_t i, j;

	/* mdi_local, mdi_global and main: nothing else starts so */
	ck_assert_int_eq(elfsyms_lookup(mdi_path("full"), "m[ad]*", collect,
					&full), 3);
	/* stripped, nothing added: none of them */
	ck_assert_int_eq(elfsyms_lookup(mdi_path("bare"), "m[ad]*", collect,
					&h), 0);
	for (i = 0; i < 3; i++) {
		h.n = 0;
		ck_assert_int_eq(elfsyms_lookup(mdi_path(files[i]), "m[ad]*",
						collect, &h), 3);
		for (j = 0; j < 3; j++)
			ck_assert_uint_eq(offset_of(&h, names[j]),
					  offset_of(&full, names[j]));
	}
}
END_TEST

/* A damaged .gnu_debugdata (its check fails, or not xz at all) adds no
 * name and is no error: the rest of the file still counts. */
START_TEST(test_lookup_minidebuginfo_damaged)
{
	struct hits h = { .n = 0 };
	char *buf;
	size_t plen, at;
	int len = mdi_image(&buf, &at, &plen), fd;

	fd = memfd_create("mdi", MFD_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	buf[at + plen / 2] ^= 0x10;
	ck_assert_int_eq(pwrite(fd, buf, len, 0), len);
	ck_assert_int_eq(elfsyms_lookup_fd(fd, "mdi_*", collect, &h), 0);
	memset(buf + at, 'x', plen);
	ck_assert_int_eq(pwrite(fd, buf, len, 0), len);
	ck_assert_int_eq(elfsyms_lookup_fd(fd, "mdi_*", collect, &h), 0);
	ck_assert_int_eq(h.n, 0);
	close(fd);
	free(buf);
}
END_TEST

START_TEST(test_resolve_forms)
{
	char bin[128], path[4096];
	struct bb_err err = { "" };
	uint64_t off, b;

	ck_assert_int_eq(build("cc", "-static -fno-pie -no-pie", "exec"), 0);
	snprintf(bin, sizeof(bin), "%s/exec:ufunc_b", dir);
	b = libelf_offset(strtok(strcpy(path, bin), ":"), "ufunc_b");
	ck_assert_int_eq(uprobe_resolve(bin, 0, path, sizeof(path), &off,
					&err), 0);
	ck_assert_uint_eq(off, b);
	strcat(bin, "+0x4");
	ck_assert_int_eq(uprobe_resolve(bin, 0, path, sizeof(path), &off,
					&err), 0);
	ck_assert_uint_eq(off, b + 4);
	snprintf(bin, sizeof(bin), "%s/exec:0x1234", dir);
	ck_assert_int_eq(uprobe_resolve(bin, 0, path, sizeof(path), &off,
					&err), 0);
	ck_assert_uint_eq(off, 0x1234);
	snprintf(bin, sizeof(bin), "%s/exec:nosuch", dir);
	ck_assert_int_eq(uprobe_resolve(bin, 0, path, sizeof(path), &off,
					&err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "no function 'nosuch'"), "%s", err.msg);
	ck_assert_int_eq(uprobe_resolve("nosuchlibrary_x:f", 0, path,
					sizeof(path), &off, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "cannot find library or program "
			     "'nosuchlibrary_x'"), "%s", err.msg);
	ck_assert_int_eq(uprobe_resolve("nocolon", 0, path, sizeof(path),
					&off, &err), -EINVAL);
}
END_TEST

/* c: the libc this process runs with (bcc's rule: libc.so*) */
START_TEST(test_resolve_libc)
{
	char path[4096];
	const char *base;

	ck_assert_int_eq(ulib_resolve("c", 0, path, sizeof(path)), 0);
	base = strrchr(path, '/');
	ck_assert_msg(base && !strncmp(base, "/libc.so", 8), "%s", path);
	ck_assert_int_eq(access(path, R_OK), 0);
	/* the one mapped by a process, seen through its root */
	ck_assert_int_eq(ulib_resolve("c", getpid(), path, sizeof(path)), 0);
	ck_assert_msg(!strncmp(path, "/proc/", 6) && strstr(path, "/libc"),
		      "%s", path);
	ck_assert_int_eq(ulib_resolve("/a/path", 0, path, sizeof(path)), 0);
	ck_assert_str_eq(path, "/a/path");
}
END_TEST

/* ---- ld.so.cache images ---- */

#if defined(__x86_64__)
#define NATIVE 0x0303
#define FOREIGN 0x0003 /* i386 */
#elif defined(__aarch64__)
#define NATIVE 0x0a03
#define FOREIGN 0x0303
#else
#define NATIVE 0x0903
#define FOREIGN 0x0a03
#endif

struct img {
	unsigned char b[4096];
	size_t n;
};

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The new format at img->n: entries (flags, key, value) in turn, strings
 * after; offsets from the header's start. */
static void new_format(struct img *im, const uint32_t *flags,
		       const char *const *kv, int n)
{
	size_t h = im->n, strs = h + 48 + 24 * n, s = strs;
	int i;

	memcpy(im->b + h, "glibc-ld.so.cache1.1", 20);
	put32(im->b + h + 20, n);
	for (i = 0; i < n; i++) {
		unsigned char *e = im->b + h + 48 + 24 * i;

		put32(e, flags[i]);
		put32(e + 4, (uint32_t)(s - h));
		strcpy((char *)im->b + s, kv[2 * i]);
		s += strlen(kv[2 * i]) + 1;
		put32(e + 8, (uint32_t)(s - h));
		strcpy((char *)im->b + s, kv[2 * i + 1]);
		s += strlen(kv[2 * i + 1]) + 1;
	}
	put32(im->b + h + 24, (uint32_t)(s - strs));
	im->n = s;
}

/* The old format: 12-byte entries, offsets from the strings' start. */
static void old_format(struct img *im, const uint32_t *flags,
		       const char *const *kv, int n, size_t *strs_end)
{
	size_t strs = 16 + 12 * n, s = strs;
	int i;

	memcpy(im->b, "ld.so-1.7.0", 11);
	put32(im->b + 12, n);
	for (i = 0; i < n; i++) {
		unsigned char *e = im->b + 16 + 12 * i;

		put32(e, flags[i]);
		put32(e + 4, (uint32_t)(s - strs));
		strcpy((char *)im->b + s, kv[2 * i]);
		s += strlen(kv[2 * i]) + 1;
		put32(e + 8, (uint32_t)(s - strs));
		strcpy((char *)im->b + s, kv[2 * i + 1]);
		s += strlen(kv[2 * i + 1]) + 1;
	}
	*strs_end = s;
	im->n = s;
}

static const uint32_t flags3[] = { FOREIGN, NATIVE, NATIVE };
static const char *const kv3[] = {
	"libc.so.6", "/lib32/libc.so.6",
	"libcrypt.so.1", "/lib/x/libcrypt.so.1",
	"libc.so.6", "/lib/x/libc.so.6",
};

static void check_find(const struct img *im, const char *prefix,
		       const char *want)
{
	char out[256];

	ck_assert_int_eq(ldcache_find(im->b, im->n, prefix, out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, want);
}

START_TEST(test_ldcache_formats)
{
	struct img im = { { 0 }, 0 };
	char out[256];
	size_t end;

	/* new only (glibc 2.32+): the foreign libc is skipped */
	new_format(&im, flags3, kv3, 3);
	check_find(&im, "libc.so", "/lib/x/libc.so.6");
	check_find(&im, "libcrypt.so", "/lib/x/libcrypt.so.1");
	ck_assert_int_eq(ldcache_find(im.b, im.n, "libz.so", out,
				      sizeof(out)), -ENOENT);
	ck_assert_int_eq(ldcache_find(im.b, im.n, "libc.so", out, 10),
			 -ENAMETOOLONG);
	/* old only */
	memset(&im, 0, sizeof(im));
	old_format(&im, flags3, kv3, 3, &end);
	check_find(&im, "libc.so", "/lib/x/libc.so.6");
	/* old then new (glibc before 2.32): the new part is read */
	im.n = (end + 7) & ~(size_t)7;
	new_format(&im, flags3 + 1, kv3 + 2, 2);
	check_find(&im, "libc.so", "/lib/x/libc.so.6");
	check_find(&im, "libcrypt.so", "/lib/x/libcrypt.so.1");
}
END_TEST

START_TEST(test_ldcache_damaged)
{
	struct img im = { { 0 }, 0 };
	char out[256];
	size_t i, n;

	ck_assert_int_eq(ldcache_find("", 0, "libc.so", out, sizeof(out)),
			 -EBADMSG);
	ck_assert_int_eq(ldcache_find("hello", 5, "libc.so", out,
				      sizeof(out)), -EBADMSG);
	new_format(&im, flags3, kv3, 3);
	n = im.n;
	/* every truncation: an error or the right answer, never a read
	 * past the end (ASan runs this too) */
	for (i = 0; i < n; i++) {
		int ret = ldcache_find(im.b, i, "libc.so", out, sizeof(out));

		ck_assert_msg(ret == -EBADMSG || ret == -ENOENT ||
			      (ret == 0 && !strcmp(out, "/lib/x/libc.so.6")),
			      "cut at %zu: %d", i, ret);
	}
	/* a count beyond the file */
	put32(im.b + 20, 0x7fffffff);
	ck_assert_int_eq(ldcache_find(im.b, n, "libc.so", out, sizeof(out)),
			 -EBADMSG);
	put32(im.b + 20, 3);
	/* offsets past the end, and a string without its NUL */
	put32(im.b + 48 + 24 + 8, 0xfffffff0);
	put32(im.b + 48 + 48 + 8, (uint32_t)n - 2);
	im.b[n - 1] = 'x';
	ck_assert_int_eq(ldcache_find(im.b, n, "libc.so", out, sizeof(out)),
			 -ENOENT);
}
END_TEST

/* This host's own cache, if it has one: libc is in it. */
START_TEST(test_ldcache_host)
{
	char out[4096];
	void *buf;
	FILE *f = fopen("/etc/ld.so.cache", "r");
	long n;

	if (!f)
		bbtest_skip("no /etc/ld.so.cache here");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	ck_assert_int_eq(fread(buf, 1, n, f), n);
	fclose(f);
	ck_assert_int_eq(ldcache_find(buf, n, "libc.so", out, sizeof(out)),
			 0);
	ck_assert_msg(strstr(out, "/libc.so"), "%s", out);
	free(buf);
}
END_TEST

/* In the parent, before the tests fork: they share the directory. */
static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/bb-uprobe-XXXXXX");
	if (!mkdtemp(dir))
		dir[0] = 0;
}

static void cleanup(void)
{
	char cmd[128];

	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd)) {
		}
	}
}

static Suite *uprobe_suite(void)
{
	Suite *s = suite_create("uprobe");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, setup, cleanup);
	tcase_add_test(tc, test_lookup_native);
	tcase_add_test(tc, test_lookup_elf32);
	tcase_add_test(tc, test_lookup_not_elf);
	tcase_add_test(tc, test_lookup_empty_name);
	tcase_add_test(tc, test_resolve_forms);
	tcase_add_test(tc, test_resolve_libc);
	tcase_add_test(tc, test_ldcache_formats);
	tcase_add_test(tc, test_ldcache_damaged);
	tcase_add_test(tc, test_ldcache_host);
	suite_add_tcase(s, tc);
	tc = tcase_create("minidebuginfo");
	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, mdi_build, mdi_clean);
	tcase_add_test(tc, test_lookup_minidebuginfo);
	tcase_add_test(tc, test_lookup_minidebuginfo_damaged);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(uprobe, uprobe_suite, NULL)
