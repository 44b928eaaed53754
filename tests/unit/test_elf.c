/* SPDX-License-Identifier: MIT */
/*
 * The ELF reader: what it reports must equal what libelf reports for the
 * same file, and no damaged file may crash or hang it.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bbtest.h"
#include "elfread.h"
#include "bb_elf.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"

static const char *const good_objs[] = {
	"good_tp.bpf.o",
	"good_kprobe.bpf.o",
	"bad_global.bpf.o", /* well-formed ELF, refused later by obj.c */
	"bad_call.bpf.o",
};
#define NGOOD (int)(sizeof(good_objs) / sizeof(good_objs[0]))

static unsigned char *slurp(const char *name, size_t *len)
{
	char path[256];
	unsigned char *buf;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), OBJDIR "%s", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	*len = st.st_size;
	buf = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void wr16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void wr32(unsigned char *p, uint32_t v)
{
	wr16(p, v);
	wr16(p + 2, v >> 16);
}

static void wr64(unsigned char *p, uint64_t v)
{
	wr32(p, v);
	wr32(p + 4, v >> 32);
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The section header of section i inside buf. */
static unsigned char *shdr(unsigned char *buf, size_t i)
{
	return buf + rd64(buf + 40) + i * 64;
}

/* Open a modified copy and expect an error mentioning `want`. */
static void expect_elf_error(const unsigned char *buf, size_t len,
			     const char *want)
{
	struct elf_file ef;
	struct bb_err err = { "" };
	int ret = elf_open(&ef, buf, len, "t.o", &err);

	ck_assert_msg(ret < 0, "elf_open succeeded, expected '%s'", want);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(err.msg, want), "error '%s' lacks '%s'", err.msg,
		      want);
	ck_assert_msg(strstr(err.msg, "t.o"), "error '%s' lacks the name",
		      err.msg);
}

