/* SPDX-License-Identifier: MIT */
/*
 * trace's probe language: what parses into what, what is refused with
 * which message (naming the token), what compiles into which constants of
 * bpf/trace.bpf.c, and how records are printed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "trace_spec.h"


static void parse_ok(const char *text, struct trace_spec *sp)
{
	struct bb_err err = { "" };

	ck_assert_msg(trace_spec_parse(text, sp, &err) == 0, "%s: %s", text,
		      err.msg);
}

START_TEST(test_parse_probe_names)
{
	static const struct {
		const char *text;
		enum trace_ptype type;
		const char *func, *cat, *event;
	} cases[] = {
		{ "do_sys_open", TRACE_ENTRY, "do_sys_open", "", "" },
		{ "p::do_sys_open", TRACE_ENTRY, "do_sys_open", "", "" },
		{ "p:do_sys_open", TRACE_ENTRY, "do_sys_open", "", "" },
		{ ":do_sys_open", TRACE_ENTRY, "do_sys_open", "", "" },
		{ "kprobe:vfs_read", TRACE_ENTRY, "vfs_read", "", "" },
		{ "r::vfs_read", TRACE_RETURN, "vfs_read", "", "" },
		{ "r:vfs_read", TRACE_RETURN, "vfs_read", "", "" },
		{ "kretprobe:vfs_read", TRACE_RETURN, "vfs_read", "", "" },
		{ "blk_*freeze*", TRACE_ENTRY, "blk_*freeze*", "", "" },
		{ "p::fn.isra.0", TRACE_ENTRY, "fn.isra.0", "", "" },
		{ "t:block:block_rq_issue", TRACE_TP, "", "block",
		  "block_rq_issue" },
		{ "tracepoint:sched:sched_switch", TRACE_TP, "", "sched",
		  "sched_switch" },
		{ "  vfs_read  ", TRACE_ENTRY, "vfs_read", "", "" },
	};
	struct trace_spec sp;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_ok(cases[i].text, &sp);
		ck_assert_int_eq(sp.type, cases[i].type);
		ck_assert_str_eq(sp.func, cases[i].func);
		ck_assert_str_eq(sp.cat, cases[i].cat);
		ck_assert_str_eq(sp.event, cases[i].event);
		ck_assert_int_eq(sp.has_fmt, 0);
		ck_assert_int_eq(sp.nterms, 0);
	}
	ck_assert_int_eq(trace_spec_is_glob(&sp), 0);
	parse_ok("blk_*freeze*", &sp);
	ck_assert_int_eq(trace_spec_is_glob(&sp), 1);
	ck_assert_str_eq(trace_spec_display(&sp), "blk_*freeze*");
	parse_ok("t:block:block_rq_issue", &sp);
	ck_assert_str_eq(trace_spec_display(&sp), "block_rq_issue");
}
END_TEST

/* bcc's uprobe forms: LIB:FUNC, p:LIB:FUNC, r:LIB:FUNC, a path as LIB */
START_TEST(test_parse_uprobes)
{
	static const struct {
		const char *text;
		enum trace_ptype type;
		const char *lib, *func;
	} cases[] = {
		{ "c:malloc", TRACE_ENTRY, "c", "malloc" },
		{ "p:c:malloc", TRACE_ENTRY, "c", "malloc" },
		{ "r:c:malloc", TRACE_RETURN, "c", "malloc" },
		{ "uprobe:c:malloc", TRACE_ENTRY, "c", "malloc" },
		{ "uretprobe:c:malloc", TRACE_RETURN, "c", "malloc" },
		{ "p:/usr/bin/bash:readline", TRACE_ENTRY, "/usr/bin/bash",
		  "readline" },
		{ "r:/opt/x-1.2/bin/x:_ZN3foo3barEv", TRACE_RETURN,
		  "/opt/x-1.2/bin/x", "_ZN3foo3barEv" },
		{ "pthread:pthread_create", TRACE_ENTRY, "pthread",
		  "pthread_create" },
		{ "::vfs_read", TRACE_ENTRY, "", "vfs_read" },
		{ "p::vfs_read", TRACE_ENTRY, "", "vfs_read" },
	};
	struct trace_spec sp;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_ok(cases[i].text, &sp);
		ck_assert_int_eq(sp.type, cases[i].type);
		ck_assert_str_eq(sp.lib, cases[i].lib);
		ck_assert_str_eq(sp.func, cases[i].func);
	}
	parse_ok("r:c:malloc (retval != 0) \"%p\", retval", &sp);
	ck_assert_int_eq(sp.nterms, 1);
	ck_assert_int_eq(sp.terms[0].v.kind, TV_RETVAL);
}
END_TEST

START_TEST(test_parse_filters)
{
	struct trace_spec sp;
	const struct trace_term *t = sp.terms;

	parse_ok("r::do_sys_open (retval < 0) \"%d\", retval", &sp);
	ck_assert_int_eq(sp.nterms, 1);
	ck_assert_int_eq(t[0].cmp, TC_LT);
	ck_assert_int_eq(t[0].v.kind, TV_RETVAL);
	ck_assert_uint_eq(t[0].k, 0);
	ck_assert_uint_eq(t[0].mask, ~0ULL);

	parse_ok("vfs_read (arg3 > 100 && $pid != 5 && (int)arg1 >= -2 && "
		 "arg2)", &sp);
	ck_assert_int_eq(sp.nterms, 4);
	ck_assert_int_eq(sp.filter_or, 0);
	ck_assert_int_eq(t[0].cmp, TC_GT);
	ck_assert_int_eq(t[0].v.argn, 3);
	ck_assert_uint_eq(t[0].k, 100);
	ck_assert_int_eq(t[1].cmp, TC_NE);
	ck_assert_int_eq(t[1].v.kind, TV_PID);
	ck_assert_int_eq(t[2].cmp, TC_GE);
	ck_assert_int_eq(t[2].v.cast_size, 4);
	ck_assert_int_eq(t[2].v.cast_signed, 1);
	ck_assert_uint_eq(t[2].k, (uint64_t)-2);
	ck_assert_str_eq(t[2].v.text, "(int)arg1");
	ck_assert_int_eq(t[3].cmp, TC_NE); /* a bare value: not 0 */
	ck_assert_uint_eq(t[3].k, 0);

	/* a number first: mirrored; a mask in parentheses; a character */
	parse_ok("t:a:b (100 < args->x || ((args->flags & 0x41) == 1) || "
		 "args->c == 'a')", &sp);
	ck_assert_int_eq(sp.nterms, 3);
	ck_assert_int_eq(sp.filter_or, 1);
	ck_assert_int_eq(t[0].cmp, TC_GT);
	ck_assert_str_eq(t[0].v.field, "x");
	ck_assert_int_eq(t[1].cmp, TC_EQ);
	ck_assert_uint_eq(t[1].mask, 0x41);
	ck_assert_uint_eq(t[1].k, 1);
	ck_assert_str_eq(t[1].v.field, "flags");
	ck_assert_uint_eq(t[2].k, 'a');

	/* negations, STRCMP, nested groups of the same joint */
	parse_ok("vfs_read (!STRCMP(\"x y\", arg2@user) && !(arg1 == 2) && "
		 "(($uid == 0) && !!$cpu))", &sp);
	ck_assert_int_eq(sp.nterms, 4);
	ck_assert_int_eq(t[0].cmp, TC_STRCMP);
	ck_assert_int_eq(t[0].neg, 1);
	ck_assert_str_eq(t[0].str, "x y");
	ck_assert_int_eq(t[0].v.user, 1);
	ck_assert_int_eq(t[1].cmp, TC_EQ);
	ck_assert_int_eq(t[1].neg, 1);
	ck_assert_int_eq(t[2].v.kind, TV_UID);
	ck_assert_int_eq(t[3].neg, 0);
	ck_assert_int_eq(t[3].v.kind, TV_CPU);

	/* octal, hex, suffixes, negative and the largest numbers */
	parse_ok("t:a:b (args->a == 010 && args->b != 0xffffffffffffffffULL "
		 "&& args->c > -9223372036854775807)", &sp);
	ck_assert_uint_eq(t[0].k, 8);
	ck_assert_uint_eq(t[1].k, ~0ULL);
	ck_assert_uint_eq(t[2].k, (uint64_t)-9223372036854775807LL);
}
END_TEST

