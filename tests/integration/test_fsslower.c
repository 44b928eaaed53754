/* SPDX-License-Identifier: MIT */
/*
 * fsslower and fsdist on this machine: without kprobes (this host) each
 * name (fsslower, the ext4slower link, fsdist, ext4dist) refuses plainly,
 * exits 1 and prints no header; bad arguments are refused by name with
 * the fix, before anything is attached; nothing is left in
 * kprobe_events either way. (Where the kernel has kprobes, the QEMU
 * cases fsslower-ext4 and fsdist-ext4 test the tools themselves.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"
#include "barebpf.h"
#include "kernel.h"
#include "probe.h"

/* No barebpf probe in kprobe_events (there is none without kprobes). */
static void no_probes_left(const char *tfs, const char *after)
{
	char path[300], *text = NULL;

	snprintf(path, sizeof(path), "%s/kprobe_events", tfs);
	if (bb_read_file(path, &text) < 0)
		return;
	ck_assert_msg(!strstr(text, "barebpf"), "probes left after %s: %s",
		      after, text);
	free(text);
}

START_TEST(test_needs_kprobes)
{
	char *const cmds[][5] = {
		{ (char *)barebpf(), "fsslower", "-d", "1", NULL },
		{ (char *)barebpf(), "ext4slower", "0", NULL, NULL },
		{ (char *)barebpf(), "fsdist", "1", "1", NULL },
		{ (char *)barebpf(), "ext4dist", "-m", "1", NULL },
	};
	char out[4096], err[4096], tfs[256];
	size_t i;
	int rc;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (kprobes_available(tfs)) {
		fprintf(stderr, "SKIP fsslower needs_kprobes: this kernel has "
			"kprobes (the QEMU cases test the tools)\n");
		return;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		rc = run(cmds[i], out, sizeof(out), err, sizeof(err));
		ck_assert_msg(rc == 1 && strstr(err, "no kprobe_events") &&
			      strstr(err, "needs kprobes") && !out[0],
			      "%s: exit %d: %s%s", cmds[i][1], rc, out, err);
		no_probes_left(tfs, cmds[i][1]);
	}
}
END_TEST

START_TEST(test_bad_arguments)
{
	static const struct {
		const char *a[4];
		const char *says;
	} cases[] = {
		{ { "fsslower", "-t", "ext3" }, "-t 'ext3': give ext4, xfs" },
		{ { "fsdist", "-t", "zfs" }, "-t 'zfs': give ext4, xfs" },
		{ { "ext4slower", "-t", "xfs" }, "ext4slower traces ext4 only" },
		{ { "ext4dist", "-t", "xfs" }, "ext4dist traces ext4 only" },
		{ { "fsslower", "ten" }, "min_ms 'ten': give a number" },
		{ { "fsslower", "-1" }, "" },
		{ { "fsslower", "10", "20" }, "" },
		{ { "fsslower", "-p", "0" }, "" },
		{ { "fsdist", "-p", "999999999" }, "" },
		{ { "xfsdist", "0" }, "" },
	};
	char out[4096], err[4096], tfs[256];
	size_t i;
	int rc, k;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { (char *)barebpf() };

		for (k = 0; k < 4 && cases[i].a[k]; k++)
			argv[k + 1] = (char *)cases[i].a[k];
		rc = run(argv, out, sizeof(out), err, sizeof(err));
		ck_assert_msg(rc == 1 && !out[0] && err[0] &&
			      strstr(err, cases[i].says), "%s %s: exit %d: "
			      "%s%s", argv[1], argv[2], rc, out, err);
		ck_assert_msg(!strstr(err, "kprobe_events"), "%s %s: the "
			      "arguments not checked first: %s", argv[1],
			      argv[2], err);
		no_probes_left(tfs, argv[1]);
	}
}
END_TEST

static Suite *fsslower_suite(void)
{
	Suite *s = suite_create("fsslower");
	TCase *tc = tcase_create("fsslower");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_needs_kprobes);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(fsslower, fsslower_suite, need_root_and_tools)
