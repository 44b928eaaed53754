/* SPDX-License-Identifier: MIT */
/* The verifier's log told in a sentence: why a program was refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "barebpf.h"
#include "obj.h"

/* The count in "Processed 131073 insn" (4.15+) or "processed 1000001
 * insns" (the summary line of 5.2+), or 0. */
static long processed_insns(const char *log)
{
	const char *p;

	for (p = log; p && (p = strcasestr(p, "processed ")); p++) {
		char *end;
		long n = strtol(p + 10, &end, 10);

		if (end != p + 10 && !strncmp(end, " insn", 5))
			return n;
	}
	return 0;
}

void bpf_verifier_explain(int err, const char *log, int truncated,
			  char *buf, size_t len)
{
	long n = log ? processed_insns(log) : 0;

	buf[0] = 0;
	if (err == -E2BIG && (n || !log || !strstr(log, "too large") ||
			      truncated)) {
		if (n && n <= 131073)
			snprintf(buf, len, "the verifier gave up after %ld "
				 "instructions (its limit before 5.2): simplify "
				 "the program (fewer paths it cannot prune), or "
				 "run on 5.2+ where the limit is 1M", n);
		else if (n)
			snprintf(buf, len, "the verifier gave up after %ld "
				 "instructions (its limit): simplify the "
				 "program (fewer paths it cannot prune)", n);
		else
			snprintf(buf, len, "the verifier gave up: it processed "
				 "more instructions than its limit (131072 "
				 "before 5.2, 1M since): simplify the program "
				 "(fewer paths it cannot prune)%s",
				 truncated ? "; the count is past the part "
					     "of the log the kernel kept" : "");
	} else if (err == -ENOSPC) {
		snprintf(buf, len, "the verifier log did not fit");
	}
	if (truncated && log) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, "%sthe verifier log did not fit: "
			 "shown is the %zu bytes the kernel kept", l ? "; " : "",
			 strlen(log));
	}
}