/* A number's C type: int, unsigned int, long, unsigned long (8 bytes, as
 * in BPF's C), by its value, its base and its suffixes. */
START_TEST(test_parse_number_types)
{
	static const struct {
		const char *num;
		uint64_t k;
		int size, sgn;
	} cases[] = {
		{ "2147483647", 0x7fffffff, 4, 1 },
		{ "2147483648", 0x80000000, 8, 1 },
		{ "0x7fffffff", 0x7fffffff, 4, 1 },
		{ "0x80000000", 0x80000000, 4, 0 },
		{ "0xffffffff", 0xffffffff, 4, 0 },
		{ "4294967196", 4294967196ULL, 8, 1 },
		{ "0x100000000", 0x100000000ULL, 8, 1 },
		{ "9223372036854775807", 0x7fffffffffffffffULL, 8, 1 },
		{ "9223372036854775808", 1ULL << 63, 8, 0 },
		{ "0xffffffffffffffff", ~0ULL, 8, 0 },
		{ "1u", 1, 4, 0 },
		{ "4294967296U", 1ULL << 32, 8, 0 },
		{ "1L", 1, 8, 1 },
		{ "1ull", 1, 8, 0 },
		{ "'a'", 'a', 4, 1 },
		/* a minus: the negative number, an int or a long */
		{ "-1", ~0ULL, 4, 1 },
		{ "-2147483648", (uint64_t)INT32_MIN, 4, 1 },
		{ "-2147483649", (uint64_t)-2147483649LL, 8, 1 },
		{ "-0xffffffff", (uint64_t)-0xffffffffLL, 8, 1 },
		{ "-9223372036854775808", 1ULL << 63, 8, 1 },
		/* U: C's unsigned negation */
		{ "-1U", 0xffffffff, 4, 0 },
		{ "-1UL", ~0ULL, 8, 0 },
	};
	struct trace_spec sp;
	char text[100];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "vfs_read (arg1 == %s)",
			 cases[i].num);
		parse_ok(text, &sp);
		ck_assert_msg(sp.terms[0].k == cases[i].k &&
			      sp.terms[0].k_size == cases[i].size &&
			      sp.terms[0].k_sgn == cases[i].sgn,
			      "%s: %#llx %d %d", cases[i].num,
			      (unsigned long long)sp.terms[0].k,
			      sp.terms[0].k_size, sp.terms[0].k_sgn);
	}
	/* a mask's type too */
	parse_ok("vfs_read ((arg1 & 0xffffffff) == 1)", &sp);
	ck_assert_uint_eq(sp.terms[0].mask, 0xffffffff);
	ck_assert_int_eq(sp.terms[0].mask_size, 4);
	ck_assert_int_eq(sp.terms[0].mask_sgn, 0);
	parse_ok("vfs_read (arg1 == 1)", &sp);
	ck_assert_int_eq(sp.terms[0].mask_size, 0);
}
END_TEST

START_TEST(test_parse_formats)
{
	struct trace_spec sp;

	parse_ok("vfs_read \"%d %u %x %X %ld %lu %lx %lld\", arg1, arg2, "
		 "arg3, arg4, arg5, arg6, $pid, $tgid", &sp);
	ck_assert_int_eq(sp.nconv, 8);
	ck_assert_int_eq(sp.args[7].kind, TV_TGID);
	parse_ok("vfs_read \"%llu %llx %hd %hu %c %s %K %U\", arg1, arg2, "
		 "arg3, arg4, arg5, arg6, $uid, $gid", &sp);
	ck_assert_int_eq(sp.conv[5].type, 's');
	ck_assert_int_eq(sp.conv[7].type, 'U');
	parse_ok("vfs_read \"%p %i\", arg1, $cpu", &sp);
	ck_assert_int_eq(sp.conv[0].size, 8);
	ck_assert_int_eq(sp.conv[1].type, 'd');
	parse_ok("t:x:y \"a=%-8lld|%5u|%c|%%|%08lx\", args->a, args->b, "
		 "args->c, args->d", &sp);
	ck_assert_int_eq(sp.has_fmt, 1);
	ck_assert_str_eq(sp.fmt, "a=%-8lld|%5u|%c|%%|%08lx");
	ck_assert_int_eq(sp.nconv, 4);
	ck_assert_int_eq(sp.conv[0].type, 'd');
	ck_assert_int_eq(sp.conv[0].size, 8);
	ck_assert_str_eq(sp.conv[0].spec, "%-8");
	ck_assert_int_eq(sp.conv[0].start, 2);
	ck_assert_int_eq(sp.conv[0].end, 8);
	ck_assert_int_eq(sp.conv[1].type, 'u');
	ck_assert_int_eq(sp.conv[1].size, 4);
	ck_assert_str_eq(sp.conv[1].spec, "%5");
	ck_assert_int_eq(sp.conv[2].type, 'c');
	ck_assert_int_eq(sp.conv[3].type, 'x');
	ck_assert_int_eq(sp.conv[3].size, 8);
	ck_assert_str_eq(sp.conv[3].spec, "%08");
	ck_assert_str_eq(sp.args[3].field, "d");

	parse_ok("r::__kmalloc (retval == 0) \"kmalloc failed!\"", &sp);
	ck_assert_int_eq(sp.nconv, 0);
	ck_assert_str_eq(sp.fmt, "kmalloc failed!");
	parse_ok("vfs_read\"%hd,%i\",(short)arg1,arg2", &sp);
	ck_assert_int_eq(sp.conv[0].size, 2);
	ck_assert_int_eq(sp.conv[1].type, 'd');
	ck_assert_int_eq(sp.args[0].cast_size, 2);
	ck_assert_str_eq(sp.args[0].text, "(short)arg1");
}
END_TEST

