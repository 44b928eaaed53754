/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_DRSNOOP_OUT_H
#define BAREBPF_DRSNOOP_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/drsnoop.h"

/*
 * drsnoop's lines (loader/tools/drsnoop/drsnoop.c), for the unit tests: bcc's
 * columns ([TIME(s)] [UID] COMM PID|TID LAT(ms) PAGES [FREE(KB)]) chosen
 * by the DRSNOOP_COL_* bits of mask, or a JSON line with all of them.
 * first_ts: the ts of the first record (TIME(s) counts from it);
 * page_kb: KiB per page.
 */
enum { DRSNOOP_COL_TIME = 1, DRSNOOP_COL_UID, DRSNOOP_COL_PID,
       DRSNOOP_COL_TID, DRSNOOP_COL_FREE };
void drsnoop_print_header(FILE *f, unsigned mask);
void drsnoop_print(FILE *f, const struct drsnoop_event *e, uint64_t first_ts,
		   unsigned page_kb, unsigned mask, int json);
/* The address of symbol `name` in text of /proc/kallsyms's format; 0 if
 * none. */
uint64_t drsnoop_ksym_addr(const char *text, const char *name);

#endif
