/* SPDX-License-Identifier: MIT */
/*
 * User-symbol caches and process identity, on this machine's /proc: a
 * child we symbolize, which then execs another program (same pid, same
 * start time, every mapping new), must be symbolized with the new program
 * once usyms_add_pid sees it again, not with the maps read before.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "user.h"

__attribute__((noinline)) static int marker_function(int x)
{
	asm volatile("" : "+r"(x));
	return x + 1;
}

/* The start of the first executable mapping of path in pid's maps. */
static uint64_t exec_map_of(pid_t pid, const char *base)
{
	char path[64], line[512];
	uint64_t start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (!start && fgets(line, sizeof(line), f)) {
		struct bb_maps_line m;

		line[strcspn(line, "\n")] = 0;
		if (usym_parse_maps_line(line, &m) == 0 && m.exec &&
		    strrchr(m.path, '/') && !strcmp(strrchr(m.path, '/') + 1,
						    base))
			start = m.start;
	}
	fclose(f);
	return start;
}

START_TEST(test_exec_is_another_process)
{
	struct bb_usyms *u;
	struct bb_usym s;
	char exe[PATH_MAX], link[64], self[PATH_MAX];
	const char *me;
	uint64_t addr = (uint64_t)(uintptr_t)marker_function, sleep_text;
	int go[2], i;
	ssize_t n;
	pid_t child;
	char b;

	ck_assert_int_eq(marker_function(1), 2);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = 0;
	me = strrchr(self, '/') + 1;
	ck_assert_int_eq(pipe(go), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (!child) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		execl("/bin/sleep", "sleep", "10", NULL);
		_exit(127);
	}
	close(go[0]);
	ck_assert_int_eq(usyms_new(&u), 0);

	/* before the exec: our own program, where marker_function is */
	ck_assert_int_eq(usyms_add_pid(u, child), 0);
	ck_assert_int_eq(usyms_find(u, child, addr, &s), 0);
	ck_assert_msg(s.module && !strcmp(s.module, me), "module %s, not %s",
		      s.module ? s.module : "(none)", me);

	/* the exec: wait until /proc shows the new program */
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)child);
	for (i = 0; i < 500; i++) {
		n = readlink(link, exe, sizeof(exe) - 1);
		if (n > 0 && (exe[n] = 0, strcmp(exe, self)))
			break;
		usleep(10000);
	}
	ck_assert_msg(strcmp(exe, self), "the child did not exec");
	/* exe changes before the new program is mapped */
	for (i = 0; i < 500; i++) {
		sleep_text = exec_map_of(child, strrchr(exe, '/') + 1);
		if (sleep_text)
			break;
		usleep(10000);
	}
	ck_assert_msg(sleep_text, "no executable mapping of %s", exe);

	/* seen again: its maps are read again */
	ck_assert_int_eq(usyms_add_pid(u, child), 0);
	ck_assert_int_eq(usyms_find(u, child, sleep_text, &s), 0);
	ck_assert_msg(s.module && !strcmp(s.module, strrchr(exe, '/') + 1),
		      "sleep's text symbolized as %s", s.module ? s.module :
		      "(no module)");
	usyms_find(u, child, addr, &s);
	ck_assert_msg(!s.module || strcmp(s.module, me),
		      "the old program's maps are still used: %s", s.module);
	usyms_free(u);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}
END_TEST

static Suite *usym_identity_suite(void)
{
	Suite *s = suite_create("usym_identity");
	TCase *tc = tcase_create("proc");

	tcase_add_test(tc, test_exec_is_another_process);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(usym_identity, usym_identity_suite, NULL)
