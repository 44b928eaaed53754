/* SPDX-License-Identifier: MIT */
/*
 * trace's probe language, its words (trace_parse.h): the lexer, and the
 * values a filter or a format reads (argN[@user], retval, args->FIELD,
 * $pid ..., with an optional integer cast). trace_spec.c (probe names)
 * and trace_filter.c (filters and formats) build on it; it calls neither.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "trace_parse.h"

/* "probe 'TEXT': 'TOKEN': what is wrong" */
int tl_fail(struct parser *ps, const char *tok, size_t n,
	    const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n > 48)
		n = 48;
	if (!n)
		return bb_fail(ps->err, -EINVAL, "probe '%.160s': at its end: "
			       "%s", ps->text, msg);
	return bb_fail(ps->err, -EINVAL, "probe '%.160s': '%.*s': %s",
		       ps->text, (int)n, tok, msg);
}


static int is_ident0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$';
}

int tl_is_ident(char c)
{
	return is_ident0(c) || (c >= '0' && c <= '9');
}

int tl_tok_is(const struct tok *t, const char *word)
{
	return t->t == TK_IDENT && strlen(word) == t->n &&
	       !memcmp(t->s, word, t->n);
}

/* 'c', '\n', '\0', '\\', '\'' */
static int lex_char(struct parser *ps, const char *s)
{
	struct tok *t = &ps->tok;
	const char *e = s + 1;

	t->t = TK_NUM;
	t->nsize = 4; /* an int */
	t->nsgn = 1;
	if (*e == '\\') {
		static const char from[] = "ntr0\\'\"", to[] = "\n\t\r\0\\'\"";
		const char *k = e[1] ? strchr(from, e[1]) : NULL;

		if (!k)
			return tl_fail(ps, s, 3, "unknown escape in a "
				       "character");
		t->num = (unsigned char)to[k - from];
		e += 2;
	} else if (*e && *e != '\'') {
		t->num = (unsigned char)*e++;
	} else {
		return tl_fail(ps, s, 2, "empty character");
	}
	if (*e != '\'')
		return tl_fail(ps, s, 1, "a character is one letter in "
			       "quotes ('a', '\\n')");
	t->n = e + 1 - s;
	ps->p = e + 1;
	return 0;
}

/* The C type of number t (see struct tok). */
static void num_type(struct tok *t, int dec, int u, int l)
{
	t->nu = u;
	t->nsize = 8;
	t->nsgn = 0;
	if (!l && !u && t->num <= 0x7fffffffULL)
		t->nsize = 4, t->nsgn = 1;
	else if (!l && (u || !dec) && t->num <= 0xffffffffULL)
		t->nsize = 4;
	else if (!u && t->num <= 0x7fffffffffffffffULL)
		t->nsgn = 1;
}

static int lex_number(struct parser *ps, const char *s)
{
	struct tok *t = &ps->tok;
	char buf[32];
	const char *e = s;
	char *end;
	size_t n;
	int u = 0, l = 0;

	while (tl_is_ident(*e))
		e++;
	t->t = TK_NUM;
	t->n = e - s;
	ps->p = e;
	n = e - s;
	while (n && strchr("uUlL", s[n - 1])) {
		u |= s[n - 1] == 'u' || s[n - 1] == 'U';
		l |= s[n - 1] == 'l' || s[n - 1] == 'L';
		n--;
	}
	if (!n || n >= sizeof(buf))
		return FAIL_TOK(ps, "not a number");
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	t->num = strtoull(buf, &end, 0);
	if (*end)
		return FAIL_TOK(ps, "not a number (decimal, 0x hex or 0 "
				"octal)");
	if (errno)
		return FAIL_TOK(ps, "a number of more than 64 bits");
	num_type(t, buf[0] != '0' || n == 1, u, l);
	return 0;
}

