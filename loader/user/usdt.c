/* SPDX-License-Identifier: MIT */
/*
 * USDT probes (see usdt.h): systemtap's <sys/sdt.h> puts a nop where the
 * probe is and a note in .note.stapsdt (owner "stapsdt", type 3) whose
 * description is three addresses (the nop, the link-time address of
 * .stapsdt.base, the semaphore or 0), each 8 bytes in ELF64 and 4 in
 * ELF32, then "provider\0name\0arguments\0". Where prelink moved the
 * file, .stapsdt.base's address says by how much (the note's base is the
 * old one): both the nop and the semaphore move with it.
 *
 * The argument string is the assembler's text of each operand: what the
 * operand forms are per architecture is what GCC and clang print for the
 * "nor" constraint sys/sdt.h uses (checked with their -S output; bcc's
 * usdt_args.cc and libbpf's usdt.c read the same).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include "usdt.h"
#include "uelf.h"
#include "arch.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif


#define NT_STAPSDT 3
/* .note.stapsdt of libjvm is ~100 KiB */
#define USDT_MAX_SECTION (16u << 20)

/* ---- the argument operands ---- */

/* Register s[0, len) of machine m. */
static int lookup_reg(int m, const char *s, size_t len,
		      struct bb_arch_reg *r)
{
	const struct bb_arch *a = bb_arch_of_machine(m);
	const struct bb_arch_reg *f = a ? bb_arch_reg(a, s, len) : NULL;

	if (!f)
		return -ENOENT;
	*r = *f;
	return 0;
}

static int regsize_of(int machine)
{
	return bb_arch_of_machine(machine)->regsize;
}

/* The operand being read, and where a failure is reported. */
struct op {
	const char *text; /* the operand, after "N@" */
	size_t len;
	int argn;
	int machine;
	struct bb_err *err;
};

static int op_fail(const struct op *o, const char *why)
{
	return bb_fail(o->err, -EINVAL, "USDT argument %d '%.*s': %s",
		       o->argn, (int)(o->len > 64 ? 64 : o->len), o->text,
		       why);
}

