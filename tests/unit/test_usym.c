/* SPDX-License-Identifier: MIT */
/*
 * User-space symbols (loader/user/usym.c, elfsyms.c): /proc/PID/maps
 * lines; the symbols of real files against libelf; this test binary
 * finding its own functions through its own /proc/self/maps; synthetic
 * ET_EXEC and ET_DYN files mapped into this process at a file offset; a
 * process that exited after its maps were read; and damaged ELF files,
 * which must never crash the reader.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "barebpf.h"
#include "output.h"
#include "stackcount.h"
#include "bbtest.h"
#include "user.h"

/* Functions with known names to look up. noinline and used: they must
 * exist as themselves in this binary's .symtab. */
__attribute__((noinline, used)) int usym_test_target(int x)
{
	asm volatile("" : "+r"(x));
	return x * 3 + 1;
}

__attribute__((noinline, used)) static int usym_test_local(int x)
{
	asm volatile("" : "+r"(x));
	return x * 5 + 2;
}

/* ---- /proc/PID/maps lines ---- */

START_TEST(test_maps_line_file)
{
	struct bb_maps_line m;

	ck_assert_int_eq(usym_parse_maps_line(
		"55d0c6a00000-55d0c6a02000 r-xp 00002000 fd:01 1234567"
		"                    /usr/bin/cat", &m), 0);
	ck_assert_uint_eq(m.start, 0x55d0c6a00000ULL);
	ck_assert_uint_eq(m.end, 0x55d0c6a02000ULL);
	ck_assert_uint_eq(m.offset, 0x2000);
	ck_assert_uint_eq(m.dev, (0xfdULL << 32) | 1);
	ck_assert_uint_eq(m.inode, 1234567);
	ck_assert_int_eq(m.exec, 1);
	ck_assert_str_eq(m.path, "/usr/bin/cat");
}
END_TEST

START_TEST(test_maps_line_kinds)
{
	struct bb_maps_line m;

	/* anonymous: no path */
	ck_assert_int_eq(usym_parse_maps_line(
		"7ffd1c1f2000-7ffd1c213000 rw-p 00000000 00:00 0", &m), 0);
	ck_assert_int_eq(m.exec, 0);
	ck_assert_str_eq(m.path, "");
	/* a pseudo path, and a 32-bit style short address */
	ck_assert_int_eq(usym_parse_maps_line(
		"f7f00000-f7f02000 r-xp 00000000 00:00 0  [vdso]", &m), 0);
	ck_assert_int_eq(m.exec, 1);
	ck_assert_str_eq(m.path, "[vdso]");
	/* blanks in the path and a deleted file: the path is the rest */
	ck_assert_int_eq(usym_parse_maps_line(
		"400000-401000 r-xp 00000000 08:02 42 /opt/my app/bin (deleted)",
		&m), 0);
	ck_assert_str_eq(m.path, "/opt/my app/bin (deleted)");
	ck_assert_uint_eq(m.dev, (8ULL << 32) | 2);
	/* a full 64-bit kernel address (vsyscall) */
	ck_assert_int_eq(usym_parse_maps_line(
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 "
		"[vsyscall]", &m), 0);
	ck_assert_uint_eq(m.start, 0xffffffffff600000ULL);
}
END_TEST

START_TEST(test_maps_line_bad)
{
	static const char *const bad[] = {
		"",
		"garbage",
		"400000 r-xp 00000000 08:02 42 /bin/x",        /* no end */
		"400000-401000",                                /* nothing else */
		"400000-401000 r-xp",                          /* no offset */
		"400000-401000 r-x 00000000 08:02 42 /bin/x",  /* short perms */
		"400000-401000 r-xp zz 08:02 42 /bin/x",       /* bad offset */
		"400000-401000 r-xp 00000000 0802 42 /bin/x",  /* bad dev */
		"400000-401000 r-xp 00000000 08:02 /bin/x",    /* no inode */
		"400000-401000 r-xp 00000000 08:02 4x2 /bin/x", /* bad inode */
		"401000-400000 r-xp 00000000 08:02 42 /bin/x", /* end < start */
		"1ffffffffffffffff-2 r-xp 0 0:0 0",            /* overflow */
		"400000-401000 r-xp 00000000 08:02 99999999999999999999999 /x",
	};
	struct bb_maps_line m;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(usym_parse_maps_line(bad[i], &m) == -EINVAL,
			      "accepted '%s'", bad[i]);
}
END_TEST

/* ---- this process, through its own /proc/self/maps ---- */

static const char *self_base(void)
{
	static char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	exe[n] = 0;
	slash = strrchr(exe, '/');
	return slash ? slash + 1 : exe;
}

START_TEST(test_self_functions)
{
	struct bb_usyms *u;
	struct bb_usym s;
	uint64_t a = (uint64_t)(uintptr_t)&usym_test_target;
	uint64_t b = (uint64_t)(uintptr_t)&usym_test_local;
	char buf[512];

	ck_assert_int_eq(usyms_new(&u), 0);
	ck_assert_int_eq(usyms_add_pid(u, getpid()), 0);

	ck_assert_int_eq(usyms_find(u, getpid(), a + 3, &s), 0);
	ck_assert_ptr_nonnull(s.name);
	ck_assert_str_eq(s.name, "usym_test_target");
	ck_assert_uint_eq(s.off, 3);
	ck_assert_str_eq(s.module, self_base());
	usym_format(buf, sizeof(buf), &s);
	snprintf(buf + 256, 256, "usym_test_target+0x3 [%s]", self_base());
	ck_assert_str_eq(buf, buf + 256);

	/* a local (static) function: only .symtab has it */
	ck_assert_int_eq(usyms_find(u, getpid(), b, &s), 0);
	ck_assert_ptr_nonnull(s.name);
	ck_assert_str_eq(s.name, "usym_test_local");
	ck_assert_uint_eq(s.off, 0);

	/* a function of the C library (its .dynsym when it is stripped) */
	ck_assert_int_eq(usyms_find(u, getpid(),
				    (uint64_t)(uintptr_t)&getppid, &s), 0);
	ck_assert_ptr_nonnull(s.module);
	ck_assert_msg(strstr(s.module, "libc"), "module %s", s.module);
	ck_assert_ptr_nonnull(s.name);
	ck_assert_msg(strstr(s.name, "getppid"), "getppid is %s", s.name);

	/* nothing mapped there */
	ck_assert_int_eq(usyms_find(u, getpid(), 16, &s), -ENOENT);
	ck_assert_ptr_null(s.name);
	ck_assert_ptr_null(s.module);
	usym_format(buf, sizeof(buf), &s);
	ck_assert_str_eq(buf, "[unknown]");
	usyms_free(u);
}
END_TEST

