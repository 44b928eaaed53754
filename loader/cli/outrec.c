/* SPDX-License-Identifier: MIT */
/*
 * Text and JSON from one record description (outrec.h). The text is
 * printf's: a value is formatted, escaped if it is a string, then padded
 * to the column's width in bytes, as bcc's "%-16s" pads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "outrec.h"

static int shown(const struct out_field *fl, unsigned mask)
{
	return !fl->when || (mask & OUT_BIT(fl->when));
}

static void pad(FILE *f, const char *s, size_t len, int width)
{
	size_t w = width < 0 ? (size_t)-width : (size_t)width;

	if (width > 0)
		for (; len < w; w--)
			fputc(' ', f);
	fwrite(s, 1, len, f);
	if (width < 0)
		for (; len < w; w--)
			fputc(' ', f);
}

void out_head(FILE *f, const struct out_field *fl, int n, unsigned mask)
{
	int i;

	for (i = 0; i < n; i++, fl++) {
		if (!fl->head || !shown(fl, mask))
			continue;
		pad(f, fl->head, strlen(fl->head), fl->width);
		if (!fl->nosep)
			fputc(' ', f);
	}
	fputc('\n', f);
}

/* A value's text, before padding: into buf (len bytes); its length. */
static size_t text_val(char *buf, size_t len, const struct out_field *fl,
		       const struct out_val *v)
{
	size_t k = 0;
	uint32_t j;

	if (v->none)
		return snprintf(buf, len, "%s", fl->none ? fl->none : "");
	switch (fl->type) {
	case OUT_STR:
		return esc_text(buf, len, v->s, fl->prec ? fl->prec :
				strlen(v->s));
	case OUT_RAW:
		return snprintf(buf, len, "%s", v->s);
	case OUT_STRV:
		for (j = 0; j < v->n && k + 1 < len; j++) {
			if (j)
				buf[k++] = ' ';
			k += esc_text(buf + k, len - k, v->sv[j],
				      strlen(v->sv[j]));
		}
		buf[k] = 0;
		return k;
	case OUT_INT:
		return snprintf(buf, len, "%" PRId64, v->i);
	case OUT_OCT:
		return snprintf(buf, len, "%0*" PRIo64, fl->prec, v->u);
	case OUT_DBL:
		return snprintf(buf, len, "%.*f", fl->prec, v->d);
	default: /* OUT_UINT, OUT_BOOL */
		return snprintf(buf, len, "%" PRIu64, v->u);
	}
}

static void json_val(FILE *f, const struct out_field *fl,
		     const struct out_val *v)
{
	uint32_t j;

	if (v->none) {
		fputs("null", f);
		return;
	}
	switch (fl->type) {
	case OUT_STR:
		json_str(f, v->s);
		break;
	case OUT_RAW:
		fputs(v->s, f);
		break;
	case OUT_STRV:
		fputc('[', f);
		for (j = 0; j < v->n; j++) {
			if (j)
				fputc(',', f);
			json_str(f, v->sv[j]);
		}
		fputc(']', f);
		break;
	case OUT_INT:
		fprintf(f, "%" PRId64, v->i);
		break;
	case OUT_DBL:
		fprintf(f, "%.*f", fl->jprec, v->d);
		break;
	case OUT_BOOL:
		fputs(v->u ? "true" : "false", f);
		break;
	default: /* OUT_UINT, OUT_OCT */
		fprintf(f, "%" PRIu64, v->u);
		break;
	}
}

void out_row_open(FILE *f, const struct out_field *fl, int n,
		  unsigned mask, const struct out_val *v, int json)
{
	/* the longest value: execsnoop's 20 arguments of 127 bytes, each
	 * byte escaped to 4 */
	static char buf[20 * 128 * 4 + 64];
	int i, first = 1;

	if (json)
		fputc('{', f);
	for (i = 0; i < n; i++) {
		if (!shown(&fl[i], mask) || !(json ? fl[i].key : fl[i].head))
			continue;
		if (json) {
			fprintf(f, "%s\"%s\":", first ? "" : ",", fl[i].key);
			json_val(f, &fl[i], &v[i]);
			first = 0;
			continue;
		}
		pad(f, buf, text_val(buf, sizeof(buf), &fl[i], &v[i]),
		    fl[i].width);
		if (!fl[i].nosep)
			fputc(' ', f);
	}
}

void out_row(FILE *f, const struct out_field *fl, int n, unsigned mask,
	     const struct out_val *v, int json)
{
	out_row_open(f, fl, n, mask, v, json);
	fputs(json ? "}\n" : "\n", f);
}
