/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_OPENSNOOP_OUT_H
#define BAREBPF_OPENSNOOP_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/opensnoop.h"

/*
 * opensnoop's record, printed (loader/tools/opensnoop/opensnoop.c), for
 * the unit tests. The mask says which of the optional columns are shown:
 * -T (TIME(s)), -U (UID), -e (FLAGS), and PID or (-t) TID. first_ts is the
 * ts of the first open printed: TIME(s) counts from it. e->fname is
 * NUL-terminated; e->comm need not be.
 */
enum {
	OPENSNOOP_COL_TIME = 1, OPENSNOOP_COL_UID, OPENSNOOP_COL_PID,
	OPENSNOOP_COL_TID, OPENSNOOP_COL_FLAGS,
};
void opensnoop_print_header(FILE *f, unsigned mask);
void opensnoop_print(FILE *f, const struct opensnoop_event *e,
		     uint64_t first_ts, unsigned mask, int json);

#endif