/* Every refusal names the token at fault and says what would work. */
START_TEST(test_parse_errors)
{
	static const char *const cases[][2] = {
		{ "x:c:malloc", "probe 'x:c:malloc': 'x': the probe type of a "
		  "uprobe is p (entry) or r (return)" },
		{ "p:c:", "probe 'p:c:': 'p:c:': a function name is needed "
		  "(p:LIB:NAME)" },
		{ "p:c%:malloc", "probe 'p:c%:malloc': 'c%': not a library or "
		  "program: a path (/usr/bin/x) or a library's name (c for "
		  "libc)" },
		{ "p:/bin/x:f%", "probe 'p:/bin/x:f%': 'f%': not a function "
		  "name" },
		/* an offset into a user function: the advice names the
		 * library's probes, not the kernel's (issue 32) */
		{ "p:c:malloc+0x10", "probe 'p:c:malloc+0x10': '+0x10': "
		  "offsets into a function are not supported; probe its "
		  "entry (p:c:malloc) or return (r:c:malloc)" },
		{ "p::vfs_read+4", "probe 'p::vfs_read+4': '+4': offsets into "
		  "a function are not supported; probe its entry "
		  "(p::vfs_read) or return (r::vfs_read)" },
		/* a path with a space: the probe ends at the blank, and what
		 * is left of the path is not called a function name */
		{ "p:/tmp/a b:main", "probe 'p:/tmp/a b:main': '/tmp/a': a "
		  "path, not a kernel function: a uprobe is p:/PATH:FUNC, "
		  "and a probe ends at the first blank (a path with a space "
		  "cannot be probed: link it to one without)" },
		{ "u:pthread", "probe 'u:pthread': 'u:pthread': a USDT probe "
		  "is u:LIB:PROBE or u:LIB:PROVIDER:PROBE (LIB a path or a "
		  "library's name)" },
		{ "u:c:p:q:r", "probe 'u:c:p:q:r': 'u:c:p:q:r': too many ':' "
		  "for a probe" },
		{ "u:c:x \"%d\", arg13", "probe 'u:c:x \"%d\", arg13': "
		  "'arg13': the arguments of a USDT probe are arg1..arg12" },
		{ "p::f \"%d\", arg7", "probe 'p::f \"%d\", arg7': 'arg7': "
		  "the arguments are arg1..arg6" },
		{ "x::vfs_read", "probe 'x::vfs_read': 'x': the probe type is "
		  "p (entry), r (return) or t (tracepoint)" },
		{ "t:syscalls", "probe 't:syscalls': 't:syscalls': a "
		  "tracepoint is t:CATEGORY:EVENT" },
		{ "t::x", "probe 't::x': 't::x': a tracepoint is "
		  "t:CATEGORY:EVENT" },
		{ "t:a:b:c", "probe 't:a:b:c': 't:a:b:c': too many ':' for a "
		  "probe" },
		{ "p::", "probe 'p::': 'p::': a kernel function name is needed "
		  "(p::NAME)" },
		{ "", "probe '': a probe starts with a function or "
		  "t:CATEGORY:EVENT" },
		{ "kfree_skb+0x12", "probe 'kfree_skb+0x12': '+0x12': offsets "
		  "into a function are not supported; probe its entry "
		  "(p::kfree_skb) or return (r::kfree_skb)" },
		{ "r::vfs_*", "probe 'r::vfs_*': 'vfs_*': a return probe takes "
		  "one function, not a pattern (where a return comes from is "
		  "not known)" },
		{ "p::vfs;read", "probe 'p::vfs;read': 'vfs;read': not a "
		  "kernel function name" },
		{ "p::f(struct sock *sk) \"%d\", sk->a->b",
		  "probe 'p::f(struct sock *sk) \"%d\", sk->a->b': '->': one "
		  "pointer is followed, not two: print the second pointer "
		  "(%llx) and probe where it is an argument" },
		{ "vfs_read \"%d\", arg7", "probe 'vfs_read \"%d\", arg7': "
		  "'arg7': the arguments are arg1..arg6" },
		{ "vfs_read \"%d\", arg1->f_pos", "probe 'vfs_read \"%d\", "
		  "arg1->f_pos': 'arg1->f_pos': a field is read through a "
		  "struct pointer: declare it in the signature, "
		  "p::FUNC(struct sock *sk) ... sk->FIELD, or cast, ((struct "
		  "sock *)arg1)->FIELD" },
		{ "vfs_read \"%d\", arg1 + 1", "probe 'vfs_read \"%d\", arg1 + "
		  "1': '+': arithmetic is not supported; a value is "
		  "arg1..arg6, retval, args->FIELD, $pid, $tgid, $uid, $gid "
		  "or $cpu, with an optional integer cast" },
		{ "vfs_read \"%d\", foo", "probe 'vfs_read \"%d\", foo': "
		  "'foo': unknown value; a value is arg1..arg6, retval, "
		  "args->FIELD, $pid, $tgid, $uid, $gid or $cpu, with an "
		  "optional integer cast" },
		{ "vfs_read \"%d\", $task", "probe 'vfs_read \"%d\", $task': "
		  "'$task': not a variable barebpf has (it would need the "
		  "kernel's struct layouts); $pid, $tgid, $uid, $gid and $cpu "
		  "are" },
		{ "vfs_read \"%d %d\", arg1", "probe 'vfs_read \"%d %d\", "
		  "arg1': '\"%d %d\"': 2 conversions for 1 value" },
		{ "vfs_read \"x\", arg1", "probe 'vfs_read \"x\", arg1': "
		  "'\"x\"': 0 conversions for 1 value" },
		{ "vfs_read \"%f\", arg1", "probe 'vfs_read \"%f\", arg1': "
		  "'%f': unsupported conversion; use %d %u %x %ld %lu %lx %lld "
		  "%llu %llx %hd %hu %c %s %K %U %p" },
		{ "vfs_read \"%ls\", arg1", "probe 'vfs_read \"%ls\", arg1': "
		  "'%ls': h, l and ll go with d, u and x only" },
		{ "vfs_read \"%.3d\", arg1", "probe 'vfs_read \"%.3d\", arg1': "
		  "'%.': precisions (%.3d) are not supported" },
		{ "vfs_read \"%05s\", arg1", "probe 'vfs_read \"%05s\", arg1': "
		  "'%05s': only the '-' flag goes with %s" },
		{ "vfs_read \"%s\", $pid", "probe 'vfs_read \"%s\", $pid': "
		  "'$pid': a number, not a pointer: %s prints a string (use "
		  "%d)" },
		{ "vfs_read \"%d\" arg1", "probe 'vfs_read \"%d\" arg1': "
		  "'arg1': expected ',' and a value, or the end of the probe" },
		{ "vfs_read \"%d", "probe 'vfs_read \"%d': '\"%d': no closing "
		  "'\"'" },
		{ "vfs_read (arg1 == 1 && arg2 == 2 || arg3 == 3)", "probe "
		  "'vfs_read (arg1 == 1 && arg2 == 2 || arg3 == 3)': '||': "
		  "mixing && and || in one filter is not supported" },
		{ "vfs_read (arg1 == arg2)", "probe 'vfs_read (arg1 == "
		  "arg2)': 'arg1 == arg2': a comparison is of a value with a "
		  "number" },
		{ "vfs_read (1 == 2)", "probe 'vfs_read (1 == 2)': '1 == 2': "
		  "a comparison is of a value with a number" },
		{ "vfs_read (5)", "probe 'vfs_read (5)': '5': a condition "
		  "needs a value; a value is arg1..arg6, retval, args->FIELD, "
		  "$pid, $tgid, $uid, $gid or $cpu, with an optional integer "
		  "cast" },
		{ "vfs_read (arg1 & 0x40 == 0x40)", "probe 'vfs_read (arg1 & "
		  "0x40 == 0x40)': 'arg1 & 0x40 ==': C compares before it "
		  "masks: put the mask in parentheses, ((arg1 & 0x40) == "
		  "0x40)" },
		{ "vfs_read (arg1 > -9223372036854775809)", "probe 'vfs_read "
		  "(arg1 > -9223372036854775809)': '-9223372036854775809': a "
		  "number below -9223372036854775808: numbers are "
		  "-9223372036854775808 to 18446744073709551615" },
		{ "vfs_read (arg1 == 18446744073709551616)", "probe 'vfs_read "
		  "(arg1 == 18446744073709551616)': '18446744073709551616': a "
		  "number of more than 64 bits" },
		{ "vfs_read (arg1 && arg2 && arg3 && arg4 && arg5)", "probe "
		  "'vfs_read (arg1 && arg2 && arg3 && arg4 && arg5)': 'arg5': "
		  "more than 4 conditions in one filter" },
		{ "vfs_read (arg1 == 1", "probe 'vfs_read (arg1 == 1': at its "
		  "end: expected ')' closing the filter, or && or ||" },
		{ "vfs_read ()", "probe 'vfs_read ()': '()': an empty filter" },
		{ "vfs_read (!(arg1 && arg2))", "probe 'vfs_read (!(arg1 && "
		  "arg2))': '(arg1 && arg2)': negating several conditions at "
		  "once is not supported: negate each one" },
		{ "vfs_read ((char *)arg1 == 0)", "probe 'vfs_read ((char "
		  "*)arg1 == 0)': '(char *)': only integer casts are supported "
		  "(int, unsigned long, u32, s64...); %s prints the string a "
		  "pointer points to" },
		{ "vfs_read ((struct file)arg1 == 0)", "probe 'vfs_read "
		  "((struct file)arg1 == 0)': '(struct file)': only integer "
		  "casts are supported (int, unsigned long, u32, s64...)" },
		{ "vfs_read (STRCMP(arg1, \"x\"))", "probe 'vfs_read "
		  "(STRCMP(arg1, \"x\"))': 'arg1': STRCMP's first argument is "
		  "the string in quotes: STRCMP(\"text\", value)" },
		{ "vfs_read (STRCMP(\"0123456789012345678901234567890123456789"
		  "01234567890123456789012\", arg1))", "probe 'vfs_read "
		  "(STRCMP(\"0123456789012345678901234567890123456789"
		  "01234567890123456789012\", arg1))': '\"012345678901234567890"
		  "12345678901234567890123456': STRCMP compares strings of up "
		  "to 62 characters" },
		{ "vfs_read (STRCMP(\"x\", arg1)", "probe 'vfs_read "
		  "(STRCMP(\"x\", arg1)': at its end: expected ')' closing the "
		  "filter, or && or ||" },
		{ "vfs_read (arg1 == 99999999999999999999)", "probe 'vfs_read "
		  "(arg1 == 99999999999999999999)': '99999999999999999999': a "
		  "number of more than 64 bits" },
		{ "vfs_read (arg1 == 12ab)", "probe 'vfs_read (arg1 == 12ab)': "
		  "'12ab': not a number (decimal, 0x hex or 0 octal)" },
		{ "vfs_read (arg1 == '')", "probe 'vfs_read (arg1 == '')': "
		  "'''': empty character" },
		{ "vfs_read (arg1@kernel)", "probe 'vfs_read (arg1@kernel)': "
		  "'kernel': after '@' comes 'user' (arg2@user: a user-space "
		  "pointer)" },
		{ "vfs_read (args.x)", "probe 'vfs_read (args.x)': '.': a "
		  "tracepoint field is args->NAME" },
		{ "vfs_read (STRCMP == 1)", "probe 'vfs_read (STRCMP == 1)': "
		  "'==': STRCMP(\"text\", value)" },
		{ "vfs_read \"%d\", STRCMP", "probe 'vfs_read \"%d\", STRCMP': "
		  "'STRCMP': STRCMP is a condition of its own: "
		  "(STRCMP(\"text\", arg1))" },
		{ "vfs_read $", "probe 'vfs_read $': '$': expected a filter in "
		  "parentheses or a format in double quotes" },
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

/* sys_enter_openat and sched events as 6.18 prints them */
static const char openat_fmt[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n";
static const char sched_fmt[] =
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] filename;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:int ids[4];\toffset:36;\tsize:16;\tsigned:1;\n"
	"\tfield:unsigned char flag;\toffset:52;\tsize:1;\tsigned:0;\n";

static int compile(const char *text, const char *fmt,
		   const struct bb_arch *arch, struct trace_spec *sp,
		   struct trace_prog *pr, struct bb_err *err)
{
	struct bb_tp_field f[16];
	int n = fmt ? tp_format_parse(fmt, f, 16) : 0;

	ck_assert_int_ge(n, 0);
	parse_ok(text, sp);
	return trace_spec_compile(sp, arch, f, n, TRACE_STR_DEFAULT, pr, err);
}

static void compile_ok(const char *text, const char *fmt,
		       const struct bb_arch *arch, struct trace_spec *sp,
		       struct trace_prog *pr)
{
	struct bb_err err = { "" };

	ck_assert_msg(compile(text, fmt, arch, sp, pr, &err) == 0, "%s: %s",
		      text, err.msg);
}

#define CHECK_SLOT(s, b, o, sz, e1, e2, st)                                    \
	do {                                                                   \
		ck_assert_uint_eq((s)->base, b);                               \
		ck_assert_uint_eq((s)->off, o);                                \
		ck_assert_uint_eq((s)->size, sz);                              \
		ck_assert_uint_eq((s)->ext1, e1);                              \
		ck_assert_uint_eq((s)->ext2, e2);                              \
		ck_assert_uint_eq((s)->str, st);                               \
	} while (0)

START_TEST(test_compile_kprobes)
{
	struct trace_spec sp;
	struct trace_prog pr;
	const struct trace_slot_c *s = pr.slots;
	const struct trace_term_c *t = pr.terms;

	/* arg3 read once for the filter and the message; arg2's string */
	compile_ok("p::vfs_read (arg3 > 100) \"%d %s\", arg3, arg2", NULL,
		   &bb_arch_x86_64, &sp, &pr);
	ck_assert_int_eq(pr.nslots, 2);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 96, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 104, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_KPTR);
	ck_assert_uint_eq(s[1].stroff, 0);
	ck_assert_uint_eq(s[1].strsize, TRACE_STR_DEFAULT);
	ck_assert_uint_eq(s[1].zero, 0);
	ck_assert_int_eq(pr.arg_slot[0], 0);
	ck_assert_int_eq(pr.arg_slot[1], 1);
	/* > is the negation of <= */
	ck_assert_uint_eq(t[0].op, TRACE_OP_LES);
	ck_assert_uint_eq(t[0].neg, 1);
	ck_assert_uint_eq(t[0].slot, 0);
	ck_assert_uint_eq(t[0].k, 100);
	ck_assert_uint_eq(t[0].mask, ~0ULL);
	ck_assert_uint_eq(t[1].op, TRACE_OP_NONE);
	ck_assert_uint_eq(pr.is_kprobe, 1);
	ck_assert_uint_eq(pr.regs_off, 112);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_FIXED + 80);

	/* a syscall wrapper: arguments from the pt_regs it is passed, 4th
	 * in r10; user memory first */
	compile_ok("p::__x64_sys_openat \"%s %d\", arg2, arg4", NULL,
		   &bb_arch_x86_64, &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_REGS, 104, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	ck_assert_uint_eq(s[1].off, 56);
	compile_ok("p::__arm64_sys_openat \"%s %d\", arg2, arg4", NULL,
		   &bb_arch_arm64, &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_REGS, 8, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	ck_assert_uint_eq(s[1].off, 24);
	ck_assert_uint_eq(pr.regs_off, 0);
	/* on x86_64 __arm64_sys_ is an ordinary function */
	compile_ok("p::__arm64_sys_openat \"%s\", arg2", NULL,
		   &bb_arch_x86_64, &sp, &pr);
	ck_assert_uint_eq(s[0].base, TRACE_BASE_CTX);
	ck_assert_uint_eq(s[0].str, TRACE_STR_KPTR);
	/* 32-bit ARM: 4-byte registers, sign-extended; no wrappers, so
	 * sys_openat's arguments are its own registers, user memory first;
	 * a function's 5th argument is on the stack */
	compile_ok("p::sys_openat \"%s %d\", arg2, arg4", NULL,
		   &bb_arch_arm, &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 4, 4, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 12, 4, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	compile_ok("r::vfs_open \"%d\", retval", NULL, &bb_arch_arm, &sp,
		   &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 0, 4, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	{
		struct bb_err err = { "" };

		ck_assert_int_lt(compile("p::f \"%d\", arg5", NULL,
					 &bb_arch_arm, &sp, &pr, &err), 0);
		ck_assert_str_eq(err.msg, "probe 'p::f': 'arg5': this "
				 "architecture passes this argument on the "
				 "stack, not in a register");
	}
	/* riscv64 5.19+: __riscv_sys_ wrappers take the pt_regs */
	compile_ok("p::__riscv_sys_openat \"%s %d\", arg2, arg4", NULL,
		   &bb_arch_riscv64, &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_REGS, 88, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	ck_assert_uint_eq(s[1].off, 104);
	ck_assert_uint_eq(pr.regs_off, 80);

	/* @user and system call functions: user memory first */
	compile_ok("do_sys_open \"%s\", arg2@user", NULL, &bb_arch_x86_64,
		   &sp, &pr);
	ck_assert_uint_eq(s[0].str, TRACE_STR_UPTR);
	compile_ok("SyS_openat \"%s\", arg2", NULL, &bb_arch_x86_64, &sp,
		   &pr);
	ck_assert_uint_eq(s[0].str, TRACE_STR_UPTR);

	/* (int)retval < 0: compared as a signed int */
	compile_ok("r::vfs_open ((int)retval < 0) \"%d\", retval", NULL,
		   &bb_arch_arm64, &sp, &pr);
	ck_assert_int_eq(pr.nslots, 2);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 0, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 0, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(4, 1), TRACE_STR_NONE);
	ck_assert_uint_eq(t[0].op, TRACE_OP_LTS);
	ck_assert_uint_eq(t[0].neg, 0);
	ck_assert_uint_eq(t[0].slot, 1);
	/* no strings: the record ends after its last value */
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_VALS + 2 * 8);

	/* numbers compared as C compares: a u8 is promoted to an int, so
	 * -1 stays -1 (never equal); against an unsigned int -1 is
	 * 4294967295 */
	compile_ok("p::f ((u8)arg1 == -1 && $pid < 7 && (unsigned)arg2 >= "
		   "-1)", NULL, &bb_arch_x86_64, &sp, &pr);
	ck_assert_uint_eq(t[0].k, ~0ULL);
	ck_assert_uint_eq(t[0].op, TRACE_OP_EQ);
	CHECK_SLOT(&s[1], TRACE_BASE_REC, offsetof(struct trace_event, tid),
		   4, TRACE_EXT(4, 0), TRACE_EXT(8, 0), TRACE_STR_NONE);
	ck_assert_uint_eq(t[1].op, TRACE_OP_LTU);
	ck_assert_uint_eq(t[2].op, TRACE_OP_LTU);
	ck_assert_uint_eq(t[2].neg, 1);
	ck_assert_uint_eq(t[2].k, 0xffffffffULL);
	ck_assert_uint_eq(t[2].mask, ~0ULL);

	/* STRCMP: 64 bytes cleared and compared, words little-endian */
	compile_ok("p::f (STRCMP(\"/etc/passwd\", arg1) || !STRCMP(\"x\", "
		   "arg1))", NULL, &bb_arch_x86_64, &sp, &pr);
	ck_assert_int_eq(pr.nslots, 1);
	ck_assert_uint_eq(s[0].zero, 1);
	ck_assert_uint_eq(s[0].strsize, 64);
	ck_assert_uint_eq(pr.filter_or, 1);
	ck_assert_uint_eq(t[0].op, TRACE_OP_STREQ);
	ck_assert_uint_eq(t[0].w[0], 0x7361702f6374652fULL); /* "/etc/pas" */
	ck_assert_uint_eq(t[0].w[1], 0x647773ULL);           /* "swd" */
	ck_assert_uint_eq(t[0].w[2], 0);
	ck_assert_uint_eq(t[1].w[0], 'x');
	ck_assert_uint_eq(t[1].neg, 1);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_FIXED + 64);
}
END_TEST

/* A uprobe reads the same registers; its pointers are the process's */
START_TEST(test_compile_uprobes)
{
	struct trace_spec sp;
	struct trace_prog pr;
	const struct trace_slot_c *s = pr.slots;

	compile_ok("p:c:open \"%s %d\", arg1, arg2", NULL, &bb_arch_x86_64,
		   &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 112, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 104, 8, TRACE_EXT(8, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	ck_assert_uint_eq(pr.is_kprobe, 1);
	compile_ok("r:c:getenv \"%s\", retval", NULL, &bb_arch_arm, &sp,
		   &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 0, 4, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	/* the kernel's own: kernel pointers, as before */
	compile_ok("r::getname \"%s\", retval", NULL, &bb_arch_arm, &sp,
		   &pr);
	ck_assert_uint_eq(s[0].str, TRACE_STR_KPTR);
	compile_ok("p:/bin/x:f \"%d\", arg3", NULL, &bb_arch_riscv64, &sp,
		   &pr);
	ck_assert_uint_eq(s[0].off, 96);
	compile_ok("p:/bin/x:f \"%d\", arg4", NULL, &bb_arch_arm64, &sp,
		   &pr);
	ck_assert_uint_eq(s[0].off, 24);
}
END_TEST

START_TEST(test_compile_tracepoints)
{
	struct trace_spec sp;
	struct trace_prog pr;
	const struct trace_slot_c *s = pr.slots;
	const struct trace_term_c *t = pr.terms;

	/* int in 8 bytes: read 8, as an int; syscall strings from user
	 * memory first */
	compile_ok("t:syscalls:sys_enter_openat (args->dfd == -100) "
		   "\"%s %x\", args->filename, args->flags", openat_fmt,
		   &bb_arch_x86_64, &sp, &pr);
	ck_assert_int_eq(pr.nslots, 3);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 24, 8, TRACE_EXT(8, 0),
		   TRACE_EXT(8, 0), TRACE_STR_UPTR);
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 32, 8, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	CHECK_SLOT(&s[2], TRACE_BASE_CTX, 16, 8, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	ck_assert_uint_eq(t[0].k, (uint64_t)-100);
	ck_assert_uint_eq(t[0].slot, 2);
	ck_assert_uint_eq(pr.is_kprobe, 0);
	/* unknown typedef: the format's size and sign */
	compile_ok("t:syscalls:sys_enter_openat \"%u\", args->mode",
		   openat_fmt, &bb_arch_x86_64, &sp, &pr);
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 40, 8, TRACE_EXT(2, 0),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_VALS + 8);
	/* no values: the head alone (a 72-byte sample; 192 with the whole
	 * header); a kprobe sends its ip and entry_ret as well */
	compile_ok("t:syscalls:sys_enter_openat", openat_fmt,
		   &bb_arch_x86_64, &sp, &pr);
	ck_assert_int_eq(pr.nslots, 0);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_HEAD);
	ck_assert_uint_eq((pr.rec_size + 4 + 7) / 8 * 8 + 8, 72);
	compile_ok("p::vfs_read", NULL, &bb_arch_x86_64, &sp, &pr);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_VALS);
}
END_TEST

/*
 * Conditions compared as C compares them: the value promoted, masked in
 * the type of value & mask, converted with the number to their common
 * type (long 8 bytes), whatever the field's width.
 */
START_TEST(test_compile_constants)
{
	static const struct {
		const char *filter;
		uint64_t op, neg, mask, k;
	} cases[] = {
		/* dfd is an int: -100 is never 4294967196 (as longs) */
		{ "args->dfd == 4294967196", TRACE_OP_EQ, 0, ~0ULL,
		  4294967196ULL },
		{ "args->dfd == -4294967396", TRACE_OP_EQ, 0, ~0ULL,
		  (uint64_t)-4294967396LL },
		{ "args->dfd > -9223372036854775808", TRACE_OP_LES, 1, ~0ULL,
		  1ULL << 63 },
		{ "args->dfd == -100", TRACE_OP_EQ, 0, ~0ULL, (uint64_t)-100 },
		/* against an unsigned int: the int's low 4 bytes */
		{ "args->dfd == 0xffffff9c", TRACE_OP_EQ, 0, 0xffffffff,
		  0xffffff9c },
		{ "args->dfd < 0x80000000", TRACE_OP_LTU, 0, 0xffffffff,
		  0x80000000 },
		{ "args->dfd < -1U", TRACE_OP_LTU, 0, 0xffffffff, 0xffffffff },
		/* int & int: an int; int & unsigned int: an unsigned int */
		{ "(args->dfd & 0xff) == 0x9c", TRACE_OP_EQ, 0, 0xff, 0x9c },
		{ "(args->dfd & -16) == -112", TRACE_OP_EQ, 0, ~0ULL << 4,
		  (uint64_t)-112 },
		{ "(args->dfd & 0x80000000) == 0x80000000", TRACE_OP_EQ, 0,
		  0x80000000, 0x80000000 },
		{ "(args->dfd & 0x80000000) < 1", TRACE_OP_LTU, 0, 0x80000000,
		  1 },
		/* int & long: a long, the int sign-extended */
		{ "(args->dfd & 0xffffffffffL) == -100", TRACE_OP_EQ, 0,
		  0xffffffffffULL, (uint64_t)-100 },
		/* an unsigned short is promoted to an int */
		{ "args->mode > -1", TRACE_OP_LES, 1, ~0ULL, ~0ULL },
		/* unsigned long against int: an unsigned long */
		{ "args->filename > -1", TRACE_OP_LEU, 1, ~0ULL, ~0ULL },
		{ "(long)args->filename > -1", TRACE_OP_LES, 1, ~0ULL, ~0ULL },
		/* $pid, an unsigned int */
		{ "$pid == -1", TRACE_OP_EQ, 0, ~0ULL, 0xffffffff },
		{ "$pid < 4294967296", TRACE_OP_LTS, 0, ~0ULL, 1ULL << 32 },
	};
	struct trace_spec sp;
	struct trace_prog pr;
	char text[200];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct trace_term_c *t = &pr.terms[0];

		snprintf(text, sizeof(text), "t:syscalls:sys_enter_openat "
			 "(%s)", cases[i].filter);
		compile_ok(text, openat_fmt, &bb_arch_x86_64, &sp, &pr);
		ck_assert_msg(t->op == cases[i].op && t->neg == cases[i].neg &&
			      t->mask == cases[i].mask && t->k == cases[i].k,
			      "%s: op %llu neg %llu mask %#llx k %#llx",
			      cases[i].filter, (unsigned long long)t->op,
			      (unsigned long long)t->neg,
			      (unsigned long long)t->mask,
			      (unsigned long long)t->k);
	}
	/* 32-bit ARM: a register is an int; against an unsigned int its
	 * low 4 bytes, against a long the int sign-extended */
	compile_ok("p::f (arg1 == 0xffffffff || arg1 == 4294967295L)", NULL,
		   &bb_arch_arm, &sp, &pr);
	ck_assert_uint_eq(pr.terms[0].mask, 0xffffffff);
	ck_assert_uint_eq(pr.terms[0].k, 0xffffffff);
	ck_assert_uint_eq(pr.terms[1].mask, ~0ULL);
	ck_assert_uint_eq(pr.terms[1].k, 0xffffffff);
}
END_TEST

START_TEST(test_compile_tracepoint_strings)
{
	struct trace_spec sp;
	struct trace_prog pr;
	const struct trace_slot_c *s = pr.slots;

	compile_ok("t:sched:x (STRCMP(\"bash\", args->prev_comm)) \"%s %s %s "
		   "%d %c\", args->prev_comm, args->filename, args->rel, "
		   "args->prev_pid, args->flag", sched_fmt, &bb_arch_arm64,
		   &sp, &pr);
	ck_assert_int_eq(pr.nslots, 5);
	/* a char array: read in place; STRCMP makes it 64 bytes */
	CHECK_SLOT(&s[0], TRACE_BASE_CTX, 8, 8, TRACE_EXT(1, 0),
		   TRACE_EXT(8, 0), TRACE_STR_INLINE);
	ck_assert_uint_eq(s[0].strsize, 64);
	ck_assert_uint_eq(s[0].zero, 1);
	/* __data_loc from the record, __rel_loc from the field's end */
	CHECK_SLOT(&s[1], TRACE_BASE_CTX, 28, 4, TRACE_EXT(4, 0),
		   TRACE_EXT(8, 0), TRACE_STR_LOC);
	ck_assert_uint_eq(s[1].strbase, 0);
	CHECK_SLOT(&s[2], TRACE_BASE_CTX, 32, 4, TRACE_EXT(4, 0),
		   TRACE_EXT(8, 0), TRACE_STR_LOC);
	ck_assert_uint_eq(s[2].strbase, 36);
	CHECK_SLOT(&s[3], TRACE_BASE_CTX, 24, 4, TRACE_EXT(4, 1),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	CHECK_SLOT(&s[4], TRACE_BASE_CTX, 52, 1, TRACE_EXT(1, 0),
		   TRACE_EXT(8, 0), TRACE_STR_NONE);
	ck_assert_uint_eq(s[1].stroff, 64);
	ck_assert_uint_eq(s[2].stroff, 144);
	ck_assert_uint_eq(pr.rec_size, TRACE_EVENT_FIXED + 224);
	/* printed alone, a char array is read up to its size */
	compile_ok("t:sched:x \"%s\", args->prev_comm", sched_fmt,
		   &bb_arch_arm64, &sp, &pr);
	ck_assert_uint_eq(s[0].strsize, 16);
}
END_TEST

START_TEST(test_compile_errors)
{
	static const char *const cases[][2] = {
		{ "r::vfs_read \"%d\", arg1", "probe 'r::vfs_read': 'arg1': a "
		  "return probe sees no arguments (their registers hold other "
		  "values by then); read them with a p:: probe" },
		{ "p::vfs_read (retval)", "probe 'p::vfs_read': 'retval': only "
		  "return probes (r::FUNCTION) see a return value" },
		{ "p::vfs_read \"%d\", args->x", "probe 'p::vfs_read': "
		  "'args->x': only tracepoints (t:) have fields; a function "
		  "has arg1..arg6" },
		{ "t:syscalls:sys_enter_openat \"%d\", arg1", "probe "
		  "'t:syscalls:sys_enter_openat': 'arg1': a tracepoint has "
		  "fields, not arguments: args->NAME" },
		{ "t:syscalls:sys_enter_openat \"%d\", args->fname", "probe "
		  "'t:syscalls:sys_enter_openat': 'args->fname': tracepoint "
		  "syscalls:sys_enter_openat has no field fname on this kernel "
		  "(its fields: __syscall_nr, dfd, filename, flags, mode)" },
		{ "t:syscalls:sys_enter_openat \"%s\", args->__syscall_nr",
		  "probe 't:syscalls:sys_enter_openat': 'args->__syscall_nr': "
		  "a number, not a pointer: %s prints a string (use %d)" },
		{ "t:syscalls:sys_enter_openat (STRCMP(\"x\", $pid))",
		  "probe 't:syscalls:sys_enter_openat': '$pid': a number, not "
		  "a pointer: STRCMP compares strings" },
		{ "t:sched:x \"%d\", args->prev_comm", "probe 't:sched:x': "
		  "'args->prev_comm': a char array: print it with %s" },
		{ "t:sched:x \"%d\", args->ids", "probe 't:sched:x': "
		  "'args->ids': arrays other than char[] are not supported" },
		{ "p::f (arg1 && $uid) \"%d %d %d %d %d %d %d\", arg3, "
		  "arg4, arg5, arg6, $pid, $tgid, $cpu", "probe 'p::f': "
		  "'$uid': more than 8 values to read in one probe (values and "
		  "filter operands)" },
	};
	struct trace_spec sp;
	struct trace_prog pr;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_err err = { "" };
		const char *fmt = strstr(cases[i][0], "t:sched") ? sched_fmt
								 : openat_fmt;

		ck_assert_msg(compile(cases[i][0], fmt, &bb_arch_x86_64,
				      &sp, &pr, &err) < 0, "'%s' compiled",
			      cases[i][0]);
		ck_assert_str_eq(err.msg, cases[i][1]);
	}
}
END_TEST

struct consts {
	int n;
	char names[192][16];
	uint64_t v[192];
};

static void collect(void *ctx, const char *name, uint64_t v)
{
	struct consts *c = ctx;

	ck_assert_int_lt(c->n, 192);
	ck_assert_int_lt(strlen(name), 16);
	strcpy(c->names[c->n], name);
	c->v[c->n++] = v;
}

static uint64_t const_of(const struct consts *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return c->v[i];
	ck_abort_msg("no constant %s", name);
	return 0;
}

/* The names the BPF program refers to, each once. */
START_TEST(test_consts)
{
	static struct consts c;
	struct trace_spec sp;
	struct trace_prog pr;
	int i, j;

	compile_ok("p::f (STRCMP(\"ab\", arg2) && arg1 > 3) \"%s\", arg2",
		   NULL, &bb_arch_x86_64, &sp, &pr);
	trace_prog_consts(&pr, 7, collect, &c);
	ck_assert_int_eq(c.n, 6 + 14 * TRACE_NSLOTS +
				      (8 + TRACE_STRCMP_WORDS) * TRACE_NTERMS);
	for (i = 0; i < c.n; i++)
		for (j = i + 1; j < c.n; j++)
			ck_assert_str_ne(c.names[i], c.names[j]);
	ck_assert_uint_eq(const_of(&c, "probe_id"), 7);
	ck_assert_uint_eq(const_of(&c, "rec_size"), TRACE_EVENT_FIXED + 80);
	ck_assert_uint_eq(const_of(&c, "is_kprobe"), 1);
	/* no $cpu: the program does not read the CPU (bpf/trace.bpf.c) */
	ck_assert_uint_eq(const_of(&c, "want_cpu"), 0);
	ck_assert_uint_eq(const_of(&c, "s0_off"), 104);
	ck_assert_uint_eq(const_of(&c, "s0_str"), TRACE_STR_KPTR);
	ck_assert_uint_eq(const_of(&c, "s0_zero"), 1);
	ck_assert_uint_eq(const_of(&c, "s1_off"), 112);
	ck_assert_uint_eq(const_of(&c, "s2_base"), TRACE_BASE_NONE);
	ck_assert_uint_eq(const_of(&c, "f0_op"), TRACE_OP_STREQ);
	ck_assert_uint_eq(const_of(&c, "f0_w0"), 0x6261);
	/* for trace_kprobe_old: "ab" and its NUL; arg1's value in val[1] */
	ck_assert_uint_eq(const_of(&c, "f0_slen"), 3);
	ck_assert_uint_eq(const_of(&c, "f1_valoff"),
			  offsetof(struct trace_event, val) + 8);
	ck_assert_uint_eq(const_of(&c, "f1_slot"), 1);
	ck_assert_uint_eq(const_of(&c, "f1_k"), 3);
	ck_assert_uint_eq(const_of(&c, "f3_op"), TRACE_OP_NONE);
}
END_TEST

/* $cpu in a condition or a value: only then does the program read the
 * CPU itself (7.x refuses bpf_get_smp_processor_id without a JIT) */
START_TEST(test_consts_want_cpu)
{
	static const char *const specs[] = {
		"p::f ($cpu == 1)",
		"t:sched:sched_switch \"%d\", $cpu",
	};
	static struct consts c;
	struct trace_spec sp;
	struct trace_prog pr;
	unsigned i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		c.n = 0;
		compile_ok(specs[i], NULL, &bb_arch_x86_64, &sp, &pr);
		trace_prog_consts(&pr, 0, collect, &c);
		ck_assert_msg(const_of(&c, "want_cpu") == 1, "%s", specs[i]);
	}
	c.n = 0;
	compile_ok("p::f ($pid == 1) \"%d\", $uid", NULL, &bb_arch_x86_64,
		   &sp, &pr);
	trace_prog_consts(&pr, 0, collect, &c);
	ck_assert_uint_eq(const_of(&c, "want_cpu"), 0);
}
END_TEST

