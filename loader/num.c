/* SPDX-License-Identifier: MIT */
/*
 * Decimal numbers without strtod: in musl, strtod brings __floatscan and
 * decfloat (and on aarch64 the long double soft-float they use): 8 KiB
 * of x86_64's binary, 12 KiB of aarch64's (issue 7). What we parse is
 * short: option values ("0.5", "1e-3") and our own printf output.
 */
#include <errno.h>
#include <float.h>
#include "barebpf.h"

/* 10^k, exact for k <= 22 (each product is representable) */
static double pow10_exact(int k)
{
	double p = 1;

	while (k-- > 0)
		p *= 10;
	return p;
}

int bb_parse_double(const char *s, const char **end, double *v)
{
	const char *p = s;
	uint64_t m = 0;
	int neg = 0, digits = 0, dot = 0, e = 0, exact = 1;
	double x;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (;; p++) {
		if (*p == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		digits++;
		if (m < 1000000000000000000ULL) {
			m = m * 10 + (*p - '0');
			e -= dot;
		} else {
			/* a 20th significant digit: dropped */
			exact &= *p == '0';
			e += !dot;
		}
		if (e < -100000 || e > 100000)
			return -EINVAL;
	}
	if (!digits)
		return -EINVAL;
	if ((*p == 'e' || *p == 'E') &&
	    ((p[1] >= '0' && p[1] <= '9') ||
	     ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9'))) {
		int xneg = *++p == '-', xe = 0;

		if (*p == '+' || *p == '-')
			p++;
		for (; *p >= '0' && *p <= '9'; p++)
			if (xe < 100000)
				xe = xe * 10 + (*p - '0');
		e += xneg ? -xe : xe;
	}
	*end = p;
	/* Clinger's fast path: m and 10^|e| exact doubles, so that one
	 * multiplication or division rounds correctly; beyond it, steps of
	 * 10^22 (a relative error of about 1e-15 a step) */
	if (m >= 1ULL << 53 || e < -22 || e > 22)
		exact = 0;
	x = (double)m;
	for (; m && e > 22 && x <= DBL_MAX; e -= 22)
		x *= 1e22;
	for (; m && e < -22 && x > 0; e += 22)
		x /= 1e22;
	if (m)
		x = e < 0 ? x / pow10_exact(-e) : x * pow10_exact(e);
	*v = neg ? -x : x;
	return exact;
}
