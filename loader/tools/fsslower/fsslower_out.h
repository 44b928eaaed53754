/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_FSSLOWER_OUT_H
#define BAREBPF_FSSLOWER_OUT_H

#include <stdio.h>
#include "../../../bpf/fsslower.h"

/*
 * fsslower's lines (fsslower.c), for the unit tests: bcc's ext4slower
 * columns TIME COMM PID T BYTES OFF_KB LAT(ms) FILENAME, or a JSON line
 * (hms: the TIME). The file name is bytes, escaped as every string.
 */
void fsslower_print_header(FILE *f);
void fsslower_print(FILE *f, const struct fss_event *e, const char *hms,
		    int json);
/* 'R', 'W', 'O', 'S' of op; '?' beyond */
char fsslower_op_char(unsigned op);
/* "read", "write", "open", "fsync" (fsdist's sections) */
const char *fsslower_op_name(unsigned op);
/* fsdist's too: kprobes, the functions of s->fs, fsslower_start; -1
 * after saying why. */
struct tool_ctx;
struct fsslower_settings;
struct bb_perfbuf;
int fsslower_run_start(struct tool_ctx *t, struct fsslower_settings *s,
		       struct bb_perfbuf **pb);

#endif
