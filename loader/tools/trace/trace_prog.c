/* SPDX-License-Identifier: MIT */
/*
 * trace's probes compiled into the load-time constants of
 * bpf/trace.bpf.c: which slot reads what (a register, a tracepoint field at
 * the offset its format gives, a field of our own record), as what type,
 * which string it leads to and in which address space to look first, and
 * which conditions test which slot against which number.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "trace_spec.h"

_Static_assert(offsetof(struct trace_event, str) == TRACE_EVENT_FIXED,
	       "TRACE_EVENT_FIXED in bpf/trace.h");
_Static_assert(offsetof(struct trace_event, pad) == TRACE_EVENT_HEAD &&
	       offsetof(struct trace_event, val) == TRACE_EVENT_VALS,
	       "TRACE_EVENT_HEAD, TRACE_EVENT_VALS in bpf/trace.h");
_Static_assert(sizeof(struct trace_event) == TRACE_EVENT_SIZE,
	       "TRACE_EVENT_SIZE in bpf/trace.h");

struct comp {
	const struct trace_spec *sp;
	const struct bb_arch *arch;
	const struct bb_tp_field *fields;
	int nfields, strsize;
	struct trace_prog *pr;
	struct bb_err *err;
	char name[TRACE_NAME_MAX + USDT_NAME_MAX + 300];
};

/* Where a value lies and what type it has: a slot without its string. */
struct src {
	uint64_t base, off, size, ext1, ext2, disp, idx, shift, dref;
};

enum fkind { F_INT, F_PTR, F_CHARS, F_ARRAY, F_LOC, F_RELLOC };

static int fail_value(struct comp *c, const struct trace_value *v,
		      const char *msg)
{
	return bb_fail(c->err, -EINVAL, "probe '%s': '%s': %s", c->name,
		       v->text, msg);
}

static const char *skip_word(const char *t, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(t, w, n) ? t + n : t;
}

/* What a tracepoint field is, from its declared type; *size and *sgn: the
 * integer type it holds (syscall fields declared int are 8 bytes wide). */
static enum fkind field_kind(const struct bb_tp_field *f, int *size, int *sgn)
{
	char t[sizeof(f->type)];
	const char *b;

	snprintf(t, sizeof(t), "%s", f->type);
	*size = f->size;
	*sgn = f->is_signed;
	if (!strncmp(t, "__data_loc", 10))
		return F_LOC;
	if (!strncmp(t, "__rel_loc", 9))
		return F_RELLOC;
	if ((b = strchr(t, '['))) {
		const char *e = skip_word(skip_word(t, "const "), "unsigned ");

		e = skip_word(e, "signed ");
		return (!strncmp(e, "char", 4) && e + 4 == b) ||
		       (!strncmp(e, "u8", 2) && e + 2 == b) ? F_CHARS : F_ARRAY;
	}
	if (strchr(t, '*'))
		return F_PTR;
	if (trace_int_type(skip_word(skip_word(t, "const "), "volatile "),
			   size, sgn) && *size <= f->size)
		return F_INT;
	*size = f->size;
	*sgn = f->is_signed;
	return F_INT;
}

static const struct bb_tp_field *find_field(struct comp *c,
					    const struct trace_value *v)
{
	char list[256] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < c->nfields; i++)
		if (!strcmp(c->fields[i].name, v->field))
			return &c->fields[i];
	for (i = 0; i < c->nfields && n < sizeof(list); i++)
		if (strncmp(c->fields[i].name, "common_", 7))
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? ", " : "", c->fields[i].name);
	bb_fail(c->err, -ENOENT, "probe '%s': '%s': tracepoint %s:%s has no "
		"field %s on this kernel (its fields: %s)", c->name, v->text,
		c->sp->cat, c->sp->event, v->field, n ? list : "none");
	return NULL;
}

