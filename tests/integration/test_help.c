/* SPDX-License-Identifier: MIT */
/*
 * What --help says (issue 32 items 13, 14): the kernel floor comes from
 * one place (loader/cli/facts.h), and no help names another; the README
 * agrees; user-space probes, USDT and every BAREBPF_* variable the code
 * reads are documented at the top level and in the README; features
 * reports uprobes, perf sampling and BTF and has examples. Runs the
 * binary (no root needed), from the source tree (make test's cwd).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "facts.h"
#include "util.h"

static char out[1 << 17], err[4096];

/* The help of tool (NULL: the top level), its blanks and line breaks
 * folded to one space. */
static const char *help_of(const char *tool)
{
	char *argv[] = { (char *)barebpf(), (char *)(tool ? tool : "--help"),
			 "--help", NULL };
	char *p, *q;
	int rc;

	if (!tool)
		argv[2] = NULL;
	rc = run(argv, out, sizeof(out), err, sizeof(err));
	ck_assert_msg(rc == 0 && strlen(out) > 100, "%s --help: exit %d: %s",
		      tool ? tool : "", rc, err);
	for (p = q = out; *p; p++)
		if (*p == ' ' || *p == '\n' || *p == '\t') {
			if (q > out && q[-1] != ' ')
				*q++ = ' ';
		} else {
			*q++ = *p;
		}
	*q = 0;
	return out;
}

/* Every "Linux X.Y and later", "from Linux X.Y on", "X.Y on;" in text
 * names BB_FLOOR or BB_FLOOR_ALL. Returns how many floors it names. */
static int check_floors(const char *name, const char *text)
{
	static const char *const pats[] = {
		"Linux ([0-9]+\\.[0-9]+) and later",
		"from Linux ([0-9]+\\.[0-9]+) on",
		"Linux ([0-9]+\\.[0-9]+)\\+",
	};
	int i, n = 0;

	for (i = 0; i < 3; i++) {
		const char *s = text;
		regmatch_t m[2];
		regex_t re;

		ck_assert_int_eq(regcomp(&re, pats[i], REG_EXTENDED), 0);
		while (!regexec(&re, s, 2, m, 0)) {
			char v[16];
			int len = (int)(m[1].rm_eo - m[1].rm_so);

			snprintf(v, sizeof(v), "%.*s", len, s + m[1].rm_so);
			ck_assert_msg(!strcmp(v, BB_FLOOR) ||
				      !strcmp(v, BB_FLOOR_ALL),
				      "%s names the floor %s, not " BB_FLOOR
				      " (facts.h)", name, v);
			n++;
			s += m[0].rm_eo;
		}
		regfree(&re);
	}
	return n;
}

