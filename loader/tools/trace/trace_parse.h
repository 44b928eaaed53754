/* SPDX-License-Identifier: MIT */
/*
 * Inside trace's parser (trace_lex.c: tokens and values; trace_spec.c:
 * probe names; trace_filter.c: filters and formats; calls run that way,
 * spec -> filter -> lex). Not for other files.
 */
#ifndef BAREBPF_TRACE_PARSE_H
#define BAREBPF_TRACE_PARSE_H

#include "trace_spec.h"

enum tk {
	TK_END, TK_IDENT, TK_NUM, TK_STR, TK_LP, TK_RP, TK_COMMA, TK_NOT,
	TK_ANDAND, TK_OROR, TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE, TK_AMP,
	TK_ARROW, TK_AT, TK_MINUS, TK_OTHER,
};

struct tok {
	enum tk t;
	const char *s; /* where it starts in the text */
	size_t n;
	uint64_t num;  /* TK_NUM */
	/* its C type (as BPF's C: int 4 bytes, long 8): the first of int,
	 * long, unsigned long (decimal) or of int, unsigned int, long,
	 * unsigned long (hex, octal) that holds it; U and L narrow the list */
	int nsize, nsgn, nu; /* nu: a U suffix */
};

struct parser {
	const char *text;
	const char *p;     /* after tok */
	struct tok tok;
	struct trace_spec *sp;
	struct bb_err *err;
	char joint;        /* '&' or '|' once seen */
	int bare;          /* the last condition is a bare operand */
};

#define HINT_VALUES                                                            \
	"a value is arg1..arg6, retval, args->FIELD, $pid, $tgid, $uid, $gid " \
	"or $cpu, with an optional integer cast"

/* "probe 'TEXT': 'TOKEN': what is wrong"; returns -EINVAL */
int tl_fail(struct parser *ps, const char *tok, size_t n,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define FAIL_TOK(ps, ...) tl_fail(ps, (ps)->tok.s, (ps)->tok.n, __VA_ARGS__)
/* The next token into ps->tok. */
int tl_lex(struct parser *ps);
/* a character of an identifier */
int tl_is_ident(char c);
int tl_tok_is(const struct tok *t, const char *word);
/* The current token is '(': 1 if a type follows (a cast), 2 for a pointer
 * type, 0 if not (a parenthesized condition); nothing is consumed. */
int tl_peek_cast(struct parser *ps, char *words, size_t len);
int tl_value(struct parser *ps, struct trace_value *v);
/* The current token is '(' of a filter, or '"' of a format. */
int tl_filter(struct parser *ps);
int tl_action(struct parser *ps);

#endif
