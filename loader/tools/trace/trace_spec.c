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

/* ---- the probe specifier ---- */

static int name_ok(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == '$' ||
		    (!tl_is_ident(*s) && *s != '.' && !strchr(extra, *s)))
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

/*
 * bcc's signature: p::FUNC(struct sock *sk, int len) names the arguments
 * (sk is arg1), and a struct pointer's fields can be read (sk->sk_state).
 * Kernel functions only: the structs are the kernel's. One parameter:
 * type words, stars, a name; "struct X *name" points to struct X.
 */
static int parse_param(struct parser *ps, struct trace_param *pa)
{
	const char *s = ps->tok.s, *w[8];
	size_t wn[8];
	int nw = 0, stars = 0, i = 0, after = 0; /* words after a '*' */

	for (;;) {
		if (ps->tok.t == TK_OTHER && *ps->tok.s == '*')
			stars++, after = 0;
		else if (ps->tok.t == TK_IDENT && nw < 8)
			w[nw] = ps->tok.s, wn[nw++] = ps->tok.n, after++;
		else
			break;
		if (tl_lex(ps) < 0)
			return -EINVAL;
	}
	if (ps->tok.t != TK_COMMA && ps->tok.t != TK_RP)
		return FAIL_TOK(ps, "a parameter is a type and a name (struct "
				"sock *sk, int len)");
	if (nw < 2 || (stars && after != 1) || wn[nw - 1] >= sizeof(pa->name) || *w[nw - 1] == '$')
		return tl_fail(ps, s, ps->tok.s - s, "a parameter is a type "
			       "and a name (struct sock *sk, int len)");
	memcpy(pa->name, w[nw - 1], wn[nw - 1]);
	pa->name[wn[nw - 1]] = 0;
	if (nw >= 2 && wn[0] == 5 && !memcmp(w[0], "const", 5))
		i = 1;
	if (stars == 1 && nw == i + 3 && wn[i] == 6 &&
	    !memcmp(w[i], "struct", 6) && wn[i + 1] < sizeof(pa->strct)) {
		memcpy(pa->strct, w[i + 1], wn[i + 1]);
		pa->strct[wn[i + 1]] = 0;
	}
	return 0;
}

/* ps->p is at the signature's '('; returns with its ')' the token */
static int parse_signature(struct parser *ps)
{
	struct trace_spec *sp = ps->sp;
	const char *s = ps->p;

	if (sp->type == TRACE_TP || sp->lib[0])
		return tl_fail(ps, s, strcspn(s, ")") + 1, "a signature names "
			       "a kernel function's arguments "
			       "(p::tcp_v4_connect(struct sock *sk)); %s",
			       sp->type == TRACE_TP ? "a tracepoint has "
			       "args->FIELD" : "a user-space function's are "
			       "arg1..arg6 (their structs are not the "
			       "kernel's)");
	if (tl_lex(ps) < 0 || tl_lex(ps) < 0)
		return -EINVAL;
	if (tl_tok_is(&ps->tok, "void") && tl_lex(ps) < 0)
		return -EINVAL;
	while (ps->tok.t != TK_RP) {
		if (sp->nparams == 6)
			return FAIL_TOK(ps, "arguments are arg1..arg6: six "
					"parameters at most");
		if (parse_param(ps, &sp->params[sp->nparams++]) < 0)
			return -EINVAL;
		if (ps->tok.t == TK_COMMA && tl_lex(ps) < 0)
			return -EINVAL;
	}
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
	ps.p = text + n;
	/* after a signature, its ')' is the current token */
	if (text[n] == '(' && parse_signature(&ps) < 0)
		return -EINVAL;
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