static char *read_readme(void)
{
	static char buf[1 << 20];
	FILE *f = fopen("README.md", "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* The variables the code reads: "BAREBPF_..." in loader/'s sources. */
static int env_names(char names[16][40])
{
	char list[2048], *p, *save = NULL;
	int n = 0;

	ck_assert_int_eq(sh("grep -rhoE '\"BAREBPF_[A-Z_]+' loader "
			    "--include='*.c' | sort -u", list, sizeof(list)), 0);
	for (p = strtok_r(list, "\n", &save); p && n < 16;
	     p = strtok_r(NULL, "\n", &save))
		snprintf(names[n++], 40, "%s", p + 1);
	return n;
}

START_TEST(test_floor_one_source)
{
	char list[1024], *tool, *save = NULL;
	const char *readme;
	int floors;

	floors = check_floors("barebpf --help", help_of(NULL));
	ck_assert_msg(floors > 0 && strstr(out, "Linux " BB_FLOOR " and later"),
		      "the top-level help names no floor: %s", out);
	{
		char *argv[] = { (char *)barebpf(), "--list-tools", NULL };

		ck_assert_int_eq(run(argv, list, sizeof(list), err,
				     sizeof(err)), 0);
	}
	for (tool = strtok_r(list, "\n", &save); tool;
	     tool = strtok_r(NULL, "\n", &save))
		floors += check_floors(tool, help_of(tool));
	/* biolatency, biosnoop, execsnoop, opensnoop and the top level */
	ck_assert_int_ge(floors, 5);

	readme = read_readme();
	if (!readme)
		return; /* not run from the source tree */
	ck_assert_msg(strstr(readme, "kernels from **" BB_FLOOR "** on") &&
		      strstr(readme, "every tool from " BB_FLOOR_ALL) &&
		      strstr(readme, "| " BB_FLOOR " (the floor) |"),
		      "README.md does not name the floor of facts.h ("
		      BB_FLOOR ", every tool " BB_FLOOR_ALL ")");
}
END_TEST

START_TEST(test_user_probes_and_env)
{
	char names[16][40];
	const char *readme = read_readme();
	char top[8192];
	int i, n = env_names(names);

	snprintf(top, sizeof(top), "%s", help_of(NULL));
	ck_assert_msg(strstr(top, "uprobes") && strstr(top, "USDT"),
		      "the top-level help does not mention user-space probes "
		      "and USDT: %s", top);
	ck_assert_int_ge(n, 5);
	for (i = 0; i < n; i++) {
		ck_assert_msg(strstr(top, names[i]), "barebpf --help does not "
			      "document %s", names[i]);
		ck_assert_msg(!readme || strstr(readme, names[i]),
			      "README.md does not document %s", names[i]);
	}
	ck_assert_msg(strstr(help_of("trace"), "u:LIB:PROBE"),
		      "trace --help lists no USDT probe");
	ck_assert_msg(strstr(help_of("funccount"), "user-space") &&
		      strstr(out, "LIB:FUNC"), "funccount --help");
	ck_assert_msg(strstr(help_of("funclatency"), "user-space") &&
		      strstr(out, "LIB:FUNC"), "funclatency --help");
	ck_assert_msg(strstr(help_of("run"), "uprobe/<path>:<function>"),
		      "run --help lists no uprobe/ section");
	ck_assert_msg(strstr(help_of("features"), "examples:") &&
		      strstr(out, "uprobe") && strstr(out, "BTF"),
		      "features --help");
	if (readme)
		ck_assert_msg(strstr(readme, "| `-d` is | in |"),
			      "README.md has no table of what -d means");
}
END_TEST

/* features says what it found of uprobes, perf sampling and BTF, in text
 * and JSON, as this kernel has them. */
START_TEST(test_features_reports)
{
	char *text[] = { (char *)barebpf(), "features", NULL };
	char *json[] = { (char *)barebpf(), "features", "-j", NULL };
	FILE *f;
	int btf;

	if (geteuid()) {
		printf("SKIP: features needs root (bpf(), tracefs)\n");
		return;
	}
	ck_assert_int_eq(run(text, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(out, "\nuprobes: ") && strstr(out, "\nuprobe PMU: ")
		      && strstr(out, "\nperf sampling: ") &&
		      strstr(out, "\nBTF: "), "%s", out);
	f = fopen("/sys/kernel/btf/vmlinux", "r");
	btf = f != NULL;
	if (f)
		fclose(f);
	ck_assert_msg(strstr(out, btf ? "\nBTF:                 yes" :
				   "\nBTF:                 no"), "%s", out);
	ck_assert_int_eq(run(json, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(out, "\"uprobes\":") &&
		      strstr(out, "\"uprobe_pmu\":") &&
		      strstr(out, "\"perf_sampling\":") &&
		      strstr(out, btf ? "\"btf\":true" : "\"btf\":false"),
		      "%s", out);
}
END_TEST

static Suite *help_suite(void)
{
	Suite *s = suite_create("help");
	TCase *tc = tcase_create("help");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_floor_one_source);
	tcase_add_test(tc, test_user_probes_and_env);
	tcase_add_test(tc, test_features_reports);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(help, help_suite, NULL)
