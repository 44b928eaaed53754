/* SPDX-License-Identifier: MIT */
/*
 * drsnoop on this machine's kernel: a child in a memory cgroup of 16 MiB
 * writes 96 MiB through the page cache, so that it must reclaim at least
 * the 80 MiB beyond its limit itself (a memory cgroup has no kswapd of its
 * own: the charging task reclaims, mm_vmscan_memcg_reclaim_*). Every line
 * must be the child's, and their pages add up to most of those 80 MiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define LIMIT_MB 16
#define WRITE_MB 96

/*
 * A memory cgroup of LIMIT_MB under ours: cgroup v2 (memory.max) or v1
 * (memory.limit_in_bytes). Its directory in dir, the file to join it in
 * procs; NULL, or why there is none.
 */
static const char *memcg_make(char *dir, size_t len, char *procs,
			      size_t plen)
{
	char line[512], v1[256] = "", v2[256] = "", file[800];
	FILE *f = fopen("/proc/self/cgroup", "r");
	const char *base, *limit;
	int fd;

	if (!f)
		return "no /proc/self/cgroup";
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%*d:memory:%255s", v1) == 1)
			break;
		if (!strncmp(line, "0::", 3))
			snprintf(v2, sizeof(v2), "%.255s", line + 3);
	}
	fclose(f);
	if (!v1[0] && !v2[0])
		return "no memory cgroup for this process";
	base = v1[0] ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup";
	limit = v1[0] ? "memory.limit_in_bytes" : "memory.max";
	snprintf(dir, len, "%s%.255s/barebpf-drsnoop-%d", base,
		 strcmp(v1[0] ? v1 : v2, "/") ? (v1[0] ? v1 : v2) : "",
		 (int)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return "cannot make a memory cgroup here";
	snprintf(file, sizeof(file), "%.500s/%s", dir, limit);
	fd = open(file, O_WRONLY);
	if (fd < 0 || dprintf(fd, "%d\n", LIMIT_MB << 20) < 0) {
		if (fd >= 0)
			close(fd);
		rmdir(dir);
		return "no memory limit can be set (the memory controller is "
		       "not enabled for this cgroup)";
	}
	close(fd);
	snprintf(procs, plen, "%.500s/cgroup.procs", dir);
	return NULL;
}

/* A child named bb_drsnoop joins the cgroup and writes WRITE_MB through
 * the page cache into a file of /tmp; its pid once it is done. */
static pid_t hog(const char *procs)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		char file[64], buf[1 << 16];
		int fd, i;

		memset(buf, 1, sizeof(buf));
		fd = open(procs, O_WRONLY);
		if (fd < 0 || dprintf(fd, "%d\n", getpid()) < 0)
			_exit(1);
		close(fd);
		prctl(PR_SET_NAME, "bb_drsnoop", 0, 0, 0);
		snprintf(file, sizeof(file), "/tmp/barebpf-drsnoop-%d",
			 getpid());
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		unlink(file);
		if (fd < 0)
			_exit(2);
		for (i = 0; i < WRITE_MB * 16; i++)
			if (write(fd, buf, sizeof(buf)) != sizeof(buf))
				_exit(3);
		_exit(0);
	}
	ck_assert_int_eq(wait_exit(pid), 0);
	return pid;
}

START_TEST(test_drsnoop_memcg_hog)
{
	static char out[1 << 20];
	char dir[600], procs[600], err[4096], want[128], *line, *save;
	char *argv[] = { (char *)barebpf(), "drsnoop", "-j", "-n", "bb_drsn",
			 NULL };
	const char *why = memcg_make(dir, sizeof(dir), procs, sizeof(procs));
	unsigned long long printed = 0, lost = 1, pages = 0;
	struct proc pr;
	int lines = 0;
	pid_t pid;

	if (why)
		bbtest_skip(why);
	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Ctrl-C to end.\n", 20000);
	ck_assert_msg(strstr(err, "Tracing direct reclaim"), "did not start: "
		      "%s", err);
	pid = hog(procs);
	rmdir(dir);
	usleep(200000);
	kill(pr.pid, SIGINT);
	read_until(pr.out, out, sizeof(out), NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	close(pr.out);
	close(pr.err);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	snprintf(want, sizeof(want), "\"comm\":\"bb_drsnoop\",\"pid\":%d,",
		 (int)pid);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "\"pages\":");

		ck_assert_msg(strstr(line, want) && p &&
			      strstr(line, "\"memcg\":true"), "%s", line);
		pages += strtoull(p + 8, NULL, 10);
		lines++;
	}
	ck_assert_msg(lines > 0, "no reclaim seen: %s", err);
	ck_assert_msg(pages >= (WRITE_MB - LIMIT_MB) * 256ULL * 3 / 4,
		      "%llu pages reclaimed in %d stalls, for %d MiB over the "
		      "limit", pages, lines, WRITE_MB - LIMIT_MB);
	ck_assert_msg(sscanf(strstr(err, "barebpf drsnoop: ") ?: "", "barebpf "
			     "drsnoop: %llu reclaims printed, %llu lost",
			     &printed, &lost) == 2, "%s", err);
	ck_assert_uint_eq(printed, lines);
	ck_assert_uint_eq(lost, 0);
}
END_TEST

START_TEST(test_drsnoop_bad_arguments)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "drsnoop", "-p", "0", NULL };
	char *a2[] = { (char *)barebpf(), "drsnoop", "-u", "x", NULL };
	char *a3[] = { (char *)barebpf(), "drsnoop", "5", NULL };
	char *a4[] = { (char *)barebpf(), "drsnoop", "-d", "0", NULL };

	ck_assert_int_ne(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-p '0'"), "%s", err);
	ck_assert_int_ne(run(a2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-u 'x': give a UID"), "%s", err);
	ck_assert_int_ne(run(a3, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "unexpected argument '5'"), "%s", err);
	ck_assert_int_ne(run(a4, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "-d"), "%s", err);
}
END_TEST

static Suite *drsnoop_suite(void)
{
	Suite *s = suite_create("drsnoop");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_drsnoop_memcg_hog);
	tcase_add_test(tc, test_drsnoop_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(drsnoop, drsnoop_suite, need_root_and_tools)
