/* SPDX-License-Identifier: MIT */
/*
 * Folded lines as bcc's profile and offcputime print them, and the flame
 * graph SVG (flamegraph.c): escaping of frame names, structure, valid XML
 * (checked by python3's xml.etree where python3 is installed, and by the
 * checks here everywhere).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "flamegraph.h"
#include "stackcount.h"

START_TEST(test_fold_order)
{
	/* innermost first, as stacks come from the map */
	const char *u[] = { "leaf", "mid", "main" };
	const char *k[] = { "schedule", "do_sys", "entry" };
	char out[256];
	int n;

	n = stackcount_fold(out, sizeof(out), "app", 1, 3, u, 3, 1, 7, k, 3,
			    0, 42);
	ck_assert_str_eq(out, "app;main;mid;leaf;entry_[k];do_sys_[k];"
			      "schedule_[k] 42");
	ck_assert_int_eq(n, (int)strlen(out));
	/* -d: "-" between user and kernel frames */
	stackcount_fold(out, sizeof(out), "app", 1, 3, u, 1, 1, 7, k, 1, 1, 1);
	ck_assert_str_eq(out, "app;leaf;-;schedule_[k] 1");
	/* -K, -U: the other stack left out */
	stackcount_fold(out, sizeof(out), "app", 0, 3, u, 3, 1, 7, k, 1, 0, 2);
	ck_assert_str_eq(out, "app;schedule_[k] 2");
	stackcount_fold(out, sizeof(out), "app", 1, 3, u, 1, 0, 7, k, 3, 0, 2);
	ck_assert_str_eq(out, "app;leaf 2");
}
END_TEST

START_TEST(test_fold_missing)
{
	const char *k[] = { "kthread" };
	char out[256];

	/* a kernel thread has no user stack (-EFAULT): nothing, not missed */
	stackcount_fold(out, sizeof(out), "kworker/0:1", 1, -EFAULT, NULL, 0,
			1, 3, k, 1, 1, 9);
	ck_assert_str_eq(out, "kworker/0:1;kthread_[k] 9");
	/* a collision or a full map: said, as bcc says it */
	stackcount_fold(out, sizeof(out), "a", 1, -EEXIST, NULL, 0, 1, -ENOMEM,
			NULL, 0, 0, 3);
	ck_assert_str_eq(out, "a;[Missed User Stack];[Missed Kernel Stack] 3");
}
END_TEST

START_TEST(test_fold_escapes)
{
	const char *u[] = { "op;er\nator", "\x01x" };
	char out[256];

	/* ';' would split a frame, a newline the line; controls as \xNN */
	stackcount_fold(out, sizeof(out), "we;ird", 1, 1, u, 2, 0, -1, NULL, 0,
			0, 5);
	ck_assert_str_eq(out, "we:ird;\\x01x;op:er\\nator 5");
	/* a backslash doubled, a bidi control by code point */
	u[0] = "a\\b\xe2\x80\xae";
	stackcount_fold(out, sizeof(out), "c", 1, 1, u, 1, 0, -1, NULL, 0,
			0, 2);
	ck_assert_str_eq(out, "c;a\\\\b\\u{202e} 2");
	u[0] = "op;er\nator";
	/* too small: -ENOSPC, not a line without its count */
	ck_assert_int_eq(stackcount_fold(out, 12, "app", 1, 1, u, 2, 0, -1,
					 NULL, 0, 0, 5), -ENOSPC);
}
END_TEST

/*
 * Stacks that print the same merge, in each output (the issue's `spin;
 * [unknown];main;... 301`, then `... 4`, `... 4`): the kernel gives a stack
 * id per list of addresses, and addresses within one function print as
 * one name. Keys: (pid, tgid, stack ids), all of comm "spin".
 */
