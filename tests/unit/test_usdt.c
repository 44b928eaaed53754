/* SPDX-License-Identifier: MIT */
/*
 * USDT probes (loader/user/usdt.c): the argument operands of each architecture
 * as GCC and clang print them, refused forms named; .note.stapsdt read
 * from ELF64 and ELF32 files built here, with prelink's base, semaphores,
 * and damaged notes skipped; trace's u: probes compiled into slot
 * constants; the uprobe lookup's message naming what it searched.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "usdt.h"
#include "trace_spec.h"
#include "probe.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

struct want {
	enum usdt_akind kind;
	int size, is_signed, reg_off;
	int64_t val;
};

static void args_ok(const char *spec, int machine, const struct want *w,
		    int n)
{
	struct usdt_arg a[USDT_MAX_ARGS];
	struct bb_err err = { "" };
	int i, got;

	got = usdt_args_parse(spec, machine, a, USDT_MAX_ARGS, &err);
	ck_assert_msg(got == n, "'%s': %d arguments, not %d: %s", spec, got,
		      n, err.msg);
	for (i = 0; i < n; i++) {
		ck_assert_msg(a[i].kind == w[i].kind, "'%s' arg %d kind %d",
			      spec, i + 1, a[i].kind);
		ck_assert_int_eq(a[i].size, w[i].size);
		ck_assert_int_eq(a[i].is_signed, w[i].is_signed);
		if (w[i].kind != USDT_CONST)
			ck_assert_msg(a[i].reg_off == w[i].reg_off,
				      "'%s' arg %d at %d, not %d", spec, i + 1,
				      a[i].reg_off, w[i].reg_off);
		if (w[i].kind != USDT_REG)
			ck_assert_msg(a[i].val == w[i].val, "'%s' arg %d: "
				      "%lld", spec, i + 1,
				      (long long)a[i].val);
	}
}

START_TEST(test_args_x86_64)
{
	/* what gcc -O1 and clang print (checked with -S) */
	static const struct want w[] = {
		{ USDT_REG, 4, 1, 112, 0 },   /* -4@%edi */
		{ USDT_MEM, 8, 0, 32, -16 },  /* 8@-16(%rbp) */
		{ USDT_CONST, 4, 0, 0, 5 },   /* 4@$5 */
		{ USDT_REG, 2, 1, 112, 0 },   /* -2@%di */
		{ USDT_REG, 1, 0, 72, 0 },    /* 1@%r8b */
		{ USDT_MEM, 8, 0, 152, 0 },   /* 8@(%rsp) */
		{ USDT_MEM, 8, 1, 80, 16 },   /* -8@0x10(%rax) */
		{ USDT_CONST, 8, 1, 0, -3 },  /* -8@$-3 */
		{ USDT_REG, 8, 0, 0, 0 },     /* 8@%r15 */
		{ USDT_REG, 1, 0, 104, 0 },   /* 1@%sil */
	};

	args_ok("-4@%edi 8@-16(%rbp) 4@$5 -2@%di 1@%r8b 8@(%rsp) "
		"-8@0x10(%rax)  -8@$-3 8@%r15 1@%sil", EM_X86_64, w, 10);
	{
		struct usdt_arg a[3];
		struct bb_err err = { "" };

		/* what gcc -O1 made of names[i % 3] */
		ck_assert_int_eq(usdt_args_parse("8@(%rax,%rdx,8) "
						 "-4@-8(%rbx,%rcx) 8@-16(%rbp)",
						 EM_X86_64, a, 3, &err), 3);
		ck_assert_int_eq(a[0].kind, USDT_MEM);
		ck_assert_int_eq(a[0].reg_off, 80);
		ck_assert_int_eq(a[0].idx_off, 96);
		ck_assert_int_eq(a[0].shift, 3);
		ck_assert_int_eq(a[0].val, 0);
		ck_assert_int_eq(a[1].reg_off, 40);
		ck_assert_int_eq(a[1].idx_off, 88);
		ck_assert_int_eq(a[1].shift, 0);
		ck_assert_int_eq(a[1].val, -8);
		ck_assert_int_eq(a[2].idx_off, -1);
		/* gcc -O1 on aarch64, and arm's */
		ck_assert_int_eq(usdt_args_parse("-8@[x2, x20, lsl 3] "
						 "4@[x1, x2] 4@[x0, x1, lsl #2]",
						 EM_AARCH64, a, 3, &err), 3);
		ck_assert_int_eq(a[0].reg_off, 16);
		ck_assert_int_eq(a[0].idx_off, 160);
		ck_assert_int_eq(a[0].shift, 3);
		ck_assert_int_eq(a[1].idx_off, 16);
		ck_assert_int_eq(a[1].shift, 0);
		ck_assert_int_eq(a[2].shift, 2);
		ck_assert_int_eq(usdt_args_parse("4@[r0, r1, lsl #2]", EM_ARM,
						 a, 1, &err), 1);
		ck_assert_int_eq(a[0].idx_off, 4);
		ck_assert_int_eq(a[0].shift, 2);
	}
	args_ok("", EM_X86_64, w, 0);
	args_ok("  ", EM_X86_64, w, 0);
}
END_TEST

