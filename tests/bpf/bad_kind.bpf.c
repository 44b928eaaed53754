/* SPDX-License-Identifier: MIT */
/*
 * Bad: a program of a kind barebpf run does not run. The section name is a
 * placeholder that tests/unit/test_objkinds.c overwrites in a copy of the
 * object with socket, uprobe/..., cgroup/..., perf_event and the others
 * (no shorter name is a prefix of it that barebpf knows).
 */
#include "bb_helpers.h"

SEC("zz_placeholder_section_name_for_the_kind_tests")
int other_kind(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
