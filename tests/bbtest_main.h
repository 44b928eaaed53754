/* SPDX-License-Identifier: MIT */
/* The runner main, included once by tests/unit/main.c and
 * tests/integration/main.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"

#define BBTEST_MAX 64

static struct {
	const char *name;
	bbtest_suite_fn fn;
	bbtest_requires_fn requires;
} bbtests[BBTEST_MAX];
static int bbtest_count;

void bbtest_register(const char *name, bbtest_suite_fn fn,
		     bbtest_requires_fn requires)
{
	if (bbtest_count == BBTEST_MAX) {
		fprintf(stderr, "bbtest: too many suites, raise BBTEST_MAX\n");
		exit(2);
	}
	bbtests[bbtest_count].name = name;
	bbtests[bbtest_count].fn = fn;
	bbtests[bbtest_count].requires = requires;
	bbtest_count++;
}

/* usage: runner [suite-name...] runs only those suites */
int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int i, j, skipped = 0, ran = 0, failed;

	for (i = 0; i < bbtest_count; i++) {
		const char *why;
		int wanted = argc < 2;

		for (j = 1; j < argc; j++)
			wanted |= !strcmp(argv[j], bbtests[i].name);
		if (!wanted)
			continue;
		why = bbtests[i].requires ? bbtests[i].requires() : NULL;
		if (why) {
			printf("SKIP %s: %s\n", bbtests[i].name, why);
			skipped++;
			continue;
		}
		if (!sr)
			sr = srunner_create(bbtests[i].fn());
		else
			srunner_add_suite(sr, bbtests[i].fn());
		ran++;
	}
	if (!sr) {
		printf("no suite ran (%d skipped)\n", skipped);
		return skipped ? 0 : 1;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (skipped)
		printf("%d suite(s) skipped, see SKIP lines above\n", skipped);
	return failed ? 1 : 0;
}