/* Maps read while the process lived still serve once it has exited. */
START_TEST(test_exited_process)
{
	struct bb_usyms *u;
	struct bb_usym s;
	int p[2], st;
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(p[1]);
		(void)!read(p[0], &c, 1); /* until the parent closes */
		_exit(0);
	}
	close(p[0]);
	ck_assert_int_eq(usyms_new(&u), 0);
	ck_assert_int_eq(usyms_add_pid(u, pid), 0);
	close(p[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* the child was a fork of this binary: same addresses */
	ck_assert_int_eq(usyms_find(u, pid, (uint64_t)(uintptr_t)
				    &usym_test_target + 1, &s), 0);
	ck_assert_ptr_nonnull(s.name);
	ck_assert_str_eq(s.name, "usym_test_target");
	ck_assert_uint_eq(s.off, 1);
	usyms_free(u);
}
END_TEST

START_TEST(test_no_such_process)
{
	struct bb_usyms *u;
	struct bb_usym s;

	ck_assert_int_eq(usyms_new(&u), 0);
	/* pid_max is at most 2^22 */
	ck_assert_int_lt(usyms_add_pid(u, 0x7ffffff0), 0);
	ck_assert_int_lt(usyms_find(u, 0x7ffffff0, 0x400000, &s), 0);
	ck_assert_ptr_null(s.name);
	ck_assert_int_eq(usyms_add_pid(u, 0), -EINVAL);
	usyms_free(u);
}
END_TEST

/* ---- against libelf: every function symbol of real files ---- */

static const char *const real_files[] = {
	"/proc/self/exe", /* PIE with .symtab (the tests are built with -g) */
	NULL,             /* the C library: .dynsym (found at run time) */
	NULL,             /* an ELF32 ARM program, Thumb code (built here) */
};

static const char *libc_path(void)
{
	static char path[4096];
	struct bb_maps_line m;
	char line[4096 + 128];
	FILE *f = fopen("/proc/self/maps", "r");

	ck_assert_ptr_nonnull(f);
	path[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (usym_parse_maps_line(line, &m) == 0 && m.exec &&
		    strstr(m.path, "/libc.so")) {
			snprintf(path, sizeof(path), "%s", m.path);
			break;
		}
	}
	fclose(f);
	return path[0] ? path : NULL;
}

/*
 * A 32-bit ARM program as Debian's armhf compiler makes them (Thumb-2:
 * every function's symbol has bit 0 set), without a C library: the cross
 * compiler of the armv7 build (scripts/deps.sh), if this host has it.
 */
static const char *arm32_path(void)
{
	static const char src[] =
		"#define F(n) __attribute__((noinline)) int f##n(int x) "
		"{ asm volatile(\"\" : \"+r\"(x)); return x * n + 1; }\n"
		"F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11)\n"
		"void _start(void) { volatile int c = 0; for (;;) "
		"c = f1(c) + f2(c) + f3(c) + f4(c) + f5(c) + f6(c) + f7(c) + "
		"f8(c) + f9(c) + f10(c) + f11(c); }\n";
	static char path[4096];
	char cmd[8400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/usym-arm32.c", BB_BUILD_DIR);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "arm-linux-gnueabihf-gcc -O1 -mthumb "
		 "-nostdlib -static -o %s/usym-arm32 %s 2>/dev/null",
		 BB_BUILD_DIR, path);
	if (system(cmd) != 0)
		return NULL;
	snprintf(path, sizeof(path), "%s/usym-arm32", BB_BUILD_DIR);
	return path;
}

START_TEST(test_matches_libelf)
{
	const char *path = real_files[_i] ? real_files[_i] :
			   _i == 1 ? libc_path() : arm32_path();
	GElf_Ehdr ehdr;
	struct bb_elfsyms *es;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	Elf *e;
	size_t j, n, checked = 0, thumb = 0;
	int fd;

	if (!path && _i == 2)
		bbtest_skip("no arm-linux-gnueabihf-gcc: no ELF32 ARM program");
	if (!path)
		return; /* a static C library: nothing more to compare */
	ck_assert_int_eq(elfsyms_load(&es, path), 0);
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(gelf_getehdr(e, &ehdr));
	/* the same choice: .symtab, else .dynsym */
	while ((scn = elf_nextscn(e, scn))) {
		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		if (sh.sh_type == SHT_SYMTAB) {
			symscn = scn;
			break;
		}
		if (sh.sh_type == SHT_DYNSYM && !symscn)
			symscn = scn;
	}
	ck_assert_ptr_nonnull(symscn);
	gelf_getshdr(symscn, &sh);
	d = elf_getdata(symscn, NULL);
	ck_assert_ptr_nonnull(d);
	n = sh.sh_size / sh.sh_entsize;
	for (j = 0; j < n; j++) {
		GElf_Sym s;
		uint64_t off;
		const char *name, *found;

		ck_assert_ptr_nonnull(gelf_getsym(d, j, &s));
		if (GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value ||
		    !s.st_size || s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		ck_assert_ptr_nonnull(name);
		/* ARM's Thumb bit: the function starts one byte lower */
		if (ehdr.e_machine == EM_ARM && (s.st_value & 1)) {
			s.st_value--;
			thumb++;
		}
		found = elfsyms_find(es, s.st_value + s.st_size / 2, &off);
		ck_assert_msg(found, "%s: nothing at %s+%#llx", path, name,
			      (unsigned long long)(s.st_size / 2));
		/* the same function, or an alias (or a nested symbol) */
		if (strcmp(found, name))
			/* never a symbol that starts before this function */
			ck_assert_msg(off <= s.st_size / 2,
				      "%s: %s found as %s+%#llx", path, name,
				      found, (unsigned long long)off);
		else
			ck_assert_uint_eq(off, s.st_size / 2);
		checked++;
	}
	ck_assert_uint_ge(checked, 10);
	if (ehdr.e_machine == EM_ARM) /* the case this file is here for */
		ck_assert_uint_ge(thumb, 10);
	elf_end(e);
	close(fd);
	elfsyms_free(es);
}
END_TEST

/* ---- synthetic files ---- */

/*
 * An ELF64 with two pages: page 0 holds the headers and tables, page 1 the
 * "code", loaded at vaddr `text_vaddr` (PT_LOAD p_offset 0x1000). Symbols:
 *   func_a  GLOBAL FUNC  text+0x00 size 0x20, alias local_a LOCAL same
 *   func_b  WEAK   FUNC  text+0x20 size 0x10
 *   asm_c   GLOBAL FUNC  text+0x40 size 0 (assembly)
 *   data_d  GLOBAL OBJECT text+0x80
 *   undef_e GLOBAL FUNC  undefined
 */
#define SYN_SIZE 0x2000
#define SYN_TEXT 0x1000
#define SYN_SYMS 0x200
#define SYN_STR 0x400
#define SYN_SHSTR 0x500
#define SYN_SH 0x600

static size_t syn_str(unsigned char *img, size_t *len, const char *s)
{
	size_t at = *len;

	memcpy(img + SYN_STR + at, s, strlen(s) + 1);
	*len += strlen(s) + 1;
	return at;
}

static void syn_build(unsigned char *img, int type, uint64_t text_vaddr)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));
	Elf64_Sym *sym = (Elf64_Sym *)(img + SYN_SYMS);
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + SYN_SH);
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	size_t slen = 1;
	int i = 1;

	memset(img, 0, SYN_SIZE);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = type;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	eh->e_shoff = SYN_SH;
	eh->e_shentsize = sizeof(*sh);
	eh->e_shnum = 5;
	eh->e_shstrndx = 4;
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_offset = SYN_TEXT;
	ph->p_vaddr = text_vaddr;
	ph->p_filesz = ph->p_memsz = 0x1000;