START_TEST(test_matches_libelf)
{
	const char *name = good_objs[_i];
	struct elf_file ef;
	struct bb_err err = { "" };
	size_t len, shstrndx, i, j, nsyms_seen = 0;
	unsigned char *buf = slurp(name, &len);
	Elf *e;
	Elf_Scn *scn = NULL;

	ck_assert_msg(elf_open(&ef, buf, len, name, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_ne(elf_version(EV_CURRENT), EV_NONE);
	e = elf_memory((char *)buf, len);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(elf_getshdrstrndx(e, &shstrndx), 0);
	ck_assert_int_eq(elf_getshdrnum(e, &i), 0);
	ck_assert_uint_eq(i, ef.nsecs);

	while ((scn = elf_nextscn(e, scn))) {
		size_t idx = elf_ndxscn(scn);
		const struct elf_sec *sec = &ef.secs[idx];
		GElf_Shdr sh;
		Elf_Data *d;

		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		ck_assert_str_eq(sec->name,
				 elf_strptr(e, shstrndx, sh.sh_name));
		ck_assert_uint_eq(sec->type, sh.sh_type);
		ck_assert_uint_eq(sec->flags, sh.sh_flags);
		ck_assert_uint_eq(sec->size, sh.sh_size);
		ck_assert_uint_eq(sec->offset, sh.sh_offset);
		ck_assert_uint_eq(sec->link, sh.sh_link);
		ck_assert_uint_eq(sec->info, sh.sh_info);
		ck_assert_uint_eq(sec->entsize, sh.sh_entsize);

		if (sh.sh_type == SHT_SYMTAB) {
			ck_assert_uint_eq(idx, ef.symtab);
			d = elf_getdata(scn, NULL);
			ck_assert_ptr_nonnull(d);
			ck_assert_uint_eq(ef.nsyms, sh.sh_size / sh.sh_entsize);
			for (j = 0; j < ef.nsyms; j++) {
				GElf_Sym s;
				const struct elf_sym *m = &ef.syms[j];

				ck_assert_ptr_nonnull(gelf_getsym(d, j, &s));
				ck_assert_str_eq(m->name,
						 elf_strptr(e, sh.sh_link,
							    s.st_name));
				ck_assert_uint_eq(m->value, s.st_value);
				ck_assert_uint_eq(m->size, s.st_size);
				ck_assert_uint_eq(m->shndx, s.st_shndx);
				ck_assert_uint_eq(m->bind,
						  GELF_ST_BIND(s.st_info));
				ck_assert_uint_eq(m->type,
						  GELF_ST_TYPE(s.st_info));
				nsyms_seen++;
			}
		}
		if (sh.sh_type == SHT_REL) {
			d = elf_getdata(scn, NULL);
			ck_assert_ptr_nonnull(d);
			ck_assert_uint_eq(elf_nrels(sec),
					  sh.sh_size / sh.sh_entsize);
			for (j = 0; j < elf_nrels(sec); j++) {
				GElf_Rel r;
				struct elf_rel mine;

				ck_assert_ptr_nonnull(gelf_getrel(d, j, &r));
				elf_rel_at(sec, j, &mine);
				ck_assert_uint_eq(mine.offset, r.r_offset);
				ck_assert_uint_eq(mine.sym,
						  GELF_R_SYM(r.r_info));
				ck_assert_uint_eq(mine.type,
						  GELF_R_TYPE(r.r_info));
			}
		}
	}
	ck_assert_uint_gt(nsyms_seen, 0);
	elf_end(e);
	elf_close(&ef);
	free(buf);
}
END_TEST

START_TEST(test_find_sec)
{
	struct elf_file ef;
	struct bb_err err;
	size_t len;
	unsigned char *buf = slurp("good_tp.bpf.o", &len);
	int i;

	ck_assert_int_eq(elf_open(&ef, buf, len, "good_tp", &err), 0);
	i = elf_find_sec(&ef, "maps");
	ck_assert_int_gt(i, 0);
	ck_assert_str_eq(ef.secs[i].name, "maps");
	ck_assert_uint_eq(ef.secs[i].size, 3 * sizeof(struct bb_map_def));
	ck_assert_int_gt(elf_find_sec(&ef, "tracepoint/sched/sched_switch"), 0);
	ck_assert_int_eq(elf_find_sec(&ef, "nope"), -1);
	elf_close(&ef);
	free(buf);
}
END_TEST

START_TEST(test_header_errors)
{
	size_t len;
	unsigned char *orig = slurp("good_tp.bpf.o", &len);
	unsigned char *b = malloc(len);

#define FRESH() memcpy(b, orig, len)
	FRESH();
	b[1] = 'X';
	expect_elf_error(b, len, "bad magic");
	FRESH();
	b[4] = 1; /* ELFCLASS32 */
	expect_elf_error(b, len, "64-bit");
	FRESH();
	b[5] = 2; /* ELFDATA2MSB */
	expect_elf_error(b, len, "big-endian");
	FRESH();
	wr16(b + 16, 2); /* ET_EXEC */
	expect_elf_error(b, len, "ET_REL");
	FRESH();
	wr16(b + 18, 62); /* EM_X86_64 */
	expect_elf_error(b, len, "not BPF");
	FRESH();
	wr64(b + 40, len); /* e_shoff at the end */
	expect_elf_error(b, len, "past the end");
	FRESH();
	wr64(b + 40, UINT64_MAX - 8); /* e_shoff that would wrap */
	expect_elf_error(b, len, "past the end");
	FRESH();
	wr16(b + 58, 40); /* e_shentsize */
	expect_elf_error(b, len, "section header size");
	FRESH();
	wr16(b + 62, 0xfff0); /* e_shstrndx */
	expect_elf_error(b, len, "name table index");
	FRESH();
	wr16(b + 60, 0); /* e_shnum */
	expect_elf_error(b, len, "no section headers");
	expect_elf_error(b, 10, "too short");
	expect_elf_error(NULL, 0, "too short");
#undef FRESH
	free(b);
	free(orig);
}
END_TEST

START_TEST(test_section_errors)
{
	struct elf_file ef;
	struct bb_err err;
	size_t len, symtab, rel = 0, i;
	unsigned char *orig = slurp("good_tp.bpf.o", &len);
	unsigned char *b = malloc(len);

	ck_assert_int_eq(elf_open(&ef, orig, len, "t.o", &err), 0);
	symtab = ef.symtab;
	for (i = 1; i < ef.nsecs && !rel; i++)
		if (ef.secs[i].type == SHT_REL)
			rel = i;
	ck_assert_uint_gt(rel, 0);
	elf_close(&ef);

#define FRESH() memcpy(b, orig, len)
	FRESH();
	wr32(shdr(b, symtab) + 40, 999); /* sh_link */
	expect_elf_error(b, len, "sh_link 999 is not a string table");
	FRESH();
	wr32(shdr(b, symtab) + 40, symtab); /* sh_link to itself */
	expect_elf_error(b, len, "not a string table");
	FRESH();
	wr64(shdr(b, symtab) + 24, len - 8); /* sh_offset */
	expect_elf_error(b, len, "past the end");
	FRESH();
	wr64(shdr(b, symtab) + 32, UINT64_MAX); /* sh_size */
	expect_elf_error(b, len, "past the end");
	FRESH();
	wr64(shdr(b, symtab) + 56, 16); /* sh_entsize */
	expect_elf_error(b, len, "entry size");
	FRESH();
	wr32(shdr(b, 1), 0xffffff); /* sh_name of section 1 */
	expect_elf_error(b, len, "name offset");
	FRESH();
	wr32(shdr(b, rel) + 40, 999); /* sh_link of a REL section */
	expect_elf_error(b, len, "is not the symbol table");
	FRESH();
	wr32(shdr(b, rel) + 44, 999); /* sh_info */
	expect_elf_error(b, len, "sh_info 999");
	FRESH();
	wr32(shdr(b, rel) + 4, SHT_RELA);
	expect_elf_error(b, len, "SHT_RELA");
	FRESH();
	/* first relocation's symbol index */
	wr32(b + rd64(shdr(b, rel) + 24) + 12, 0xfffff);
	expect_elf_error(b, len, "symbol index 1048575 out of range");
	FRESH();
	/* symbol 1's name offset */
	wr32(b + rd64(shdr(b, symtab) + 24) + 24, 0xfffffff);
	expect_elf_error(b, len, "name offset");
	FRESH();
	/* symbol 1's section index */
	wr16(b + rd64(shdr(b, symtab) + 24) + 24 + 6, 0x1234);
	expect_elf_error(b, len, "section index");
	FRESH();
	/* an unterminated string table: its last byte NUL -> 'x' */
	{
		unsigned char *s = shdr(b, b[62] | b[63] << 8);
		b[rd64(s + 24) + rd64(s + 32) - 1] = 'x';
		ck_assert_int_lt(elf_open(&ef, b, len, "t.o", &err), 0);
	}
#undef FRESH
	free(b);
	free(orig);
}
END_TEST

/* Every prefix of a good object: error or success, never a crash. */
START_TEST(test_truncated)
{
	size_t len, n;
	unsigned char *orig = slurp(good_objs[_i], &len);
	int ok = 0;

	for (n = 0; n <= len; n++) {
		/* A fresh allocation per length lets ASan see overreads. */
		unsigned char *b = malloc(n ? n : 1);
		struct elf_file ef;
		struct bb_err err;

		memcpy(b, orig, n);
		if (elf_open(&ef, b, n, "t.o", &err) == 0) {
			ok++;
			elf_close(&ef);
		} else {
			ck_assert_msg(err.msg[0], "no message at length %zu",
				      n);
		}
		free(b);
	}
	/* Only the whole file (section headers come last) parses. */
	ck_assert_int_eq(ok, 1);
	free(orig);
}
END_TEST

/* Every byte, several values: error or success, never a crash. */
START_TEST(test_flipped)
{
	static const unsigned char xors[] = { 0x01, 0x10, 0x80, 0xff };
	size_t len, pos, k;
	unsigned char *orig = slurp(good_objs[_i], &len);
	unsigned char *b = malloc(len);

	for (pos = 0; pos < len; pos++) {
		for (k = 0; k < sizeof(xors) + 2; k++) {
			struct elf_file ef;
			struct bb_err err;

			memcpy(b, orig, len);
			if (k < sizeof(xors))
				b[pos] ^= xors[k];
			else
				b[pos] = k == sizeof(xors) ? 0 : 0xff;
			if (elf_open(&ef, b, len, "t.o", &err) == 0)
				elf_close(&ef);
		}
	}
	free(b);
	free(orig);
}
END_TEST

static Suite *elf_suite(void)
{
	Suite *s = suite_create("elf");
	TCase *tc = tcase_create("reader");
	TCase *fz = tcase_create("damaged");

	tcase_add_loop_test(tc, test_matches_libelf, 0, NGOOD);
	tcase_add_test(tc, test_find_sec);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_section_errors);
	suite_add_tcase(s, tc);
	tcase_set_timeout(fz, 120);
	tcase_add_loop_test(fz, test_truncated, 0, NGOOD);
	tcase_add_loop_test(fz, test_flipped, 0, NGOOD);
	suite_add_tcase(s, fz);
	return s;
}

BBTEST_SUITE(elf, elf_suite, NULL)