struct mkey {
	unsigned pid, tgid;
	int kid, uid;
	uint64_t value;
};

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The lines printed for keys (all named u and k), merged, into out. */
static void merged(const struct stackcount_opts *o, const struct mkey *m,
		   int n, char *out, size_t len)
{
	static const char *const u[] = { "spin", "main", "[unknown]" };
	static const char *const k[] = { "asm_sysvec_apic_timer_interrupt" };
	struct stackcount_line l[8];
	FILE *f;
	int i;

	ck_assert_int_le(n, 8);
	for (i = 0; i < n; i++) {
		struct stack_key key = { 0 };
		size_t sz;

		key.pid = m[i].pid;
		key.tgid = m[i].tgid;
		key.kstack = m[i].kid;
		key.ustack = m[i].uid;
		memcpy(key.comm, "spin", 4);
		f = open_memstream(&l[i].text, &sz);
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(stackcount_render(f, o, &key, k,
						   m[i].kid >= 0, u, 3), 0);
		ck_assert_int_eq(fclose(f), 0);
		l[i].value = m[i].value;
	}
	n = stackcount_merge(l, n);
	f = fmemopen(out, len, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++) {
		stackcount_put(f, o, &l[i]);
		free(l[i].text);
	}
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_merge_same)
{
	/* threads 11 and 12 of process 10; kernel stack 1 and 2 print the
	 * same, -EFAULT (no kernel frames: a sample in user mode) not */
	static const struct mkey m[] = {
		{ 11, 10, 1, 5, 4 }, { 11, 10, 2, 6, 301 },
		{ 11, 10, 1, 7, 4 }, { 12, 10, 2, 8, 10 },
		{ 11, 10, -EFAULT, 9, 3 }, { 11, 10, -EEXIST, 9, 1 },
		{ 11, 10, -ENOMEM, 5, 2 },
	};
	struct stackcount_opts o = { .kernel = 1, .user = 1, .unit = "us" };
	char out[4096];

	o.folded = 1;
	merged(&o, m, 7, out, sizeof(out));
	ck_assert_str_eq(out,
		"spin;[unknown];main;spin 3\n"
		"spin;[unknown];main;spin;[Missed Kernel Stack] 3\n"
		"spin;[unknown];main;spin;asm_sysvec_apic_timer_interrupt_[k] "
		"319\n");
	/* JSON: by thread, and an error by its number */
	o.folded = 0;
	o.json = 1;
	merged(&o, m, 7, out, sizeof(out));
	ck_assert_ptr_nonnull(strstr(out, "{\"pid\":11,\"tgid\":10,\"comm\":"
		"\"spin\",\"kstack\":[\"asm_sysvec_apic_timer_interrupt\"],"
		"\"ustack\":[\"spin\",\"main\",\"[unknown]\"],\"us\":309}\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"pid\":12,"));
	ck_assert_ptr_nonnull(strstr(out, "{\"error\":-17}"));
	ck_assert_ptr_nonnull(strstr(out, "{\"error\":-12}"));
	ck_assert_int_eq(count_lines(out), 5);
	/* text: by thread (offcputime's), or by process (profile's) */
	o.json = 0;
	merged(&o, m, 7, out, sizeof(out));
	ck_assert_ptr_nonnull(strstr(out, "spin (11)\n        309\n\n"));
	ck_assert_ptr_nonnull(strstr(out, "spin (12)\n        10\n\n"));
	o.show_tgid = 1;
	merged(&o, m, 7, out, sizeof(out));
	ck_assert_ptr_nonnull(strstr(out, "    asm_sysvec_apic_timer_interrupt"
		"\n    spin\n    main\n    [unknown]\n    -                spin "
		"(10)\n        319\n\n"));
	ck_assert_ptr_null(strstr(out, "(11)"));
	ck_assert_int_eq(count_lines(out), 7 + 6 + 7);
}
END_TEST

START_TEST(test_xml_esc)
{
	char out[128];

	fg_xml_esc(out, sizeof(out), "a&b<c>\"d'e\x01\x7f\xff");
	ck_assert_str_eq(out, "a&amp;b&lt;c&gt;&quot;d&apos;e\\x01\\x7f\\xff");
	/* valid UTF-8 stays */
	fg_xml_esc(out, sizeof(out), "caf\xc3\xa9");
	ck_assert_str_eq(out, "caf\xc3\xa9");
	/* text escaped already (a folded line's) is not escaped twice */
	fg_xml_esc(out, sizeof(out), "a\\\\b\\x01\\u{202e}");
	ck_assert_str_eq(out, "a\\\\b\\x01\\u{202e}");
	/* an entity that does not fit is left out whole */
	fg_xml_esc(out, 6, "ab&cd");
	ck_assert_str_eq(out, "ab");
}
END_TEST