#define SYM(nm, bind, typ, val, sz, shn)                                       \
	do {                                                                   \
		sym[i].st_name = syn_str(img, &slen, nm);                      \
		sym[i].st_info = ELF64_ST_INFO(bind, typ);                     \
		sym[i].st_value = (val);                                       \
		sym[i].st_size = (sz);                                         \
		sym[i].st_shndx = (shn);                                       \
		i++;                                                           \
	} while (0)
	SYM("local_a", STB_LOCAL, STT_FUNC, text_vaddr, 0x20, 1);
	SYM("func_a", STB_GLOBAL, STT_FUNC, text_vaddr, 0x20, 1);
	SYM("func_b", STB_WEAK, STT_FUNC, text_vaddr + 0x20, 0x10, 1);
	SYM("asm_c", STB_GLOBAL, STT_FUNC, text_vaddr + 0x40, 0, 1);
	SYM("data_d", STB_GLOBAL, STT_OBJECT, text_vaddr + 0x80, 8, 1);
	SYM("undef_e", STB_GLOBAL, STT_FUNC, 0, 0, SHN_UNDEF);
#undef SYM
	memcpy(img + SYN_SHSTR, shstr, sizeof(shstr));
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh[1].sh_addr = text_vaddr;
	sh[1].sh_offset = SYN_TEXT;
	sh[1].sh_size = 0x1000;
	sh[2].sh_name = 7;
	sh[2].sh_type = SHT_SYMTAB;
	sh[2].sh_offset = SYN_SYMS;
	sh[2].sh_size = i * sizeof(*sym);
	sh[2].sh_link = 3;
	sh[2].sh_info = 2;
	sh[2].sh_entsize = sizeof(*sym);
	sh[3].sh_name = 15;
	sh[3].sh_type = SHT_STRTAB;
	sh[3].sh_offset = SYN_STR;
	sh[3].sh_size = slen;
	sh[4].sh_name = 23;
	sh[4].sh_type = SHT_STRTAB;
	sh[4].sh_offset = SYN_SHSTR;
	sh[4].sh_size = sizeof(shstr);
}

/*
 * The same file as ELF32 (a 32-bit ARM board's programs): each structure
 * narrowed in place to its Elf32 form, the tables where they were; the
 * program headers move to just after the smaller ELF header.
 */
static void syn_narrow(unsigned char *img)
{
	Elf64_Ehdr eh = *(Elf64_Ehdr *)img;
	Elf64_Phdr ph = *(Elf64_Phdr *)(img + sizeof(eh));
	Elf32_Ehdr *e32 = (Elf32_Ehdr *)img;
	Elf32_Phdr *p32 = (Elf32_Phdr *)(img + sizeof(*e32));
	unsigned i;

	memset(img, 0, sizeof(eh) + sizeof(ph));
	memcpy(e32->e_ident, eh.e_ident, EI_NIDENT);
	e32->e_ident[EI_CLASS] = ELFCLASS32;
	e32->e_type = eh.e_type;
	e32->e_machine = EM_386;
	e32->e_version = eh.e_version;
	e32->e_phoff = sizeof(*e32);
	e32->e_phentsize = sizeof(*p32);
	e32->e_phnum = eh.e_phnum;
	e32->e_shoff = eh.e_shoff;
	e32->e_shentsize = sizeof(Elf32_Shdr);
	e32->e_shnum = eh.e_shnum;
	e32->e_shstrndx = eh.e_shstrndx;
	p32->p_type = ph.p_type;
	p32->p_flags = ph.p_flags;
	p32->p_offset = ph.p_offset;
	p32->p_vaddr = ph.p_vaddr;
	p32->p_filesz = ph.p_filesz;
	p32->p_memsz = ph.p_memsz;
	/* front to back: each narrower entry ends before the next wide one */
	for (i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh = ((Elf64_Shdr *)(img + SYN_SH))[i];
		Elf32_Shdr *s32 = (Elf32_Shdr *)(img + SYN_SH) + i;

		memset(s32, 0, sizeof(*s32));
		s32->sh_name = sh.sh_name;
		s32->sh_type = sh.sh_type;
		s32->sh_flags = sh.sh_flags;
		s32->sh_addr = sh.sh_addr;
		s32->sh_offset = sh.sh_offset;
		s32->sh_size = sh.sh_type == SHT_SYMTAB ?
			sh.sh_size / sizeof(Elf64_Sym) * sizeof(Elf32_Sym) :
			sh.sh_size;
		s32->sh_link = sh.sh_link;
		s32->sh_info = sh.sh_info;
		s32->sh_entsize = sh.sh_type == SHT_SYMTAB ? sizeof(Elf32_Sym) : 0;
	}
	for (i = 0; i < 8; i++) {
		Elf64_Sym sym = ((Elf64_Sym *)(img + SYN_SYMS))[i];
		Elf32_Sym *s32 = (Elf32_Sym *)(img + SYN_SYMS) + i;

		s32->st_name = sym.st_name;
		s32->st_value = sym.st_value;
		s32->st_size = sym.st_size;
		s32->st_info = sym.st_info;
		s32->st_other = sym.st_other;
		s32->st_shndx = sym.st_shndx;
	}
	memset(img + SYN_SYMS + 8 * sizeof(Elf32_Sym), 0,
	       8 * (sizeof(Elf64_Sym) - sizeof(Elf32_Sym)));
}

static void syn_build_class(unsigned char *img, int type, uint64_t text_vaddr,
			    int is32)
{
	syn_build(img, type, text_vaddr);
	if (is32)
		syn_narrow(img);
}

static void check_syn(const struct bb_elfsyms *es, uint64_t text)
{
	uint64_t off, va;

	ck_assert_uint_eq(elfsyms_count(es), 4); /* no data, no undefined */
	/* file offset -> vaddr through the PT_LOAD */
	ck_assert_int_eq(elfsyms_vaddr(es, SYN_TEXT + 0x10, &va), 0);
	ck_assert_uint_eq(va, text + 0x10);
	ck_assert_int_eq(elfsyms_vaddr(es, 0x10, &va), -ENOENT);
	ck_assert_int_eq(elfsyms_vaddr(es, SYN_SIZE, &va), -ENOENT);
	/* global beats local at one address */
	ck_assert_str_eq(elfsyms_find(es, text + 0x10, &off), "func_a");
	ck_assert_uint_eq(off, 0x10);
	ck_assert_str_eq(elfsyms_find(es, text + 0x20, &off), "func_b");
	ck_assert_uint_eq(off, 0);
	/* a gap between func_b and asm_c */
	ck_assert_ptr_null(elfsyms_find(es, text + 0x38, &off));
	/* size 0: up to the next symbol (there is none) */
	ck_assert_str_eq(elfsyms_find(es, text + 0x90, &off), "asm_c");
	ck_assert_uint_eq(off, 0x50);
	ck_assert_ptr_null(elfsyms_find(es, text - 1, &off));
}

