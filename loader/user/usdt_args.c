/* SPDX-License-Identifier: MIT */
/*
 * The argument operands of a USDT probe (usdt.h, usdt_args_parse): the
 * assembler's text of each operand, as GCC and clang print it for the
 * "nor" constraint sys/sdt.h uses (checked with their -S output; bcc's
 * usdt_args.cc and libbpf's usdt.c read the same). The registers each
 * architecture names are in its table (loader/arch.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "usdt.h"
#include "arch.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

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

