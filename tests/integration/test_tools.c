/* SPDX-License-Identifier: MIT */
/*
 * The tools, run as a user would, on this machine's kernel: biolatency on a
 * loop device must count exactly the requests /sys/block/<dev>/stat says
 * completed while it ran; bad input must fail cleanly; every embedded
 * program must pass this kernel's verifier.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "tool.h"
#include "util.h"

/* The heart of it: biolatency's count == the kernel's own I/O counter. */
START_TEST(test_biolatency_counts_exactly)
{
	char out[65536], err[4096], err2[4096], cmd[512], *p, *q;
	char *argv[] = { (char *)barebpf(), "biolatency", "-j", "-d", loopdev,
			 NULL };
	unsigned long long before, after, counted, skipped = 0;
	struct proc pr;

	loop_setup();
	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Tracing", 20000);
	ck_assert_msg(strstr(err, "Tracing"), "biolatency did not start: %s",
		      err);
	before = completed(loopdev);
	snprintf(cmd, sizeof(cmd), "dd if=/dev/%s of=/dev/null bs=4k "
		 "count=300 iflag=direct 2>/dev/null; dd if=/dev/zero "
		 "of=/dev/%s bs=8k count=50 oflag=direct 2>/dev/null",
		 loopdev, loopdev);
	ck_assert_int_eq(system(cmd), 0);
	after = completed(loopdev);
	kill(pr.pid, SIGINT);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err2, sizeof(err2), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	close(pr.out);
	close(pr.err);
	loop_teardown();

	p = strstr(out, "],\"count\":");
	ck_assert_msg(p, "no histogram in output: %s", out);
	counted = strtoull(p + 10, NULL, 10);
	/* a run the kernel skipped (another tool's BPF program on that CPU,
	 * 6.7+) is said at exit and may cost one I/O its count */
	for (q = err2; (q = strstr(q, "warning: ")); q++) {
		char *e;
		unsigned long long v = strtoull(q + 9, &e, 10);

		if (e != q + 9 && !strncmp(e, " event(s) not seen", 18))
			skipped = v;
	}
	ck_assert_uint_ge(after - before, 350);
	ck_assert_msg(counted <= after - before &&
		      after - before - counted <= skipped,
		      "biolatency counted %llu, /sys/block/%s/stat says %llu, "
		      "%llu runs skipped", counted, loopdev, after - before,
		      skipped);
}
END_TEST

START_TEST(test_biolatency_per_disk_text)
{
	char out[65536], err[4096], cmd[512], want[128];
	char *argv[] = { (char *)barebpf(), "biolatency", "-D", "-m",
			 "--duration", "3", NULL };
	struct proc pr;

	loop_setup();
	spawn(&pr, argv);
	read_until(pr.out, out, sizeof(out), "Tracing", 20000);
	snprintf(cmd, sizeof(cmd), "dd if=/dev/%s of=/dev/null bs=4k "
		 "count=20 iflag=direct 2>/dev/null", loopdev);
	ck_assert_int_eq(system(cmd), 0);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(pr.pid), 0); /* exits by itself */
	close(pr.out);
	close(pr.err);
	loop_teardown();
	snprintf(want, sizeof(want), "disk = '%s'", loopdev);
	ck_assert_msg(strstr(out, want), "no '%s' in: %s", want, out);
	/* one histogram per disk: without -F the flags must not split it
	 * (a load-time constant that the compiler folded once did) */
	ck_assert_msg(!strstr(strstr(out, want) + 1, want),
		      "two histograms for one disk in: %s", out);
	ck_assert_msg(strstr(out, "msecs               : count     distribution"),
		      "no msecs histogram in: %s", out);
}
END_TEST

START_TEST(test_biolatency_unknown_disk)
{
	char out[4096], err[4096];
	char *argv[] = { (char *)barebpf(), "biolatency", "-d", "nosuchdisk9",
			 NULL };

	ck_assert_int_ne(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unknown disk 'nosuchdisk9'"), "stderr: %s",
		      err);
}
END_TEST