/* _i: 0 ELF64, 1 ELF32 */
START_TEST(test_synthetic_exec_and_dyn)
{
	static unsigned char img[SYN_SIZE];
	struct bb_elfsyms *es;

	syn_build_class(img, ET_EXEC, 0x401000, _i);
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	check_syn(es, 0x401000);
	elfsyms_free(es);
	/* p_vaddr - p_offset = 0x1000: what a PIE's second segment has */
	syn_build_class(img, ET_DYN, 0x2000, _i);
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	check_syn(es, 0x2000);
	elfsyms_free(es);
}
END_TEST

/*
 * ARM: a Thumb function's symbol has bit 0 set (func_a at text+1); the
 * function starts at text, so text+0x10 is func_a+0x10. Other machines
 * keep the value as it is (an odd st_value starts there).
 */
START_TEST(test_elf32_arm_thumb)
{
	static unsigned char img[SYN_SIZE];
	Elf32_Sym *sym = (Elf32_Sym *)(img + SYN_SYMS);
	struct bb_elfsyms *es;
	uint64_t off;

	syn_build_class(img, ET_DYN, 0x2000, 1);
	sym[1].st_value |= 1; /* local_a */
	sym[2].st_value |= 1; /* func_a */
	sym[3].st_value |= 1; /* func_b */
	((Elf32_Ehdr *)img)->e_machine = EM_ARM;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_str_eq(elfsyms_find(es, 0x2000, &off), "func_a");
	ck_assert_uint_eq(off, 0);
	ck_assert_str_eq(elfsyms_find(es, 0x2010, &off), "func_a");
	ck_assert_uint_eq(off, 0x10);
	ck_assert_str_eq(elfsyms_find(es, 0x2020, &off), "func_b");
	ck_assert_uint_eq(off, 0);
	elfsyms_free(es);
	((Elf32_Ehdr *)img)->e_machine = EM_386;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_ptr_null(elfsyms_find(es, 0x2000, &off));
	ck_assert_str_eq(elfsyms_find(es, 0x2010, &off), "func_a");
	ck_assert_uint_eq(off, 0xf);
	elfsyms_free(es);
}
END_TEST

/* Where a file this process can map executable lives (/tmp may be
 * noexec); returns an fd to a new unlinked-at-end file, path in buf. */
static int exec_tmpfile(char *buf, size_t len)
{
	static const char *const dirs[] = { BB_BUILD_DIR, "/tmp", "." };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;
		void *p;

		snprintf(buf, len, "%s/usym-test-XXXXXX", dirs[i]);
		fd = mkstemp(buf);
		if (fd < 0)
			continue;
		if (ftruncate(fd, 4096) == 0) {
			p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE,
				 fd, 0);
			if (p != MAP_FAILED) {
				munmap(p, 4096);
				return fd;
			}
		}
		close(fd);
		unlink(buf);
	}
	return -1;
}

/*
 * The whole path on synthetic files: map page 1 (file offset 0x1000)
 * executable anywhere in this process, as the dynamic loader would; the
 * address of func_a+0x10 there must come back as func_a+0x10, for an
 * ET_EXEC (vaddr 0x401000) and an ET_DYN (vaddr 0x2000) alike.
 */
START_TEST(test_synthetic_mapped)
{
	static unsigned char img[SYN_SIZE];
	static const struct { int type; uint64_t vaddr; int is32; } kinds[] = {
		{ ET_EXEC, 0x401000, 0 }, { ET_DYN, 0x2000, 0 },
		{ ET_EXEC, 0x401000, 1 }, { ET_DYN, 0x2000, 1 },
	};
	char path[4096];
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct bb_usyms *u;
		struct bb_usym s;
		unsigned char *map;
		int fd = exec_tmpfile(path, sizeof(path));

		ck_assert_msg(fd >= 0, "no directory allows PROT_EXEC mappings");
		syn_build_class(img, kinds[k].type, kinds[k].vaddr,
				kinds[k].is32);
		ck_assert_int_eq(pwrite(fd, img, sizeof(img), 0), sizeof(img));
		map = mmap(NULL, 0x1000, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			   fd, SYN_TEXT);
		ck_assert_ptr_ne(map, MAP_FAILED);
		ck_assert_int_eq(usyms_new(&u), 0);
		ck_assert_int_eq(usyms_find(u, getpid(),
					    (uint64_t)(uintptr_t)map + 0x10,
					    &s), 0);
		ck_assert_ptr_nonnull(s.module);
		ck_assert_str_eq(s.module, strrchr(path, '/') + 1);
		ck_assert_ptr_nonnull(s.name);
		ck_assert_str_eq(s.name, "func_a");
		ck_assert_uint_eq(s.off, 0x10);
		ck_assert_int_eq(usyms_find(u, getpid(),
					    (uint64_t)(uintptr_t)map + 0x24,
					    &s), 0);
		ck_assert_str_eq(s.name, "func_b");
		ck_assert_uint_eq(s.off, 4);
		usyms_free(u);
		munmap(map, 0x1000);
		close(fd);
		unlink(path);
	}
}
END_TEST

/* ---- MiniDebugInfo (.gnu_debugdata) ---- */

/*
 * A program stripped as Fedora's find-debuginfo does it: the functions
 * .dynsym lacks kept in a .symtab-only ELF (objcopy --only-keep-debug,
 * then -S --keep-symbols), compressed with xz (each check it may have)
 * and added as .gnu_debugdata, the program itself stripped. Made here with
 * cc, nm, objcopy, strip and xz: DIR/full (unstripped), DIR/bare (stripped,
 * nothing added) and DIR/mdi-CHECK.
 */
static const char mdi_script[] =
	"set -e; cd \"$1\"\n"
	"cat >p.c <<'C'\n"
	"__attribute__((noinline)) static int mdi_local(int x)\n"
	"{ __asm__ volatile(\"\" : \"+r\"(x)); return x + 1; }\n"
	"__attribute__((noinline)) int mdi_global(int x)\n"
	"{ return mdi_local(x) * 2; }\n"
	"int main(int c, char **v) { (void)v; return mdi_global(c); }\n"
	"C\n"
	"cc -O1 -o full p.c\n"
	"cc -O1 -Wl,--build-id=md5 -o md5 p.c\n"
	"nm -D full --format=posix --defined-only | awk '{ print $1 }' "
	"| sort >dynsyms\n"
	"nm full --format=posix --defined-only | awk '$2 ~ /^[TtD]$/ "
	"{ print $1 }' | sort >funcsyms\n"
	"comm -13 dynsyms funcsyms >keep\n"
	"objcopy --only-keep-debug full debug\n"
	"objcopy -S --remove-section .gdb_index --remove-section .comment "
	"--keep-symbols=keep debug mini\n"
	"cp full bare\n"
	"strip --strip-all -R .comment bare\n"
	"for c in crc64 crc32 none; do\n"
	"  xz --format=xz --check=$c -c mini >mini.$c.xz\n"
	"  cp bare mdi-$c\n"
	"  objcopy --add-section .gnu_debugdata=mini.$c.xz mdi-$c\n"
	"done\n"
	/* split as Debian's -dbg packages: the program stripped of its
	 * .symtab, the rest in a debug file found by .gnu_debuglink (next
	 * to it, in .debug/, in ROOT/DIR) or by build id (ROOT/.build-id) */
	"cc -O1 -Wl,--build-id=none -o nobid p.c\n"
	"objcopy --only-keep-debug nobid nobid.debug\n"
	"dosplit() { mkdir -p \"$2\" \"$(dirname \"$3\")\"; cp $1 \"$2/prog\"\n"
	"  strip --strip-debug --strip-unneeded \"$2/prog\"\n"
	"  cp $4 \"$3\"\n"
	"  [ -z \"$5\" ] || objcopy --add-gnu-debuglink=\"$3\" \"$2/prog\"; }\n"
	"dosplit full split/next split/next/prog.debug debug link\n"
	"dosplit full split/sub split/sub/.debug/prog.debug debug link\n"
	"dosplit full split/rootdir splitroot$(pwd -P)/split/rootdir/"
	"prog.debug "
	"debug link\n"
	"id=$(readelf -n full | sed -n 's/.*Build ID: //p')\n"
	"dosplit full split/byid bidroot/.build-id/$(echo $id | cut -c1-2)/"
	"$(echo $id | cut -c3-).debug debug\n"
	"dosplit nobid split/crc split/crc/prog.debug nobid.debug link\n"
	"dosplit nobid split/badcrc split/badcrc/prog.debug nobid.debug link\n"
	"echo >>split/badcrc/prog.debug\n"
	"dosplit full split/otherid split/otherid/prog.debug md5 link\n";

