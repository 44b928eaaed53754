/* SPDX-License-Identifier: MIT */
/*
 * trace's VALUE->member: bcc's signature (p::FUNC(struct sock *sk)) and
 * casts to a struct pointer (((struct sock *)retval)->...), what they
 * parse into, what is refused with which message, and the slot a placed
 * field compiles into (a pointer read, then the member at its offset).
 */
#include <errno.h>
#include <string.h>
#include "bbtest.h"
#include "trace_spec.h"

static void parse(const char *text, struct trace_spec *sp)
{
	struct bb_err err = { "" };

	ck_assert_msg(trace_spec_parse(text, sp, &err) == 0, "%s: %s", text,
		      err.msg);
}

static void check_field(const struct trace_value *v, enum trace_vkind kind,
			int argn, const char *strct, const char *path)
{
	ck_assert_int_eq(v->kind, kind);
	ck_assert_int_eq(v->argn, argn);
	ck_assert_int_eq(v->deref, 1);
	ck_assert_str_eq(v->strct, strct);
	ck_assert_str_eq(v->path, path);
}

START_TEST(test_parse_signature)
{
	struct trace_spec sp;

	parse("p::tcp_v4_connect(struct sock *sk) \"%d %d\", "
	      "sk->__sk_common.skc_dport, sk->sk_state", &sp);
	ck_assert_str_eq(sp.func, "tcp_v4_connect");
	ck_assert_int_eq(sp.nparams, 1);
	ck_assert_str_eq(sp.params[0].name, "sk");
	ck_assert_str_eq(sp.params[0].strct, "sock");
	ck_assert_int_eq(sp.nconv, 2);
	check_field(&sp.args[0], TV_ARG, 1, "sock", "__sk_common.skc_dport");
	check_field(&sp.args[1], TV_ARG, 1, "sock", "sk_state");
	ck_assert_str_eq(sp.args[0].text, "sk->__sk_common.skc_dport");

	/* several parameters, a filter on a field, a plain parameter */
	parse("p::tcp_sendmsg(const struct sock *sk, struct msghdr *msg, "
	      "size_t size) (size > 100 && sk->sk_state == 1) \"%d %llx\", "
	      "size, msg", &sp);
	ck_assert_int_eq(sp.nparams, 3);
	ck_assert_str_eq(sp.params[0].strct, "sock");
	ck_assert_str_eq(sp.params[1].name, "msg");
	ck_assert_str_eq(sp.params[1].strct, "msghdr");
	ck_assert_str_eq(sp.params[2].name, "size");
	ck_assert_str_eq(sp.params[2].strct, "");
	ck_assert_int_eq(sp.nterms, 2);
	ck_assert_int_eq(sp.terms[0].v.kind, TV_ARG);
	ck_assert_int_eq(sp.terms[0].v.argn, 3);
	ck_assert_int_eq(sp.terms[0].v.deref, 0);
	check_field(&sp.terms[1].v, TV_ARG, 1, "sock", "sk_state");
	ck_assert_uint_eq(sp.terms[1].k, 1);
	ck_assert_int_eq(sp.args[0].argn, 3);
	ck_assert_int_eq(sp.args[1].argn, 2);
	ck_assert_int_eq(sp.args[1].deref, 0);

	/* (void), and an integer cast of a field */
	parse("p::f(void)", &sp);
	ck_assert_int_eq(sp.nparams, 0);
	parse("p::f(struct sock *sk) \"%d\", (u8)sk->a.b", &sp);
	check_field(&sp.args[0], TV_ARG, 1, "sock", "a.b");
	ck_assert_int_eq(sp.args[0].cast_size, 1);
}
END_TEST

START_TEST(test_parse_casts)
{
	struct trace_spec sp;

	parse("r::inet_csk_accept \"%d\", "
	      "((struct sock *)retval)->__sk_common.skc_num", &sp);
	check_field(&sp.args[0], TV_RETVAL, 0, "sock", "__sk_common.skc_num");
	parse("t:sock:inet_sock_set_state \"%d\", "
	      "((struct sock *)args->skaddr)->sk_state", &sp);
	check_field(&sp.args[0], TV_FIELD, 0, "sock", "sk_state");
	ck_assert_str_eq(sp.args[0].field, "skaddr");
	/* in a filter: an operand, not a group of conditions */
	parse("p::f (((struct sock *)arg2)->a.b == 3 || arg1 > 1)", &sp);
	ck_assert_int_eq(sp.nterms, 2);
	ck_assert_int_eq(sp.filter_or, 1);
	check_field(&sp.terms[0].v, TV_ARG, 2, "sock", "a.b");
	ck_assert_uint_eq(sp.terms[0].k, 3);
	ck_assert_int_eq(sp.terms[1].v.deref, 0);
	parse("p::f ((((struct sock *)arg2)->a & 4) == 4)", &sp);
	check_field(&sp.terms[0].v, TV_ARG, 2, "sock", "a");
	ck_assert_uint_eq(sp.terms[0].mask, 4);
}
END_TEST

