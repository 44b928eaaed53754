/* SPDX-License-Identifier: MIT */
/*
 * The field-offset layer (loader/kernel/fieldoff.c) on this kernel's own
 * BTF, checked against pahole's reading of the same file (Debian's
 * dwarves): offsets and sizes of fields the tools read, nested paths as
 * the sums of their parts, a bitfield refused. Prints what opening the
 * 5 MB BTF and a lookup cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "fieldoff.h"
#include "util.h"

static const char *need_btf_pahole(void)
{
	char out[256];

	if (access(BB_KERNEL_BTF, R_OK))
		return "no " BB_KERNEL_BTF " (kernel without BTF)";
	if (sh("command -v pahole", out, sizeof(out)) || !out[0])
		return "pahole not found (Debian package dwarves, "
		       "scripts/deps.sh)";
	return NULL;
}

/* pahole's "offset size" of member name in `pahole -C st`, the first line
 * that declares it (anonymous members' lines carry offsets from st). */
static void pahole_member(const char *st, const char *name, uint32_t *off,
			  uint32_t *size)
{
	static char out[1 << 20];
	char cmd[256], *line;

	snprintf(cmd, sizeof(cmd), "pahole -C %s " BB_KERNEL_BTF
		 " 2>/dev/null", st);
	ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *semi = strchr(line, ';'), *end, *p;
		size_t nl = strlen(name);
		unsigned o, s;

		if (!semi || !(p = strstr(line, "/*")))
			continue;
		end = semi;
		if (end > line && end[-1] == ']')
			while (end > line && *end != '[')
				end--;
		if ((size_t)(end - line) < nl ||
		    strncmp(end - nl, name, nl) ||
		    (end - nl > line && (end[-nl - 1] != ' ' &&
					 end[-nl - 1] != '\t' &&
					 end[-nl - 1] != '*')))
			continue;
		ck_assert_msg(sscanf(p, "/* %u %u */", &o, &s) == 2,
			      "pahole line for %s.%s: %s", st, name, line);
		*off = o;
		*size = s;
		return;
	}
	ck_abort_msg("pahole -C %s has no member %s", st, name);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 +
	       (t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* path's answer; pahole's for each (struct, member) step, summed */
static void check(struct bb_fieldoff *fo, const char *path,
		  const char *const *steps)
{
	struct bb_err err = { "" };
	struct bb_field f;
	uint32_t off = 0, size = 0, o, s;
	int i;

	for (i = 0; steps[i]; i += 2) {
		pahole_member(steps[i], steps[i + 1], &o, &s);
		off += o;
		size = s;
	}
	ck_assert_msg(fieldoff_find(fo, path, &f, &err) == 0, "%s: %s", path,
		      err.msg);
	ck_assert_int_eq(f.src, BB_FIELD_KERNEL_BTF);
	ck_assert_msg(f.offset == off && f.size == size,
		      "%s: barebpf %u+%u, pahole %u+%u", path, f.offset,
		      f.size, off, size);
}

#define STEPS(...) ((const char *const[]){ __VA_ARGS__, NULL })

START_TEST(test_against_pahole)
{
	struct bb_err err = { "" };
	struct bb_fieldoff fo;
	struct bb_field f;
	struct timespec t0;
	double first, again;

	unsetenv("BAREBPF_FIELDS");
	fieldoff_init(&fo, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(fieldoff_find(&fo, "rq.nr_running", &f, &err), 0);
	first = ms_since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(fieldoff_find(&fo, "task_struct.se", &f, &err), 0);
	again = ms_since(&t0);
	fprintf(stderr, "fieldoff: first lookup %.2f ms (reading and "
		"indexing %s: %.2f ms), next lookup %.2f ms\n", first,
		BB_KERNEL_BTF, fo.btf_ms, again);

	check(&fo, "rq.nr_running", STEPS("rq", "nr_running"));
	check(&fo, "task_struct.pid", STEPS("task_struct", "pid"));
	check(&fo, "task_struct.comm", STEPS("task_struct", "comm"));
	check(&fo, "task_struct.se.cfs_rq",
	      STEPS("task_struct", "se", "sched_entity", "cfs_rq"));
	check(&fo, "sock.__sk_common.skc_dport",
	      STEPS("sock", "__sk_common", "sock_common", "skc_dport"));
	check(&fo, "sock_common.skc_state", STEPS("sock_common", "skc_state"));
	check(&fo, "dentry.d_name.name",
	      STEPS("dentry", "d_name", "qstr", "name"));
	check(&fo, "qstr.len", STEPS("qstr", "len"));

	ck_assert_int_eq(fieldoff_find(&fo, "sock_common.skc_reuse", &f,
				       &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "bitfield"));
	ck_assert_int_eq(fieldoff_find(&fo, "rq.no_such_field", &f, &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "no member 'no_such_field'"));
	fieldoff_close(&fo);
}
END_TEST

static Suite *fieldoff_btf_suite(void)
{
	Suite *s = suite_create("fieldoff_btf");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_against_pahole);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(fieldoff_btf, fieldoff_btf_suite, need_btf_pahole)