int tl_lex(struct parser *ps)
{
	static const struct {
		const char *s;
		enum tk t;
	} ops[] = {
		{ "&&", TK_ANDAND }, { "||", TK_OROR }, { "==", TK_EQ },
		{ "!=", TK_NE }, { "<=", TK_LE }, { ">=", TK_GE },
		{ "->", TK_ARROW }, { "(", TK_LP }, { ")", TK_RP },
		{ ",", TK_COMMA }, { "!", TK_NOT }, { "<", TK_LT },
		{ ">", TK_GT }, { "&", TK_AMP }, { "@", TK_AT },
		{ "-", TK_MINUS },
	};
	struct tok *t = &ps->tok;
	const char *s = ps->p;
	size_t i;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	memset(t, 0, sizeof(*t));
	t->s = s;
	if (!*s) {
		t->t = TK_END;
		ps->p = s;
		return 0;
	}
	if (is_ident0(*s)) {
		const char *e = s + 1;

		while (tl_is_ident(*e))
			e++;
		t->t = TK_IDENT;
		t->n = e - s;
		ps->p = e;
		return 0;
	}
	if (*s >= '0' && *s <= '9')
		return lex_number(ps, s);
	if (*s == '\'')
		return lex_char(ps, s);
	if (*s == '"') {
		const char *e = strchr(s + 1, '"');

		if (!e)
			return tl_fail(ps, s, strlen(s), "no closing '\"'");
		t->t = TK_STR;
		t->n = e + 1 - s;
		ps->p = e + 1;
		return 0;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].s);

		if (!strncmp(s, ops[i].s, n)) {
			t->t = ops[i].t;
			t->n = n;
			ps->p = s + n;
			return 0;
		}
	}
	t->t = TK_OTHER;
	t->n = 1;
	ps->p = s + 1;
	return 0;
}

/* ---- values ---- */

int trace_int_type(const char *words, int *size, int *is_signed)
{
	static const struct {
		const char *name;
		int size, is_signed;
	} types[] = {
		{ "char", 1, 1 }, { "signed char", 1, 1 },
		{ "unsigned char", 1, 0 }, { "short", 2, 1 },
		{ "short int", 2, 1 }, { "signed short", 2, 1 },
		{ "unsigned short", 2, 0 }, { "unsigned short int", 2, 0 },
		{ "int", 4, 1 }, { "signed", 4, 1 }, { "signed int", 4, 1 },
		{ "unsigned", 4, 0 }, { "unsigned int", 4, 0 },
		{ "long", 8, 1 }, { "long int", 8, 1 }, { "signed long", 8, 1 },
		{ "unsigned long", 8, 0 }, { "unsigned long int", 8, 0 },
		{ "long long", 8, 1 }, { "signed long long", 8, 1 },
		{ "unsigned long long", 8, 0 }, { "bool", 1, 0 },
		{ "_Bool", 1, 0 }, { "u8", 1, 0 }, { "s8", 1, 1 },
		{ "u16", 2, 0 }, { "s16", 2, 1 }, { "u32", 4, 0 },
		{ "s32", 4, 1 }, { "u64", 8, 0 }, { "s64", 8, 1 },
		{ "__u8", 1, 0 }, { "__s8", 1, 1 }, { "__u16", 2, 0 },
		{ "__s16", 2, 1 }, { "__u32", 4, 0 }, { "__s32", 4, 1 },
		{ "__u64", 8, 0 }, { "__s64", 8, 1 }, { "uint8_t", 1, 0 },
		{ "int8_t", 1, 1 }, { "uint16_t", 2, 0 }, { "int16_t", 2, 1 },
		{ "uint32_t", 4, 0 }, { "int32_t", 4, 1 },
		{ "uint64_t", 8, 0 }, { "int64_t", 8, 1 }, { "size_t", 8, 0 },
		{ "ssize_t", 8, 1 }, { "loff_t", 8, 1 }, { "pid_t", 4, 1 },
		{ "uid_t", 4, 0 }, { "gid_t", 4, 0 }, { "dev_t", 4, 0 },
		{ "umode_t", 2, 0 }, { "gfp_t", 4, 0 }, { "sector_t", 8, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(words, types[i].name)) {
			*size = types[i].size;
			*is_signed = types[i].is_signed;
			return 1;
		}
	return 0;
}

/* The words of a type in parentheses, or 0 if what follows '(' is not a
 * type. The current token is '('. */
int tl_peek_cast(struct parser *ps, char *words, size_t len)
{
	struct parser save = *ps;
	size_t n = 0;
	int size, sgn, star = 0;

	words[0] = 0;
	for (;;) {
		if (tl_lex(ps) < 0)
			goto no;
		/* ((struct sock *)arg1)->...: a field through a cast */
		if (!n && !star && ps->tok.t == TK_LP) {
			if (tl_peek_cast(ps, words, len) != 2 ||
			    strncmp(words, "struct ", 7))
				goto no;
			*ps = save;
			return 3;
		}
		if (ps->tok.t == TK_OTHER && *ps->tok.s == '*') {
			star = 1;
			continue;
		}
		if (ps->tok.t != TK_IDENT)
			break;
		if (n + ps->tok.n + 2 > len)
			goto no;
		if (n)
			words[n++] = ' ';
		memcpy(words + n, ps->tok.s, ps->tok.n);
		n += ps->tok.n;
		words[n] = 0;
	}
	if (ps->tok.t != TK_RP || !n)
		goto no;
	if (!star && trace_int_type(words, &size, &sgn))
		goto yes;
	/* a type we do not know, or a pointer: still a cast, refused later */
	if (star || !strncmp(words, "struct ", 7) ||
	    !strncmp(words, "const ", 7) || !strncmp(words, "unsigned ", 9))
		goto yes;
no:
	*ps = save;
	return 0;
yes:
	*ps = save;
	return star ? 2 : 1;
}

static int parse_atom(struct parser *ps, struct trace_value *v);

/* ->member.member after a struct pointer (the current token is '->') */
static int parse_path(struct parser *ps, struct trace_value *v,
		      const char *strct)
{
	struct tok *t = &ps->tok;
	size_t n = 0;

	snprintf(v->strct, sizeof(v->strct), "%s", strct);
	v->deref = 1;
	do {
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (t->t != TK_IDENT || *t->s == '$' ||
		    n + t->n + 2 > sizeof(v->path))
			return FAIL_TOK(ps, "expected a member of struct %s",
					strct);
		if (n)
			v->path[n++] = '.';
		memcpy(v->path + n, t->s, t->n);
		n += t->n;
		v->path[n] = 0;
		if (tl_lex(ps) < 0)
			return -EINVAL;
	} while (t->t == TK_OTHER && *t->s == '.');
	if (t->t == TK_ARROW)
		return FAIL_TOK(ps, "one pointer is followed, not two: print "
				"the second pointer (%%llx) and probe where it "
				"is an argument");
	if (t->t == TK_OTHER && *t->s == '[')
		return FAIL_TOK(ps, "array elements are not supported");
	return 0;
}

/* A parameter of the signature: argN, and a field if it points to a
 * struct */
static int parse_param_value(struct parser *ps, struct trace_value *v,
			     int i)
{
	const struct trace_param *pa = &ps->sp->params[i];

	v->kind = TV_ARG;
	v->argn = i + 1;
	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_ARROW)
		return 0;
	if (!pa->strct[0])
		return FAIL_TOK(ps, "%s is not declared a struct pointer in "
				"the signature (struct NAME *%s)", pa->name,
				pa->name);
	return parse_path(ps, v, pa->strct);
}