static char *format(const struct trace_spec *sp, const struct trace_prog *pr,
		    const struct trace_event *e, uint32_t size,
		    const struct bb_ksyms *ks, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	if (json)
		trace_json_args(f, sp, pr, e, size, ks, NULL);
	else
		trace_format(f, sp, pr, e, size, ks, NULL);
	fclose(f);
	return buf;
}

static void set_str(struct trace_event *e, const struct trace_prog *pr,
		    int slot, const char *s)
{
	strcpy(e->str + pr->slots[slot].stroff, s);
	e->str_ret[slot] = strlen(s) + 1;
}

/* Records to text as bcc's Python does: C conversions of the values. */
START_TEST(test_format_text)
{
	static struct trace_event e;
	struct bb_ksyms *ks;
	struct trace_spec sp;
	struct trace_prog pr;
	char *out;

	compile_ok("t:syscalls:sys_enter_openat \"%d|%u|%x|%-5d|%05lld|%lu|"
		   "%hd|%c|%%\", args->dfd, args->dfd, args->dfd, args->dfd, "
		   "args->flags, args->flags, args->flags, args->flags",
		   openat_fmt, &bb_arch_x86_64, &sp, &pr);
	memset(&e, 0, sizeof(e));
	/* as the program leaves them: dfd an int (-100), flags 0x10041 */
	e.val[pr.arg_slot[0]] = (uint64_t)-100;
	e.val[pr.arg_slot[4]] = 0x10041;
	out = format(&sp, &pr, &e, pr.rec_size, NULL, 0);
	ck_assert_str_eq(out, "-100|4294967196|ffffff9c|-100 |65601|65601|65|"
			 "A|%");
	free(out);
	out = format(&sp, &pr, &e, pr.rec_size, NULL, 1);
	ck_assert_str_eq(out, "[-100,4294967196,4294967196,-100,65601,65601,"
			 "65,\"A\"]");
	free(out);

	/* strings (escaped), pointers, kernel symbols */
	ck_assert_int_eq(ksyms_parse(&ks, "ffffffff81000000 T vfs_read\n"
				     "ffffffff81000100 T vfs_write\n"), 2);
	compile_ok("t:syscalls:sys_enter_openat \"[%s] [%-6s] %p %K %K\", "
		   "args->filename, args->filename, args->mode, args->dfd, "
		   "args->flags", openat_fmt, &bb_arch_x86_64, &sp, &pr);
	memset(&e, 0, sizeof(e));
	set_str(&e, &pr, pr.arg_slot[0], "a\tb\n\x01");
	e.val[pr.arg_slot[2]] = 0x1ff;
	e.val[pr.arg_slot[3]] = 0xffffffff81000110ULL;
	e.val[pr.arg_slot[4]] = 0x42;
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[a\\tb\\n\\x01] [a\\tb\\n\\x01] 0x1ff "
			 "vfs_write+0x10 0x42");
	free(out);
	out = format(&sp, &pr, &e, pr.rec_size, ks, 1);
	ck_assert_str_eq(out, "[\"a\\tb\\n\\u0001\",\"a\\tb\\n\\u0001\",511,"
			 "\"vfs_write+0x10\",\"0x42\"]");
	free(out);
	/* ESC, and a byte that is not UTF-8 (valid UTF-8 stays) */
	set_str(&e, &pr, pr.arg_slot[0], "\033[2J\xff\xc3\xa9");
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[\\x1b[2J\\xff\xc3\xa9] [\\x1b[2J\\xff\xc3\xa9] "
			 "0x1ff vfs_write+0x10 0x42");
	free(out);
	out = format(&sp, &pr, &e, pr.rec_size, ks, 1);
	ck_assert_ptr_nonnull(strstr(out, "[\"\\u001b[2J\\u00ff\xc3\xa9\","));
	free(out);
	/* a backslash doubled, a bidi control by code point */
	set_str(&e, &pr, pr.arg_slot[0], "a\\n\xe2\x80\xae");
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[a\\\\n\\u{202e}] [a\\\\n\\u{202e}] "
			 "0x1ff vfs_write+0x10 0x42");
	free(out);
	out = format(&sp, &pr, &e, pr.rec_size, ks, 1);
	ck_assert_ptr_nonnull(strstr(out, "[\"a\\\\n\\u202e\","));
	free(out);
	set_str(&e, &pr, pr.arg_slot[0], "a\tb\n\x01");
	/* a string that could not be read: a marker, not an empty string
	 * that looks like one read; null in JSON */
	e.str_ret[pr.arg_slot[0]] = -14;
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[[?]] [[?]   ] 0x1ff vfs_write+0x10 0x42");
	free(out);
	out = format(&sp, &pr, &e, pr.rec_size, ks, 1);
	ck_assert_str_eq(out, "[null,null,511,\"vfs_write+0x10\",\"0x42\"]");
	free(out);
	/* one read empty is empty; 0 (bpf_probe_read's, before 4.11) is
	 * read too */
	set_str(&e, &pr, pr.arg_slot[0], "");
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[] [      ] 0x1ff vfs_write+0x10 0x42");
	free(out);
	set_str(&e, &pr, pr.arg_slot[0], "ab");
	e.str_ret[pr.arg_slot[0]] = 0;
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_str_eq(out, "[ab] [ab    ] 0x1ff vfs_write+0x10 0x42");
	free(out);
	set_str(&e, &pr, pr.arg_slot[0], "a\tb\n\x01");
	e.str_ret[pr.arg_slot[0]] = 6;
	out = format(&sp, &pr, &e, TRACE_EVENT_FIXED + 2, ks, 0);
	ck_assert_str_eq(out, "[a\\t] [a\\t   ] 0x1ff vfs_write+0x10 0x42");
	free(out);
	/* a string that fills its room: cut at the room */
	memset(e.str, 'x', TRACE_STR_DEFAULT);
	out = format(&sp, &pr, &e, pr.rec_size, ks, 0);
	ck_assert_int_eq(strlen(out), 2 * (TRACE_STR_DEFAULT + 3) +
					      strlen("0x1ff vfs_write+0x10 0x42"));
	free(out);
	ksyms_free(ks);

	/* no conversions: the text, %% as % */
	compile_ok("r::f \"100%% done\"", NULL, &bb_arch_x86_64, &sp, &pr);
	out = format(&sp, &pr, &e, pr.rec_size, NULL, 0);
	ck_assert_str_eq(out, "100% done");
	free(out);
}
END_TEST

static Suite *trace_spec_suite(void)
{
	Suite *s = suite_create("trace_spec");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_probe_names);
	tcase_add_test(tc, test_parse_uprobes);
	tcase_add_test(tc, test_parse_filters);
	tcase_add_test(tc, test_parse_formats);
	tcase_add_test(tc, test_parse_number_types);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_compile_kprobes);
	tcase_add_test(tc, test_compile_uprobes);
	tcase_add_test(tc, test_compile_tracepoints);
	tcase_add_test(tc, test_compile_constants);
	tcase_add_test(tc, test_compile_tracepoint_strings);
	tcase_add_test(tc, test_compile_errors);
	tcase_add_test(tc, test_consts);
	tcase_add_test(tc, test_consts_want_cpu);
	tcase_add_test(tc, test_format_text);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_spec, trace_spec_suite, NULL)
