/* SPDX-License-Identifier: MIT */
/*
 * Lines of /proc and /sys: /proc/PID/maps (usym.c) and CPU lists such as
 * /sys/devices/system/cpu/possible (cpus.c), each line through both.
 */
#include "fuzz.h"
#include "barebpf.h"
#include "user.h"

static void one_line(const char *line)
{
	struct bb_maps_line m;
	int n;

	if (usym_parse_maps_line(line, &m) == 0) {
		FUZZ_ASSERT(m.start <= m.end);
		FUZZ_ASSERT(m.path >= line && m.path <= line + strlen(line));
	}
	n = bb_parse_cpu_list(line);
	FUZZ_ASSERT(n != 0);
	FUZZ_ASSERT(n <= BB_MAX_CPUS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);

	fuzz_lines(text, one_line);
	free(text);
	return 0;
}
