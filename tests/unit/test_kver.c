/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"

START_TEST(test_release)
{
	uint32_t code = 0;

	ck_assert_int_eq(kver_parse_release("4.15.0-112-generic", &code), 0);
	ck_assert_uint_eq(code, 0x040f00);
	ck_assert_int_eq(kver_parse_release("4.15.11", &code), 0);
	ck_assert_uint_eq(code, 0x040f0b);
	ck_assert_int_eq(kver_parse_release("6.18.44-fc-v769", &code), 0);
	ck_assert_uint_eq(code, 0x06122c);
	ck_assert_int_eq(kver_parse_release("5.10.0-28-cloud-amd64", &code), 0);
	ck_assert_uint_eq(code, 0x050a00);
	ck_assert_int_eq(kver_parse_release("6.1-rc3", &code), 0);
	ck_assert_uint_eq(code, 0x060100);
	/* The sublevel is clamped like the kernel's KERNEL_VERSION(). */
	ck_assert_int_eq(kver_parse_release("4.9.337", &code), 0);
	ck_assert_uint_eq(code, 0x0409ff);
	ck_assert_uint_eq(KVER(4, 14, 300), 0x040eff);
}
END_TEST

START_TEST(test_release_bad)
{
	uint32_t code = 0x1234;

	ck_assert_int_eq(kver_parse_release("", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("linux", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("4", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("4.", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("0.1.2", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("4.256.1", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_release("99999999999.1", &code), -EINVAL);
	ck_assert_uint_eq(code, 0x1234); /* untouched on failure */
}
END_TEST

START_TEST(test_ubuntu_signature)
{
	uint32_t code = 0;

	ck_assert_int_eq(kver_parse_ubuntu_signature(
				 "Ubuntu 4.15.0-112.113-generic 4.15.18\n",
				 &code), 0);
	ck_assert_uint_eq(code, 0x040f12);
	ck_assert_int_eq(kver_parse_ubuntu_signature(
				 "Ubuntu 5.4.0-1029.30-aws 5.4.65", &code), 0);
	ck_assert_uint_eq(code, 0x050441);
	/* The upstream version must be the whole last token. */
	ck_assert_int_eq(kver_parse_ubuntu_signature(
				 "Ubuntu 4.15.0-112.113-generic", &code),
			 -EINVAL);
	ck_assert_int_eq(kver_parse_ubuntu_signature("4.15.18", &code),
			 -EINVAL);
	ck_assert_int_eq(kver_parse_ubuntu_signature("", &code), -EINVAL);
}
END_TEST

START_TEST(test_debian_uname_v)
{
	uint32_t code = 0;

	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#1 SMP Debian 4.19.98-1 (2020-01-26)", &code),
			 0);
	ck_assert_uint_eq(code, 0x041362);
	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 "
				 "(2024-02-01)", &code), 0);
	ck_assert_uint_eq(code, 0x06014c);
	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#1 SMP Debian 4.9.210-1+deb9u1 (2020-01-20)",
				 &code), 0);
	ck_assert_uint_eq(code, 0x0409d2);
	/* Old 4.9 stable updates overflow the sublevel. */
	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#1 SMP Debian 4.9.337-1 (2023-01-01)", &code),
			 0);
	ck_assert_uint_eq(code, 0x0409ff);
	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#1 SMP PREEMPT_DYNAMIC @0", &code), -EINVAL);
	ck_assert_int_eq(kver_parse_debian_uname_v(
				 "#113-Ubuntu SMP Thu Jul 9 23:41:39 UTC 2020",
				 &code), -EINVAL);
	ck_assert_int_eq(kver_parse_debian_uname_v("Debian (none)", &code),
			 -EINVAL);
}
END_TEST

/*
 * A minimal vDSO-like image: ELF header, one PT_NOTE program header, and
 * a note segment holding a GNU build-id note, then the "Linux" note.
 */
struct img {
	unsigned char b[512];
	size_t len;
};

static void put16(unsigned char *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

static size_t put_note(unsigned char *p, const char *name, uint32_t type,
		       const void *desc, uint32_t descsz)
{
	uint32_t namesz = strlen(name) + 1;
	size_t off = 12;

	put32(p, namesz);
	put32(p + 4, descsz);
	put32(p + 8, type);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memcpy(p + off, desc, descsz);
	off += (descsz + 3) & ~3u;
	return off;
}

static void build_img(struct img *im, uint32_t version)
{
	unsigned char *b = im->b, *ph = b + 64, buildid[20];
	size_t notes = 64 + 56, n = 0;

	memset(im, 0, sizeof(*im));
	memcpy(b, "\177ELF", 4);
	b[4] = 2; /* ELFCLASS64 */
	b[5] = 1; /* little endian */
	b[6] = 1;
	put16(b + 16, 3);  /* ET_DYN */
	put16(b + 18, 62); /* EM_X86_64 */
	put32(b + 20, 1);
	put64(b + 32, 64); /* e_phoff */
	put16(b + 52, 64); /* e_ehsize */
	put16(b + 54, 56); /* e_phentsize */
	put16(b + 56, 1);  /* e_phnum */

	memset(buildid, 0xab, sizeof(buildid));
	n += put_note(b + notes + n, "GNU", 3, buildid, sizeof(buildid));
	n += put_note(b + notes + n, "Linux", 0, &version, 4);

	put32(ph, 4);                  /* PT_NOTE */
	put32(ph + 4, 4);              /* PF_R */
	put64(ph + 8, notes);          /* p_offset */
	put64(ph + 16, notes);         /* p_vaddr */
	put64(ph + 24, notes);         /* p_paddr */
	put64(ph + 32, n);             /* p_filesz */
	put64(ph + 40, n);             /* p_memsz */
	put64(ph + 48, 4);             /* p_align */
	im->len = notes + n;
}

START_TEST(test_vdso_note)
{
	struct img im;
	uint32_t code = 0;

	build_img(&im, 0x040f12);
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), 0);
	ck_assert_uint_eq(code, 0x040f12);
}
END_TEST

