/* SPDX-License-Identifier: MIT */
/*
 * runqlen on this kernel: spinners pinned to one CPU show as that CPU's
 * run queue length with -C (at least N - 1 waiting beside the running
 * one: other tasks of this machine only add to it); the offset of
 * rq.nr_running it takes from BTF is pahole's, and the one it discovers
 * (BAREBPF_FIELDS=discover:rq.nr_running) is the same.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define NSPIN 4

static const char *need_root_btf_pahole(void)
{
	static char why[256];
	const char *r = need_root_and_tools();
	char out[256];

	if (r)
		return r;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return "no /sys/kernel/btf/vmlinux (the discovery is checked "
		       "in QEMU: vm-tests/cases/runqlen-*.sh)";
	if (sh("command -v pahole", out, sizeof(out)) || !out[0]) {
		snprintf(why, sizeof(why), "pahole not found (Debian package "
			 "dwarves, scripts/deps.sh)");
		return why;
	}
	return NULL;
}

static unsigned pahole_nr_running(void)
{
	char out[256];
	unsigned off = 0, size = 0;

	ck_assert_int_eq(sh("pahole -C rq /sys/kernel/btf/vmlinux 2>/dev/null"
			    " | grep -m1 -E '[[:space:]]nr_running;'", out,
			    sizeof(out)), 0);
	ck_assert_int_eq(sscanf(strstr(out, "/*"), "/* %u %u */", &off,
				&size), 2);
	ck_assert_uint_eq(size, 4);
	return off;
}

/* runqlen -v's "rq.nr_running at offset N (4 bytes): <how>" */
static unsigned tool_offset(const char *fields, char *how, size_t len)
{
	char *argv[] = { (char *)barebpf(), "runqlen", "-v", "--duration",
			 "1", NULL };
	static char out[65536], err[65536];
	const char *p;
	unsigned off;

	if (fields)
		setenv("BAREBPF_FIELDS", fields, 1);
	else
		unsetenv("BAREBPF_FIELDS");
	ck_assert_msg(run(argv, out, sizeof(out), err, sizeof(err)) == 0,
		      "runqlen failed: %s", err);
	unsetenv("BAREBPF_FIELDS");
	p = strstr(err, "rq.nr_running at offset ");
	ck_assert_msg(p, "no offset in -v: %s", err);
	ck_assert_int_eq(sscanf(p, "rq.nr_running at offset %u", &off), 1);
	snprintf(how, len, "%.*s", (int)strcspn(p, "\n"), p);
	return off;
}

START_TEST(test_btf_offset_is_pahole)
{
	char how[256];
	unsigned off = tool_offset(NULL, how, sizeof(how));

	ck_assert_msg(strstr(how, "BTF /sys/kernel/btf/vmlinux"), "%s", how);
	ck_assert_uint_eq(off, pahole_nr_running());
}
END_TEST

START_TEST(test_discovery_agrees)
{
	char how[256];
	unsigned off = tool_offset("discover:rq.nr_running", how,
				   sizeof(how));

	fprintf(stderr, "runqlen: %s\n", how);
	ck_assert_msg(strstr(how, "discovered"), "%s", how);
	ck_assert_uint_eq(off, pahole_nr_running());
}
END_TEST

static int last_cpu(void)
{
	cpu_set_t set;
	int c;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (c = CPU_SETSIZE - 1; c >= 0 && !CPU_ISSET(c, &set); c--)
		;
	return c;
}

static pid_t spin_on(int cpu)
{
	pid_t pid = fork();
	cpu_set_t set;

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		__asm__ volatile("" ::: "memory");
}

/* In the second interval's JSON line: samples of cpu with len >= want,
 * and all of its samples. */
