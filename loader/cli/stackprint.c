/* SPDX-License-Identifier: MIT */
/*
 * Stacks as bcc's profile.py and offcputime.py print them (stackcount.h),
 * from frames already named: pure, no map read here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "stackcount.h"
#include "flamegraph.h"

/* Append raw text to out at *at; -ENOSPC if it does not fit whole. */
static int put_raw(char *out, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + n + 1 > len)
		return -ENOSPC;
	memcpy(out + *at, s, n + 1);
	*at += n;
	return 0;
}

/* Append ";" (unless first), the frame escaped, then suffix. */
static int put_frame(char *out, size_t len, size_t *at, const char *name,
		     const char *suffix, int first)
{
	char buf[1024];

	fold_frame(buf, sizeof(buf), name);
	if (!first && put_raw(out, len, at, ";") < 0)
		return -ENOSPC;
	if (put_raw(out, len, at, buf) < 0)
		return -ENOSPC;
	return put_raw(out, len, at, suffix);
}

int stackcount_fold(char *out, size_t len, const char *comm,
		    int want_u, int uid, const char *const *unames, int un,
		    int want_k, int kid, const char *const *knames, int kn,
		    int delimited, uint64_t count)
{
	size_t at = 0;
	int i, ret = 0;
	char num[32];

	if (!len)
		return -ENOSPC;
	*out = 0;
	ret |= put_frame(out, len, &at, comm, "", 1);
	if (want_u && stackcount_stack_err(uid))
		ret |= put_raw(out, len, &at, ";[Missed User Stack]");
	else if (want_u)
		for (i = un - 1; i >= 0; i--)
			ret |= put_frame(out, len, &at, unames[i], "", 0);
	if (want_k && want_u && delimited && uid >= 0 && kid >= 0)
		ret |= put_raw(out, len, &at, ";-");
	if (want_k && stackcount_stack_err(kid))
		ret |= put_raw(out, len, &at, ";[Missed Kernel Stack]");
	else if (want_k)
		for (i = kn - 1; i >= 0; i--)
			ret |= put_frame(out, len, &at, knames[i], "_[k]", 0);
	snprintf(num, sizeof(num), " %llu", (unsigned long long)count);
	ret |= put_raw(out, len, &at, num);
	return ret ? -ENOSPC : (int)at;
}