START_TEST(test_args_arm64)
{
	static const struct want w[] = {
		{ USDT_REG, 4, 1, 0, 0 },       /* -4@x0 */
		{ USDT_MEM, 8, 0, 8, 8 },       /* 8@[x1, 8] */
		{ USDT_MEM, 8, 0, 248, 0 },     /* 8@[sp] */
		{ USDT_CONST, 4, 1, 0, 7 },     /* -4@7 */
		{ USDT_REG, 8, 0, 248, 0 },     /* 8@sp */
		{ USDT_REG, 4, 1, 24, 0 },      /* -4@w3 */
		{ USDT_MEM, 8, 1, 232, -16 },   /* -8@[x29, -16] */
		{ USDT_MEM, 4, 0, 16, 4 },      /* 4@[x2, #4] */
		{ USDT_REG, 2, 1, 240, 0 },     /* -2@x30 */
	};

	args_ok("-4@x0 8@[x1, 8] 8@[sp] -4@7 8@sp -4@w3 -8@[x29, -16] "
		"4@[x2, #4] -2@x30", EM_AARCH64, w, 9);
}
END_TEST

START_TEST(test_args_arm_riscv)
{
	static const struct want arm[] = {
		{ USDT_REG, 4, 0, 0, 0 },     /* 4@r0 */
		{ USDT_MEM, 4, 1, 44, 8 },    /* -4@[fp, #8] */
		{ USDT_CONST, 4, 0, 0, 5 },   /* 4@#5 */
		{ USDT_MEM, 4, 0, 52, 0 },    /* 4@[sp] */
		{ USDT_REG, 2, 0, 56, 0 },    /* 2@lr */
	};
	static const struct want rv[] = {
		{ USDT_REG, 8, 0, 80, 0 },    /* 8@a0 */
		{ USDT_MEM, 8, 1, 64, -88 },  /* -8@-88(s0) */
		{ USDT_CONST, 4, 0, 0, 5 },   /* 4@5 */
		{ USDT_MEM, 8, 0, 16, 0 },    /* 8@(sp) */
		{ USDT_REG, 4, 1, 248, 0 },   /* -4@t6 */
		{ USDT_MEM, 4, 1, 16, 12 },   /* -4@12(sp) */
	};

	args_ok("4@r0 -4@[fp, #8] 4@#5 4@[sp] 2@lr", EM_ARM, arm, 5);
	args_ok("8@a0 -8@-88(s0) 4@5 8@(sp) -4@t6 -4@12(sp)", EM_RISCV, rv, 6);
}
END_TEST

