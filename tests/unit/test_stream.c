/* SPDX-License-Identifier: MIT */
/*
 * The loss report every streaming tool prints at exit (stream.c): the
 * same words the four copies of finish() printed, byte for byte.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "stream.h"

/* What tool_stream_report writes to stderr. */
static char *report(const char *name, const struct tool_stream *s,
		    const char *more, const char *warn)
{
	static char buf[4096];
	struct tool_ctx t;
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	ck_assert_ptr_nonnull(f);
	memset(&t, 0, sizeof(t));
	t.name = name;
	fflush(stderr);
	dup2(fileno(f), 2);
	tool_stream_report(&t, s, more, warn);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

START_TEST(test_report_clean)
{
	struct tool_stream s = { "opens", 0, 1, "tracked: x" };

	s.received = s.printed = 12;
	ck_assert_str_eq(report("opensnoop", &s, NULL, NULL),
			 "barebpf opensnoop: 12 opens printed, 0 lost\n");
}
END_TEST

START_TEST(test_report_every_loss)
{
	struct tool_stream s = {
		"I/Os", 0, 1,
		"tracked: more than 10240 requests were in flight at once" };

	s.printed = 7;
	s.lost = 3;
	s.untracked_n = 2;
	s.short_records = 1;
	ck_assert_str_eq(report("biosnoop", &s, ", up to 5 not seen",
				"the kernel skipped our programs 5 times"),
		"barebpf biosnoop: 7 I/Os printed, 3 lost, up to 5 not seen\n"
		"barebpf biosnoop: warning: 3 I/Os were not printed: the "
		"reader fell behind and the kernel dropped their records\n"
		"barebpf biosnoop: warning: the kernel skipped our programs 5 "
		"times\n"
		"barebpf biosnoop: warning: 2 I/Os were not tracked: more than "
		"10240 requests were in flight at once\n"
		"barebpf biosnoop: warning: 1 records were too short (a "
		"mismatched build?)\n");
}
END_TEST

static Suite *stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_report_clean);
	tcase_add_test(tc, test_report_every_loss);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(stream, stream_suite, NULL)
