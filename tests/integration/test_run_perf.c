/* SPDX-License-Identifier: MIT */
/*
 * barebpf run of samples/bpf's perf_event objects (tests/bpf/sampleip_kern
 * and trace_event_kern, as the kernel ships them) on this kernel, while
 * tests/tools/stackload burns CPU: a sampling event on every CPU at -F,
 * and the maps they fill checked against that load.
 *  - sampleip: the ip map counts samples by instruction pointer; some are
 *    in the kernel, some in stackload's own code, none is 0;
 *  - trace_event: counts by command and stacks; stackload's entry names a
 *    user stack that the stack map holds, frames and all; the program's
 *    bpf_trace_printk lines (enabled and running times) are relayed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"
#define STACKLOAD BB_BUILD_DIR "/tests/stackload"

static char out[1 << 21], err[1 << 14];

static const char *runperf_requires(void)
{
	const char *why = need_root_and_tools();

	if (why)
		return why;
	if (access(STACKLOAD, X_OK))
		return "no " STACKLOAD;
	return NULL;
}

/* stackload burning CPU for secs seconds; its executable mapping in lo, hi */
static pid_t burner(const char *secs, unsigned long long *lo,
		    unsigned long long *hi)
{
	char *const argv[] = { STACKLOAD, "burn", (char *)secs, NULL };
	char path[64], line[512];
	struct proc p;
	FILE *f;

	spawn(&p, argv);
	close(p.out);
	close(p.err);
	*lo = *hi = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p.pid);
	/* the exec may not have happened yet: wait for its mapping */
	for (int i = 0; i < 100 && !*hi; i++) {
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, " r-xp ") && strstr(line, "stackload"))
				sscanf(line, "%llx-%llx", lo, hi);
		if (f)
			fclose(f);
		if (!*hi)
			usleep(10000);
	}
	ck_assert_msg(*hi, "no executable mapping of stackload in %s", path);
	return p.pid;
}

/* The lines "  KEY: VALUE" of map `name` in run's output, one at a time:
 * *pos is where to continue (NULL: from the map's heading). */
static const char *map_line(const char *name, const char **pos, char *line,
			    size_t len)
{
	const char *p = *pos, *nl;
	char head[80];

	if (!p) {
		snprintf(head, sizeof(head), "map %s", name);
		p = strstr(out, head);
		if (!p || !(p = strchr(p, '\n')))
			return NULL;
		p++;
	}
	if (strncmp(p, "  ", 2))
		return NULL;
	nl = strchr(p, '\n');
	if (!nl || (size_t)(nl - p) >= len)
		return NULL;
	memcpy(line, p, nl - p);
	line[nl - p] = 0;
	*pos = nl + 1;
	return line;
}

/* A child that spends its time in the kernel (reading /dev/zero), so that
 * kernel addresses are sampled whatever the other CPUs do: an idle CPU's
 * samples were the only kernel ones before, and a CI run had none once. */
static pid_t kernel_burner(void)
{
	static char buf[1 << 20];
	pid_t pid = fork();
	int fd;

	ck_assert_int_ge(pid, 0);
	if (pid)
		return pid;
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		_exit(1);
	for (;;)
		if (read(fd, buf, sizeof(buf)) < 0)
			_exit(1);
}

START_TEST(test_run_sampleip)
{
	unsigned long long lo, hi, ip, n, total = 0, kernel = 0, own = 0;
	pid_t pid = burner("4", &lo, &hi);
	char *const argv[] = { (char *)barebpf(), "run", "-F", "199", "-d",
			       "2", OBJDIR "sampleip_kern.bpf.o", NULL };
	const char *pos = NULL;
	char line[256];
	int rc, keys = 0;

	pid_t kpid = kernel_burner();

	rc = run(argv, out, sizeof(out), err, sizeof(err));
	kill(pid, SIGKILL);
	kill(kpid, SIGKILL);
	waitpid(pid, NULL, 0);
	waitpid(kpid, NULL, 0);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	while (map_line("ip_map", &pos, line, sizeof(line))) {
		ck_assert_msg(sscanf(line, " %llu: %llu", &ip, &n) == 2,
			      "not 'ip: count': '%s'", line);
		ck_assert_msg(ip && n, "'%s' in:\n%.2000s", line, out);
		keys++;
		total += n;
		kernel += ip >= 1ULL << 63 ? n : 0;
		own += ip >= lo && ip < hi ? n : 0;
	}
	/* 2 s at 199 Hz is 398 samples of a CPU; the burner has at least
	 * part of one on a busy machine */
	ck_assert_msg(keys > 0 && total >= 100, "%d keys, %llu samples:\n%.2000s",
		      keys, total, out);
	ck_assert_msg(kernel > 0, "no kernel address among %d keys", keys);
	ck_assert_msg(own >= 20, "%llu samples in stackload (%llx-%llx) of %llu",
		      own, lo, hi, total);
}
END_TEST

