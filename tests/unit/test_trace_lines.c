/* SPDX-License-Identifier: MIT */
/*
 * trace's fast line (trace_out.c): an event without a message or stacks
 * is printed without out_row, and must come out as the same bytes, in
 * text and JSON, with every column option, for every width of its
 * numbers and every kind of comm (plain, 15 and 16 bytes, and the ones
 * that need escaping, which go back to out_row).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "trace_tool.h"

/* What trace_on_event writes to stdout for each record of ev. */
static char *lines(struct trace_run *r, const struct trace_event *ev, int n,
		   int fast)
{
	static char buf[2][65536];
	FILE *f = tmpfile();
	int saved = dup(1), i;
	size_t len;

	ck_assert_ptr_nonnull(f);
	trace_fast = fast;
	fflush(stdout);
	dup2(fileno(f), 1);
	for (i = 0; i < n; i++)
		trace_on_event(r, 0, &ev[i], TRACE_EVENT_HEAD);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	trace_fast = 1;
	rewind(f);
	len = fread(buf[fast], 1, sizeof(buf[fast]) - 1, f);
	buf[fast][len] = 0;
	fclose(f);
	return buf[fast];
}

static const char *const comms[] = {
	"getppid", "abcdefghijklmno", "abcdefghijklmnop", "", "a b",
	"q\"uote", "back\\slash", "tab\there", "\xc3\xa9t\xc3\xa9", "del\x7f",
	"nl\n", "~!@#$%^&*()_+{}",
};
static const uint32_t nums[] = { 0, 7, 9, 10, 99, 100, 999, 1000, 12345,
	99999, 100000, 1234567, 9999999, 10000000, 4294967295u };

START_TEST(test_fast_lines_same_bytes)
{
	static struct trace_event ev[64];
	struct trace_probe probes[2];
	struct bb_err err = { "" };
	struct trace_opts o;
	struct trace_run r;
	int i, n = 0, opt;
	uint64_t before;

	memset(probes, 0, sizeof(probes));
	ck_assert_int_eq(trace_spec_parse("t:syscalls:sys_enter_getppid",
					  &probes[0].spec, &err), 0);
	ck_assert_int_eq(trace_spec_parse("p::vfs_read", &probes[1].spec,
					  &err), 0);
	probes[0].nfuncs = 0;
	probes[1].nfuncs = 1;
	for (i = 0; i < 30; i++, n++) {
		struct trace_event *e = &ev[n];

		memset(e, 0, sizeof(*e));
		e->ts = 1000000000ull * i + 123456789;
		e->tgid = nums[i % 15];
		e->tid = nums[(i * 7 + 3) % 15];
		e->cpu = nums[i % 9];
		e->probe = i & 1;
		/* comm is 16 bytes with no NUL when it fills them */
		memcpy(e->comm, comms[i % 12], strlen(comms[i % 12]) < 16 ?
		       strlen(comms[i % 12]) + 1 : 16);
	}
	for (opt = 0; opt < 16; opt++) {
		memset(&o, 0, sizeof(o));
		o.probes = probes;
		o.nprobes = 2;
		o.json = opt & 1;
		o.cpu = (opt >> 1) & 1;
		o.time = (opt >> 2) & 1;
		o.timestamp = (opt >> 3) & 1;
		memset(&r, 0, sizeof(r));
		r.o = &o;
		r.t0_mono = 1.5;
		r.t0_real = 1700000000.25;
		before = trace_fast_lines;
		{
			char *slow = lines(&r, ev, n, 0), *fast;

			ck_assert_uint_eq(trace_fast_lines, before);
			fast = lines(&r, ev, n, 1);
			ck_assert_str_eq(fast, slow);
			ck_assert_uint_eq(r.printed, 2 * (uint64_t)n);
		}
		/* the plain comms (not a vacuous comparison) took it; the
		 * ones to escape did not, in JSON at least */
		ck_assert_uint_ge(trace_fast_lines - before, 12);
		ck_assert_uint_lt(trace_fast_lines - before, (uint64_t)n);
	}
}
END_TEST

static Suite *trace_lines_suite(void)
{
	Suite *s = suite_create("trace_lines");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fast_lines_same_bytes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_lines, trace_lines_suite, NULL)