static char *svg_of(const char *const *lines, int n, size_t *len)
{
	struct fg *g;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int i;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fg_new(&g), 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(fg_add_folded(g, lines[i]), 0);
	ck_assert_int_eq(fg_svg(g, f, "T<&>", "samples"), 0);
	fclose(f);
	fg_free(g);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* python3's parser, where there is one: 1 valid, 0 not, -1 no python3 */
static int python_parses(const char *svg, size_t len)
{
	char path[] = "/tmp/bbtest-svg-XXXXXX", cmd[256];
	int fd, st;

	if (access("/usr/bin/python3", X_OK))
		return -1;
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, svg, len), (ssize_t)len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c 'import sys, "
		 "xml.etree.ElementTree as E; E.parse(sys.argv[1])' %s "
		 "2>/dev/null", path);
	st = system(cmd);
	unlink(path);
	return st == 0;
}

START_TEST(test_svg_structure)
{
	static const char *const lines[] = {
		"app;main;spin_three 30",
		"app;main;spin_one 10",
		"app;main;spin_three;inner 5",
		"oth<er>;\"q\"&'a';\x01z 1",
		"kw;schedule_[k] 4",
	};
	size_t len;
	char *svg = svg_of(lines, 5, &len);

	/* frames: all, app, main, spin_three, spin_one, inner, oth<er>,
	 * "q"&'a', \x01z, kw, schedule_[k] */
	ck_assert_int_eq(count(svg, "<g><title>"), 11);
	ck_assert_int_eq(count(svg, "<svg "), 1);
	ck_assert_int_eq(count(svg, "</svg>"), 1);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (50 samples, 100.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>spin_three (35 samples, "
					  "70.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>oth&lt;er&gt; (1 samples"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>&quot;q&quot;&amp;&apos;a"
					  "&apos; (1"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>\\x01z (1"));
	ck_assert_ptr_nonnull(strstr(svg, ">T&lt;&amp;&gt;</text>"));
	/* nothing raw that XML forbids: no control bytes but newlines */
	for (size_t i = 0; i < len; i++)
		ck_assert(svg[i] == '\n' || (unsigned char)svg[i] >= 0x20);
	/* no resource from elsewhere */
	ck_assert_ptr_null(strstr(svg, "href"));
	ck_assert_ptr_null(strstr(svg, "<script src"));
	/* the script: zoom, search, details */
	ck_assert_ptr_nonnull(strstr(svg, "function zoom("));
	ck_assert_ptr_nonnull(strstr(svg, "function search("));
	ck_assert_ptr_nonnull(strstr(svg, "id=\"details\""));
	ck_assert_int_ne(python_parses(svg, len), 0);
	free(svg);
}
END_TEST

/* Widths add up: children side by side within their parent, by name. */
START_TEST(test_svg_layout)
{
	static const char *const lines[] = { "a;b 3", "a;c 1" };
	size_t len;
	char *svg = svg_of(lines, 2, &len), *b, *c;
	double bx, bw, cx, cw;

	b = strstr(svg, "<title>b (3 samples");
	c = strstr(svg, "<title>c (1 samples");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(sscanf(strstr(b, "x=\""), "x=\"%lf\"", &bx), 1);
	ck_assert_int_eq(sscanf(strstr(b, "width=\""), "width=\"%lf\"", &bw),
			 1);
	ck_assert_int_eq(sscanf(strstr(c, "x=\""), "x=\"%lf\"", &cx), 1);
	ck_assert_int_eq(sscanf(strstr(c, "width=\""), "width=\"%lf\"", &cw),
			 1);
	ck_assert(bx < cx);
	ck_assert(bw > 2.9 * cw && bw < 3.1 * cw);
	ck_assert(cx - (bx + bw) < 0.2 && cx - (bx + bw) > -0.2);
	free(svg);
}
END_TEST

START_TEST(test_folded_bad)
{
	struct fg *g;

	ck_assert_int_eq(fg_new(&g), 0);
	ck_assert_int_eq(fg_add_folded(g, "no count"), -EINVAL);
	ck_assert_int_eq(fg_add_folded(g, "a;b 12x"), -EINVAL);
	ck_assert_int_eq(fg_add_folded(g, "a;b 12\n"), 0);
	fg_free(g);
}
END_TEST

static Suite *flamegraph_suite(void)
{
	Suite *s = suite_create("flamegraph");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fold_order);
	tcase_add_test(tc, test_fold_missing);
	tcase_add_test(tc, test_fold_escapes);
	tcase_add_test(tc, test_merge_same);
	tcase_add_test(tc, test_xml_esc);
	tcase_add_test(tc, test_svg_structure);
	tcase_add_test(tc, test_svg_layout);
	tcase_add_test(tc, test_folded_bad);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(flamegraph, flamegraph_suite, NULL)
