/* SPDX-License-Identifier: MIT */
/*
 * trace's probe language, parsed (see trace_spec.h). bcc hands the filter
 * and the values to LLVM as C; here they are a small grammar:
 *
 *   probe  := spec [filter] [format {',' value}]
 *   spec   := [p|r|kprobe|kretprobe] ':' [':'] FUNC | FUNC
 *           | (t|tracepoint) ':' CATEGORY ':' EVENT
 *   filter := '(' cond {('&&' | '||') cond} ')'     one kind of joint
 *   cond   := '!' cond | '(' cond... ')' | STRCMP '(' "text" ',' value ')'
 *           | operand [relop operand]     one side a number
 *   operand:= value ['&' number] | number | '(' operand ')'
 *   value  := ['(' integer type ')'] (argN[@user] | retval | args->FIELD
 *           | $pid | $tgid | $uid | $gid | $cpu)
 *
 * Whatever falls outside is refused with the token named: an expression
 * bcc compiles (arg1->f_pos, arg2 + 1) needs struct layouts or code
 * generation that a host without LLVM or BTF does not have.
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

static int is_ident(char c)
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

static int lex_number(struct parser *ps, const char *s)
{
	struct tok *t = &ps->tok;
	char buf[32];
	const char *e = s;
	char *end;
	size_t n;

	while (is_ident(*e))
		e++;
	t->t = TK_NUM;
	t->n = e - s;
	ps->p = e;
	n = e - s;
	while (n && strchr("uUlL", s[n - 1]))
		n--;
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

		while (is_ident(*e))
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

/* ---- the probe specifier ---- */

static int name_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == '$' ||
		    (!is_ident(*s) && *s != '.' && !strchr(extra, *s)))
			return 0;
	return 1;
}

static int parse_func(struct parser *ps, enum trace_ptype type,
		      const char *fn)
{
	struct trace_spec *sp = ps->sp;
	const char *plus = strchr(fn, '+');

	sp->type = type;
	if (!*fn && sp->lib[0])
		return tl_fail(ps, ps->text, strcspn(ps->text, " \t("),
			       "a function name is needed (p:LIB:NAME)");
	if (!*fn)
		return tl_fail(ps, ps->text, strcspn(ps->text, " \t("),
			       "a kernel function name is needed (p::NAME)");
	if (plus)
		return tl_fail(ps, plus, strlen(plus), "offsets into a "
			       "function are not supported; probe its entry "
			       "(p:%.64s:%.*s) or return (r:%.64s:%.*s)",
			       sp->lib, (int)(plus - fn > 64 ? 64 : plus - fn),
			       fn, sp->lib,
			       (int)(plus - fn > 64 ? 64 : plus - fn), fn);
	if (!sp->lib[0] && strchr(fn, '/'))
		return tl_fail(ps, fn, strlen(fn), "a path, not a kernel "
			       "function: a uprobe is p:/PATH:FUNC, and a probe "
			       "ends at the first blank (a path with a space "
			       "cannot be probed: link it to one without)");
	if (!name_ok(fn, "*?[]!-^") || strlen(fn) >= sizeof(sp->func))
		return tl_fail(ps, fn, strlen(fn), sp->lib[0] ? "not a "
			       "function name" : "not a kernel function name");
	strcpy(sp->func, fn);
	if (type == TRACE_RETURN && trace_spec_is_glob(sp))
		return tl_fail(ps, fn, strlen(fn), "a return probe takes one "
			       "function, not a pattern (where a return comes "
			       "from is not known)");
	return 0;
}

