/* SPDX-License-Identifier: MIT */
/*
 * The output layer of the command line (output.c): histograms, stacks and
 * JSON strings as bcc prints them, or as JSON. The library (barebpf.h)
 * returns data; only the command line prints, through these.
 */
#ifndef BAREBPF_OUTPUT_H
#define BAREBPF_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"

/* bcc's print_log2_hist: "     usecs  : count    distribution". */
void hist_print_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* {"unit":"usecs","buckets":[{"lo":0,"hi":1,"count":3},...]} */
void hist_json_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* JSON string with escapes. */
void json_str(FILE *f, const char *s);

/* One frame a line, "<indent>func+0x1a [kernel]", as bcc's trace -K. */
void stack_print_kernel(FILE *f, const struct bb_ksyms *ks,
			const uint64_t *ips, int n, const char *indent);
/* ["func+0x1a", ...] */
void stack_json_kernel(FILE *f, const struct bb_ksyms *ks,
		       const uint64_t *ips, int n);

/* bcc's text: "func+0x7 [libc.so.6]", "[unknown] [lib.so]", "[unknown]". */
void usym_format(char *buf, size_t len, const struct bb_usym *s);
/* One frame a line, as bcc's trace -U; and a JSON array of the same. */
void stack_print_user(FILE *f, struct bb_usyms *u, int pid,
		      const uint64_t *ips, int n, const char *indent);
void stack_json_user(FILE *f, struct bb_usyms *u, int pid,
		     const uint64_t *ips, int n);

#endif
