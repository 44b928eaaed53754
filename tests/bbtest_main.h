/* SPDX-License-Identifier: MIT */
/*
 * The runner main, included once by tests/unit/main.c and
 * tests/integration/main.c (which defines BBTEST_NEEDS_ROOT first).
 *
 * A run that tested nothing must not pass:
 *  - a suite whose `requires` hook gives a reason is not run: SKIP <why>;
 *  - a test that cannot run here says so with bbtest_skip(why) (never a
 *    bare return): SKIP <suite>/<test>: <why>; a suite every test of which
 *    skipped FAILS, and so does a run in which no suite ran;
 *  - with BBTEST_NEEDS_ROOT, a run as another user FAILS at once, unless
 *    BAREBPF_TEST_SKIP_UNPRIVILEGED=1 asks to skip everything instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"

#define BBTEST_MAX 64

static struct {
	const char *name;
	bbtest_suite_fn fn;
	bbtest_requires_fn requires;
} bbtests[BBTEST_MAX];
static int bbtest_count;
/* where bbtest_skip writes, one line per skip: the tests run in forked
 * children (CK_FORK), which inherit it */
static int bbtest_skip_fd = -1;
static const char *bbtest_suite;

void bbtest_register(const char *name, bbtest_suite_fn fn,
		     bbtest_requires_fn requires)
{
	if (bbtest_count == BBTEST_MAX) {
		fprintf(stderr, "bbtest: too many suites, raise BBTEST_MAX\n");
		exit(2);
	}
	bbtests[bbtest_count].name = name;
	bbtests[bbtest_count].fn = fn;
	bbtests[bbtest_count].requires = requires;
	bbtest_count++;
}

void bbtest_skip_note(const char *test, const char *fmt, ...)
{
	char why[512], line[700];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* START_TEST(name) makes a function name_fn */
	n = (int)strlen(test);
	if (n > 3 && !strcmp(test + n - 3, "_fn"))
		n -= 3;
	n = snprintf(line, sizeof(line), "SKIP %s/%.*s: %s\n",
		     bbtest_suite ? bbtest_suite : "?", n, test, why);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	fputs(line, stdout);
	fflush(stdout);
	if (bbtest_skip_fd >= 0 && write(bbtest_skip_fd, line, n) != n)
		perror("bbtest: recording a skip");
}

/* Lines written to the skip file since offset *off. */
static int bbtest_skips_since(off_t *off)
{
	char buf[4096];
	ssize_t r;
	int n = 0, i;

	while ((r = pread(bbtest_skip_fd, buf, sizeof(buf), *off)) > 0) {
		for (i = 0; i < r; i++)
			n += buf[i] == '\n';
		*off += r;
	}
	return n;
}

#ifdef BBTEST_NEEDS_ROOT
static int bbtest_root_or_exit(void)
{
	const char *skip = getenv("BAREBPF_TEST_SKIP_UNPRIVILEGED");

	if (geteuid() == 0)
		return 0;
	if (skip && !strcmp(skip, "1")) {
		printf("SKIP every suite: not root, and "
		       "BAREBPF_TEST_SKIP_UNPRIVILEGED=1: nothing was tested\n");
		exit(0);
	}
	printf("FAIL: these tests need root (bpf(), perf events, tracefs, "
	       "loop devices) and would all skip: run them as root, or set "
	       "BAREBPF_TEST_SKIP_UNPRIVILEGED=1 to skip them on purpose\n");
	exit(1);
}
#endif

/* One line per failed test, to print again at the end of the run. */
static void bbtest_recap(FILE *f, SRunner *sr, int nfail)
{
	TestResult **tr;
	int i;

	if (!f || nfail <= 0 || !(tr = srunner_failures(sr)))
		return;
	for (i = 0; i < nfail; i++)
		fprintf(f, "FAIL %s (case %s): %s:%d: %s\n", bbtest_suite,
			tr_tcname(tr[i]), tr_lfile(tr[i]), tr_lno(tr[i]),
			tr_msg(tr[i]));
	free(tr);
}

/* usage: runner [suite-name...] runs only those suites */
int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/bbtest-skips-XXXXXX";
	int i, j, skipped = 0, ran = 0, failed = 0, empty = 0;
	char failed_names[512] = "", *recap = NULL;
	size_t recap_len = 0;
	FILE *recap_f = open_memstream(&recap, &recap_len);
	off_t off = 0;

#ifdef BBTEST_NEEDS_ROOT
	bbtest_root_or_exit();
#endif
	bbtest_skip_fd = mkstemp(tmpl);
	if (bbtest_skip_fd < 0) {
		perror("bbtest: mkstemp");
		return 2;
	}
	unlink(tmpl);
	for (i = 0; i < bbtest_count; i++) {
		const char *why;
		int wanted = argc < 2, nrun, nskip, nfail, hollow;
		SRunner *sr;

		for (j = 1; j < argc; j++)
			wanted |= !strcmp(argv[j], bbtests[i].name);
		if (!wanted)
			continue;
		why = bbtests[i].requires ? bbtests[i].requires() : NULL;
		if (why) {
			printf("SKIP %s: %s\n", bbtests[i].name, why);
			skipped++;
			continue;
		}
		/* one runner per suite: its tests and its skips counted */
		bbtest_suite = bbtests[i].name;
		sr = srunner_create(bbtests[i].fn());
		srunner_run_all(sr, CK_NORMAL);
		nrun = srunner_ntests_run(sr);
		nfail = srunner_ntests_failed(sr);
		failed += nfail;
		bbtest_recap(recap_f, sr, nfail);
		srunner_free(sr);
		nskip = bbtest_skips_since(&off);
		hollow = nrun > 0 && nskip >= nrun;
		if (hollow) {
			printf("FAIL %s: all of its %d tests skipped: nothing "
			       "was tested\n", bbtests[i].name, nrun);
			empty++;
		}
		if (nfail || hollow)
			snprintf(failed_names + strlen(failed_names),
				 sizeof(failed_names) - strlen(failed_names),
				 " %s", bbtests[i].name);
		ran++;
	}
	close(bbtest_skip_fd);
	if (!ran) {
		printf("FAIL: no suite ran (%d skipped): nothing was tested\n",
		       skipped);
		return 1;
	}
	if (skipped)
		printf("%d suite(s) skipped, see SKIP lines above\n", skipped);
	/* last, so that a log's tail names what failed, and why */
	if (recap_f)
		fclose(recap_f);
	if (recap && recap_len)
		printf("--- failures again, from above:\n%s", recap);
	free(recap);
	if (failed || empty)
		printf("FAILED: %d test(s) failed, %d suite(s) tested nothing; "
		       "suites:%s (their lines above)\n", failed, empty,
		       failed_names);
	else
		printf("OK: %d suite(s) ran, none failed\n", ran);
	return failed || empty ? 1 : 0;
}
