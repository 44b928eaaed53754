/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include "barebpf.h"

int bb_fail(struct bb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}