START_TEST(test_vdso_note_truncated)
{
	struct img im;
	uint32_t code = 0x1234;
	size_t cut;

	build_img(&im, 0x040f12);
	/* Every truncation of the image is refused, never read past. */
	for (cut = 0; cut < im.len; cut++)
		ck_assert_int_lt(kver_parse_vdso_note(im.b, cut, &code), 0);
	ck_assert_uint_eq(code, 0x1234);
	ck_assert_int_eq(kver_parse_vdso_note(NULL, 100, &code), -EINVAL);
}
END_TEST

START_TEST(test_vdso_note_corrupt)
{
	struct img im;
	uint32_t code = 0x1234;

	build_img(&im, 0x040f12);
	im.b[0] = 0; /* magic */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -EINVAL);

	build_img(&im, 0x040f12);
	put16(im.b + 56, 0xffff); /* e_phnum beyond the image */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -EINVAL);

	build_img(&im, 0x040f12);
	put64(im.b + 64 + 32, 0xffffffffffffff00ULL); /* p_filesz wraps */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -EINVAL);

	build_img(&im, 0x040f12);
	put32(im.b + 120, 0xfffffffd); /* namesz of the first note */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -EINVAL);

	build_img(&im, 0x040f12);
	put32(im.b + 120 + 12 + 4 + 20 + 8, 1); /* "Linux" note type 1 */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -ENOENT);

	build_img(&im, 0x040f12);
	put32(im.b + 64, 1); /* PT_LOAD instead of PT_NOTE */
	ck_assert_int_eq(kver_parse_vdso_note(im.b, im.len, &code), -ENOENT);
	ck_assert_uint_eq(code, 0x1234);
}
END_TEST

START_TEST(test_detect_override_and_env)
{
	char src[64];
	uint32_t code = 0;
	struct bb_err err = { "" };

	setenv("BAREBPF_KERN_VERSION", "4.15.18", 1);
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err), 0);
	ck_assert_uint_eq(code, 0x040f12);
	ck_assert_str_eq(src, "$BAREBPF_KERN_VERSION");

	setenv("BAREBPF_KERN_VERSION", "0x040f12", 1);
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err), 0);
	ck_assert_uint_eq(code, 0x040f12);

	setenv("BAREBPF_KERN_VERSION", "265999", 1);
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err), 0);
	ck_assert_uint_eq(code, 265999);

	/* The option wins over the environment. */
	ck_assert_int_eq(kver_detect("4.9.337", &code, src, sizeof(src), &err),
			 0);
	ck_assert_uint_eq(code, 0x0409ff);
	ck_assert_str_eq(src, "override");

	setenv("BAREBPF_KERN_VERSION", "4.15.0-112-generic", 1);
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "BAREBPF_KERN_VERSION"));
	setenv("BAREBPF_KERN_VERSION", "0x1000000", 1);
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err),
			 -EINVAL);
	ck_assert_int_eq(kver_detect("banana", &code, src, sizeof(src), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "banana"));
	unsetenv("BAREBPF_KERN_VERSION");
}
END_TEST

/* On this machine the vDSO note is there: it must win over uname -r. */
START_TEST(test_detect_running)
{
	char src[64];
	uint32_t code = 0;
	struct bb_err err = { "" };

	unsetenv("BAREBPF_KERN_VERSION");
	ck_assert_int_eq(kver_detect(NULL, &code, src, sizeof(src), &err), 0);
	ck_assert_uint_gt(code, KVER(4, 0, 0));
	ck_assert_str_eq(src, "vDSO note");
}
END_TEST

static Suite *kver_suite(void)
{
	Suite *s = suite_create("kver");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_release);
	tcase_add_test(tc, test_release_bad);
	tcase_add_test(tc, test_ubuntu_signature);
	tcase_add_test(tc, test_debian_uname_v);
	tcase_add_test(tc, test_vdso_note);
	tcase_add_test(tc, test_vdso_note_truncated);
	tcase_add_test(tc, test_vdso_note_corrupt);
	tcase_add_test(tc, test_detect_override_and_env);
	tcase_add_test(tc, test_detect_running);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(kver, kver_suite, NULL)