static char mdi_dir[4096];

const char *mdi_path(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", mdi_dir, name);
	return path;
}

void mdi_build(void)
{
	char cmd[4400];
	FILE *f;

	snprintf(mdi_dir, sizeof(mdi_dir), "%s/usym-mdi-XXXXXX", BB_BUILD_DIR);
	ck_assert_ptr_nonnull(mkdtemp(mdi_dir));
	f = fopen(mdi_path("make.sh"), "w");
	ck_assert_ptr_nonnull(f);
	fputs(mdi_script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "sh %s %s", mdi_path("make.sh"), mdi_dir);
	ck_assert_msg(system(cmd) == 0, "%s failed (cc, binutils, xz-utils?)",
		      cmd);
}

void mdi_clean(void)
{
	char cmd[4400];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", mdi_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Where `name` is in the unstripped program `file` of mdi_dir, by libelf. */
static uint64_t file_addr(const char *file, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t addr = 0;
	Elf *e;
	int fd = open(mdi_path(file), O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t j;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		for (j = 0; j < sh.sh_size / sh.sh_entsize; j++) {
			GElf_Sym sym;

			gelf_getsym(d, j, &sym);
			if (!strcmp(elf_strptr(e, sh.sh_link, sym.st_name), name))
				addr = sym.st_value;
		}
	}
	elf_end(e);
	close(fd);
	ck_assert_msg(addr, "no %s in the unstripped program", name);
	return addr;
}

static uint64_t full_addr(const char *name)
{
	return file_addr("full", name);
}

START_TEST(test_minidebuginfo)
{
	static const char *const checks[] = { "mdi-crc64", "mdi-crc32",
					      "mdi-none" };
	uint64_t local = full_addr("mdi_local"), global = full_addr("mdi_global");
	uint64_t main_at = full_addr("main"), off;
	struct bb_elfsyms *es;
	size_t i;

	/* stripped, nothing added: none of the three */
	ck_assert_int_eq(elfsyms_load(&es, mdi_path("bare")), 0);
	ck_assert_ptr_null(elfsyms_find(es, local, &off));
	ck_assert_ptr_null(elfsyms_find(es, main_at, &off));
	elfsyms_free(es);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(elfsyms_load(&es, mdi_path(checks[i])), 0);
		ck_assert_ptr_nonnull(elfsyms_find(es, local + 1, &off));
		ck_assert_str_eq(elfsyms_find(es, local + 1, &off), "mdi_local");
		ck_assert_uint_eq(off, 1);
		ck_assert_str_eq(elfsyms_find(es, global, &off), "mdi_global");
		ck_assert_uint_eq(off, 0);
		ck_assert_str_eq(elfsyms_find(es, main_at, &off), "main");
		elfsyms_free(es);
	}
}
END_TEST

/*
 * DIR/mdi-crc64 read whole into *buf (its length returned), and where
 * objcopy put its .gnu_debugdata (mini.crc64.xz's bytes, found in the
 * file): [*at, *at + *plen).
 */
int mdi_image(char **buf, size_t *at, size_t *plen)
{
	char *raw;
	int len;

	len = bb_read_file(mdi_path("mdi-crc64"), buf);
	ck_assert_int_gt(len, 0);
	*plen = bb_read_file(mdi_path("mini.crc64.xz"), &raw);
	ck_assert_int_gt((int)*plen, 24);
	for (*at = 0; *at + *plen <= (size_t)len; (*at)++)
		if (!memcmp(*buf + *at, raw, *plen))
			break;
	ck_assert_uint_le(*at + *plen, (size_t)len);
	free(raw);
	return len;
}

/* A damaged .gnu_debugdata (its check fails) adds no name, and the file
 * still reads (its .dynsym); so does one that is not xz at all. */
START_TEST(test_minidebuginfo_damaged)
{
	uint64_t local = full_addr("mdi_local"), off;
	struct bb_elfsyms *es;
	unsigned char *img;
	char *buf;
	size_t plen, at;
	int len, round;

	len = mdi_image(&buf, &at, &plen);
	img = (unsigned char *)buf;
	ck_assert_int_eq(elfsyms_parse(&es, img, len), 0);
	ck_assert_str_eq(elfsyms_find(es, local, &off), "mdi_local");
	elfsyms_free(es);
	for (round = 0; round < 40; round++) {
		size_t k = at + 12 + (size_t)round * (plen - 24) / 40;

		img[k] ^= 0x10;
		ck_assert_int_eq(elfsyms_parse(&es, img, len), 0);
		ck_assert_ptr_null(elfsyms_find(es, local, &off));
		elfsyms_free(es);
		img[k] ^= 0x10;
	}
	memset(img + at, 'x', plen);
	ck_assert_int_eq(elfsyms_parse(&es, img, len), 0);
	ck_assert_ptr_null(elfsyms_find(es, local, &off));
	elfsyms_free(es);
	free(buf);
}
END_TEST

/* ---- build ids ---- */

/* The GNU build id of a file by libelf (its SHT_NOTE sections); length. */
static size_t libelf_build_id(const char *path, uint8_t *id)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;
	Elf *e;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(e);
	while ((scn = elf_nextscn(e, scn)) && !n) {
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, name, desc;
		GElf_Shdr sh;
		GElf_Nhdr nh;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_NOTE || !d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name, &desc)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name, "GNU", 4)) {
				n = nh.n_descsz;
				memcpy(id, (char *)d->d_buf + desc, n);
				break;
			}
	}
	elf_end(e);
	close(fd);
	return n;
}

/* The program's and the ELF32 ARM one's, as libelf reads them; none in
 * the synthetic file (it has no PT_NOTE). */
