/* SPDX-License-Identifier: MIT */
/*
 * trace's filters and formats (the grammar is in trace_spec.c): a filter
 * becomes up to TRACE_NTERMS conditions of one joint, a format its
 * conversions, checked against the values that follow it.
 */
#include <errno.h>
#include <string.h>
#include "trace_parse.h"

static int relop(enum tk t, enum trace_cmp *c)
{
	switch (t) {
	case TK_EQ: *c = TC_EQ; return 1;
	case TK_NE: *c = TC_NE; return 1;
	case TK_LT: *c = TC_LT; return 1;
	case TK_LE: *c = TC_LE; return 1;
	case TK_GT: *c = TC_GT; return 1;
	case TK_GE: *c = TC_GE; return 1;
	default: return 0;
	}
}

/* 5 < arg1 is arg1 > 5 */
static enum trace_cmp mirror(enum trace_cmp c)
{
	switch (c) {
	case TC_LT: return TC_GT;
	case TC_LE: return TC_GE;
	case TC_GT: return TC_LT;
	case TC_GE: return TC_LE;
	default: return c;
	}
}

/* A number and its C type (see struct tok). */
struct num {
	uint64_t v;
	int size, sgn;
};

struct operand {
	int is_num;
	struct num num;
	struct trace_value v;
	struct num mask; /* size 0: none */
	const char *s; /* where it starts, for messages */
};

/*
 * A number, or a minus and a number: a negative number, an int or a long
 * as it fits (C would keep the type of what follows the minus, so that
 * -2147483648 is a long, but -0x80000000 an unsigned int and
 * -9223372036854775808 an unsigned long); with a U suffix C's unsigned
 * negation (-1U is 4294967295).
 */
static int parse_number(struct parser *ps, struct num *num)
{
	const char *s = ps->tok.s;
	int neg = 0;

	if (ps->tok.t == TK_MINUS) {
		neg = 1;
		if (tl_lex(ps) < 0)
			return -EINVAL;
	}
	if (ps->tok.t != TK_NUM)
		return FAIL_TOK(ps, "expected a number here");
	num->v = ps->tok.num;
	num->size = ps->tok.nsize;
	num->sgn = ps->tok.nsgn;
	if (neg && ps->tok.nu) {
		num->v = -num->v;
		if (num->size == 4)
			num->v &= 0xffffffffULL;
	} else if (neg) {
		if (num->v > 1ULL << 63)
			return tl_fail(ps, s, ps->p - s, "a number below "
				       "-9223372036854775808: numbers are "
				       "-9223372036854775808 to "
				       "18446744073709551615");
		num->size = num->v <= 1ULL << 31 ? 4 : 8;
		num->sgn = 1;
		num->v = -num->v;
	}
	return tl_lex(ps);
}

static int parse_operand(struct parser *ps, struct operand *o)
{
	memset(o, 0, sizeof(*o));
	o->s = ps->tok.s;
	o->mask.v = ~0ULL;
	if (ps->tok.t == TK_NUM || ps->tok.t == TK_MINUS) {
		o->is_num = 1;
		return parse_number(ps, &o->num);
	}
	if (tl_value(ps, &o->v) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_AMP)
		return 0;
	if (tl_lex(ps) < 0 || parse_number(ps, &o->mask) < 0)
		return -EINVAL;
	if (relop(ps->tok.t, &(enum trace_cmp){ 0 }))
		return tl_fail(ps, o->s, ps->p - o->s, "C compares before it "
			       "masks: put the mask in parentheses, "
			       "((arg1 & 0x40) == 0x40)");
	return 0;
}

static int add_term(struct parser *ps, const char *s,
		    const struct trace_term *t)
{
	struct trace_spec *sp = ps->sp;

	if (sp->nterms == TRACE_NTERMS)
		return tl_fail(ps, s, ps->tok.s - s, "more than %d conditions "
			       "in one filter", TRACE_NTERMS);
	sp->terms[sp->nterms++] = *t;
	return 0;
}

static int parse_strcmp(struct parser *ps, int neg)
{
	struct trace_term t;
	const char *s = ps->tok.s, *str;
	size_t n;

	memset(&t, 0, sizeof(t));
	t.cmp = TC_STRCMP;
	t.neg = neg;
	t.mask = ~0ULL;
	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_LP)
		return FAIL_TOK(ps, "STRCMP(\"text\", value)");
	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_STR)
		return FAIL_TOK(ps, "STRCMP's first argument is the string in "
				"quotes: STRCMP(\"text\", value)");
	str = ps->tok.s + 1;
	n = ps->tok.n - 2;
	if (n > TRACE_STRCMP_MAX)
		return FAIL_TOK(ps, "STRCMP compares strings of up to %d "
				"characters", TRACE_STRCMP_MAX);
	memcpy(t.str, str, n);
	t.str[n] = 0;
	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_COMMA)
		return FAIL_TOK(ps, "STRCMP(\"text\", value)");
	if (tl_lex(ps) < 0 || tl_value(ps, &t.v) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_RP)
		return FAIL_TOK(ps, "expected ')' closing STRCMP");
	if (tl_lex(ps) < 0)
		return -EINVAL;
	ps->bare = 0;
	return add_term(ps, s, &t);
}

