/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_SYSCOUNT_OUT_H
#define BAREBPF_SYSCOUNT_OUT_H

#include <stdint.h>
#include <stdio.h>

/*
 * syscount's output (loader/tools/syscount/syscount.c), for the unit tests. A row:
 * a syscall number (a pid with -P, comm its process's) and what it gained
 * in the interval.
 */
struct syscount_row {
	uint32_t key;
	uint64_t count, ns;
	char comm[16];
};
enum { SYSCOUNT_BY_PROCESS = 1, SYSCOUNT_LATENCY = 2, SYSCOUNT_MS = 4 };
/* bcc's "[HH:MM:SS]", header, the first top rows of rows[0..n-1] (sorted
 * here: by count, by time with -L) and a blank line; or one JSON line. */
void syscount_print(FILE *f, struct syscount_row *rows, int n, int top,
		    unsigned flags, const char *hms, int json);
/* "-e": a number or a name (EPERM, ENOENT, ...): > 0, or -EINVAL. */
int syscount_errno(const char *s);

#endif