START_TEST(test_build_id)
{
	const char *paths[] = { mdi_path("full"), arm32_path() };
	const uint8_t *id;
	uint8_t want[64];
	struct bb_elfsyms *es;
	static unsigned char img[SYN_SIZE];
	size_t i, n;

	for (i = 0; i < 2; i++) {
		if (!paths[i])
			continue; /* no cross compiler (said by matches_libelf) */
		n = libelf_build_id(paths[i], want);
		ck_assert_uint_eq(n, 20); /* ld's default, sha1 */
		ck_assert_int_eq(elfsyms_load(&es, paths[i]), 0);
		ck_assert_uint_eq(elfsyms_build_id(es, &id), n);
		ck_assert(!memcmp(id, want, n));
		elfsyms_free(es);
	}
	syn_build(img, ET_DYN, 0x2000);
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_uint_eq(elfsyms_build_id(es, &id), 0);
	elfsyms_free(es);
}
END_TEST

/* The file offset of a function of an unstripped program (its PT_LOAD). */
static uint64_t file_foff(const char *file, const char *name)
{
	uint64_t va = file_addr(file, name), foff = 0;
	GElf_Phdr ph;
	size_t i, n;
	Elf *e;
	int fd = open(mdi_path(file), O_RDONLY);

	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_int_eq(elf_getphdrnum(e, &n), 0);
	for (i = 0; i < n; i++)
		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD &&
		    va >= ph.p_vaddr && va - ph.p_vaddr < ph.p_filesz)
			foff = va - ph.p_vaddr + ph.p_offset;
	elf_end(e);
	close(fd);
	ck_assert_uint_ne(foff, 0);
	return foff;
}

static uint64_t full_foff(const char *name)
{
	return file_foff("full", name);
}

static void put_debug(const char *root, const uint8_t *id, const char *from)
{
	char cmd[9000], hex[80];
	size_t i;

	for (i = 1; i < 20; i++)
		snprintf(hex + 2 * (i - 1), 3, "%02x", id[i]);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%02x && "
		 "cp %s %s/.build-id/%02x/%s.debug", root, id[0], from, root,
		 id[0], hex);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * By build id and file offset, without a pid: this process's own program
 * once its maps were read (its file read then, or only now); a program
 * never seen, from a debug directory: named if the file there is whole,
 * [unknown] if it is a --only-keep-debug file (its PT_LOADs hold no
 * bytes, offsets cannot be placed), -ENOENT if there is none.
 */
START_TEST(test_find_build_id)
{
	uint64_t a = (uint64_t)(uintptr_t)&usym_test_target, foff = 0;
	struct bb_maps_line m;
	struct bb_elfsyms *es;
	struct bb_usyms *u;
	struct bb_usym s;
	const uint8_t *bid;
	uint8_t id[20], other[20];
	char line[4300], root[4200];
	size_t len;
	FILE *f;
	int round;

	ck_assert_int_eq(elfsyms_load(&es, "/proc/self/exe"), 0);
	len = elfsyms_build_id(es, &bid);
	ck_assert_uint_eq(len, 20);
	memcpy(id, bid, len);
	elfsyms_free(es);
	f = fopen("/proc/self/maps", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (usym_parse_maps_line(line, &m) == 0 && a >= m.start &&
		    a < m.end)
			foff = a - m.start + m.offset;
	}
	fclose(f);
	ck_assert_uint_ne(foff, 0);
	snprintf(root, sizeof(root), "%s/root", mdi_dir);
	for (round = 0; round < 2; round++) {
		ck_assert_int_eq(usyms_new(&u), 0);
		usyms_set_debug_root(u, root);
		ck_assert_int_eq(usyms_add_pid(u, getpid()), 0);
		if (round) /* its file read by a lookup, before */
			ck_assert_int_eq(usyms_find(u, getpid(), a, &s), 0);
		ck_assert_int_eq(usyms_find_build_id(u, id, 20, foff + 3, &s), 0);
		ck_assert_ptr_nonnull(s.name);
		ck_assert_str_eq(s.name, "usym_test_target");
		ck_assert_uint_eq(s.off, 3);
		ck_assert_str_eq(s.module, self_base());
		usyms_free(u);
	}
	/* a program no process showed: the debug directory */
	ck_assert_uint_eq(libelf_build_id(mdi_path("full"), other), 20);
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, root);
	ck_assert_int_eq(usyms_find_build_id(u, other, 20,
					     full_foff("mdi_local"), &s),
			 -ENOENT);
	ck_assert_ptr_null(s.name);
	usyms_free(u);
	put_debug(root, other, mdi_path("full"));
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, root);
	ck_assert_int_eq(usyms_find_build_id(u, other, 20,
					     full_foff("mdi_local") + 1, &s), 0);
	ck_assert_str_eq(s.name, "mdi_local");
	ck_assert_uint_eq(s.off, 1);
	usyms_free(u);
	put_debug(root, other, mdi_path("debug"));
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, root);
	ck_assert_int_eq(usyms_find_build_id(u, other, 20,
					     full_foff("mdi_local"), &s), 0);
	ck_assert_ptr_null(s.name);
	usyms_free(u);
	/* a build id of nothing */
	other[5] ^= 1;
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, root);
	ck_assert_int_eq(usyms_find_build_id(u, other, 20, 0x1000, &s),
			 -ENOENT);
	ck_assert_int_eq(usyms_find_build_id(u, other, 0, 0x1000, &s),
			 -EINVAL);
	usyms_free(u);
}
END_TEST

/* The file offset of vaddr in the program file (its PT_LOAD). */
static uint64_t va_foff(const char *file, uint64_t va)
{
	uint64_t foff = 0;
	GElf_Phdr ph;
	size_t i, n;
	Elf *e;
	int fd = open(mdi_path(file), O_RDONLY);

	ck_assert_int_ge(fd, 0);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_int_eq(elf_getphdrnum(e, &n), 0);
	for (i = 0; i < n; i++)
		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD &&
		    va >= ph.p_vaddr && va - ph.p_vaddr < ph.p_filesz)
			foff = va - ph.p_vaddr + ph.p_offset;
	elf_end(e);
	close(fd);
	ck_assert_uint_ne(foff, 0);
	return foff;
}

/* mdi_local + 1 in the file mapped into this process, named by usyms
 * (with the debug root set by usyms_set_debug_root, or not: NULL). */
static const char *split_name(struct bb_usyms *u, const char *file,
			      uint64_t va, char *name, size_t len)
{
	uint64_t foff = va_foff(file, va), page = foff & ~4095ULL;
	struct bb_usym s;
	unsigned char *map;
	int fd = open(mdi_path(file), O_RDONLY);

	ck_assert_int_ge(fd, 0);
	map = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, page);
	ck_assert_ptr_ne(map, MAP_FAILED);
	close(fd);
	ck_assert_int_eq(usyms_find(u, getpid(), (uint64_t)(uintptr_t)map +
				    (foff - page) + 1, &s), 0);
	ck_assert_str_eq(s.module, "prog");
	snprintf(name, len, "%s+%llu", s.name ? s.name : "[unknown]",
		 (unsigned long long)s.off);
	munmap(map, 4096);
	return name;
}

/*
 * A program stripped of its .symtab as Debian packages are (strip
 * --strip-debug --strip-unneeded), its static function named from the
 * separate debug file (objcopy --only-keep-debug) wherever gdb looks:
 * by .gnu_debuglink next to it, in its .debug/, in DEBUG_ROOT/DIR/; by
 * build id in DEBUG_ROOT/.build-id/xx/rest.debug (the root from
 * BAREBPF_DEBUG_ROOT, or usyms_set_debug_root); without build ids, by
 * the link's CRC32. Not from a debug file of another build (another
 * build id, a CRC that differs): [unknown], not a wrong name.
 */
