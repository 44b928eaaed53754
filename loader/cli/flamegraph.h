/* SPDX-License-Identifier: MIT */
/*
 * Flame graphs (flamegraph.c): stacks merged into a tree, written as a
 * self-contained interactive SVG with the look and behaviour of Brendan
 * Gregg's flamegraph.pl (frames sized by count, details on hover, click
 * to zoom, search with Ctrl-F), its script and style inside: no Perl, no
 * network. And the folded lines ("comm;frame;frame count") it is made from.
 * Pure code: no kernel, no files but the FILE given.
 */
#ifndef BAREBPF_FLAMEGRAPH_H
#define BAREBPF_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fg;
int fg_new(struct fg **gp);
/* Add count to the stack frames[0..n-1], root first. 0 or -ENOMEM. */
int fg_add(struct fg *g, const char *const *frames, int n, uint64_t count);
/* The same from a folded line "a;b;c 123" (-EINVAL: no count). */
int fg_add_folded(struct fg *g, const char *line);
/* The SVG; unit names the counts ("samples", "us"). -EIO if f failed. */
int fg_svg(const struct fg *g, FILE *f, const char *title, const char *unit);
void fg_free(struct fg *g);

/*
 * A frame name made safe for a folded line, into out (len bytes,
 * NUL-terminated): escaped as output.h's text (controls and bytes that
 * are not UTF-8 as \xNN) and ';' (the separator) as ':'; blanks stay, as
 * in bcc's (the count is after the last one). Returns the length written.
 */
size_t fold_frame(char *out, size_t len, const char *name);
/* Text for XML: escaped as output.h's text (esc_text_again: the frames
 * come from folded lines, escaped already), then & < > " ' as entities. */
size_t fg_xml_esc(char *out, size_t len, const char *s);

#endif