/* A comparison, or a bare operand (true if not 0), from operand a on. */
static int parse_comparison(struct parser *ps, struct operand *a, int neg)
{
	struct operand b, *v = a, *num = NULL;
	struct trace_term t;
	enum trace_cmp c;

	memset(&t, 0, sizeof(t));
	t.neg = neg;
	if (!relop(ps->tok.t, &c)) {
		if (a->is_num)
			return tl_fail(ps, a->s, ps->tok.s - a->s,
				       "a condition needs a value; %s",
				       HINT_VALUES);
		t.cmp = TC_NE;
		t.v = a->v;
		t.mask = a->mask.v;
		t.mask_size = a->mask.size;
		t.mask_sgn = a->mask.sgn;
		ps->bare = !neg;
		return add_term(ps, a->s, &t);
	}
	if (tl_lex(ps) < 0 || parse_operand(ps, &b) < 0)
		return -EINVAL;
	if (a->is_num == b.is_num)
		return tl_fail(ps, a->s, ps->tok.s - a->s, "a comparison is "
			       "of a value with a number");
	if (a->is_num) {
		num = a;
		v = &b;
		c = mirror(c);
	} else {
		num = &b;
	}
	t.cmp = c;
	t.v = v->v;
	t.mask = v->mask.v;
	t.mask_size = v->mask.size;
	t.mask_sgn = v->mask.sgn;
	t.k = num->num.v;
	t.k_size = num->num.size;
	t.k_sgn = num->num.sgn;
	ps->bare = 0;
	return add_term(ps, a->s, &t);
}

static int parse_or(struct parser *ps);

static int parse_cond(struct parser *ps, int neg)
{
	struct trace_spec *sp = ps->sp;
	struct operand a;
	char words[64];

	if (ps->tok.t == TK_NOT) {
		if (tl_lex(ps) < 0)
			return -EINVAL;
		return parse_cond(ps, !neg);
	}
	if (tl_tok_is(&ps->tok, "STRCMP"))
		return parse_strcmp(ps, neg);
	if (ps->tok.t == TK_LP && !tl_peek_cast(ps, words, sizeof(words))) {
		const char *s = ps->tok.s;
		int first = sp->nterms;

		if (tl_lex(ps) < 0 || parse_or(ps) < 0)
			return -EINVAL;
		if (ps->tok.t != TK_RP)
			return FAIL_TOK(ps, "expected ')' or && or ||");
		if (tl_lex(ps) < 0)
			return -EINVAL;
		/* ((arg1 & 3) == 1): the group was an operand */
		if (sp->nterms == first + 1 && ps->bare &&
		    relop(ps->tok.t, &(enum trace_cmp){ 0 })) {
			sp->nterms--;
			memset(&a, 0, sizeof(a));
			a.s = s;
			a.v = sp->terms[first].v;
			a.mask.v = sp->terms[first].mask;
			a.mask.size = sp->terms[first].mask_size;
			a.mask.sgn = sp->terms[first].mask_sgn;
			return parse_comparison(ps, &a, neg);
		}
		if (neg && sp->nterms > first + 1)
			return tl_fail(ps, s, ps->tok.s - s, "negating several "
				       "conditions at once is not supported: "
				       "negate each one");
		if (neg)
			sp->terms[first].neg ^= 1;
		ps->bare = 0;
		return 0;
	}
	if (parse_operand(ps, &a) < 0)
		return -EINVAL;
	return parse_comparison(ps, &a, neg);
}

static int parse_or(struct parser *ps)
{
	if (parse_cond(ps, 0) < 0)
		return -EINVAL;
	while (ps->tok.t == TK_ANDAND || ps->tok.t == TK_OROR) {
		char j = ps->tok.t == TK_ANDAND ? '&' : '|';

		if (ps->joint && ps->joint != j)
			return FAIL_TOK(ps, "mixing && and || in one filter is "
					"not supported");
		ps->joint = j;
		if (tl_lex(ps) < 0 || parse_cond(ps, 0) < 0)
			return -EINVAL;
	}
	return 0;
}

int tl_filter(struct parser *ps)
{
	const char *s = ps->tok.s;

	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t == TK_RP)
		return tl_fail(ps, s, 2, "an empty filter");
	if (parse_or(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_RP)
		return FAIL_TOK(ps, "expected ')' closing the filter, or && "
				"or ||");
	ps->sp->filter_or = ps->joint == '|';
	return tl_lex(ps);
}