START_TEST(test_split_debug)
{
	static const struct { const char *file; int named; } c[] = {
		{ "split/next/prog", 1 }, { "split/sub/prog", 1 },
		{ "split/rootdir/prog", 1 }, { "split/byid/prog", 1 },
		{ "split/crc/prog", 1 }, { "split/badcrc/prog", 0 },
		{ "split/otherid/prog", 0 },
	};
	char root[4200], name[256];
	struct bb_usyms *u;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *src = strstr(c[i].file, "crc") ? "nobid" : "full";
		uint64_t va = file_addr(src, "mdi_local");
		int env = i % 2;

		/* the build id's root apart: the links are found by link */
		snprintf(root, sizeof(root), "%s/%s", mdi_dir,
			 strstr(c[i].file, "byid") ? "bidroot" : "splitroot");

		/* stripped: .dynsym alone does not name it */
		{
			struct bb_elfsyms *es;
			uint64_t off;

			ck_assert_int_eq(elfsyms_load(&es, mdi_path(c[i].file)),
					 0);
			ck_assert_int_eq(elfsyms_has_symtab(es), 0);
			ck_assert_ptr_null(elfsyms_find(es, va + 1, &off));
			elfsyms_free(es);
		}
		ck_assert_int_eq(usyms_new(&u), 0);
		if (env)
			ck_assert_int_eq(setenv("BAREBPF_DEBUG_ROOT", root, 1),
					 0);
		else
			usyms_set_debug_root(u, root);
		ck_assert_str_eq(split_name(u, c[i].file, va, name,
					    sizeof(name)),
				 c[i].named ? "mdi_local+1" : "[unknown]+0");
		usyms_free(u);
		unsetenv("BAREBPF_DEBUG_ROOT");
	}
	/* the build id's directory, without the root: not found */
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, "/nonexistent");
	ck_assert_str_eq(split_name(u, "split/byid/prog",
				    file_addr("full", "mdi_local"), name,
				    sizeof(name)), "[unknown]+0");
	usyms_free(u);
}
END_TEST

/*
 * A build id shorter than 20 bytes (ld --build-id=md5: 16) as a build-id
 * stack map gives it, padded with zeros to 20: stackcount names the frame
 * from the file of the 16-byte id, which a lookup of the 20 bytes as they
 * are does not find.
 */
START_TEST(test_padded_build_id)
{
	uint8_t id[64], padded[BB_STACK_BUILD_ID_SIZE] = { 0 };
	uint64_t foff = file_foff("md5", "mdi_local");
	char root[4200], cmd[9000], hex[40];
	struct bb_usyms *u;
	struct bb_usym s;
	size_t i, n = libelf_build_id(mdi_path("md5"), id);

	ck_assert_uint_eq(n, 16);
	memcpy(padded, id, n);
	for (i = 1; i < n; i++)
		snprintf(hex + 2 * (i - 1), 3, "%02x", id[i]);
	snprintf(root, sizeof(root), "%s/padroot", mdi_dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%02x && cp %s "
		 "%s/.build-id/%02x/%s.debug", root, id[0], mdi_path("md5"),
		 root, id[0], hex);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(usyms_new(&u), 0);
	usyms_set_debug_root(u, root);
	ck_assert_int_eq(usyms_find_build_id(u, padded, 20, foff, &s),
			 -ENOENT);
	ck_assert_int_eq(stackcount_find_build_id(u, padded, foff + 1, &s), 0);
	ck_assert_ptr_nonnull(s.name);
	ck_assert_str_eq(s.name, "mdi_local");
	ck_assert_uint_eq(s.off, 1);
	/* a 20-byte id is taken whole: one of nothing stays not found */
	memset(padded, 0x5a, sizeof(padded));
	ck_assert_int_eq(stackcount_find_build_id(u, padded, foff, &s),
			 -ENOENT);
	ck_assert_ptr_null(s.name);
	usyms_free(u);
}
END_TEST

START_TEST(test_not_elf)
{
	static unsigned char img[SYN_SIZE];
	struct bb_elfsyms *es = (void *)1;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;

	ck_assert_int_eq(elfsyms_parse(&es, "", 0), -ENOEXEC);
	ck_assert_ptr_null(es);
	ck_assert_int_eq(elfsyms_parse(&es, "\177ELF", 4), -ENOEXEC);
	syn_build(img, ET_REL, 0);
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), -ENOEXEC);
	syn_build(img, ET_EXEC, 0x401000);
	eh->e_ident[EI_CLASS] = ELFCLASSNONE;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), -ENOEXEC);
	eh->e_ident[EI_CLASS] = 3;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), -ENOEXEC);
	/* ELF64 tables under an ELF32 header: read as ELF32, its fields say
	 * no program or section headers; nothing found, nothing guessed */
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_uint_eq(elfsyms_count(es), 0);
	ck_assert_ptr_null(elfsyms_find(es, 0x401010, NULL));
	elfsyms_free(es);
	syn_build_class(img, ET_EXEC, 0x401000, 1);
	ck_assert_int_eq(elfsyms_parse(&es, img, 51), -ENOEXEC); /* cut */
	img[EI_DATA] = ELFDATA2MSB;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), -ENOEXEC);
	syn_build(img, ET_EXEC, 0x401000);
	eh->e_ident[EI_DATA] = ELFDATA2MSB;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), -ENOEXEC);
	ck_assert_int_eq(elfsyms_load(&es, "/nonexistent/usym"), -ENOENT);
	ck_assert_int_eq(elfsyms_load(&es, "/"), -ENOEXEC);
	/* procfs files claim size 0 */
	ck_assert_int_eq(elfsyms_load(&es, "/proc/self/maps"), -ENOEXEC);
}
END_TEST

/* A file with no section headers (sstrip) has no symbols: not an error. */
START_TEST(test_no_sections)
{
	static unsigned char img[SYN_SIZE];
	struct bb_elfsyms *es;
	uint64_t va;

	syn_build(img, ET_EXEC, 0x401000);
	((Elf64_Ehdr *)img)->e_shnum = 0;
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_uint_eq(elfsyms_count(es), 0);
	ck_assert_ptr_null(elfsyms_find(es, 0x401010, NULL));
	ck_assert_int_eq(elfsyms_vaddr(es, SYN_TEXT, &va), 0);
	elfsyms_free(es);
}
END_TEST

