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

/* The multi-call names: the links make installs (build/ext4slower, ...)
 * are the tool for that file system only. */
START_TEST(test_links)
{
	static const char *const names[] = { "ext4slower", "xfsslower",
		"btrfsslower", "nfsslower", "f2fsslower", "ext4dist",
		"xfsdist", "btrfsdist" };
	const char *slash = strrchr(barebpf(), '/');
	char link[4096], out[4096], err[4096], says[64];
	char *argv[] = { link, "-t", "ext4", NULL };
	size_t i;
	int rc;

	ck_assert_ptr_nonnull(slash);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(link, sizeof(link), "%.*s/%s",
			 (int)(slash - barebpf()), barebpf(), names[i]);
		ck_assert_msg(access(link, X_OK) == 0, "no link %s", link);
		rc = run(argv, out, sizeof(out), err, sizeof(err));
		snprintf(says, sizeof(says), "%s traces %.*s only", names[i],
			 strstr(names[i], "slower") ?
			 (int)(strstr(names[i], "slower") - names[i]) :
			 (int)strlen(names[i]) - 4, names[i]);
		/* ext4's own take -t ext4 as theirs: refused all the same */
		ck_assert_msg(rc == 1 && strstr(err, says), "%s -t ext4: exit "
			      "%d: %s%s", names[i], rc, out, err);
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
	tcase_add_test(tc, test_links);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(fsslower, fsslower_suite, need_root_and_tools)