/* ((struct NAME *)VALUE)->member: the current token is the outer '('
 * (tl_peek_cast said 3) */
static int parse_cast_field(struct parser *ps, struct trace_value *v)
{
	char words[64];
	const char *s = ps->tok.s;

	if (tl_lex(ps) < 0 || tl_peek_cast(ps, words, sizeof(words)) != 2)
		return FAIL_TOK(ps, "expected (struct NAME *)");
	while (ps->tok.t != TK_RP)
		if (tl_lex(ps) < 0)
			return -EINVAL;
	if (tl_lex(ps) < 0 || parse_atom(ps, v) < 0)
		return -EINVAL;
	if (v->deref || ps->tok.t != TK_RP)
		return tl_fail(ps, s, ps->tok.s + ps->tok.n - s, "a field "
			       "through a cast is "
			       "((struct NAME *)VALUE)->member, VALUE one of "
			       "arg1..arg6, retval, args->FIELD");
	if (tl_lex(ps) < 0)
		return -EINVAL;
	if (ps->tok.t != TK_ARROW)
		return FAIL_TOK(ps, "a cast to a struct pointer is there to "
				"read a member: ((struct NAME *)VALUE)->member");
	return parse_path(ps, v, words + 7);
}

/* argN: N of 1..12 (USDT_MAX_ARGS), or 0 */
static int usdt_argn(const struct tok *t)
{
	int n = 0;
	size_t i;

	for (i = 3; i < t->n; i++) {
		if (t->s[i] < '0' || t->s[i] > '9' || (i == 3 && t->s[i] == '0'))
			return 0;
		n = n * 10 + (t->s[i] - '0');
	}
	return n <= USDT_MAX_ARGS ? n : 0;
}