START_TEST(test_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "biolatency", "0", NULL };
	char *a2[] = { (char *)barebpf(), "nosuchtool", NULL };
	char *a3[] = { (char *)barebpf(), "funclatency", NULL };
	char *a4[] = { (char *)barebpf(), "run", "/nonexistent.o", NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "interval"));
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "unknown tool 'nosuchtool'"));
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "pattern"));
	ck_assert_int_ne(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent.o"));
}
END_TEST

/* This kernel has no kprobes: a kprobe tool must say so and fail. */
START_TEST(test_funclatency_without_kprobes)
{
	char out[4096], err[4096];
	char *argv[] = { (char *)barebpf(), "funclatency", "vfs_read", NULL };
	char tfs[256];

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (kprobes_available(tfs)) {
		/* a kernel with kprobes: the tool must run instead */
		char *a[] = { (char *)barebpf(), "funclatency", "-d", "1",
			      "vfs_read", NULL };
		ck_assert_int_eq(run(a, out, sizeof(out), err, sizeof(err)), 0);
		ck_assert_ptr_nonnull(strstr(out, "Tracing 1 functions"));
		return;
	}
	ck_assert_int_ne(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "no kprobe_events"), "stderr: %s", err);
}
END_TEST

START_TEST(test_features_json)
{
	char out[8192], err[4096], rel[128];
	char *argv[] = { (char *)barebpf(), "features", "-j", NULL };
	unsigned long code, a, b, c = 0;
	char *p;

	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_int_eq(sh("uname -r", rel, sizeof(rel)), 0);
	ck_assert_int_ge(sscanf(rel, "%lu.%lu.%lu", &a, &b, &c), 2);
	p = strstr(out, "\"version_code\":");
	ck_assert_msg(p, "%s", out);
	code = strtoul(p + 15, NULL, 10);
	/* distributions may patch the sublevel; major.minor must agree */
	ck_assert_uint_eq(code >> 8, (a << 8) + b);
	ck_assert_ptr_nonnull(strstr(out, "\"block_rq_complete\""));
	ck_assert_ptr_nonnull(strstr(out, "\"bpf\":true"));
}
END_TEST

/* Every program barebpf embeds must pass this kernel's verifier. */
START_TEST(test_embedded_programs_verify)
{
	const struct embedded_obj *e;
	int nobj = 0;

	for (e = embedded_objs; e->name; e++) {
		struct bb_err err = { "" };
		const struct bb_const *consts;
		struct bb_obj *obj;
		int i, n, ret;

		long size = lz_size(e->buf, e->end - e->buf);
		void *buf = malloc(size > 0 ? size : 1);

		ck_assert_int_gt(size, 0);
		ck_assert_int_eq(lz_decode(buf, size, e->buf, e->end - e->buf),
				 size);
		ck_assert_int_eq(obj_open(&obj, buf, size, e->name, &err), 0);
		n = obj_consts(obj, &consts);
		for (i = 0; i < n; i++)
			/* a plausible value: offsets 8, divisors 1000 */
			obj_set_const(obj, consts[i].name,
				      strstr(consts[i].name, "div") ? 1000 : 8);
		ret = obj_load(obj, 0, &err);
		ck_assert_msg(ret == 0, "%s: %s\n%s", e->name, err.msg,
			      obj_verifier_log(obj) ? obj_verifier_log(obj) : "");
		for (i = 0; i < obj_nprogs(obj); i++)
			ck_assert_int_ge(obj_prog_at(obj, i)->fd, 0);
		obj_close(obj);
		free(buf);
		nobj++;
	}
	ck_assert_int_ge(nobj, 2);
}
END_TEST

static Suite *tools_suite(void)
{
	Suite *s = suite_create("tools");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_embedded_programs_verify);
	tcase_add_test(tc, test_biolatency_counts_exactly);
	tcase_add_test(tc, test_biolatency_per_disk_text);
	tcase_add_test(tc, test_biolatency_unknown_disk);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_funclatency_without_kprobes);
	tcase_add_test(tc, test_features_json);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tools, tools_suite, need_root_and_tools)
