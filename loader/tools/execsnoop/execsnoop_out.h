/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_EXECSNOOP_OUT_H
#define BAREBPF_EXECSNOOP_OUT_H

#include <stdio.h>
#include "../../../bpf/execsnoop.h"

/*
 * execsnoop's record, printed (loader/tools/execsnoop/execsnoop.c), for
 * the unit tests. The mask says which of the optional columns are shown:
 * -T (TIME), -t (TIME(s)), -U (UID). What the line shows besides the
 * record: the clock, the parent and where it came from (NULL: unknown),
 * the number of arguments read (at most EXECSNOOP_MAXARGS) and -q.
 */
enum { EXECSNOOP_COL_TIME = 1, EXECSNOOP_COL_TS, EXECSNOOP_COL_UID };
struct execsnoop_line {
	const char *hms;  /* "HH:MM:SS" */
	double ts;        /* seconds since the start */
	unsigned int ppid;
	const char *from; /* "fork", "proc", or NULL: unknown */
	unsigned int nargs;
	int quote;
};
void execsnoop_print_header(FILE *f, unsigned mask);
void execsnoop_print(FILE *f, const struct execsnoop_event *e,
		     const struct execsnoop_line *l, unsigned mask, int json);
/* bcc's ARGS: the arguments joined by spaces, each escaped as every
 * string is (output.h: '\n' as "\n", '\\' as "\\\\", ...), quoted with quote
 * ('"' as "\\\""), "..." after them if there were more. At most
 * EXECSNOOP_LINE bytes with its NUL. */
#define EXECSNOOP_LINE (EXECSNOOP_MAXARGS * (4 * EXECSNOOP_ARGSIZE + 3) + 8)
void execsnoop_args_text(const struct execsnoop_event *e, unsigned n,
			 int quote, char *out, size_t len);

#endif