static int parse_atom(struct parser *ps, struct trace_value *v)
{
	static const struct {
		const char *name;
		enum trace_vkind kind;
	} vars[] = {
		{ "retval", TV_RETVAL }, { "$pid", TV_PID },
		{ "$tgid", TV_TGID }, { "$uid", TV_UID }, { "$gid", TV_GID },
		{ "$cpu", TV_CPU },
	};
	struct tok *t = &ps->tok;
	size_t i;

	if (t->t != TK_IDENT)
		return FAIL_TOK(ps, "expected a value here; " HINT_VALUES);
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (tl_tok_is(t, vars[i].name)) {
			v->kind = vars[i].kind;
			return tl_lex(ps);
		}
	if ((t->n == 4 && !strncmp(t->s, "arg", 3) && t->s[3] >= '1' &&
	     t->s[3] <= '6') ||
	    (ps->sp->usdt && t->n >= 4 && t->n <= 5 &&
	     !strncmp(t->s, "arg", 3) && usdt_argn(t) > 0)) {
		v->kind = TV_ARG;
		v->argn = usdt_argn(t);
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (t->t != TK_AT)
			return 0;
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (!tl_tok_is(t, "user"))
			return FAIL_TOK(ps, "after '@' comes 'user' "
					"(arg2@user: a user-space pointer)");
		v->user = 1;
		return tl_lex(ps);
	}
	if (!strncmp(t->s, "arg", 3) && t->n > 3 && t->s[3] >= '0' &&
	    t->s[3] <= '9')
		return FAIL_TOK(ps, ps->sp->usdt ? "the arguments of a USDT "
				"probe are arg1..arg12" : "the arguments are "
				"arg1..arg6");
	if (tl_tok_is(t, "args")) {
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (t->t != TK_ARROW)
			return FAIL_TOK(ps, "a tracepoint field is args->NAME");
		if (tl_lex(ps) < 0)
			return -EINVAL;
		if (t->t != TK_IDENT || t->n >= sizeof(v->field) ||
		    t->s[0] == '$')
			return FAIL_TOK(ps, "a tracepoint field is args->NAME");
		v->kind = TV_FIELD;
		memcpy(v->field, t->s, t->n);
		v->field[t->n] = 0;
		return tl_lex(ps);
	}
	for (i = 0; i < (size_t)ps->sp->nparams; i++)
		if (tl_tok_is(t, ps->sp->params[i].name))
			return parse_param_value(ps, v, i);
	if (tl_tok_is(t, "STRCMP"))
		return FAIL_TOK(ps, "STRCMP is a condition of its own: "
				"(STRCMP(\"text\", arg1))");
	if (t->s[0] == '$')
		return FAIL_TOK(ps, "not a variable barebpf has (it would "
				"need the kernel's struct layouts); $pid, "
				"$tgid, $uid, $gid and $cpu are");
	return FAIL_TOK(ps, "unknown value; " HINT_VALUES);
}

/* A value; what may follow it is the caller's business, except what
 * looks like an expression bcc would compile. */
int tl_value(struct parser *ps, struct trace_value *v)
{
	const char *start = ps->tok.s, *end;
	char words[64];
	int cast;

	memset(v, 0, sizeof(*v));
	if (ps->tok.t == TK_LP && (cast = tl_peek_cast(ps, words,
						    sizeof(words))) &&
	    cast != 3) {
		const char *c = ps->tok.s;

		while (ps->tok.t != TK_RP)
			if (tl_lex(ps) < 0)
				return -EINVAL;
		if (cast == 2 || !trace_int_type(words, &v->cast_size,
					    &v->cast_signed))
			return tl_fail(ps, c, ps->tok.s + 1 - c,
				       "only integer casts are supported "
				       "(int, unsigned long, u32, s64...)%s",
				       cast == 2 ? "; %s prints the string a "
				       "pointer points to" : "");
		if (tl_lex(ps) < 0)
			return -EINVAL;
	}
	if (ps->tok.t == TK_LP &&
	    tl_peek_cast(ps, words, sizeof(words)) == 3) {
		if (parse_cast_field(ps, v) < 0)
			return -EINVAL;
	} else if (parse_atom(ps, v) < 0) {
		return -EINVAL;
	}
	end = ps->tok.s;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	snprintf(v->text, sizeof(v->text), "%.*s", (int)(end - start), start);
	if (ps->tok.t == TK_ARROW ||
	    (ps->tok.t == TK_OTHER && strchr(".[", *ps->tok.s))) {
		for (end = ps->p; tl_is_ident(*end); end++)
			;
		return tl_fail(ps, start, end - start, "a field is read "
			       "through a struct pointer: declare it in the "
			       "signature, p::FUNC(struct sock *sk) ... "
			       "sk->FIELD, or cast, ((struct sock *)arg1)->"
			       "FIELD");
	}
	if (ps->tok.t == TK_MINUS ||
	    (ps->tok.t == TK_OTHER && strchr("+*/%|^~<>", *ps->tok.s)))
		return FAIL_TOK(ps, "arithmetic is not supported; %s",
				HINT_VALUES);
	return 0;
}

