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

void out_head(FILE *f, const struct out_field *fl, int n, unsigned mask)
{
	int i;

	for (i = 0; i < n; i++, fl++) {
		if (!fl->head || !shown(fl, mask))
			continue;
		fprintf(f, "%*s", fl->width, fl->head);
		if (!fl->nosep)
			fputc(' ', f);
	}
	fputc('\n', f);
}

/* v in decimal, as printf's %llu (snprintf costs more than the rest of
 * a column); neg: a '-' before it. The length, or 0 if len is short. */
static size_t dec(char *buf, size_t len, uint64_t v, int neg)
{
	char tmp[24];
	size_t n = 0, k = 0;

	do
		tmp[n++] = '0' + v % 10;
	while ((v /= 10));
	if (n + neg >= len)
		return 0;
	if (neg)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = 0;
	return k;
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
		return dec(buf, len, v->i < 0 ? -(uint64_t)v->i : (uint64_t)v->i,
			   v->i < 0);
	case OUT_OCT:
		return snprintf(buf, len, "%0*" PRIo64, fl->prec, v->u);
	case OUT_DBL:
		return snprintf(buf, len, "%.*f", fl->prec, v->d);
	default: /* OUT_UINT, OUT_BOOL */
		return dec(buf, len, v->u, 0);
	}
}

static void json_val(FILE *f, const struct out_field *fl,
		     const struct out_val *v)
{
	char num[24];
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
	case OUT_INT: /* dec: printf's cost was most of a streamed event */
		fwrite(num, 1, dec(num, sizeof(num), v->i < 0 ?
				   -(uint64_t)v->i : (uint64_t)v->i,
				   v->i < 0), f);
		break;
	case OUT_DBL:
		fprintf(f, "%.*f", fl->jprec, v->d);
		break;
	case OUT_BOOL:
		fputs(v->u ? "true" : "false", f);
		break;
	default: /* OUT_UINT, OUT_OCT */
		fwrite(num, 1, dec(num, sizeof(num), v->u, 0), f);
		break;
	}
}

/* s into line at *k if it fits in len: 0, or -1. Bytes one by one: a
 * line holds short strings, and musl's memcpy starts each copy with a
 * `rep movs` whose setup was half of a streamed event's time. */
static int put(char *line, size_t len, size_t *k, const char *s, size_t n)
{
	size_t i;

	if (n > len - *k)
		return -1;
	for (i = 0; i < n; i++)
		line[*k + i] = s[i];
	*k += n;
	return 0;
}

/*
 * The JSON row, without its closing brace, into line when every value is
 * a number, a boolean, null or a string of printable ASCII needing no
 * escape (the common case of a streamed event): its length, else 0 (then
 * out_row_open writes it field by field, as always). The same bytes.
 */
static size_t json_row(char *line, size_t len, const struct out_field *fl,
		       int n, unsigned mask, const struct out_val *v)
{
	char num[24];
	size_t k = 0, m;
	int i, first = 1;

	if (put(line, len, &k, "{", 1))
		return 0;
	for (i = 0; i < n; i++) {
		const char *s;

		if (!shown(&fl[i], mask) || !fl[i].key)
			continue;
		if ((!first && put(line, len, &k, ",", 1)) ||
		    put(line, len, &k, "\"", 1) ||
		    put(line, len, &k, fl[i].key, strlen(fl[i].key)) ||
		    put(line, len, &k, "\":", 2))
			return 0;
		first = 0;
		if (v[i].none) {
			if (put(line, len, &k, "null", 4))
				return 0;
			continue;
		}
		switch (fl[i].type) {
		case OUT_STR:
			s = v[i].s;
			for (m = 0; s[m]; m++)
				if (s[m] < 0x20 || s[m] >= 0x7f || s[m] == '"' ||
				    s[m] == '\\')
					return 0;
			if (put(line, len, &k, "\"", 1) ||
			    put(line, len, &k, s, m) ||
			    put(line, len, &k, "\"", 1))
				return 0;
			break;
		case OUT_INT:
			m = dec(num, sizeof(num), v[i].i < 0 ? -(uint64_t)v[i].i :
				(uint64_t)v[i].i, v[i].i < 0);
			if (put(line, len, &k, num, m))
				return 0;
			break;
		case OUT_UINT:
			m = dec(num, sizeof(num), v[i].u, 0);
			if (put(line, len, &k, num, m))
				return 0;
			break;
		case OUT_BOOL:
			s = v[i].u ? "true" : "false";
			if (put(line, len, &k, s, strlen(s)))
				return 0;
			break;
		default:
			return 0;
		}
	}
	return k;
}

/* The text row into line (len bytes, NUL-terminated); its length. */
static size_t text_row(char *line, size_t len, const struct out_field *fl,
		       int n, unsigned mask, const struct out_val *v)
{
	size_t k = 0, m, w;
	int i;

	for (i = 0; i < n; i++) {
		if (!shown(&fl[i], mask) || !fl[i].head || k + 2 >= len)
			continue;
		m = text_val(line + k, len - k - 1, &fl[i], &v[i]);
		if (m > len - k - 2)
			m = strlen(line + k);
		w = fl[i].width < 0 ? (size_t)-fl[i].width : (size_t)fl[i].width;
		if (w > len - k - 2)
			w = len - k - 2;
		if (m < w && fl[i].width > 0) { /* right-aligned */
			memmove(line + k + w - m, line + k, m);
			memset(line + k, ' ', w - m);
		} else if (m < w) {
			memset(line + k + m, ' ', w - m);
		}
		k += m < w ? w : m;
		if (!fl[i].nosep)
			line[k++] = ' ';
	}
	line[k] = 0;
	return k;
}

void out_row_open(FILE *f, const struct out_field *fl, int n,
		  unsigned mask, const struct out_val *v, int json)
{
	/* the longest line: execsnoop's 20 arguments of 127 bytes, each
	 * byte escaped to 4, and the columns before them */
	static char line[20 * 128 * 4 + 1024];
	int i, first = 1;
	size_t k;

	if (!json) {
		/* one write a line: stdio's locking per call is most of the
		 * cost of a column (biosnoop prints 100,000 lines a second) */
		fwrite(line, 1, text_row(line, sizeof(line), fl, n, mask, v),
		       f);
		return;
	}
	k = json_row(line, sizeof(line), fl, n, mask, v);
	if (k) {
		fwrite(line, 1, k, f);
		return;
	}
	fputc('{', f);
	for (i = 0; i < n; i++) {
		size_t kl;

		if (!shown(&fl[i], mask) || !fl[i].key)
			continue;
		/* ,"key": in one write (a printf each cost more than the
		 * value: trace -j streams a million lines a second) */
		kl = strlen(fl[i].key);
		if (kl + 4 > sizeof(line))
			kl = sizeof(line) - 4;
		k = 0;
		if (!first)
			line[k++] = ',';
		line[k++] = '"';
		memcpy(line + k, fl[i].key, kl);
		k += kl;
		line[k++] = '"';
		line[k++] = ':';
		fwrite(line, 1, k, f);
		json_val(f, &fl[i], &v[i]);
		first = 0;
	}
}

void out_row(FILE *f, const struct out_field *fl, int n, unsigned mask,
	     const struct out_val *v, int json)
{
	out_row_open(f, fl, n, mask, v, json);
	fputs(json ? "}\n" : "\n", f);
}