START_TEST(test_args_refused)
{
	static const struct {
		const char *spec;
		int machine;
		const char *msg;
	} cases[] = {
		{ "8@foo(%rip)", EM_X86_64, "USDT argument 1 'foo(%rip)': an "
		  "operand relative to %rip (a global variable) needs the "
		  "program's load address, which is not known to a probe; not "
		  "supported" },
		{ "4@%eax 4@(%rax,%rbx,3)", EM_X86_64, "USDT argument 2 "
		  "'(%rax,%rbx,3)': the scale of an index is 1, 2, 4 or 8" },
		{ "4@(%rax,%ebx,4)", EM_X86_64, "USDT argument 1 "
		  "'(%rax,%ebx,4)': an index in a register narrower than 64 "
		  "bits" },
		{ "4@(%rax,%rbx,4", EM_X86_64, "USDT argument 1 '(%rax,%rbx,4': "
		  "not an operand (expected DISP(%REG) or "
		  "DISP(%BASE,%INDEX,SCALE))" },
		{ "1@%ah", EM_X86_64, "USDT argument 1 '%ah': the high byte "
		  "registers (%ah, %bh, %ch, %dh) are not supported" },
		{ "3@%eax", EM_X86_64, "USDT argument 1 '%eax': the size before "
		  "'@' is not 1, 2, 4 or 8 (negative: signed)" },
		{ "4@%xyz", EM_X86_64, "USDT argument 1 '%xyz': not a register "
		  "of this architecture" },
		{ "4@$sym", EM_X86_64, "USDT argument 1 '$sym': a constant "
		  "operand that is not a number (a symbol's address) is not "
		  "supported" },
		{ "8@1234", EM_X86_64, "USDT argument 1 '1234': an absolute "
		  "memory address is not supported" },
		{ "-4@.L3", EM_ARM, "USDT argument 1 '.L3': not a register of "
		  "this architecture" },
		{ "8@r0", EM_ARM, "USDT argument 1 'r0': an argument wider than "
		  "its register" },
		{ "eax", EM_X86_64, "USDT argument 1 'eax': not SIZE@OPERAND" },
		{ "4@", EM_X86_64, "USDT argument 1 '': no operand after '@'" },
		{ "4@[x1, x2, sxtw 2]", EM_AARCH64, "USDT argument 1 "
		  "'[x1, x2, sxtw 2]': an index shifted other than by lsl is "
		  "not supported" },
		{ "4@[x1, w2, lsl 2]", EM_AARCH64, "USDT argument 1 "
		  "'[x1, w2, lsl 2]': an index in a 32-bit register (extended) "
		  "is not supported" },
		{ "4@[x1, :lo12:foo]", EM_AARCH64, "USDT argument 1 "
		  "'[x1, :lo12:foo]': not an operand (expected [REG, DISP])" },
		{ "4@[x1, 8]!", EM_AARCH64, "USDT argument 1 '[x1, 8]!': not an "
		  "operand (expected [REG] or [REG, DISP]; pre- and post-index "
		  "forms are not supported)" },
		{ "4@[w1]", EM_AARCH64, "USDT argument 1 '[w1]': an address in a "
		  "32-bit register" },
		{ "8@x31", EM_AARCH64, "USDT argument 1 'x31': not a register "
		  "of this architecture" },
		{ "8@8(zz)", EM_RISCV, "USDT argument 1 '8(zz)': not a register "
		  "of this architecture" },
		{ "4@%eax", EM_PPC64, "USDT arguments of ELF machine 21 are not "
		  "supported (x86_64, aarch64, arm and riscv64 are)" },
	};
	struct usdt_arg a[USDT_MAX_ARGS];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_err err = { "" };

		ck_assert_msg(usdt_args_parse(cases[i].spec, cases[i].machine,
					      a, USDT_MAX_ARGS, &err) < 0,
			      "'%s' parsed", cases[i].spec);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(test_args_limit)
{
	struct usdt_arg a[USDT_MAX_ARGS];
	struct bb_err err = { "" };
	char spec[256] = "";
	int i;

	for (i = 0; i < USDT_MAX_ARGS; i++)
		strcat(spec, "4@%eax ");
	ck_assert_int_eq(usdt_args_parse(spec, EM_X86_64, a, USDT_MAX_ARGS,
					 &err), USDT_MAX_ARGS);
	strcat(spec, "4@%eax");
	ck_assert_int_eq(usdt_args_parse(spec, EM_X86_64, a, USDT_MAX_ARGS,
					 &err), -EINVAL);
	ck_assert_str_eq(err.msg, "more than 12 USDT arguments");
	/* a number of more than 64 bits */
	ck_assert_int_eq(usdt_args_parse("8@$99999999999999999999", EM_X86_64,
					 a, 1, &err), -EINVAL);
}
END_TEST

/* ---- notes, in ELF files built here ---- */

#define VADDR 0x400000ULL
#define FSIZE 1024
#define NOTES_OFF 192
#define BASE_OFF 704
#define SH_OFF 768

struct img {
	unsigned char b[FSIZE];
	size_t notes; /* bytes of notes written */
	int is32;
};

static void put_addr(struct img *m, size_t *o, uint64_t v)
{
	if (m->is32) {
		uint32_t w = (uint32_t)v;

		memcpy(m->b + *o, &w, 4);
		*o += 4;
	} else {
		memcpy(m->b + *o, &v, 8);
		*o += 8;
	}
}

/* A note as sys/sdt.h's directives lay it out; descsz as given, or its
 * real size if 0. */
static void add_note(struct img *m, uint64_t pc, uint64_t base, uint64_t sema,
		     const char *strs, size_t slen, uint32_t descsz)
{
	size_t o = NOTES_OFF + m->notes, d;
	uint32_t h[3] = { 8, 0, 3 };

	d = o + 12 + 8;
	memcpy(m->b + o + 12, "stapsdt", 8);
	put_addr(m, &d, pc);
	put_addr(m, &d, base);
	put_addr(m, &d, sema);
	memcpy(m->b + d, strs, slen);
	d += slen;
	h[1] = descsz ? descsz : (uint32_t)(d - (o + 20));
	memcpy(m->b + o, h, sizeof(h));
	m->notes = (o + 20 + ((h[1] + 3) & ~3u)) - NOTES_OFF;
	ck_assert_uint_le(NOTES_OFF + m->notes, BASE_OFF);
}

/* The file: one PT_LOAD of it all at VADDR; sections .shstrtab,
 * .note.stapsdt, .stapsdt.base (at VADDR + BASE_OFF + shift: prelinked
 * by shift). */
static void finish(struct img *m, uint16_t machine, uint64_t shift)
{
	static const char names[] = "\0.shstrtab\0.note.stapsdt\0.stapsdt.base";
	struct { uint32_t name, type; uint64_t addr, off, size; } s[4] = {
		{ 0, 0, 0, 0, 0 },
		{ 1, SHT_STRTAB, 0, 128, sizeof(names) },
		{ 11, SHT_NOTE, 0, NOTES_OFF, 0 },
		{ 25, SHT_PROGBITS, 0, BASE_OFF, 1 },
	};
	int i;

	s[2].size = m->notes;
	s[3].addr = VADDR + BASE_OFF + shift;
	memcpy(m->b + 128, names, sizeof(names));
	memcpy(m->b, ELFMAG, SELFMAG);
	m->b[EI_CLASS] = m->is32 ? ELFCLASS32 : ELFCLASS64;
	m->b[EI_DATA] = ELFDATA2LSB;
	m->b[EI_VERSION] = EV_CURRENT;
	if (m->is32) {
		Elf32_Ehdr eh = { .e_type = ET_EXEC, .e_machine = machine,
			.e_phoff = 64, .e_shoff = SH_OFF,
			.e_phentsize = sizeof(Elf32_Phdr), .e_phnum = 1,
			.e_shentsize = sizeof(Elf32_Shdr), .e_shnum = 4,
			.e_shstrndx = 1 };
		Elf32_Phdr ph = { .p_type = PT_LOAD, .p_offset = 0,
			.p_vaddr = VADDR, .p_filesz = FSIZE,
			.p_memsz = FSIZE };

		memcpy(eh.e_ident, m->b, EI_NIDENT);
		memcpy(m->b, &eh, sizeof(eh));
		memcpy(m->b + 64, &ph, sizeof(ph));
		for (i = 0; i < 4; i++) {
			Elf32_Shdr sh = { .sh_name = s[i].name,
				.sh_type = s[i].type,
				.sh_addr = (uint32_t)s[i].addr,
				.sh_offset = (uint32_t)s[i].off,
				.sh_size = (uint32_t)s[i].size };

			memcpy(m->b + SH_OFF + i * sizeof(sh), &sh,
			       sizeof(sh));
		}
	} else {
		Elf64_Ehdr eh = { .e_type = ET_DYN, .e_machine = machine,
			.e_phoff = 64, .e_shoff = SH_OFF,
			.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1,
			.e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 4,
			.e_shstrndx = 1 };
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_offset = 0,
			.p_vaddr = VADDR, .p_filesz = FSIZE,
			.p_memsz = FSIZE };

		memcpy(eh.e_ident, m->b, EI_NIDENT);
		memcpy(m->b, &eh, sizeof(eh));
		memcpy(m->b + 64, &ph, sizeof(ph));
		for (i = 0; i < 4; i++) {
			Elf64_Shdr sh = { .sh_name = s[i].name,
				.sh_type = s[i].type, .sh_addr = s[i].addr,
				.sh_offset = s[i].off, .sh_size = s[i].size };

			memcpy(m->b + SH_OFF + i * sizeof(sh), &sh,
			       sizeof(sh));
		}
	}
}

