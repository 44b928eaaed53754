/* SPDX-License-Identifier: MIT */
/*
 * barebpf oomkill on this machine's kernel: an OOM kill provoked safely,
 * inside a memory cgroup of our own with a 16 MiB limit (v2's memory.max,
 * or v1's memory.limit_in_bytes under our own v1 cgroup), where a child
 * named "bboomvictim" touches 64 MiB: a cgroup's OOM goes through the
 * same OOM killer and fires oom:mark_victim. oomkill must name it, as
 * victim and as the task that triggered it, in text and in JSON. SKIP
 * where no such cgroup can be made.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "util.h"

static char cg[512];

static int write_file(const char *dir, const char *file, const char *s)
{
	char p[600];
	FILE *f;
	int ok;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	if (!f)
		return -1;
	ok = fputs(s, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* A memory cgroup of 16 MiB without swap, in cg; 0, or -1. */
static int memcg_make(void)
{
	char line[512], own[400] = "";
	FILE *f;

	if (!access("/sys/fs/cgroup/cgroup.controllers", F_OK) &&
	    sh("grep -qw memory /sys/fs/cgroup/cgroup.subtree_control",
	       line, sizeof(line)) == 0) {
		snprintf(cg, sizeof(cg), "/sys/fs/cgroup/bbtest-oom-%d",
			 (int)getpid());
		if (mkdir(cg, 0755) == 0 &&
		    write_file(cg, "memory.max", "16M") == 0) {
			write_file(cg, "memory.swap.max", "0");
			return 0;
		}
		rmdir(cg);
	}
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d:memory:%399s", own) == 1)
			break;
	if (f)
		fclose(f);
	if (!own[0])
		return -1;
	snprintf(cg, sizeof(cg), "/sys/fs/cgroup/memory%s/bbtest-oom-%d",
		 strcmp(own, "/") ? own : "", (int)getpid());
	if (mkdir(cg, 0755) || write_file(cg, "memory.limit_in_bytes", "16M")) {
		rmdir(cg);
		return -1;
	}
	write_file(cg, "memory.memsw.limit_in_bytes", "16M");
	return 0;
}

/* The child: into the cgroup, named, then 64 MiB touched. */
static pid_t victim_start(void)
{
	pid_t c = fork();
	char pid_s[16];
	size_t i;
	char *m;

	ck_assert_int_ge(c, 0);
	if (c)
		return c;
	snprintf(pid_s, sizeof(pid_s), "%d", (int)getpid());
	if (write_file(cg, "cgroup.procs", pid_s) ||
	    prctl(PR_SET_NAME, "bboomvictim", 0, 0, 0))
		_exit(1);
	m = malloc(64 << 20);
	for (i = 0; m && i < (64 << 20); i += 4096)
		m[i] = 1;
	_exit(2);
}

static void oom_once(int json, char *out, size_t len)
{
	char *argv[] = { (char *)barebpf(), "oomkill", json ? "-j" : NULL,
			 NULL };
	static char err[4096];
	struct proc p;
	size_t n;
	pid_t c;
	int st;
	char want[128];

	spawn(&p, argv);
	n = read_until(json ? p.err : p.out, out, len, "Tracing OOM kills",
		       30000);
	ck_assert_msg(strstr(out, "Tracing OOM kills"), "%s", out);
	n = 0;
	out[0] = 0;
	c = victim_start();
	st = wait_exit(c);
	ck_assert_msg(st == 128 + SIGKILL, "the victim ended with %d, not "
		      "killed", st);
	read_more(p.out, out, len, &n, "\n", 5000);
	kill(p.pid, SIGINT);
	read_more(p.out, out, len, &n, NULL, 10000);
	read_until(p.err, err, sizeof(err), NULL, 1000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	if (json) {
		ck_assert_int_eq(json_check(out, strlen(out) - 1), 0);
		snprintf(want, sizeof(want), "\"tpid\":%d,\"tcomm\":"
			 "\"bboomvictim\",\"vpid\":%d,\"vcomm\":\"bboomvictim\"",
			 (int)c, (int)c);
	} else {
		snprintf(want, sizeof(want), " Triggered by PID %d "
			 "(\"bboomvictim\"), OOM kill of PID %d (\"bboomvictim\"),",
			 (int)c, (int)c);
	}
	ck_assert_msg(strstr(out, want), "no '%s' in:\n%s%s", want, out, err);
	ck_assert_msg(json || strstr(out, " pages, loadavg: "), "%s", out);
}

START_TEST(test_oomkill_memcg)
{
	static char out[16384];

	if (memcg_make() < 0)
		bbtest_skip("no memory cgroup could be made here (v2 with "
			    "the memory controller, or v1's)");
	oom_once(0, out, sizeof(out));
	oom_once(1, out, sizeof(out));
	ck_assert_int_eq(rmdir(cg), 0);
}
END_TEST

static Suite *oomkill_suite(void)
{
	Suite *s = suite_create("oomkill");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_oomkill_memcg);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(oomkill, oomkill_suite, need_root_and_tools)
