/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

const char *bb_elf_strerror(int err)
{
	if (err == -ENOEXEC)
		return "not an ELF program or library";
	if (err == -EBADMSG)
		return "a damaged ELF file: its headers, tables or notes lie "
		       "past the end of the file or contradict each other; "
		       "truncated?";
	return strerror(-err);
}