#define STRS(s) s, sizeof(s)

static void notes_of(int is32)
{
	struct img m;
	struct usdt_file f;
	const uint64_t base = VADDR + BASE_OFF;

	memset(&m, 0, sizeof(m));
	m.is32 = is32;
	add_note(&m, VADDR + 0x10, base, 0, STRS("prov\0hello\0-4@%edi 8@%rsi"),
		 0);
	add_note(&m, VADDR + 0x20, base, VADDR + 0x300,
		 STRS("prov\0guarded\0"), 0);
	/* damaged: the name runs past the description */
	add_note(&m, VADDR + 0x30, base, 0, STRS("prov\0bad"), 0);
	/* damaged: nowhere the file is loaded */
	add_note(&m, 0x10, base, 0, STRS("prov\0away\0"), 0);
	/* damaged: too short for three addresses */
	add_note(&m, VADDR, base, 0, STRS("p\0n\0"), 10);
	/* no name */
	add_note(&m, VADDR + 0x40, base, 0, STRS("prov\0\0"), 0);
	add_note(&m, VADDR + 0x50, base, 0, STRS("\0last\0"), 0);
	finish(&m, EM_X86_64, 0);

	ck_assert_int_eq(usdt_file_read_buf(m.b, sizeof(m.b), &f), 0);
	ck_assert_int_eq(f.machine, EM_X86_64);
	ck_assert_int_eq(f.is32, is32);
	ck_assert_int_eq(f.nnotes, 3);
	ck_assert_int_eq(f.skipped, 4);
	ck_assert_str_eq(f.notes[0].provider, "prov");
	ck_assert_str_eq(f.notes[0].name, "hello");
	ck_assert_str_eq(f.notes[0].args, "-4@%edi 8@%rsi");
	ck_assert_uint_eq(f.notes[0].pc, VADDR + 0x10);
	ck_assert_uint_eq(f.notes[0].pc_off, 0x10);
	ck_assert_uint_eq(f.notes[0].sema_off, 0);
	ck_assert_str_eq(f.notes[1].name, "guarded");
	ck_assert_str_eq(f.notes[1].args, "");
	ck_assert_uint_eq(f.notes[1].sema_off, 0x300);
	ck_assert_str_eq(f.notes[2].provider, "");
	ck_assert_str_eq(f.notes[2].name, "last");
	ck_assert_uint_eq(f.notes[2].pc_off, 0x50);
	usdt_file_free(&f);

	/* prelinked 0x100 higher than the notes say: both addresses move */
	memset(&m, 0, sizeof(m));
	m.is32 = is32;
	add_note(&m, VADDR + 0x10 - 0x100, base - 0x100, VADDR + 0x300 - 0x100,
		 STRS("prov\0moved\0"), 0);
	finish(&m, EM_X86_64, 0);
	ck_assert_int_eq(usdt_file_read_buf(m.b, sizeof(m.b), &f), 0);
	ck_assert_int_eq(f.nnotes, 1);
	ck_assert_uint_eq(f.notes[0].pc_off, 0x10);
	ck_assert_uint_eq(f.notes[0].sema_off, 0x300);
	usdt_file_free(&f);
}

