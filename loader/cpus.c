/* SPDX-License-Identifier: MIT */
/* CPU lists ("0-3,8"), and how many CPUs this system may have. */
#include <errno.h>
#include "barebpf.h"

/* One CPU number, below BB_MAX_CPUS: no sign, no blanks (strtol took
 * both, and "2147483647" made the count overflow). */
static int parse_cpu(const char **sp, int *cpu)
{
	const char *s = *sp;
	int n = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (*s - '0');
		if (n >= BB_MAX_CPUS)
			return -ERANGE;
	}
	*sp = s;
	*cpu = n;
	return 0;
}

int bb_parse_cpu_list(const char *s)
{
	int hi = -1, a, b, ret;

	while (*s && *s != '\n') {
		ret = parse_cpu(&s, &a);
		if (ret < 0)
			return ret;
		b = a;
		if (*s == '-') {
			s++;
			ret = parse_cpu(&s, &b);
			if (ret < 0)
				return ret;
			if (b < a)
				return -EINVAL;
		}
		if (b > hi)
			hi = b;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return hi < 0 ? -EINVAL : hi + 1;
}

int bb_ncpus_possible(void)
{
	char buf[256];
	int n = bb_read_small("/sys/devices/system/cpu/possible", buf,
			      sizeof(buf));

	if (n <= 0)
		return n < 0 ? n : -EIO;
	return bb_parse_cpu_list(buf);
}
