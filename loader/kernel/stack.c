/* SPDX-License-Identifier: MIT */
/*
 * Kernel stacks from a BPF_MAP_TYPE_STACK_TRACE map (bpf_get_stackid: 4.15
 * has no bpf_get_stack). The command line prints them (cli/output.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"
#include "kernel.h"

int stack_read(int map_fd, int stackid, uint64_t *ips, int max)
{
	int ret, n;

	if (stackid < 0)
		return stackid; /* -EFAULT, -EEXIST (collision) ... from BPF */
	for (n = 0; n < max; n++)
		ips[n] = 0;
	ret = bpf_map_lookup_elem(map_fd, &stackid, ips);
	if (ret < 0)
		return ret;
	for (n = 0; n < max && ips[n]; n++)
		;
	return n;
}

int stack_add_entry_ret(uint64_t *ips, int n, int max, uint64_t ret)
{
	int i;

	if (n < 1 || !ret || (n > 1 && ips[1] == ret) || max < 2)
		return n;
	if (n == max)
		n--; /* the outermost frame goes */
	for (i = n; i > 1; i--)
		ips[i] = ips[i - 1];
	ips[1] = ret;
	return n + 1;
}

int stack_map_clear(int map_fd, uint32_t max_entries)
{
	uint32_t id, n = 1;
	int cleared = 0;

	/* ids are bucket indexes, max_entries rounded up to a power of two;
	 * get_next_key only walks stack maps since 4.17: delete them all */
	while (n < max_entries && n < (1u << 31))
		n <<= 1;
	for (id = 0; id < n; id++)
		cleared += bpf_map_delete_elem(map_fd, &id) == 0;
	return cleared;
}