static int is_regch(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* A number at *s (decimal, 0x hex, optionally signed), moving *s past. */
static int number(const char **s, const char *end, int64_t *v)
{
	const char *p = *s;
	int neg = 0, base = 10, digits = 0;
	uint64_t n = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (; p < end; p++, digits++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (n > (UINT64_MAX - d) / base)
			return -ERANGE;
		n = n * base + d;
	}
	if (!digits)
		return -EINVAL;
	*v = neg ? (int64_t)(0 - n) : (int64_t)n;
	*s = p;
	return 0;
}

/* A register named from s up to its last letter or digit. */
static int reg_at(const struct op *o, const char **s, const char *end,
		  struct bb_arch_reg *r)
{
	const char *e = *s;

	while (e < end && is_regch(*e))
		e++;
	if (e == *s || lookup_reg(o->machine, *s, e - *s, r) < 0) {
		if (o->machine == EM_X86_64 && e - *s == 2 && (*s)[1] == 'h')
			return op_fail(o, "the high byte registers (%ah, %bh, "
				       "%ch, %dh) are not supported");
		if (o->machine == EM_X86_64 && e - *s == 3 &&
		    !memcmp(*s, "rip", 3))
			return op_fail(o, "an operand relative to %rip (a "
				       "global variable) needs the program's "
				       "load address, which is not known to "
				       "a probe; not supported");
		return op_fail(o, "not a register of this architecture");
	}
	*s = e;
	return 0;
}

static int skip_blanks(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return (int)(p - s);
}

/* x86_64 (AT&T): %reg, $imm, disp(%reg), (%reg) */
static int op_x86(const struct op *o, struct usdt_arg *a)
{
	const char *s = o->text, *end = s + o->len;
	struct bb_arch_reg r;

	if (*s == '$') {
		s++;
		if (number(&s, end, &a->val) < 0 || s != end)
			return op_fail(o, "a constant operand that is not a "
				       "number (a symbol's address) is not "
				       "supported");
		a->kind = USDT_CONST;
		return 0;
	}
	if (*s == '%') {
		s++;
		if (reg_at(o, &s, end, &r) < 0)
			return -EINVAL;
		if (s != end)
			return op_fail(o, "not an operand (expected %REG, "
				       "$NUMBER or DISP(%REG))");
		a->kind = USDT_REG;
		a->reg_off = r.off;
		return 0;
	}
	a->val = 0;
	if (*s != '(' && number(&s, end, &a->val) < 0) {
		const char *p = memchr(s, '(', end - s);

		if (p && end - p >= 6 && !memcmp(p, "(%rip)", 6))
			return op_fail(o, "an operand relative to %rip (a "
				       "global variable) needs the program's "
				       "load address, which is not known to "
				       "a probe; not supported");
		return op_fail(o, "not an operand (expected %REG, $NUMBER or "
			       "DISP(%REG))");
	}
	if (s == end)
		return op_fail(o, "an absolute memory address is not "
			       "supported");
	if (end - s < 3 || s[0] != '(' || s[1] != '%')
		return op_fail(o, "not an operand (expected %REG, $NUMBER or "
			       "DISP(%REG))");
	s += 2;
	if (reg_at(o, &s, end, &r) < 0)
		return -EINVAL;
	if (r.width != 8)
		return op_fail(o, "an address in a register narrower than 64 "
			       "bits");
	a->kind = USDT_MEM;
	a->reg_off = r.off;
	/* DISP(%BASE,%INDEX[,SCALE]): an array's element */
	if (s < end && *s == ',') {
		int64_t scale = 1;

		if (end - s < 3 || s[1] != '%')
			return op_fail(o, "not an operand (expected "
				       "DISP(%BASE,%INDEX,SCALE))");
		s += 2;
		if (reg_at(o, &s, end, &r) < 0)
			return -EINVAL;
		if (r.width != 8)
			return op_fail(o, "an index in a register narrower "
				       "than 64 bits");
		if (s < end && *s == ',') {
			s++;
			if (number(&s, end, &scale) < 0 ||
			    (scale != 1 && scale != 2 && scale != 4 &&
			     scale != 8))
				return op_fail(o, "the scale of an index is 1, "
					       "2, 4 or 8");
		}
		a->idx_off = r.off;
		a->shift = scale == 8 ? 3 : scale == 4 ? 2 : scale == 2;
	}
	if (s + 1 != end || *s != ')')
		return op_fail(o, "not an operand (expected DISP(%REG) or "
			       "DISP(%BASE,%INDEX,SCALE))");
	return 0;
}

/* arm64 (reg, [reg], [reg, disp], imm) and arm ([reg, #disp], #imm):
 * hash says whether numbers carry '#' (optional on arm64) */
static int arm_index(const struct op *o, const char **s, const char *end,
		     struct usdt_arg *a)
{
	int64_t n = 0;
	struct bb_arch_reg r;

	if (reg_at(o, s, end, &r) < 0)
		return -EINVAL;
	if (r.width != regsize_of(o->machine))
		return op_fail(o, "an index in a 32-bit register (extended) "
			       "is not supported");
	*s += skip_blanks(*s, end);
	if (*s < end && **s == ',') {
		(*s)++;
		*s += skip_blanks(*s, end);
		if (end - *s < 4 || memcmp(*s, "lsl", 3))
			return op_fail(o, "an index shifted other than by lsl "
				       "is not supported");
		*s += 3;
		*s += skip_blanks(*s, end);
		*s += *s < end && **s == '#';
		if (number(s, end, &n) < 0 || n < 0 || n > 3)
			return op_fail(o, "an index shifted by other than lsl "
				       "0 to 3 is not supported");
	}
	a->idx_off = r.off;
	a->shift = (int)n;
	return 0;
}

static int op_arm(const struct op *o, struct usdt_arg *a)
{
	const char *s = o->text, *end = s + o->len;
	struct bb_arch_reg r;
	int ret;

	if (*s == '#' || *s == '-' || (*s >= '0' && *s <= '9')) {
		s += *s == '#';
		if (number(&s, end, &a->val) < 0 || s != end)
			return op_fail(o, "not a number");
		a->kind = USDT_CONST;
		return 0;
	}
	if (*s != '[') {
		if (reg_at(o, &s, end, &r) < 0)
			return -EINVAL;
		if (s != end)
			return op_fail(o, "not an operand (expected REG, NUMBER "
				       "or [REG, DISP])");
		a->kind = USDT_REG;
		a->reg_off = r.off;
		return 0;
	}
	s++;
	s += skip_blanks(s, end);
	if (reg_at(o, &s, end, &r) < 0)
		return -EINVAL;
	s += skip_blanks(s, end);
	a->val = 0;
	if (s < end && *s == ',') {
		s++;
		s += skip_blanks(s, end);
		if (s < end && *s >= 'a' && *s <= 'z') {
			/* [BASE, INDEX{, lsl N}]: an array's element */
			ret = arm_index(o, &s, end, a);
			if (ret < 0)
				return ret;
		} else {
			s += s < end && *s == '#';
			if (number(&s, end, &a->val) < 0)
				return op_fail(o, "not an operand (expected "
					       "[REG, DISP])");
		}
		s += skip_blanks(s, end);
	}
	if (s + 1 != end || *s != ']')
		return op_fail(o, "not an operand (expected [REG] or [REG, "
			       "DISP]; pre- and post-index forms are not "
			       "supported)");
	if (r.width != regsize_of(o->machine))
		return op_fail(o, "an address in a 32-bit register");
	a->kind = USDT_MEM;
	a->reg_off = r.off;
	return 0;
}

/* riscv64: reg, imm, disp(reg) */
static int op_riscv(const struct op *o, struct usdt_arg *a)
{
	const char *s = o->text, *end = s + o->len;
	struct bb_arch_reg r;

	a->val = 0;
	if (*s == '-' || (*s >= '0' && *s <= '9')) {
		if (number(&s, end, &a->val) < 0)
			return op_fail(o, "not a number");
		if (s == end) {
			a->kind = USDT_CONST;
			return 0;
		}
	}
	if (*s != '(') {
		if (reg_at(o, &s, end, &r) < 0)
			return -EINVAL;
		if (s != end)
			return op_fail(o, "not an operand (expected REG, NUMBER "
				       "or DISP(REG))");
		a->kind = USDT_REG;
		a->reg_off = r.off;
		return 0;
	}
	s++;
	if (reg_at(o, &s, end, &r) < 0)
		return -EINVAL;
	if (s + 1 != end || *s != ')')
		return op_fail(o, "not an operand (expected DISP(REG))");
	a->kind = USDT_MEM;
	a->reg_off = r.off;
	return 0;
}

int usdt_args_parse(const char *spec, int machine, struct usdt_arg *args,
		    int max, struct bb_err *err)
{
	const char *s = spec;
	int n = 0;

	if (!bb_arch_of_machine(machine))
		return bb_fail(err, -EOPNOTSUPP, "USDT arguments of ELF "
			       "machine %d are not supported (x86_64, "
			       "aarch64, arm and riscv64 are)", machine);
	for (;;) {
		struct usdt_arg *a;
		struct op o = { 0 };
		const char *at, *e;
		int64_t size;
		int ret;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return bb_fail(err, -EINVAL, "more than %d USDT "
				       "arguments", max);
		a = &args[n++];
		memset(a, 0, sizeof(*a));
		a->idx_off = -1;
		/* an operand ends at a blank outside brackets ("[sp, 8]") */
		for (e = s; *e && *e != ' ' && *e != '\t'; e++)
			if (*e == '[') {
				const char *c = strchr(e, ']');

				e = c ? c : e + strlen(e) - 1;
			}
		at = memchr(s, '@', e - s);
		o.text = at ? at + 1 : s;
		o.len = e - o.text;
		o.argn = n;
		o.machine = machine;
		o.err = err;
		if (!at)
			return bb_fail(err, -EINVAL, "USDT argument %d '%.*s': "
				       "not SIZE@OPERAND", n,
				       (int)(e - s > 64 ? 64 : e - s), s);
		if (number(&s, at, &size) < 0 || s != at ||
		    (size != 1 && size != 2 && size != 4 && size != 8 &&
		     size != -1 && size != -2 && size != -4 && size != -8))
			return op_fail(&o, "the size before '@' is not 1, 2, 4 "
				       "or 8 (negative: signed)");
		a->is_signed = size < 0;
		a->size = (int)(size < 0 ? -size : size);
		if (!o.len)
			return op_fail(&o, "no operand after '@'");
		if (machine == EM_X86_64)
			ret = op_x86(&o, a);
		else if (machine == EM_RISCV)
			ret = op_riscv(&o, a);
		else
			ret = op_arm(&o, a);
		if (ret < 0)
			return ret;
		if (a->kind == USDT_REG && a->size > regsize_of(machine))
			return op_fail(&o, "an argument wider than its "
				       "register");
		s = e;
	}
}

/* ---- the notes ---- */

struct nf {
	struct es_src src;
	Elf64_Ehdr eh;
};

/* Link-time address -> file offset, through the PT_LOAD holding it. */
static int nf_foff(const struct nf *f, uint64_t vaddr, uint64_t *foff)
{
	Elf64_Phdr ph;
	uint32_t i;

	for (i = 0; i < f->eh.e_phnum; i++) {
		if (es_phdr(&f->src, &f->eh, i, &ph) < 0)
			return -EBADMSG;
		if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr - ph.p_vaddr < ph.p_filesz &&
		    es_fits(&f->src, ph.p_offset, ph.p_filesz, 1)) {
			*foff = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* Section i's name, if it is one of the two we want: 1 .note.stapsdt,
 * 2 .stapsdt.base, else 0. */
static int section_kind(const struct nf *f, const Elf64_Shdr *names,
			const Elf64_Shdr *sh)
{
	static const char note[] = ".note.stapsdt", base[] = ".stapsdt.base";
	char buf[sizeof(note)];
	uint64_t left;

	if (sh->sh_name >= names->sh_size)
		return 0;
	left = names->sh_size - sh->sh_name;
	memset(buf, 0, sizeof(buf));
	if (es_read(&f->src, names->sh_offset + sh->sh_name, buf,
		    left < sizeof(buf) ? left : sizeof(buf)) < 0)
		return 0;
	if (sh->sh_type == SHT_NOTE && !memcmp(buf, note, sizeof(note)))
		return 1;
	if (!memcmp(buf, base, sizeof(base)))
		return 2;
	return 0;
}

/* A string of the description [*p, end), NUL-terminated inside it, into
 * dst (at most max with its NUL). */
static int desc_str(const char **p, const char *end, char *dst, size_t max)
{
	const char *z = memchr(*p, 0, end - *p);

	if (!z || (size_t)(z - *p) >= max)
		return -EBADMSG;
	memcpy(dst, *p, z - *p + 1);
	*p = z + 1;
	return 0;
}

/* One note's description (len bytes at d), into n. */
static int parse_desc(const struct nf *f, const char *d, size_t len,
		      int base_known, uint64_t base_addr, struct usdt_note *n)
{
	size_t asz = f->src.is32 ? 4 : 8;
	const char *p = d + 3 * asz, *end = d + len;
	uint64_t a[3] = { 0, 0, 0 };
	int i;

	if (len < 3 * asz + 3)
		return -EBADMSG;
	for (i = 0; i < 3; i++) {
		if (asz == 4) {
			uint32_t v;

			memcpy(&v, d + 4 * i, 4);
			a[i] = v;
		} else {
			memcpy(&a[i], d + 8 * i, 8);
		}
	}
	if (desc_str(&p, end, n->provider, sizeof(n->provider)) < 0 ||
	    desc_str(&p, end, n->name, sizeof(n->name)) < 0 || !n->name[0] ||
	    desc_str(&p, end, n->args, sizeof(n->args)) < 0)
		return -EBADMSG;
	n->pc = a[0];
	n->base = a[1];
	n->sema = a[2];
	/* prelink: the file moved by .stapsdt.base's address - the note's */
	if (base_known && n->base) {
		n->pc += base_addr - n->base;
		if (n->sema)
			n->sema += base_addr - n->base;
	}
	if (nf_foff(f, n->pc, &n->pc_off) < 0)
		return -ENOENT;
	n->sema_off = 0;
	if (n->sema && (nf_foff(f, n->sema, &n->sema_off) < 0 ||
			!n->sema_off))
		return -ENOENT;
	return 0;
}

static int add_note(struct usdt_file *uf, const struct usdt_note *n,
		    int *cap)
{
	struct usdt_note *m;

	if (uf->nnotes == USDT_MAX_NOTES)
		return -E2BIG;
	if (uf->nnotes == *cap) {
		int c = *cap ? *cap * 2 : 16;

		m = realloc(uf->notes, c * sizeof(*m));
		if (!m)
			return -ENOMEM;
		uf->notes = m;
		*cap = c;
	}
	uf->notes[uf->nnotes++] = *n;
	return 0;
}

/* The notes of section sh (4-byte padding, as sys/sdt.h's .balign 4). */
static int read_notes(const struct nf *f, const Elf64_Shdr *sh, int base_known,
		      uint64_t base_addr, struct usdt_file *uf, int *cap)
{
	uint64_t off = 0, len = sh->sh_size;
	struct usdt_note *n;
	char *sec;
	int ret = 0;

	if (!len)
		return 0;
	if (len > USDT_MAX_SECTION || !es_fits(&f->src, sh->sh_offset, len, 1))
		return -EBADMSG;
	sec = malloc(len);
	n = malloc(sizeof(*n));
	if (!sec || !n) {
		free(sec);
		free(n);
		return -ENOMEM;
	}
	ret = es_read(&f->src, sh->sh_offset, sec, len);
	while (!ret && len - off >= 12) {
		uint32_t h[3];
		uint64_t nsz, dsz;

		memcpy(h, sec + off, sizeof(h));
		nsz = ((uint64_t)h[0] + 3) / 4 * 4;
		dsz = ((uint64_t)h[1] + 3) / 4 * 4;
		if (nsz > len - off - 12 || dsz > len - off - 12 - nsz)
			break; /* the rest is damaged */
		if (h[2] == NT_STAPSDT && h[0] == 8 &&
		    !memcmp(sec + off + 12, "stapsdt", 8)) {
			memset(n, 0, sizeof(*n));
			if (parse_desc(f, sec + off + 12 + nsz, h[1],
				       base_known, base_addr, n) < 0)
				uf->skipped++;
			else
				ret = add_note(uf, n, cap);
		}
		off += 12 + nsz + dsz;
	}
	free(n);
	free(sec);
	return ret;
}

static int read_file(struct nf *f, struct usdt_file *uf)
{
	Elf64_Shdr sh, names, notes[8];
	int ret, nnotes = 0, base_known = 0, cap = 0, i;
	uint64_t base_addr = 0;
	uint32_t k;

	memset(uf, 0, sizeof(*uf));
	if (es_ehdr(&f->src, &f->eh) < 0 ||
	    (f->eh.e_type != ET_EXEC && f->eh.e_type != ET_DYN))
		return -ENOEXEC;
	uf->machine = f->eh.e_machine;
	uf->is32 = f->src.is32;
	if (f->eh.e_phentsize != ES_PHSZ(&f->src) ||
	    !es_fits(&f->src, f->eh.e_phoff, f->eh.e_phnum, ES_PHSZ(&f->src)))
		return -EBADMSG;
	if (!f->eh.e_shnum)
		return 0; /* no sections: no notes to find */
	if (f->eh.e_shentsize != ES_SHSZ(&f->src) ||
	    !es_fits(&f->src, f->eh.e_shoff, f->eh.e_shnum, ES_SHSZ(&f->src)) ||
	    f->eh.e_shstrndx >= f->eh.e_shnum ||
	    es_shdr(&f->src, &f->eh, f->eh.e_shstrndx, &names) < 0 ||
	    !es_fits(&f->src, names.sh_offset, names.sh_size, 1))
		return -EBADMSG;
	for (k = 0; k < f->eh.e_shnum; k++) {
		if (es_shdr(&f->src, &f->eh, k, &sh) < 0)
			return -EBADMSG;
		switch (section_kind(f, &names, &sh)) {
		case 1:
			if (nnotes < (int)(sizeof(notes) / sizeof(notes[0])))
				notes[nnotes++] = sh;
			break;
		case 2:
			base_known = 1;
			base_addr = sh.sh_addr;
			break;
		}
	}
	for (i = 0; i < nnotes; i++) {
		ret = read_notes(f, &notes[i], base_known, base_addr, uf, &cap);
		if (ret < 0) {
			usdt_file_free(uf);
			return ret;
		}
	}
	return 0;
}

int usdt_file_read_buf(const void *buf, size_t size, struct usdt_file *uf)
{
	struct nf f;

	memset(&f, 0, sizeof(f));
	f.src.buf = buf;
	f.src.fd = -1;
	f.src.size = size;
	return read_file(&f, uf);
}

int usdt_file_read_fd(int fd, struct usdt_file *uf)
{
	struct stat st;
	struct nf f;

	memset(uf, 0, sizeof(*uf));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	memset(&f, 0, sizeof(f));
	f.src.fd = fd;
	f.src.size = st.st_size;
	return read_file(&f, uf);
}

int usdt_file_read(const char *path, struct usdt_file *uf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int ret;

	memset(uf, 0, sizeof(*uf));
	if (fd < 0)
		return -errno;
	ret = usdt_file_read_fd(fd, uf);
	close(fd);
	return ret;
}

void usdt_file_free(struct usdt_file *uf)
{
	free(uf->notes);
	uf->notes = NULL;
	uf->nnotes = 0;
}

int usdt_machine_native(void)
{
	return bb_arch_native()->machine;
}

const char *usdt_machine_name(int machine)
{
	const struct bb_arch *a = bb_arch_of_machine(machine);

	if (a)
		return a->elf_name;
	return machine == EM_386 ? "i386" : "another architecture";
}
