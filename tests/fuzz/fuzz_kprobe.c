/* SPDX-License-Identifier: MIT */
/*
 * What barebpf reads back from tracefs about kprobes (kprobe.c): lines of
 * kprobe_events (whose probes are ours, of which process) and of
 * kprobe_profile (hits, misses), and the function list of
 * available_filter_functions matched against glob patterns.
 */
#include <fnmatch.h>
#include "fuzz.h"
#include "barebpf.h"
#include "probe.h"

static void one_line(const char *line)
{
	unsigned long ns, hits, misses;
	char event[160];
	int pid;

	pid = kprobe_events_line_owner(line, event, sizeof(event), &ns);
	if (pid >= 0)
		FUZZ_ASSERT(strchr(event, '/'));
	if (pid > 0)
		FUZZ_ASSERT(!strncmp(event, "barebpf_", 8));
	if (kprobe_profile_line(line, event, sizeof(event), &hits,
				&misses) == 0)
		FUZZ_ASSERT(event[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const patterns[] = { "*", "blk_*", "vfs_rea?" };
	char *text = fuzz_str(data, size);
	size_t p;
	int i, n;

	for (p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
		char **names;

		n = kprobe_match_text(text, patterns[p], &names);
		FUZZ_ASSERT(n >= 0);
		/* sorted, unique, each a match */
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(!fnmatch(patterns[p], names[i], 0));
			if (i)
				FUZZ_ASSERT(strcmp(names[i - 1], names[i]) < 0);
		}
		bb_free_strv(names, n);
	}
	fuzz_lines(text, one_line);
	free(text);
	return 0;
}