static int parse_tracepoint(struct parser *ps, const char *cat,
			    const char *ev)
{
	struct trace_spec *sp = ps->sp;

	sp->type = TRACE_TP;
	if (!*cat || !*ev)
		return tl_fail(ps, ps->text, strcspn(ps->text, " \t("),
			       "a tracepoint is t:CATEGORY:EVENT");
	if (!name_ok(cat, "") || strlen(cat) >= sizeof(sp->cat))
		return tl_fail(ps, cat, strlen(cat), "not a tracepoint "
			       "category");
	if (!name_ok(ev, "") || strlen(ev) >= sizeof(sp->event))
		return tl_fail(ps, ev, strlen(ev), "not a tracepoint event");
	strcpy(sp->cat, cat);
	strcpy(sp->event, ev);
	return 0;
}

/* p:LIB:FUNC: a path, or a library's short name */
static int parse_lib(struct parser *ps, const char *lib)
{
	struct trace_spec *sp = ps->sp;

	if (strlen(lib) >= sizeof(sp->lib) ||
	    (!strchr(lib, '/') && !name_ok(lib, "-+")))
		return tl_fail(ps, lib, strlen(lib), "not a library or "
			       "program: a path (/usr/bin/x) or a library's "
			       "name (c for libc)");
	if (strpbrk(lib, " \t\n\r"))
		return tl_fail(ps, lib, strlen(lib), "a path with spaces cannot "
			       "be probed");
	strcpy(sp->lib, lib);
	return 0;
}

/* u:LIB:PROBE, u:LIB:PROVIDER:PROBE (bcc's): a USDT probe's name, its
 * provider's if given; where it is, and its arguments, come from LIB */
static int parse_usdt(struct parser *ps, const char *s, size_t n,
		      char **part, int np)
{
	struct trace_spec *sp = ps->sp;
	const char *name = part[np - 1];

	if (np < 2 || !*part[0])
		return tl_fail(ps, s, n, "a USDT probe is u:LIB:PROBE or "
			       "u:LIB:PROVIDER:PROBE (LIB a path or a "
			       "library's name)");
	if (parse_lib(ps, part[0]) < 0)
		return -EINVAL;
	sp->usdt = 1;
	sp->type = TRACE_ENTRY;
	if (np == 3) {
		if (!name_ok(part[1], "") ||
		    strlen(part[1]) >= sizeof(sp->provider))
			return tl_fail(ps, part[1], strlen(part[1]), "not a "
				       "USDT provider name");
		strcpy(sp->provider, part[1]);
	}
	if (!name_ok(name, "") || strlen(name) >= sizeof(sp->func))
		return tl_fail(ps, name, strlen(name), "not a USDT probe name");
	strcpy(sp->func, name);
	return 0;
}

/*
 * bcc's rules: FUNC is p::FUNC and LIB:FUNC is p:LIB:FUNC (a uprobe). No
 * library would be called p or r, so p:FUNC and r:FUNC mean the kernel
 * function (and bpftrace's kprobe:FUNC too).
 */