/* The user stack id of the counts entry of command comm (key: comm[16],
 * kernstack, userstack, printed as 24 hex bytes); -1 if none. */
static long comm_ustack(const char *comm, unsigned long long *count)
{
	const char *pos = NULL;
	char line[256], hex[64];
	size_t i;

	for (i = 0; i < strlen(comm); i++)
		sprintf(hex + 3 * i, "%02x ", (unsigned char)comm[i]);
	while (map_line("counts", &pos, line, sizeof(line))) {
		unsigned b[24];

		if (strncmp(line + 2, hex, strlen(hex)))
			continue;
		ck_assert_msg(sscanf(line + 2 + 16 * 3, "%x %x %x %x %x %x %x "
				     "%x: %llu", &b[16], &b[17], &b[18], &b[19],
				     &b[20], &b[21], &b[22], &b[23],
				     count) == 9, "'%s'", line);
		if ((int)(b[20] | b[21] << 8 | b[22] << 16 | b[23] << 24) < 0)
			continue;
		return b[20] | b[21] << 8 | b[22] << 16 | (long)b[23] << 24;
	}
	return -1;
}

START_TEST(test_run_trace_event)
{
	unsigned long long lo, hi, count = 0;
	pid_t pid = burner("4", &lo, &hi);
	char *const argv[] = { (char *)barebpf(), "run", "-F", "199", "-d",
			       "2", OBJDIR "trace_event_kern.bpf.o", NULL };
	char want[32];
	const char *st, *nl;
	int rc, frames = 0;
	long id;

	rc = run(argv, out, sizeof(out), err, sizeof(err));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	id = comm_ustack("stackload", &count);
	ck_assert_msg(id >= 0 && count > 0, "no counts of stackload with a "
		      "user stack in:\n%.3000s", strstr(out, "map counts") ?
		      strstr(out, "map counts") : out);
	ck_assert_msg((st = strstr(out, "map stackmap (stack traces):\n")),
		      "no stack map in:\n%.2000s", out);
	snprintf(want, sizeof(want), "\n  stack %ld:\n", id);
	ck_assert_msg((st = strstr(st, want)), "no stack %ld in the stack map",
		      id);
	/* stackload's frames: spin, spin_three or spin_one, burn, main... */
	for (st += strlen(want); !strncmp(st, "    ", 4); st = nl + 1) {
		unsigned long long ip = strtoull(st + 4, NULL, 16);

		frames += ip >= lo && ip < hi;
		if (!(nl = strchr(st, '\n')))
			break;
	}
	ck_assert_msg(frames >= 2, "stack %ld has %d frames in stackload", id,
		      frames);
	ck_assert_msg(strstr(out, "Time Enabled: "), "no printk line:\n%.2000s",
		      out);
}
END_TEST

/* -F: a rate of 1 or more; --help names perf_event sections and -F */
START_TEST(test_run_frequency)
{
	char *const zero[] = { (char *)barebpf(), "run", "-F", "0", "-d", "1",
			       OBJDIR "sampleip_kern.bpf.o", NULL };
	char *const help[] = { (char *)barebpf(), "run", "--help", NULL };
	int rc;

	rc = run(zero, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 1 && strstr(err, "-F"), "exit %d: %s", rc, err);
	rc = run(help, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(out, "  perf_event ") &&
		      strstr(out, "-F, --frequency HZ"), "%s", out);
}
END_TEST

static Suite *runperf_suite(void)
{
	Suite *s = suite_create("runperf");
	TCase *tc = tcase_create("samples");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_run_sampleip);
	tcase_add_test(tc, test_run_trace_event);
	tcase_add_test(tc, test_run_frequency);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(runperf, runperf_suite, runperf_requires)
