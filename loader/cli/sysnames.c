/* SPDX-License-Identifier: MIT */
/* System call names by number: the table of $(O)/gen/sysnr.h. */
#include <errno.h>
#include <string.h>
#include "sysnames.h"
#define SYSNR_NAMES
#include "sysnr.h"

int sysnames_find(const char *table, int count, const char *call)
{
	const char *e = table, *w;
	size_t len = strlen(call);
	int nr;

	if (!len) /* not the "" of a number without a call */
		return -ENOENT;
	for (nr = 0; nr < count; nr++, e += strlen(e) + 1)
		for (w = e; *w; w += strcspn(w, " "), w += *w == ' ')
			if (!strncmp(w, call, len) &&
			    (w[len] == ' ' || !w[len]))
				return nr;
	return -ENOENT;
}

int sysnames_at(const char *table, int count, long nr, char *buf,
		size_t len)
{
	const char *e = table;
	size_t n;
	long i;

	if (len)
		buf[0] = 0;
	if (nr < 0 || nr >= count)
		return -ENOENT;
	for (i = 0; i < nr; i++)
		e += strlen(e) + 1;
	n = strcspn(e, " ");
	if (!n)
		return -ENOENT;
	if (len) {
		if (n >= len)
			n = len - 1;
		memcpy(buf, e, n);
		buf[n] = 0;
	}
	return 0;
}

int sysnames_count(void)
{
	return SYSNR_COUNT;
}

int sysnames_number(const char *call)
{
	return sysnames_find(sysnr_names, SYSNR_COUNT, call);
}

int sysnames_name(long nr, char *buf, size_t len)
{
	return sysnames_at(sysnr_names, SYSNR_COUNT, nr, buf, len);
}