static int parse_probe_name(struct parser *ps, const char *s, size_t n)
{
	char buf[TRACE_NAME_MAX + 400], *part[4];
	int np = 0;
	char *c;

	if (n >= sizeof(buf))
		return tl_fail(ps, s, n, "too long for a probe");
	memcpy(buf, s, n);
	buf[n] = 0;
	part[np++] = buf;
	for (c = buf; (c = strchr(c, ':')); *c++ = 0)
		if (np < 4)
			part[np++] = c + 1;
		else
			break;
	if (c)
		return tl_fail(ps, s, n, "too many ':' for a probe");
	if (np == 1)
		return parse_func(ps, TRACE_ENTRY, part[0]);
	if (!strcmp(part[0], "u") || !strcmp(part[0], "usdt"))
		return parse_usdt(ps, s, n, part + 1, np - 1);
	if (np == 4)
		return tl_fail(ps, s, n, "too many ':' for a probe");
	if (!strcmp(part[0], "t") || !strcmp(part[0], "tracepoint")) {
		if (np == 2)
			return tl_fail(ps, s, n, "a tracepoint is "
				       "t:CATEGORY:EVENT");
		return parse_tracepoint(ps, part[1], part[2]);
	}
	if (np == 3 && *part[1]) {
		int r = !strcmp(part[0], "r") || !strcmp(part[0], "uretprobe");

		if (!r && strcmp(part[0], "p") && strcmp(part[0], "uprobe") &&
		    *part[0])
			return tl_fail(ps, s, strlen(part[0]), "the probe type "
				       "of a uprobe is p (entry) or r "
				       "(return)");
		if (parse_lib(ps, part[1]) < 0)
			return -EINVAL;
		return parse_func(ps, r ? TRACE_RETURN : TRACE_ENTRY, part[2]);
	}
	if (!strcmp(part[0], "r") || !strcmp(part[0], "kretprobe"))
		return parse_func(ps, TRACE_RETURN, part[np - 1]);
	if (!*part[0] || !strcmp(part[0], "p") || !strcmp(part[0], "kprobe"))
		return parse_func(ps, TRACE_ENTRY, part[np - 1]);
	if (np == 2) {
		if (parse_lib(ps, part[0]) < 0)
			return -EINVAL;
		return parse_func(ps, TRACE_ENTRY, part[1]);
	}
	return tl_fail(ps, s, strlen(part[0]), "the probe type is p (entry), "
		       "r (return) or t (tracepoint)");
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
						    sizeof(words)))) {
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
	if (parse_atom(ps, v) < 0)
		return -EINVAL;
	end = ps->tok.s;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	snprintf(v->text, sizeof(v->text), "%.*s", (int)(end - start), start);
	if (ps->tok.t == TK_ARROW ||
	    (ps->tok.t == TK_OTHER && strchr(".[", *ps->tok.s))) {
		for (end = ps->p; is_ident(*end); end++)
			;
		return tl_fail(ps, start, end - start, "reading through a "
			       "pointer needs the kernel's struct layouts (BTF "
			       "or headers); print the pointer (%%llx) or use "
			       "a tracepoint's fields");
	}
	if (ps->tok.t == TK_MINUS ||
	    (ps->tok.t == TK_OTHER && strchr("+*/%|^~<>", *ps->tok.s)))
		return FAIL_TOK(ps, "arithmetic is not supported; %s",
				HINT_VALUES);
	return 0;
}

int trace_spec_parse(const char *text, struct trace_spec *sp,
		     struct bb_err *err)
{
	struct parser ps;
	size_t n;

	memset(sp, 0, sizeof(*sp));
	memset(&ps, 0, sizeof(ps));
	ps.text = text;
	ps.sp = sp;
	ps.err = err;
	while (*text == ' ' || *text == '\t')
		text++;
	n = strcspn(text, " \t\n\r(\"");
	if (!n)
		return bb_fail(err, -EINVAL, "probe '%.160s': a probe starts "
			       "with a function or t:CATEGORY:EVENT", ps.text);
	if (parse_probe_name(&ps, text, n) < 0)
		return -EINVAL;
	if (text[n] == '(') {
		size_t m = strcspn(text + n, ")");

		return tl_fail(&ps, text + n, text[n + m] ? m + 1 : m,
			       "function signatures are not supported (bcc "
			       "compiles them with the kernel's headers); use "
			       "arg1..arg6, and put a blank before a filter");
	}
	ps.p = text + n;
	if (tl_lex(&ps) < 0)
		return -EINVAL;
	if (ps.tok.t == TK_LP && tl_filter(&ps) < 0)
		return -EINVAL;
	if (ps.tok.t == TK_STR)
		return tl_action(&ps);
	if (ps.tok.t != TK_END)
		return FAIL_TOK(&ps, "expected a filter in parentheses or a "
				"format in double quotes");
	return 0;
}

const char *trace_spec_display(const struct trace_spec *sp)
{
	return sp->type == TRACE_TP ? sp->event : sp->func;
}

int trace_spec_is_glob(const struct trace_spec *sp)
{
	return sp->type != TRACE_TP && strpbrk(sp->func, "*?[") != NULL;
}
