/* SPDX-License-Identifier: MIT */
/*
 * The output layer of the command line (output.c): histograms, stacks and
 * JSON strings as bcc prints them, or as JSON. The library (barebpf.h and
 * its folders' headers) returns data; only the command line prints,
 * through these.
 */
#ifndef BAREBPF_OUTPUT_H
#define BAREBPF_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"
#include "kernel.h"
#include "user.h"

/* bcc's print_log2_hist: "     usecs  : count    distribution". */
void hist_print_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* {"unit":"usecs","buckets":[{"lo":0,"hi":1,"count":3},...]} */
void hist_json_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* bcc's print_linear_hist: "     runqlen       : count     distribution",
 * then "        0          : 12       |****|" for 0 up to the last value
 * counted (none: nothing). */
void hist_print_linear(FILE *f, const uint64_t *vals, int n,
		       const char *label);
/* [{"<label>":0,"count":12},...]: the values counted */
void hist_json_linear(FILE *f, const uint64_t *vals, int n,
		      const char *label);
/*
 * Every string that came from the kernel or a process (comm, paths,
 * arguments, symbol names, printk lines) is printed through these, in
 * every tool, so that it can neither forge a line nor reach the terminal
 * as a control sequence, and so that -j stays valid UTF-8:
 *
 * text: valid UTF-8 as it is, but a newline as \n, a tab as \t, and
 *   every other control (C0, DEL, C1 as U+0080..U+009F) and every byte
 *   that is not part of valid UTF-8 (overlong forms, surrogates, cut
 *   sequences, 0xf5..0xff) as \xNN, byte by byte; a backslash as \\ (so
 *   that the two characters "\n" cannot pass for an escaped newline; bcc
 *   prints it raw), and the bidirectional controls (U+061C, U+200E,
 *   U+200F, U+202A..U+202E, U+2066..U+2069, which make a terminal reorder
 *   what it shows: "Trojan Source") by code point, as \u{202e}.
 * JSON: a string of valid UTF-8: \" \\ \n \t, other controls as
 *   \u00NN, and each byte that is not valid UTF-8 as \u00NN, the code
 *   point of the same number (Latin-1's reading of it: 0xff is "\u00ff");
 *   the bidirectional controls as \u202e (the same string to a parser,
 *   and nothing reordered on a terminal that shows the line).
 *
 * Both stop at a NUL (or after n bytes).
 */
/* Escaped into out (len bytes, NUL-terminated; an escape that does not
 * fit is left out whole). Returns the length written. */
size_t esc_text(char *out, size_t len, const char *s, size_t n);
/* The same for text escaped already (a folded line's frames): a backslash
 * stays, so that its escapes are not doubled; what is still raw is
 * escaped. */
size_t esc_text_again(char *out, size_t len, const char *s, size_t n);
void out_text(FILE *f, const char *s);
void out_textn(FILE *f, const char *s, size_t n);
/* Escaped (at most 1023 bytes of it), then padded as printf's "%*s". */
void out_col(FILE *f, const char *s, int width);
void json_str(FILE *f, const char *s);
void json_strn(FILE *f, const char *s, size_t n);

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

/* Seconds from start to ts, two kernel ns timestamps (bpf_ktime_get_ns);
 * negative where ts is earlier (records of several CPUs in a ring). */
static inline double out_secs_since(uint64_t ts, uint64_t start)
{
	return (double)(int64_t)(ts - start) / 1e9;
}

#endif
