/* SPDX-License-Identifier: MIT */
/*
 * Kernel stacks from a BPF_MAP_TYPE_STACK_TRACE map (bpf_get_stackid: 4.15
 * has no bpf_get_stack), printed as bcc's trace -K prints them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"

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

void stack_print_kernel(FILE *f, const struct bb_ksyms *ks,
			const uint64_t *ips, int n, const char *indent)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct bb_ksym *s = ks ? ksyms_find(ks, ips[i], NULL) : NULL;
		uint64_t off = s ? ips[i] - s->addr : 0;

		if (s)
			fprintf(f, "%s%s+0x%llx [kernel]\n", indent, s->name,
				(unsigned long long)off);
		else
			fprintf(f, "%s0x%llx [unknown]\n", indent,
				(unsigned long long)ips[i]);
	}
}

void stack_json_kernel(FILE *f, const struct bb_ksyms *ks,
		       const uint64_t *ips, int n)
{
	char buf[300];
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		const struct bb_ksym *s = ks ? ksyms_find(ks, ips[i], NULL) : NULL;

		if (s)
			snprintf(buf, sizeof(buf), "%s+0x%llx", s->name,
				 (unsigned long long)(ips[i] - s->addr));
		else
			snprintf(buf, sizeof(buf), "0x%llx",
				 (unsigned long long)ips[i]);
		if (i)
			fputc(',', f);
		json_str(f, buf);
	}
	fputc(']', f);
}