START_TEST(test_notes_elf64)
{
	notes_of(0);
}
END_TEST

START_TEST(test_notes_elf32)
{
	notes_of(1);
}
END_TEST

START_TEST(test_notes_bad_files)
{
	struct img m;
	struct usdt_file f;
	size_t n;

	memset(&m, 0, sizeof(m));
	add_note(&m, VADDR + 0x10, VADDR + BASE_OFF, 0, STRS("p\0n\0"), 0);
	finish(&m, EM_AARCH64, 0);
	ck_assert_int_eq(usdt_file_read_buf(m.b, 10, &f), -ENOEXEC);
	/* its header, not its program headers */
	ck_assert_int_eq(usdt_file_read_buf(m.b, 100, &f), -EBADMSG);
	ck_assert_int_eq(usdt_file_read_buf("not an elf", 10, &f), -ENOEXEC);
	/* cut anywhere: an error or fewer notes, never a read outside */
	for (n = 0; n < sizeof(m.b); n += 7) {
		int ret = usdt_file_read_buf(m.b, n, &f);

		ck_assert(ret < 0 || f.nnotes <= 1);
		if (!ret)
			usdt_file_free(&f);
	}
	/* a note section past the end of the file */
	memcpy(m.b + SH_OFF + 2 * sizeof(Elf64_Shdr) +
	       offsetof(Elf64_Shdr, sh_size), &(uint64_t){ 1 << 20 }, 8);
	ck_assert_int_eq(usdt_file_read_buf(m.b, sizeof(m.b), &f), -EBADMSG);
}
END_TEST

/* ---- trace's u: probes ---- */