/* ---- the format ---- */

static int parse_conv(struct parser *ps, const char *fmt, int *i)
{
	struct trace_spec *sp = ps->sp;
	struct trace_conv *c = &sp->conv[sp->nconv];
	int j = *i + 1, width = 0, size = 4, nflags = 0, ndig = 0;
	const char *f = fmt + *i, *flags = fmt + j;

	while (fmt[j] && strchr("-0+ #", fmt[j]))
		j++, nflags++;
	while (fmt[j] >= '0' && fmt[j] <= '9' && ndig < 3)
		width = width * 10 + fmt[j++] - '0', ndig++;
	if (fmt[j] >= '0' && fmt[j] <= '9')
		return tl_fail(ps, f, j + 1 - *i, "a width of more than 3 "
			       "digits");
	if (fmt[j] == '.')
		return tl_fail(ps, f, j + 1 - *i, "precisions (%%.3d) are not "
			       "supported");
	if (fmt[j] == 'h') {
		size = 2;
		j++;
	} else if (fmt[j] == 'l') {
		size = 8;
		j += fmt[j + 1] == 'l' ? 2 : 1;
	}
	if (!fmt[j] || !strchr("diuxXcsKUp", fmt[j]))
		return tl_fail(ps, f, fmt[j] ? j + 1 - *i : j - *i,
			       "unsupported conversion; use %%d %%u %%x %%ld "
			       "%%lu %%lx %%lld %%llu %%llx %%hd %%hu %%c %%s "
			       "%%K %%U %%p");
	c->type = fmt[j] == 'i' ? 'd' : fmt[j];
	if (strchr("csKUp", c->type) && (size != 4 || fmt[j - 1] == 'h'))
		return tl_fail(ps, f, j + 1 - *i, "h, l and ll go with d, u "
			       "and x only");
	if (strchr("csKU", c->type) && nflags &&
	    strspn(flags, "-") != (size_t)nflags)
		return tl_fail(ps, f, j + 1 - *i, "only the '-' flag goes "
			       "with %%%c", c->type);
	if (sp->nconv == TRACE_MAX_ARGS)
		return tl_fail(ps, f, j + 1 - *i, "more than %d conversions",
			       TRACE_MAX_ARGS);
	c->size = c->type == 'p' ? 8 : size;
	snprintf(c->spec, sizeof(c->spec), "%%%.*s", (int)(nflags + ndig),
		 flags);
	(void)width;
	c->start = *i;
	c->end = j + 1;
	*i = j + 1;
	sp->nconv++;
	return 0;
}

static int parse_format(struct parser *ps)
{
	struct trace_spec *sp = ps->sp;
	const struct tok *t = &ps->tok;
	int i;

	if (t->n - 2 >= sizeof(sp->fmt))
		return FAIL_TOK(ps, "a format of more than %d characters",
				(int)sizeof(sp->fmt) - 1);
	memcpy(sp->fmt, t->s + 1, t->n - 2);
	sp->fmt[t->n - 2] = 0;
	sp->has_fmt = 1;
	for (i = 0; sp->fmt[i];) {
		if (sp->fmt[i] != '%') {
			i++;
		} else if (sp->fmt[i + 1] == '%') {
			i += 2;
		} else if (parse_conv(ps, sp->fmt, &i) < 0) {
			return -EINVAL;
		}
	}
	return 0;
}

static int check_arg(struct parser *ps, const struct trace_conv *c,
		     const struct trace_value *v)
{
	if (c->type == 's' && v->kind != TV_ARG && v->kind != TV_RETVAL &&
	    v->kind != TV_FIELD)
		return tl_fail(ps, v->text, strlen(v->text), "a number, not a "
			       "pointer: %%s prints a string (use %%d)");
	return 0;
}

int tl_action(struct parser *ps)
{
	struct trace_spec *sp = ps->sp;
	const char *fs = ps->tok.s;
	size_t fn = ps->tok.n;
	int n = 0, i;

	if (parse_format(ps) < 0 || tl_lex(ps) < 0)
		return -EINVAL;
	while (ps->tok.t == TK_COMMA) {
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (n == TRACE_MAX_ARGS)
			return FAIL_TOK(ps, "more than %d values",
					TRACE_MAX_ARGS);
		if (tl_value(ps, &sp->args[n]) < 0)
			return -EINVAL;
		n++;
	}
	if (ps->tok.t != TK_END)
		return FAIL_TOK(ps, "expected ',' and a value, or the end of "
				"the probe");
	if (n != sp->nconv)
		return tl_fail(ps, fs, fn, "%d conversion%s for %d value%s",
			       sp->nconv, sp->nconv == 1 ? "" : "s", n,
			       n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		if (check_arg(ps, &sp->conv[i], &sp->args[i]) < 0)
			return -EINVAL;
	return 0;
}

