/* SPDX-License-Identifier: MIT */
/*
 * One description of a tool's record, for both of its outputs (outrec.c):
 * a table of typed fields, each with bcc's column header, width and
 * separator for the text, and its key for -j. The same table prints the
 * header, a text row, or a JSON line, so that the two cannot drift apart,
 * and every string in either goes through the one escaper (output.h).
 *
 * A field with no head is JSON-only, one with no key text-only: where
 * text and JSON differ (a column only with an option, LAT(ms) in text and
 * "lat_us" in JSON), the table holds one field of each. A field is shown
 * when its `when` bit is set in the mask the tool passes (0: always).
 * The values are an array in the table's order (v[i] for field i).
 */
#ifndef BAREBPF_OUTREC_H
#define BAREBPF_OUTREC_H

#include <stdint.h>
#include <stdio.h>

enum out_type {
	OUT_STR,  /* s: escaped; prec > 0 cuts it to prec bytes first */
	OUT_INT,  /* i */
	OUT_UINT, /* u */
	OUT_OCT,  /* u: text octal, zero-padded to prec digits; JSON decimal */
	OUT_DBL,  /* d: prec digits after the point in text, jprec in JSON */
	OUT_BOOL, /* u: JSON true/false (text: 1/0) */
	OUT_STRV, /* sv[0..n-1]: a JSON array (text: joined by spaces) */
	OUT_RAW,  /* s: as it is, in both: text the tool escaped itself, a
		   * number it formatted */
};

struct out_field {
	const char *head;    /* bcc's column header text; NULL: JSON only */
	const char *key;     /* JSON key; NULL: text only */
	unsigned char type;  /* enum out_type */
	signed char width;   /* text width, < 0 left-aligned, 0 as it comes */
	unsigned char prec, jprec;
	unsigned char nosep; /* no space after the column (bcc glues some) */
	unsigned char when;  /* shown with this bit of the mask; 0: always */
	const char *none;    /* text of a missing value (JSON null); NULL: "" */
};

struct out_val {
	union {
		const char *s;
		const char *const *sv;
		int64_t i;
		uint64_t u;
		double d;
	};
	uint32_t n;   /* OUT_STRV: how many strings */
	uint8_t none; /* missing: the field's `none` text, JSON null */
};

#define OUT_BIT(b) (1u << (b))

/* The header line: each shown column's head, as wide as its values. */
void out_head(FILE *f, const struct out_field *fl, int n, unsigned mask);
/* One record: a text row (json 0) or a JSON object, with its "\n". */
void out_row(FILE *f, const struct out_field *fl, int n, unsigned mask,
	     const struct out_val *v, int json);
/* The same without its end ("}\n" or "\n"), for a tool to add to it: a
 * JSON object's last keys (,"stack":[...]), text after the last column. */
void out_row_open(FILE *f, const struct out_field *fl, int n,
		  unsigned mask, const struct out_val *v, int json);

#endif