static int is_syscall_func(const struct comp *c)
{
	static const char *const pre[] = { "sys_", "SyS_", "__se_sys_",
					   "__do_sys_", "compat_sys_" };
	const char *fn = c->sp->func;
	size_t i;

	if (c->arch->sys_prefix &&
	    !strncmp(fn, c->arch->sys_prefix, strlen(c->arch->sys_prefix)))
		return 1;
	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(fn, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* Where our record keeps $pid, $tgid, $uid, $gid, $cpu. */
static uint64_t rec_off(enum trace_vkind k)
{
	switch (k) {
	case TV_PID: return offsetof(struct trace_event, tid);
	case TV_TGID: return offsetof(struct trace_event, tgid);
	case TV_UID: return offsetof(struct trace_event, uid);
	case TV_GID: return offsetof(struct trace_event, gid);
	default: return offsetof(struct trace_event, cpu);
	}
}

/*
 * Argument argn of a USDT probe, where its note says: a register (its low
 * bytes), memory at a register plus a displacement (in the process), or
 * a number the compiler knew. Sized and signed as the note says.
 */
static int usdt_src(struct comp *c, const struct trace_value *v,
		    struct src *s, uint64_t *str)
{
	const struct usdt_arg *a;
	char msg[USDT_NAME_MAX + 40];

	if (v->argn > c->sp->nuargs) {
		snprintf(msg, sizeof(msg), "USDT probe %s has %d argument%s",
			 c->sp->func, c->sp->nuargs,
			 c->sp->nuargs == 1 ? "" : "s");
		return fail_value(c, v, msg);
	}
	a = &c->sp->uargs[v->argn - 1];
	s->size = a->size;
	s->ext1 = TRACE_EXT(a->size, a->is_signed);
	switch (a->kind) {
	case USDT_CONST:
		s->base = TRACE_BASE_CONST;
		s->off = (uint64_t)a->val;
		s->size = 8;
		break;
	case USDT_REG:
		s->base = TRACE_BASE_CTX;
		s->off = a->reg_off;
		break;
	case USDT_MEM:
		s->base = TRACE_BASE_UMEM;
		s->off = a->reg_off;
		s->disp = (uint64_t)a->val;
		if (a->idx_off >= 0) {
			s->idx = (uint64_t)a->idx_off + 1;
			s->shift = a->shift;
		}
		break;
	}
	*str = TRACE_STR_UPTR;
	s->ext2 = v->cast_size ? TRACE_EXT(v->cast_size, v->cast_signed)
			       : TRACE_EXT(8, 0);
	return 0;
}

/* argN: a register of the function's (or a system call's) pt_regs */
static int src_arg(struct comp *c, const struct trace_value *v,
		   struct src *s, uint64_t *str)
{
	const struct trace_spec *sp = c->sp;
	int sys;

	if (sp->usdt)
		return usdt_src(c, v, s, str);
	if (v->argn > 6)
		return fail_value(c, v, "the arguments of a function "
				  "are arg1..arg6");
	if (sp->type == TRACE_RETURN)
		return fail_value(c, v, "a return probe sees no "
				  "arguments (their registers hold "
				  "other values by then); read them "
				  "with a p:: probe");
	if (sp->type == TRACE_TP)
		return fail_value(c, v, "a tracepoint has fields, not "
				  "arguments: args->NAME");
	sys = c->arch->sys_prefix &&
	      !strncmp(sp->func, c->arch->sys_prefix,
		       strlen(c->arch->sys_prefix));
	s->base = sys ? TRACE_BASE_REGS : TRACE_BASE_CTX;
	s->off = sys ? c->arch->sys_args[v->argn - 1]
		     : c->arch->args[v->argn - 1];
	if ((int)s->off < 0)
		return fail_value(c, v, "this architecture passes "
				  "this argument on the stack, not "
				  "in a register");
	s->size = c->arch->regsize;
	s->ext1 = TRACE_EXT(c->arch->regsize, 1);
	/* a uprobe's pointers are the process's own */
	*str = v->user || sys || is_syscall_func(c) || sp->lib[0] ?
		       TRACE_STR_UPTR : TRACE_STR_KPTR;
	return 0;
}

/* retval: the return register */
static int src_retval(struct comp *c, const struct trace_value *v,
		      struct src *s, uint64_t *str)
{
	if (c->sp->type != TRACE_RETURN)
		return fail_value(c, v, "only return probes "
				  "(r::FUNCTION) see a return value");
	s->off = c->arch->ret;
	s->size = c->arch->regsize;
	s->ext1 = TRACE_EXT(c->arch->regsize, 1);
	*str = c->sp->lib[0] ? TRACE_STR_UPTR : TRACE_STR_KPTR;
	return 0;
}

/* args->FIELD: a field of the tracepoint's record, at its format's offset */
static int src_field(struct comp *c, const struct trace_value *v,
		     int want_str, struct src *s, uint64_t *str,
		     uint64_t *strbase, int *strmax)
{
	const struct bb_tp_field *f;
	enum fkind k;
	int size, sgn;

	if (c->sp->type != TRACE_TP)
		return fail_value(c, v, "only tracepoints (t:) have "
				  "fields; a function has arg1..arg6");
	f = find_field(c, v);
	if (!f)
		return -ENOENT;
	s->off = f->offset;
	k = field_kind(f, &size, &sgn);
	switch (k) {
	case F_LOC:
	case F_RELLOC:
		/* u32: offset of the data (from the record or, for
		 * __rel_loc, from the field's end) | length << 16 */
		size = 4;
		sgn = 0;
		*str = TRACE_STR_LOC;
		*strbase = k == F_RELLOC ? (uint64_t)f->offset + 4 : 0;
		break;
	case F_CHARS:
		if (!want_str)
			return fail_value(c, v, "a char array: print "
					  "it with %s");
		size = 1;
		sgn = 0;
		*str = TRACE_STR_INLINE;
		*strmax = f->size;
		break;
	case F_ARRAY:
		return fail_value(c, v, "arrays other than char[] are "
				  "not supported");
	case F_PTR:
	case F_INT:
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return fail_value(c, v, "a field of this size "
					  "is not supported");
		if (k == F_PTR || size == 8)
			*str = strcmp(c->sp->cat, "syscalls") ?
			       TRACE_STR_KPTR : TRACE_STR_UPTR;
		else if (want_str)
			return fail_value(c, v, "a number, not a "
					  "pointer: %s prints a string "
					  "(use %d)");
		break;
	}
	/* the declared type of a field may be narrower than the field
	 * (syscalls keep an int in 8 bytes): read it all, extend from the
	 * type */
	s->size = f->size < 8 ? f->size : 8;
	s->ext1 = TRACE_EXT(size, sgn);
	return 0;
}

/* $pid $tgid $uid $gid $cpu: fields of the program's own record */
static int src_rec(struct comp *c, const struct trace_value *v,
		   struct src *s)
{
	/* the program reads the CPU only when a value or condition asks
	 * for it (see want_cpu in bpf/trace.bpf.c) */
	if (v->kind == TV_CPU)
		c->pr->want_cpu = 1;
	s->base = TRACE_BASE_REC;
	s->off = rec_off(v->kind);
	s->size = 4;
	s->ext1 = TRACE_EXT(4, 0);
	return 0;
}

/* VALUE->member: the value points to a kernel struct, the slot reads
 * the member there (placed by trace_field_place) */
static int src_deref(struct comp *c, const struct trace_value *v,
		     int want_str, struct src *s, uint64_t *str)
{
	if (c->sp->lib[0] || s->base == TRACE_BASE_REC ||
	    s->size != (uint64_t)c->arch->regsize || want_str || !v->dsize)
		return fail_value(c, v, c->sp->lib[0] ? "not in a user-space "
				  "probe" : want_str ? "a struct's field "
				  "prints as a number (%d %u %x)" : !v->dsize ?
				  "the field was not placed" : "not a pointer");
	s->dref = (uint64_t)v->doff + 1;
	s->size = v->dsize;
	s->ext1 = TRACE_EXT(v->dsize, v->dsgn);
	*str = TRACE_STR_NONE;
	return 0;
}

/* Where value v lies (s), and if want_str, which string it leads to:
 * *str (TRACE_STR_*) and *strbase, *strmax (0: no limit of its own). */
static int value_src(struct comp *c, const struct trace_value *v,
		     int want_str, struct src *s, uint64_t *str,
		     uint64_t *strbase, int *strmax)
{
	int ret = 0;

	memset(s, 0, sizeof(*s));
	*str = TRACE_STR_NONE;
	*strbase = 0;
	*strmax = 0;
	s->base = TRACE_BASE_CTX;
	s->size = 8;
	s->ext1 = TRACE_EXT(8, 1);
	switch (v->kind) {
	case TV_ARG:
		ret = src_arg(c, v, s, str);
		break;
	case TV_RETVAL:
		ret = src_retval(c, v, s, str);
		break;
	case TV_FIELD:
		ret = src_field(c, v, want_str, s, str, strbase, strmax);
		break;
	case TV_PID:
	case TV_TGID:
	case TV_UID:
	case TV_GID:
	case TV_CPU:
		ret = src_rec(c, v, s);
		break;
	}
	if (ret == 0 && v->deref)
		ret = src_deref(c, v, want_str, s, str);
	if (ret < 0)
		return ret;
	s->ext2 = v->cast_size ? TRACE_EXT(v->cast_size, v->cast_signed)
			       : TRACE_EXT(8, 0);
	return 0;
}

/*
 * The slot reading s (shared by every use of the same value), with its
 * string if str is not TRACE_STR_NONE: strsize bytes, zero to clear
 * the 64 bytes a STRCMP compares.
 */
static int slot_get(struct comp *c, const struct trace_value *v,
		    const struct src *s, uint64_t str, uint64_t strbase,
		    int strsize, int zero)
{
	struct trace_prog *pr = c->pr;
	struct trace_slot_c *sl;
	int i;

	for (i = 0; i < pr->nslots; i++) {
		sl = &pr->slots[i];
		if (sl->base != s->base || sl->off != s->off ||
		    sl->size != s->size || sl->ext1 != s->ext1 ||
		    sl->ext2 != s->ext2 || sl->disp != s->disp ||
		    sl->idx != s->idx || sl->shift != s->shift ||
		    sl->dref != s->dref)
			continue;
		if (str == TRACE_STR_NONE)
			return i;
		if (sl->str == TRACE_STR_NONE || (sl->str == str &&
						  sl->strbase == strbase))
			goto set_str;
	}
	if (pr->nslots == TRACE_NSLOTS)
		return fail_value(c, v, "more than 8 values to read in one "
				  "probe (values and filter operands)");
	i = pr->nslots++;
	sl = &pr->slots[i];
	sl->base = s->base;
	sl->off = s->off;
	sl->size = s->size;
	sl->ext1 = s->ext1;
	sl->ext2 = s->ext2;
	sl->disp = s->disp;
	sl->idx = s->idx;
	sl->shift = s->shift;
	sl->dref = s->dref;
	if (str == TRACE_STR_NONE)
		return i;
set_str:
	sl->str = str;
	sl->strbase = strbase;
	if ((uint64_t)strsize > sl->strsize)
		sl->strsize = strsize;
	sl->zero |= zero;
	return i;
}

/* C's conversion of a number (64 bits, extended from its type) to the
 * type ext says: its low bytes, extended. */
static uint64_t convert(uint64_t k, uint64_t ext)
{
	unsigned sh = TRACE_EXT_SHIFT(ext);

	k <<= sh;
	return TRACE_EXT_SIGNED(ext) ? (uint64_t)((int64_t)k >> sh) : k >> sh;
}

/* An integer type as C sees it in BPF: 4 bytes int, 8 long. */
struct ctype {
	int size, sgn;
};

/* The promotion of a type smaller than an int (it holds them all). */
static struct ctype promote(int size, int sgn)
{
	return size < 4 ? (struct ctype){ 4, 1 } : (struct ctype){ size, sgn };
}

/* The usual arithmetic conversions of two promoted types: the larger (a
 * long holds every unsigned int); of one size, unsigned if either is. */
static struct ctype common(struct ctype a, struct ctype b)
{
	if (a.size != b.size)
		return a.size > b.size ? a : b;
	return (struct ctype){ a.size, a.sgn && b.sgn };
}

/*
 * Term t compared as C compares it: the value (of its type, promoted),
 * masked in the type of value & mask, converted with the number to their
 * common type. The program holds each value extended from its own type
 * to 64 bits, and compares 64 bits: exact in a long or an unsigned long,
 * in an int too; an unsigned int needs the value's low 4 bytes only (the
 * mask's part). So (int)-100 == 4294967196 is false (compared as longs),
 * (int)-100 == 0xffffff9c true (as unsigned ints). Returns 1 if signed.
 */
static int term_types(const struct trace_term *t, uint64_t final,
		      struct trace_term_c *tc)
{
	struct ctype vt = promote(8 - TRACE_EXT_SHIFT(final) / 8,
				  TRACE_EXT_SIGNED(final));
	struct ctype kt = promote(t->k_size ? t->k_size : 4,
				  t->k_size ? t->k_sgn : 1);
	struct ctype ct;

	tc->mask = ~0ULL;
	if (t->mask_size) {
		vt = common(vt, promote(t->mask_size, t->mask_sgn));
		tc->mask = convert(t->mask, TRACE_EXT(vt.size, vt.sgn));
	}
	ct = common(vt, kt);
	if (ct.size == 4 && !ct.sgn && vt.sgn)
		tc->mask &= 0xffffffffULL;
	tc->k = convert(t->k, TRACE_EXT(ct.size, ct.sgn));
	return ct.sgn;
}

static int compile_term(struct comp *c, const struct trace_term *t,
			struct trace_term_c *tc, int *slot)
{
	uint64_t str, strbase, final;
	struct src s;
	int strmax, sgn, i;

	if (value_src(c, &t->v, t->cmp == TC_STRCMP, &s, &str, &strbase,
		      &strmax) < 0)
		return -EINVAL;
	tc->neg = t->neg;
	tc->mask = t->mask;
	if (t->cmp == TC_STRCMP) {
		if (str == TRACE_STR_NONE)
			return fail_value(c, &t->v, "a number, not a pointer: "
					  "STRCMP compares strings");
		*slot = slot_get(c, &t->v, &s, str, strbase,
				 TRACE_STRCMP_WORDS * 8, 1);
		if (*slot < 0)
			return -EINVAL;
		tc->op = TRACE_OP_STREQ;
		tc->slen = strlen(t->str) + 1;
		for (i = 0; t->str[i]; i++)
			tc->w[i / 8] |= (uint64_t)(unsigned char)t->str[i]
					<< (8 * (i % 8));
		return 0;
	}
	*slot = slot_get(c, &t->v, &s, TRACE_STR_NONE, 0, 0, 0);
	if (*slot < 0)
		return -EINVAL;
	/* the value's type: its cast, or its own */
	final = t->v.cast_size ? s.ext2 : s.ext1;
	sgn = term_types(t, final, tc);
	switch (t->cmp) {
	case TC_EQ:
	case TC_NE:
		tc->op = TRACE_OP_EQ;
		break;
	case TC_LT:
	case TC_GE:
		tc->op = sgn ? TRACE_OP_LTS : TRACE_OP_LTU;
		break;
	default: /* TC_LE, TC_GT */
		tc->op = sgn ? TRACE_OP_LES : TRACE_OP_LEU;
		break;
	}
	if (t->cmp == TC_NE || t->cmp == TC_GE || t->cmp == TC_GT)
		tc->neg ^= 1;
	return 0;
}

int trace_spec_compile(const struct trace_spec *sp,
		       const struct bb_arch *arch,
		       const struct bb_tp_field *fields, int nfields,
		       int strsize, struct trace_prog *pr, struct bb_err *err)
{
	struct comp c = { sp, arch, fields, nfields, strsize, pr, err, "" };
	int tslot[TRACE_NTERMS], i, end = 0;

	memset(pr, 0, sizeof(*pr));
	if (sp->type == TRACE_TP)
		snprintf(c.name, sizeof(c.name), "t:%s:%s", sp->cat, sp->event);
	else
		snprintf(c.name, sizeof(c.name), "%s:%.200s:%s%s%s",
			 sp->usdt ? "u" : sp->type == TRACE_RETURN ? "r" : "p",
			 sp->lib, sp->provider, sp->provider[0] ? ":" : "",
			 sp->func);
	if (strsize < 1 || strsize > TRACE_STR_MAX)
		return bb_fail(err, -EINVAL, "a string size of 1 to %d bytes",
			       TRACE_STR_MAX);
	for (i = 0; i < sp->nconv; i++) {
		int want = sp->conv[i].type == 's', strmax, size = strsize;
		uint64_t str, strbase;
		struct src s;

		if (value_src(&c, &sp->args[i], want, &s, &str, &strbase,
			      &strmax) < 0)
			return -EINVAL;
		if (strmax && strmax < size)
			size = strmax;
		pr->arg_slot[i] = slot_get(&c, &sp->args[i], &s,
					   want ? str : TRACE_STR_NONE,
					   strbase, size, 0);
		if (pr->arg_slot[i] < 0)
			return -EINVAL;
	}
	for (i = 0; i < sp->nterms; i++)
		if (compile_term(&c, &sp->terms[i], &pr->terms[i],
				 &tslot[i]) < 0)
			return -EINVAL;
	/* the strings, one after the other, 8-aligned */
	for (i = 0; i < pr->nslots; i++) {
		struct trace_slot_c *sl = &pr->slots[i];

		if (sl->str == TRACE_STR_NONE)
			continue;
		sl->stroff = end;
		end += (sl->strsize + 7) & ~7;
	}
	for (i = 0; i < sp->nterms; i++) {
		pr->terms[i].slot = tslot[i];
		pr->terms[i].stroff = pr->slots[tslot[i]].stroff;
		pr->terms[i].valoff = offsetof(struct trace_event, val) +
				      8 * tslot[i];
	}
	pr->filter_or = sp->filter_or;
	pr->is_kprobe = sp->type != TRACE_TP;
	pr->regs_off = arch->args[0];
	/* only what the reader uses is sent (bpf/trace.h): a full ring
	 * holds that many more records */
	if (end)
		pr->rec_size = TRACE_EVENT_FIXED + end;
	else if (pr->nslots)
		pr->rec_size = TRACE_EVENT_VALS + 8 * pr->nslots;
	else
		pr->rec_size = pr->is_kprobe ? TRACE_EVENT_VALS :
			       TRACE_EVENT_HEAD;
	return 0;
}