/* Targeted damage: each must be refused, none may crash. */
START_TEST(test_damaged_fields)
{
	static unsigned char img[SYN_SIZE];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + SYN_SH);
	Elf64_Sym *sym = (Elf64_Sym *)(img + SYN_SYMS);
	struct bb_elfsyms *es;
	int t;

	for (t = 0; t < 12; t++) {
		syn_build(img, ET_DYN, 0x2000);
		switch (t) {
		case 0: eh->e_shoff = ~0ULL - 8; break;
		case 1: eh->e_shoff = SYN_SIZE - 64; break;
		case 2: eh->e_phoff = ~0ULL; break;
		case 3: eh->e_phentsize = 12; break;
		case 4: eh->e_shentsize = 63; break;
		case 5: sh[2].sh_offset = ~0ULL - 100; break;
		case 6: sh[2].sh_size = ~0ULL / 24 * 24; break;
		case 7: sh[2].sh_link = 77; break;
		case 8: sh[2].sh_entsize = 0; break;
		case 9: sh[3].sh_size = SYN_SIZE * 4; break;
		case 10: sh[3].sh_type = SHT_PROGBITS; break;
		case 11: sh[2].sh_link = 2; break; /* a symtab as strtab */
		}
		ck_assert_msg(elfsyms_parse(&es, img, sizeof(img)) < 0,
			      "damage %d accepted", t);
	}
	/* a name outside the string table, and one without its NUL: the
	 * symbol is skipped, the rest is kept */
	syn_build(img, ET_DYN, 0x2000);
	sym[2].st_name = 0x7fffffff;
	sh[3].sh_size = sym[4].st_name + 3; /* cuts "asm_c" short */
	ck_assert_int_eq(elfsyms_parse(&es, img, sizeof(img)), 0);
	ck_assert_uint_eq(elfsyms_count(es), 2);
	elfsyms_free(es);
	/* a PT_LOAD whose end wraps around */
	syn_build(img, ET_DYN, ~0ULL - 16);
	ck_assert_int_lt(elfsyms_parse(&es, img, sizeof(img)), 0);
}
END_TEST

/* Every truncation of the synthetic file (_i: 0 ELF64, 1 ELF32). */
START_TEST(test_truncated)
{
	static unsigned char img[SYN_SIZE];
	struct bb_elfsyms *es;
	size_t len;

	syn_build_class(img, ET_EXEC, 0x401000, _i);
	for (len = 0; len < sizeof(img); len++) {
		if (elfsyms_parse(&es, img, len) == 0) {
			elfsyms_find(es, 0x401010, NULL);
			elfsyms_free(es);
		}
	}
}
END_TEST

static uint32_t rng_state = 12345;

static uint32_t rng(void)
{
	rng_state = rng_state * 1103515245 + 12345;
	return rng_state >> 8;
}

/* Random bytes at random places of the tables; lookups on whatever parses. */
START_TEST(test_flipped)
{
	static unsigned char img[SYN_SIZE];
	struct bb_elfsyms *es;
	uint64_t va;
	int round, k, ok = 0;

	for (round = 0; round < 20000; round++) {
		syn_build_class(img, round & 1 ? ET_EXEC : ET_DYN, 0x401000,
				_i);
		for (k = 0; k < 1 + (int)(rng() % 4); k++) {
			/* mostly the headers and tables of page 0 */
			size_t at = rng() % (round % 3 ? 0x700 : SYN_SIZE);

			img[at] = rng() % 3 ? (unsigned char)rng() : 0xff;
		}
		if (elfsyms_parse(&es, img, sizeof(img)) == 0) {
			ok++;
			elfsyms_find(es, 0x401010, NULL);
			elfsyms_find(es, ~0ULL, NULL);
			elfsyms_vaddr(es, SYN_TEXT + 8, &va);
			elfsyms_free(es);
		}
	}
	ck_assert_int_gt(ok, 0);
}
END_TEST

/* The same on a real binary (this one): damaged headers, truncations. */
START_TEST(test_real_damaged)
{
	struct bb_elfsyms *es;
	char *buf;
	unsigned char *img;
	int len, round;

	len = bb_read_file("/proc/self/exe", &buf);
	ck_assert_int_gt(len, 4096);
	img = malloc(len);
	ck_assert_ptr_nonnull(img);
	for (round = 0; round < 3000; round++) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
		size_t at, n = len;

		memcpy(img, buf, len);
		switch (round % 3) {
		case 0: /* the ELF and program headers */
			at = rng() % 512;
			break;
		case 1: /* the section headers */
			at = eh->e_shoff + rng() % (eh->e_shnum * 64);
			break;
		default: /* a cut anywhere */
			at = 0;
			n = rng() % len;
			break;
		}
		if (at < (size_t)len)
			img[at] = (unsigned char)rng();
		if (elfsyms_parse(&es, img, n) == 0) {
			elfsyms_find(es, (uint64_t)(uintptr_t)&usym_test_target,
				     NULL);
			elfsyms_free(es);
		}
	}
	free(img);
	free(buf);
}
END_TEST

/* /proc/PID/stat: the start time is field 22, after a comm that may hold
 * blanks and parentheses. */
START_TEST(test_stat_start)
{
	unsigned long long st = 0;

	ck_assert_int_eq(usym_parse_stat_start("1234 (bash) S 1 1234 1234 0 -1 "
		"4194304 100 0 0 0 1 2 0 0 20 0 1 0 987654 123 4 5", &st), 0);
	ck_assert_uint_eq(st, 987654);
	ck_assert_int_eq(usym_parse_stat_start("7 (a (b) c) R 1 7 7 0 -1 0 0 "
		"0 0 0 0 0 0 0 20 0 1 0 42 1", &st), 0);
	ck_assert_uint_eq(st, 42);
	ck_assert_int_eq(usym_parse_stat_start("7 (x) R 1 2 3", &st), -EINVAL);
	ck_assert_int_eq(usym_parse_stat_start("no paren", &st), -EINVAL);
}
END_TEST

static Suite *usym_suite(void)
{
	Suite *s = suite_create("usym");
	TCase *tc = tcase_create("core");
	TCase *fz = tcase_create("damaged"), *md;

	tcase_add_test(tc, test_maps_line_file);
	tcase_add_test(tc, test_maps_line_kinds);
	tcase_add_test(tc, test_maps_line_bad);
	tcase_add_test(tc, test_self_functions);
	tcase_add_test(tc, test_exited_process);
	tcase_add_test(tc, test_no_such_process);
	tcase_add_loop_test(tc, test_matches_libelf, 0, 3);
	tcase_add_loop_test(tc, test_synthetic_exec_and_dyn, 0, 2);
	tcase_add_test(tc, test_elf32_arm_thumb);
	tcase_add_test(tc, test_synthetic_mapped);
	tcase_add_test(tc, test_not_elf);
	tcase_add_test(tc, test_no_sections);
	tcase_add_test(tc, test_stat_start);
	suite_add_tcase(s, tc);
	tcase_set_timeout(fz, 60);
	tcase_add_test(fz, test_damaged_fields);
	tcase_add_loop_test(fz, test_truncated, 0, 2);
	tcase_add_loop_test(fz, test_flipped, 0, 2);
	tcase_add_test(fz, test_real_damaged);
	suite_add_tcase(s, fz);
	md = tcase_create("minidebuginfo");
	tcase_add_unchecked_fixture(md, mdi_build, mdi_clean);
	tcase_add_test(md, test_minidebuginfo);
	tcase_add_test(md, test_minidebuginfo_damaged);
	tcase_add_test(md, test_build_id);
	tcase_add_test(md, test_find_build_id);
	tcase_add_test(md, test_padded_build_id);
	tcase_add_test(md, test_split_debug);
	suite_add_tcase(s, md);
	return s;
}

BBTEST_SUITE(usym, usym_suite, NULL)