static void cpu_counts(const char *line, int cpu, unsigned want,
		       unsigned long *ge, unsigned long *all)
{
	char key[32];
	const char *p = line, *end;

	snprintf(key, sizeof(key), "{\"cpu\":%d,", cpu);
	p = strstr(line, key);
	ck_assert_msg(p, "no cpu %d in %s", cpu, line);
	end = strstr(p, "]}");
	ck_assert_ptr_nonnull(end);
	*ge = *all = 0;
	while ((p = strstr(p, "{\"len\":")) && p < end) {
		unsigned len;
		unsigned long n;

		ck_assert_int_eq(sscanf(p, "{\"len\":%u,\"count\":%lu", &len,
					&n), 2);
		*all += n;
		if (len >= want)
			*ge += n;
		p++;
	}
}

/* route: NULL, or BAREBPF_RUNQLEN_RQ's (the run queues taken another
 * way than this kernel's first: from the raw tracepoint); cpu: NULL, or
 * BAREBPF_RUNQLEN_CPU's (the CPU from the map of each CPU's number, as
 * where bpf_get_smp_processor_id needs the JIT, which is off) */
static void pinned_spinners(const char *route, const char *cpu_way)
{
	char *argv[] = { (char *)barebpf(), "runqlen", "-C", "-j", "1", "2",
			 NULL };
	static char out[65536], err[65536];
	int cpu = last_cpu(), i;
	pid_t pids[NSPIN];
	unsigned long ge, all;
	char *second;

	for (i = 0; i < NSPIN; i++)
		pids[i] = spin_on(cpu);
	usleep(200000);
	if (route)
		setenv("BAREBPF_RUNQLEN_RQ", route, 1);
	if (cpu_way)
		setenv("BAREBPF_RUNQLEN_CPU", cpu_way, 1);
	i = run(argv, out, sizeof(out), err, sizeof(err));
	unsetenv("BAREBPF_RUNQLEN_RQ");
	unsetenv("BAREBPF_RUNQLEN_CPU");
	ck_assert_msg(i == 0, "runqlen failed: %s", err);
	for (i = 0; i < NSPIN; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	second = strchr(out, '\n');
	ck_assert_msg(second && second[1], "not two lines: %s", out);
	cpu_counts(second + 1, cpu, NSPIN - 1, &ge, &all);
	fprintf(stderr, "runqlen%s%s%s%s: CPU %d with %d spinners: %lu of "
		"%lu samples at %d or more\n", route ? " " : "",
		route ? route : "", cpu_way ? " cpu " : "",
		cpu_way ? cpu_way : "", cpu, NSPIN, ge, all, NSPIN - 1);
	/* 99 Hz for a second */
	ck_assert_uint_ge(all, 60);
	ck_assert_msg(ge * 100 >= all * 95, "%lu of %lu samples of CPU %d "
		      "at %d or more: %s", ge, all, cpu, NSPIN - 1, second);
}

START_TEST(test_pinned_spinners)
{
	pinned_spinners(NULL, NULL);
}
END_TEST

/* the run queues from sched_update_nr_running_tp, as on a kernel with
 * neither BTF nor data symbols (Debian's armv7) */
START_TEST(test_pinned_spinners_tracepoint)
{
	pinned_spinners("tracepoint", NULL);
}
END_TEST

/* the CPU from the map of each CPU's number, as on riscv64 with the JIT
 * off: in the sampling program, and in the raw tracepoint route's */
START_TEST(test_pinned_spinners_cpu_map)
{
	pinned_spinners(NULL, "map");
	pinned_spinners("tracepoint", "map");
}
END_TEST

static Suite *runqlen_suite(void)
{
	Suite *s = suite_create("runqlen");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_btf_offset_is_pahole);
	tcase_add_test(tc, test_discovery_agrees);
	tcase_add_test(tc, test_pinned_spinners);
	tcase_add_test(tc, test_pinned_spinners_tracepoint);
	tcase_add_test(tc, test_pinned_spinners_cpu_map);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(runqlen, runqlen_suite, need_root_btf_pahole)
