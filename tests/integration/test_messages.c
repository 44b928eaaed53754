/* SPDX-License-Identifier: MIT */
/*
 * Messages that named the wrong thing (issue 32 item 15): each runs the
 * binary on the bad input, checks the exit status and that the message
 * names the problem and its fix, not a neighbour's. And the README's USDT
 * example, run (item 16), and trace's %s that cannot be read (item 12).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"

static const char *messages_requires(void)
{
	return need_root_and_tools();
}

/* -t of offcputime is a thread id: its message says -t, not -p */
START_TEST(test_tid_blames_t)
{
	char *argv[] = { (char *)barebpf(), "offcputime", "-t", "-5", "1",
			 NULL };
	char out[4096], err[4096];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 1 && strstr(err, "-t needs a thread id, not '-5'") &&
		      !strstr(err, "-p "), "exit %d: %s", rc, err);
}
END_TEST

/* A map the kernel cannot allocate: the tool's name once, and advice for
 * this kernel (RLIMIT_MEMLOCK does not limit maps from 5.11 on). */
START_TEST(test_map_too_big)
{
	char *argv[] = { (char *)barebpf(), "profile", "--stack-storage-size",
			 "100000000", "1", NULL };
	char out[65536], err[4096];
	int rc = run(argv, out, sizeof(out), err, sizeof(err));

	ck_assert_msg(rc == 1 && strstr(err, "barebpf profile: cannot create "
					"map stacks") &&
		      strstr(err, "use fewer entries") &&
		      !strstr(err, "profile: profile:"), "exit %d: %s", rc, err);
	if (bb_memcg_charged())
		ck_assert_msg(strstr(err, "not to RLIMIT_MEMLOCK") &&
			      !strstr(err, "raise it"), "%s", err);
	else
		ck_assert_msg(strstr(err, "RLIMIT_MEMLOCK: raise it"), "%s",
			      err);
}
END_TEST

/* An ELF file cut short, given to a uprobe, a USDT probe and funccount:
 * said as such (as run says it), not "Bad message". */
START_TEST(test_truncated_elf)
{
	const char *path = "/tmp/bbtest-truncated-elf";
	char spec[3][128], *what[3] = { "trace", "trace", "funccount" };
	char out[4096], err[4096], cmd[256];
	int i, rc;

	snprintf(cmd, sizeof(cmd), "head -c 3000 /bin/true > %s && chmod +x %s",
		 path, path);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(spec[0], sizeof(spec[0]), "p:%s:main", path);
	snprintf(spec[1], sizeof(spec[1]), "u:%s:probe", path);
	snprintf(spec[2], sizeof(spec[2]), "%s:main", path);
	for (i = 0; i < 3; i++) {
		char *argv[] = { (char *)barebpf(), what[i], spec[i], NULL };

		rc = run(argv, out, sizeof(out), err, sizeof(err));
		ck_assert_msg(rc == 1 && strstr(err, "a damaged ELF file") &&
			      strstr(err, "truncated?") &&
			      !strstr(err, "Bad message"), "%s %s: exit %d: %s",
			      what[i], spec[i], rc, err);
	}
	unlink(path);
}
END_TEST

/* Probe specs: a path with a space is not "not a kernel function name";
 * an offset into a library's function suggests that library's probes. */
START_TEST(test_trace_spec_advice)
{
	char *space[] = { (char *)barebpf(), "trace", "p:/tmp/a b:main", NULL };
	char *offset[] = { (char *)barebpf(), "trace", "p:c:malloc+0x10",
			   NULL };
	char out[4096], err[4096];
	int rc;

	rc = run(space, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "a path, not a kernel function") &&
		      strstr(err, "p:/PATH:FUNC") &&
		      !strstr(err, "not a kernel function name"), "exit %d: %s",
		      rc, err);
	rc = run(offset, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "(p:c:malloc)") &&
		      strstr(err, "(r:c:malloc)") && !strstr(err, "p::FUNC"),
		      "exit %d: %s", rc, err);
}
END_TEST

/* A %s whose memory cannot be read prints a marker, not an empty string
 * (issue 32 item 12): openat() of address 1 fails with EFAULT, and trace
 * cannot read the name either; JSON has null. */
START_TEST(test_trace_unread_string)
{
	char pid[16], buf[8192];
	char *argv[] = { (char *)barebpf(), "trace", "-p", pid, "-M", "1",
			 "t:syscalls:sys_enter_openat \"[%s]\", args->filename",
			 NULL };
	char *jargv[] = { (char *)barebpf(), "trace", "-j", "-p", pid, "-M",
			  "1", "t:syscalls:sys_enter_openat \"[%s]\", "
			  "args->filename", NULL };
	struct proc p;
	int rc, j;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (j = 0; j < 2; j++) {
		char **av = j ? jargv : argv;

		spawn(&p, av);
		trace_started(&p, av, buf, sizeof(buf));
		ck_assert_int_lt(syscall(SYS_openat, AT_FDCWD, (char *)1,
					 O_RDONLY), 0);
		read_until(p.out, buf, sizeof(buf), "\n", 10000);
		rc = wait_exit(p.pid);
		close(p.out);
		close(p.err);
		ck_assert_msg(rc == 0 && strstr(buf, j ? "\"args\":[null]" :
						"[[?]]"), "exit %d: %s", rc, buf);
	}
}
END_TEST

/* The README's USDT example runs where the probe exists: Debian 12's
 * python3 carries python:function__entry (its glibc has no probes, so
 * the example it gave, u:c:memory_malloc_retry, could not). And the
 * README points nowhere outside the repository. */
START_TEST(test_readme_usdt_example)
{
	char *argv[] = { (char *)barebpf(), "trace", "--duration", "10",
			 "-M", "1", "u:/usr/bin/python3:function__entry "
			 "\"%s %s\", arg1, arg2", NULL };
	char buf[8192], cmd[64];
	struct proc p;
	FILE *f = fopen("README.md", "r");
	size_t n;
	int rc;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		while (n) {
			ck_assert_msg(!strstr(buf, "../shared/"), "README.md "
				      "names a path outside the repository");
			n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = 0;
		}
		fclose(f);
		ck_assert_int_eq(access("docs/background.md", R_OK), 0);
	}
	if (sh("readelf -n /usr/bin/python3 2>/dev/null | grep -c "
	       "'Name: function__entry'", cmd, sizeof(cmd)) != 0 ||
	    atoi(cmd) < 1) {
		printf("SKIP: /usr/bin/python3 has no USDT function__entry "
		       "(or no readelf)\n");
		return;
	}
	spawn(&p, argv);
	trace_started(&p, argv, buf, sizeof(buf));
	ck_assert_int_eq(system("/usr/bin/python3 -c 'def bbtest_fn(): pass\n"
				"bbtest_fn()'"), 0);
	read_until(p.out, buf, sizeof(buf), "\n", 10000);
	rc = wait_exit(p.pid);
	close(p.out);
	close(p.err);
	ck_assert_msg(rc == 0 && strstr(buf, "function__entry"),
		      "exit %d: %s", rc, buf);
}
END_TEST

static Suite *messages_suite(void)
{
	Suite *s = suite_create("messages");
	TCase *tc = tcase_create("messages");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tid_blames_t);
	tcase_add_test(tc, test_map_too_big);
	tcase_add_test(tc, test_truncated_elf);
	tcase_add_test(tc, test_trace_spec_advice);
	tcase_add_test(tc, test_readme_usdt_example);
	tcase_add_test(tc, test_trace_unread_string);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(messages, messages_suite, messages_requires)
