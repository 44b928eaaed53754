/* SPDX-License-Identifier: MIT */
/*
 * The attach rule on this kernel (tracepoints): every output ring is open
 * before the first attach, so a record sent while the rest is attached
 * arrives; and programs that close state are attached before those that
 * open it, as -v shows.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"

#define WITNESS_OBJ BB_BUILD_DIR "/tests/bpf/attach_witness.bpf.o"
#define PERF_TYPE_TRACEPOINT_ 2

/*
 * `run` of attach_witness: `witness` reports the perf_event_open that
 * attaches `other`, made by barebpf itself after `witness` is attached.
 * That record must be printed ("cpu N: <tgid> <type>", little-endian).
 */
START_TEST(test_run_record_during_attach)
{
	static char out[1 << 20], err[8192];
	char *argv[] = { (char *)barebpf(), "run", "-d", "1", WITNESS_OBJ,
			 NULL };
	char *line, *save;
	struct proc pr;
	int own = 0, own_tp = 0, rc;

	spawn(&pr, argv);
	read_until(pr.out, out, sizeof(out), NULL, 30000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	close(pr.out);
	close(pr.err);
	rc = wait_exit(pr.pid);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "Running 2 program(s)"), "%s", err);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int b[8], cpu;

		if (sscanf(line, "cpu %u: %x %x %x %x %x %x %x %x", &cpu,
			   &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6],
			   &b[7]) != 9)
			continue;
		if ((pid_t)(b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) !=
		    pr.pid)
			continue;
		own++;
		own_tp += (b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24) ==
			  PERF_TYPE_TRACEPOINT_;
	}
	ck_assert_msg(own_tp >= 1, "the perf_event_open that attached "
		      "`other` was not reported (%d records of barebpf's own "
		      "calls): the ring was not open during the attach", own);
}
END_TEST

/* Where prog's "-v" line ("prog: target") is in err, or -1. */
static long at(const char *err, const char *prog)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\n%s: ", prog);
	p = strstr(err, want);
	return p ? p - err : -1;
}

/* biosnoop -Q -v: completion, then issue and front merge, then insert
 * and getrq; and "attached 5 probes in N ms" before the Tracing line. */
START_TEST(test_biosnoop_closers_first)
{
	char out[8192], err[8192];
	char *argv[] = { (char *)barebpf(), "biosnoop", "-Q", "-v",
			 "--duration", "0.2", NULL };
	long complete, issue, insert, merge, getrq;
	const char *a, *tr;
	int rc;

	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	complete = at(err, "rq_complete");
	issue = at(err, "rq_issue");
	insert = at(err, "rq_insert");
	merge = at(err, "who_frontmerge");
	getrq = at(err, "who_getrq");
	ck_assert_msg(complete >= 0 && issue >= 0 && insert >= 0 &&
		      merge >= 0 && getrq >= 0, "not every probe in: %s", err);
	ck_assert_msg(complete < issue && complete < insert && issue < getrq &&
		      merge < getrq && complete < merge,
		      "closers must come first: %s", err);
	a = strstr(err, "attached 5 probes in ");
	tr = strstr(out, "Tracing block I/O");
	ck_assert_msg(a, "no 'attached 5 probes in N ms': %s", err);
	ck_assert_msg(tr, "no Tracing line: %s", out);
}
END_TEST

/* biolatency -v: the completion before the issue. */
START_TEST(test_biolatency_closers_first)
{
	char out[8192], err[8192];
	char *argv[] = { (char *)barebpf(), "biolatency", "-v", "1", "1",
			 NULL };
	int rc;

	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(at(err, "rq_complete") >= 0 &&
		      at(err, "rq_complete") < at(err, "rq_issue"),
		      "rq_complete must be attached before rq_issue: %s", err);
}
END_TEST

static Suite *attach_order_suite(void)
{
	Suite *s = suite_create("attach_order");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_run_record_during_attach);
	tcase_add_test(tc, test_biosnoop_closers_first);
	tcase_add_test(tc, test_biolatency_closers_first);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(attach_order, attach_order_suite, need_root_and_tools)
