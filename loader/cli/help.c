/* SPDX-License-Identifier: MIT */
/*
 * The tools' --help texts. Each is a text file beside its tool
 * (loader/tools/.../NAME.help); the build joins them into one blob, each
 * text after a line "\001NAME", and compresses it with the BPF objects'
 * lz (Makefile: $(O)/gen/help.txt): about 104 KB of text take 27 KB of
 * the binary, the texts repeating each other's options and phrases.
 * Decoded only when a text is asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj.h"
#include "tool.h"

extern const unsigned char bb_help_lz[], bb_help_lz_end[];

char *tool_help_blob(size_t *len)
{
	size_t n = (size_t)(bb_help_lz_end - bb_help_lz);
	long size = lz_size(bb_help_lz, n);
	char *buf;

	if (size < 0 || !(buf = malloc((size_t)size + 1)))
		return NULL;
	if (lz_decode(buf, (size_t)size, bb_help_lz, n) != size) {
		free(buf);
		return NULL;
	}
	buf[size] = 0;
	*len = (size_t)size;
	return buf;
}

const char *tool_help_find(const char *blob, size_t len, const char *name,
			   size_t *text_len)
{
	size_t nl = strlen(name);
	const char *p = blob, *end = blob + len, *next;

	while (p < end && (p = memchr(p, '\001', (size_t)(end - p)))) {
		p++;
		if ((size_t)(end - p) > nl && !memcmp(p, name, nl) &&
		    p[nl] == '\n') {
			p += nl + 1;
			next = memchr(p, '\001', (size_t)(end - p));
			*text_len = (size_t)((next ? next : end) - p);
			return p;
		}
	}
	return NULL;
}

int tool_help(const char *name, FILE *f)
{
	size_t len, tl;
	char *blob = tool_help_blob(&len);
	const char *text;
	int ret = 0;

	if (!blob)
		return -ENOMEM;
	text = tool_help_find(blob, len, name, &tl);
	if (!text)
		ret = -ENOENT;
	else if (fwrite(text, 1, tl, f) != tl)
		ret = -EIO;
	free(blob);
	return ret;
}