START_TEST(test_trace_usdt_compile)
{
	struct trace_spec sp;
	struct trace_prog pr;
	struct bb_err err = { "" };

	ck_assert_int_eq(trace_spec_parse("u:/bin/x:prov:hello (arg3 > 2) "
					  "\"%d %s %d\", arg1, arg2, arg12",
					  &sp, &err), 0);
	ck_assert_int_eq(sp.usdt, 1);
	ck_assert_str_eq(sp.lib, "/bin/x");
	ck_assert_str_eq(sp.provider, "prov");
	ck_assert_str_eq(sp.func, "hello");
	ck_assert_int_eq(sp.args[2].argn, 12);
	ck_assert_int_eq(trace_spec_parse("u:c:hello", &sp, &err), 0);
	ck_assert_str_eq(sp.provider, "");
	ck_assert_str_eq(sp.func, "hello");

	ck_assert_int_eq(trace_spec_parse("u:/bin/x:hello (arg3 > 2) "
					  "\"%d %s %d\", arg1, arg2, arg4",
					  &sp, &err), 0);
	sp.nuargs = usdt_args_parse("-4@$7 8@-16(%rbp) -2@%di 1@%al",
				    EM_X86_64, sp.uargs, USDT_MAX_ARGS, &err);
	ck_assert_int_eq(sp.nuargs, 4);
	ck_assert_int_eq(trace_spec_compile(&sp, &bb_arch_x86_64, NULL, 0,
					    80, &pr, &err), 0);
	/* arg1: the constant, read nowhere */
	ck_assert_uint_eq(pr.slots[0].base, TRACE_BASE_CONST);
	ck_assert_uint_eq(pr.slots[0].off, 7);
	ck_assert_uint_eq(pr.slots[0].ext1, TRACE_EXT(4, 1));
	/* arg2: user memory at rbp - 16, and its string there first */
	ck_assert_uint_eq(pr.slots[1].base, TRACE_BASE_UMEM);
	ck_assert_uint_eq(pr.slots[1].off, 32);
	ck_assert_uint_eq(pr.slots[1].disp, (uint64_t)-16);
	ck_assert_uint_eq(pr.slots[1].size, 8);
	ck_assert_uint_eq(pr.slots[1].str, TRACE_STR_UPTR);
	/* arg4: the low byte of rax */
	ck_assert_uint_eq(pr.slots[2].base, TRACE_BASE_CTX);
	ck_assert_uint_eq(pr.slots[2].off, 80);
	ck_assert_uint_eq(pr.slots[2].size, 1);
	ck_assert_uint_eq(pr.slots[2].ext1, TRACE_EXT(1, 0));
	/* the filter's arg3: a signed short in di */
	ck_assert_uint_eq(pr.slots[3].off, 112);
	ck_assert_uint_eq(pr.slots[3].size, 2);
	ck_assert_uint_eq(pr.terms[0].op, TRACE_OP_LES);

	ck_assert_int_eq(trace_spec_parse("u:/bin/x:hello \"%d\", arg5", &sp,
					  &err), 0);
	sp.nuargs = 2;
	ck_assert_int_eq(trace_spec_compile(&sp, &bb_arch_x86_64, NULL, 0,
					    80, &pr, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "probe 'u:/bin/x:hello': 'arg5': USDT probe "
			 "hello has 2 arguments");
}
END_TEST

/* The lookup says what it searched: MiniDebugInfo too (it said only
 * .symtab and .dynsym). */
START_TEST(test_uprobe_missing_says_searched)
{
	struct bb_err err = { "" };
	char path[4096];
	uint64_t off;

	ck_assert_int_eq(uprobe_resolve("/proc/self/exe:bb_no_such_function",
					0, path, sizeof(path), &off, &err),
			 -ENOENT);
	ck_assert_msg(strstr(err.msg, "(searched .symtab, .dynsym and the "
			     "MiniDebugInfo of .gnu_debugdata)"), "%s",
		      err.msg);
}
END_TEST

static Suite *usdt_suite(void)
{
	Suite *s = suite_create("usdt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_args_x86_64);
	tcase_add_test(tc, test_args_arm64);
	tcase_add_test(tc, test_args_arm_riscv);
	tcase_add_test(tc, test_args_refused);
	tcase_add_test(tc, test_args_limit);
	tcase_add_test(tc, test_notes_elf64);
	tcase_add_test(tc, test_notes_elf32);
	tcase_add_test(tc, test_notes_bad_files);
	tcase_add_test(tc, test_trace_usdt_compile);
	tcase_add_test(tc, test_uprobe_missing_says_searched);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(usdt, usdt_suite, NULL)