START_TEST(test_parse_field_errors)
{
	static const char *const cases[][2] = {
		{ "t:a:b(int x)", "probe 't:a:b(int x)': '(int x)': a "
		  "signature names a kernel function's arguments "
		  "(p::tcp_v4_connect(struct sock *sk)); a tracepoint has "
		  "args->FIELD" },
		{ "p:c:malloc(struct sock *sk)", "probe "
		  "'p:c:malloc(struct sock *sk)': '(struct sock *sk)': a "
		  "signature names a kernel function's arguments "
		  "(p::tcp_v4_connect(struct sock *sk)); a user-space "
		  "function's are arg1..arg6 (their structs are not the "
		  "kernel's)" },
		{ "p::f(struct sock *)", "probe 'p::f(struct sock *)': "
		  "'struct sock *': a parameter is a type and a name "
		  "(struct sock *sk, int len)" },
		{ "p::f(int x \"%d\", x", "probe 'p::f(int x \"%d\", x': "
		  "'\"%d\"': a parameter is a type and a name (struct sock "
		  "*sk, int len)" },
		{ "p::f(int x) \"%d\", x->y", "probe 'p::f(int x) \"%d\", "
		  "x->y': '->': x is not declared a struct pointer in the "
		  "signature (struct NAME *x)" },
		{ "p::f(struct sock *sk) \"%d\", sk->", "probe 'p::f(struct "
		  "sock *sk) \"%d\", sk->': at its end: expected a member of "
		  "struct sock" },
		{ "p::f(struct sock *sk) \"%d\", sk->a[1]", "probe "
		  "'p::f(struct sock *sk) \"%d\", sk->a[1]': '[': array "
		  "elements are not supported" },
		{ "p::f \"%d\", ((struct sock *)arg1)", "probe 'p::f \"%d\", "
		  "((struct sock *)arg1)': at its end: a cast to a struct "
		  "pointer is there to read a member: ((struct NAME "
		  "*)VALUE)->member" },
		{ "p::f \"%d\", ((struct sock *)$pid + 1)->a", "probe 'p::f "
		  "\"%d\", ((struct sock *)$pid + 1)->a': '((struct sock "
		  "*)$pid +': a field through a cast is ((struct NAME "
		  "*)VALUE)->member, VALUE one of arg1..arg6, retval, "
		  "args->FIELD" },
	};
	struct trace_spec sp;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_err err = { "" };

		ck_assert_msg(trace_spec_parse(cases[i][0], &sp, &err) ==
			      -EINVAL, "'%s' parsed", cases[i][0]);
		ck_assert_str_eq(err.msg, cases[i][1]);
	}
}
END_TEST

static const char set_state_fmt[] =
	"\tfield:const void * skaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int oldstate;\toffset:16;\tsize:4;\tsigned:1;\n";

static int compile(const char *text, uint32_t doff, uint32_t dsize,
		   int dsgn, const struct bb_arch *arch, struct trace_spec *sp,
		   struct trace_prog *pr, struct bb_err *err)
{
	struct bb_tp_field f[4];
	int n = tp_format_parse(set_state_fmt, f, 4), i;

	ck_assert_int_eq(n, 2);
	parse(text, sp);
	/* what trace_field_place does with the field-offset layer's answer */
	for (i = 0; i < sp->nconv; i++)
		if (sp->args[i].deref) {
			sp->args[i].doff = doff + 4 * i;
			sp->args[i].dsize = dsize;
			sp->args[i].dsgn = dsgn;
		}
	for (i = 0; i < sp->nterms; i++)
		if (sp->terms[i].v.deref) {
			sp->terms[i].v.doff = doff;
			sp->terms[i].v.dsize = dsize;
			sp->terms[i].v.dsgn = dsgn;
		}
	return trace_spec_compile(sp, arch, sp->type == TRACE_TP ? f : NULL,
				  sp->type == TRACE_TP ? n : 0, 80, pr, err);
}

START_TEST(test_compile_fields)
{
	struct bb_err err = { "" };
	struct trace_spec sp;
	struct trace_prog pr;

	/* arg1 (rdi, at 112 in x86's pt_regs), then 2 bytes at +12 */
	ck_assert_int_eq(compile("p::f(struct sock *sk) \"%d %d\", sk->a, "
				 "sk->b", 12, 2, 0, &bb_arch_x86_64, &sp, &pr,
				 &err), 0);
	ck_assert_int_eq(pr.nslots, 2);
	ck_assert_uint_eq(pr.slots[0].base, TRACE_BASE_CTX);
	ck_assert_uint_eq(pr.slots[0].off, 112);
	ck_assert_uint_eq(pr.slots[0].dref, 13);
	ck_assert_uint_eq(pr.slots[0].size, 2);
	ck_assert_uint_eq(pr.slots[0].ext1, TRACE_EXT(2, 0));
	ck_assert_uint_eq(pr.slots[0].str, TRACE_STR_NONE);
	/* the same pointer, another member: a slot of its own */
	ck_assert_uint_eq(pr.slots[1].off, 112);
	ck_assert_uint_eq(pr.slots[1].dref, 17);
	/* a signed member, filtered on as C compares: a signed char */
	ck_assert_int_eq(compile("p::f(struct sock *sk) (sk->a < 0) \"%d\", "
				 "sk->a", 16, 1, 1, &bb_arch_x86_64, &sp, &pr,
				 &err), 0);
	ck_assert_int_eq(pr.nslots, 1);
	ck_assert_uint_eq(pr.slots[0].ext1, TRACE_EXT(1, 1));
	ck_assert_uint_eq(pr.terms[0].op, TRACE_OP_LTS);
	/* a tracepoint's pointer field; 32-bit ARM's return register */
	ck_assert_int_eq(compile("t:sock:inet_sock_set_state \"%u\", "
				 "((struct sock *)args->skaddr)->a", 18, 1, 0,
				 &bb_arch_x86_64, &sp, &pr, &err), 0);
	ck_assert_uint_eq(pr.slots[0].off, 8);
	ck_assert_uint_eq(pr.slots[0].dref, 19);
	ck_assert_uint_eq(pr.slots[0].size, 1);
	ck_assert_int_eq(compile("r::f \"%d\", ((struct sock *)retval)->a", 4,
				 4, 1, &bb_arch_arm, &sp, &pr, &err), 0);
	ck_assert_uint_eq(pr.slots[0].off, bb_arch_arm.ret);
	ck_assert_uint_eq(pr.slots[0].dref, 5);
	ck_assert_uint_eq(pr.slots[0].size, 4);
}
END_TEST

START_TEST(test_compile_field_errors)
{
	static const struct {
		const char *text;
		uint32_t dsize;
		const char *msg;
	} cases[] = {
		{ "p::f(struct sock *sk) \"%d\", sk->a", 0, "probe 'p::f': "
		  "'sk->a': the field was not placed" },
		{ "p::f(struct sock *sk) \"%s\", sk->a", 8, "probe 'p::f': "
		  "'sk->a': a struct's field prints as a number (%d %u %x)" },
		{ "t:sock:inet_sock_set_state \"%d\", ((struct sock "
		  "*)args->oldstate)->a", 4, "probe "
		  "'t:sock:inet_sock_set_state': '((struct sock "
		  "*)args->oldstate)->a': not a pointer" },
		{ "p:c:malloc \"%d\", ((struct sock *)arg1)->a", 4,
		  "probe 'p:c:malloc': '((struct sock *)arg1)->a': not in a "
		  "user-space probe" },
		{ "p::f(struct sock *sk) \"%d\", ((struct sock *)$pid)->a", 4,
		  "probe 'p::f': '((struct sock *)$pid)->a': not a pointer" },
	};
	struct trace_spec sp;
	struct trace_prog pr;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_err err = { "" };

		ck_assert_int_eq(compile(cases[i].text, 0, cases[i].dsize, 0,
					 &bb_arch_x86_64, &sp, &pr, &err),
				 -EINVAL);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

static Suite *trace_field_suite(void)
{
	Suite *s = suite_create("trace_field");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_signature);
	tcase_add_test(tc, test_parse_casts);
	tcase_add_test(tc, test_parse_field_errors);
	tcase_add_test(tc, test_compile_fields);
	tcase_add_test(tc, test_compile_field_errors);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_field, trace_field_suite, NULL)
