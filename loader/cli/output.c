/* SPDX-License-Identifier: MIT */
/*
 * What the tools print, in bcc's text so that users can compare our output
 * with bcc's and reuse their scripts, or as JSON: log2 histograms (slot i
 * holds values in [2^i, 2^(i+1) - 1]; slot 0 also holds 0, the BPF side
 * stores floor(log2(v))), kernel and user stacks.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "barebpf.h"
#include "output.h"

static void print_stars(FILE *f, uint64_t val, uint64_t val_max, int width)
{
	int n = val_max ? (int)((double)width * val / val_max) : 0;
	int i;

	for (i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', f);
}

static void slot_range(int i, uint64_t *lo, uint64_t *hi)
{
	*lo = (1ULL << (i + 1)) >> 1;
	*hi = i >= 63 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
	if (*lo == *hi)
		*lo -= 1;
}

void hist_print_log2(FILE *f, const uint64_t *vals, int n, const char *unit)
{
	int i, idx_max = -1, wide;
	uint64_t val_max = 0;

	for (i = 0; i < n; i++) {
		if (vals[i])
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (idx_max < 0)
		return;
	/* bcc widens the columns when values pass 2^32 */
	wide = idx_max > 32;
	if (wide)
		fprintf(f, "               %-29s : count     distribution\n",
			unit);
	else
		fprintf(f, "     %-19s : count     distribution\n", unit);
	for (i = 0; i <= idx_max; i++) {
		uint64_t lo, hi;

		slot_range(i, &lo, &hi);
		if (wide)
			fprintf(f, "%20llu -> %-20llu : %-8llu |",
				(unsigned long long)lo, (unsigned long long)hi,
				(unsigned long long)vals[i]);
		else
			fprintf(f, "%10llu -> %-10llu : %-8llu |",
				(unsigned long long)lo, (unsigned long long)hi,
				(unsigned long long)vals[i]);
		print_stars(f, vals[i], val_max, wide ? 20 : 40);
		fputs("|\n", f);
	}
}

void hist_print_linear(FILE *f, const uint64_t *vals, int n,
		       const char *label)
{
	int i, idx_max = -1;
	uint64_t val_max = 0;

	for (i = 0; i < n; i++) {
		if (vals[i])
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (idx_max < 0)
		return;
	fprintf(f, "     %-13s : count     distribution\n", label);
	for (i = 0; i <= idx_max; i++) {
		fprintf(f, "        %-10d : %-8llu |", i,
			(unsigned long long)vals[i]);
		print_stars(f, vals[i], val_max, 40);
		fputs("|\n", f);
	}
}

void hist_json_linear(FILE *f, const uint64_t *vals, int n,
		      const char *label)
{
	int i, first = 1;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (!vals[i])
			continue;
		fprintf(f, "%s{\"%s\":%d,\"count\":%llu}", first ? "" : ",",
			label, i, (unsigned long long)vals[i]);
		first = 0;
	}
	fputc(']', f);
}

/*
 * The length of the valid UTF-8 sequence at s (n bytes there), 0 if it is
 * not one: no overlong form (C0, C1, E0 80..9F, F0 80..8F), no surrogate
 * (ED A0..BF), nothing past U+10FFFF (F4 90.., F5..FF), no cut sequence.
 */
static int utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	int len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < (size_t)len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/*
 * One piece of s: the valid UTF-8 character there (1 to 4 bytes, *bad 0),
 * or the one byte that is not part of one (*bad 1). A C0 or C1 control
 * (U+0000..U+001F, U+007F, U+0080..U+009F) counts as bad too: terminals
 * act on them, in either encoding.
 */
static int piece(const unsigned char *s, size_t n, int *bad)
{
	int len = utf8_len(s, n);

	*bad = !len || s[0] < 0x20 || s[0] == 0x7f ||
	       (s[0] == 0xc2 && s[1] < 0xa0);
	return *bad ? 1 + (len == 2 && s[0] == 0xc2) : len;
}

/*
 * The code point of a bidirectional control at p (a valid piece of len
 * bytes), else 0: U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069.
 * A terminal reorders the text around them ("Trojan Source").
 */
static unsigned bidi(const unsigned char *p, int len)
{
	if (len == 2 && p[0] == 0xd8 && p[1] == 0x9c)
		return 0x61c;
	if (len != 3 || p[0] != 0xe2)
		return 0;
	if (p[1] == 0x80 && (p[2] == 0x8e || p[2] == 0x8f ||
			     (p[2] >= 0xaa && p[2] <= 0xae)))
		return 0x2000 + (p[2] & 0x3f);
	if (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
		return 0x2040 + (p[2] & 0x3f);
	return 0;
}

/* The text of the piece at p (n bytes there) into e: *k bytes of p as
 * they are, or escaped. Returns its length (at most 9). */
static int esc_piece(const unsigned char *p, size_t n, char e[12], int *k,
		     int keep_bs)
{
	int bad, m = 0, j;
	unsigned cp;

	*k = piece(p, n, &bad);
	if (!bad && *p == '\\' && !keep_bs)
		return snprintf(e, 12, "\\\\");
	if (!bad && (cp = bidi(p, *k)))
		return snprintf(e, 12, "\\u{%x}", cp);
	if (!bad) {
		memcpy(e, p, *k);
		return *k;
	}
	if (*p == '\n' || *p == '\t')
		return snprintf(e, 12, "\\%c", *p == '\n' ? 'n' : 't');
	for (j = 0; j < *k; j++)
		m += snprintf(e + m, 12 - m, "\\x%02x", p[j]);
	return m;
}

static size_t esc_into(char *out, size_t len, const char *s, size_t n,
		       int keep_bs)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, i = 0;
	char e[12];
	int k, m;

	if (!len)
		return 0;
	for (; i < n && p[i]; i += k) {
		if (p[i] >= 0x20 && p[i] < 0x7f && (p[i] != '\\' || keep_bs)) {
			/* most of every string */
			if (o + 1 >= len)
				break;
			out[o++] = p[i];
			k = 1;
			continue;
		}
		m = esc_piece(p + i, n - i, e, &k, keep_bs);
		if (o + m >= len)
			break;
		memcpy(out + o, e, m);
		o += m;
	}
	out[o] = 0;
	return o;
}

size_t esc_text(char *out, size_t len, const char *s, size_t n)
{
	return esc_into(out, len, s, n, 0);
}

size_t esc_text_again(char *out, size_t len, const char *s, size_t n)
{
	return esc_into(out, len, s, n, 1);
}

void out_textn(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;
	char e[12];
	int k;

	for (i = 0; i < n && p[i]; i += k)
		fwrite(e, 1, esc_piece(p + i, n - i, e, &k, 0), f);
}

void out_text(FILE *f, const char *s)
{
	out_textn(f, s, strlen(s));
}

void out_col(FILE *f, const char *s, int width)
{
	char buf[1024];

	esc_text(buf, sizeof(buf), s, strlen(s));
	fprintf(f, "%*s", width, buf);
}

void json_strn(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', f);
	while (i < n && p[i]) {
		unsigned char c = p[i];
		size_t j = i;
		int bad, k;

		/* printable ASCII goes out as it is, a run in one call: one
		 * fwrite a character was most of trace -j's time per event */
		while (j < n && p[j] >= 0x20 && p[j] < 0x7f && p[j] != '"' &&
		       p[j] != '\\')
			j++;
		if (j > i) {
			fwrite(p + i, 1, j - i, f);
			i = j;
			continue;
		}
		k = piece(p + i, n - i, &bad);

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (!bad && bidi(p + i, k))
			fprintf(f, "\\u%04x", bidi(p + i, k));
		else if (!bad)
			fwrite(p + i, 1, k, f);
		else if (k == 2) /* a C1 control, U+0080..U+009F */
			fprintf(f, "\\u%04x", p[i + 1]);
		else /* a control, or a byte that is not UTF-8: U+00NN */
			fprintf(f, "\\u%04x", c);
		i += k;
	}
	fputc('"', f);
}

void json_str(FILE *f, const char *s)
{
	json_strn(f, s, strlen(s));
}

void hist_json_log2(FILE *f, const uint64_t *vals, int n, const char *unit)
{
	uint64_t total = 0;
	int i, first = 1;

	fputs("{\"unit\":", f);
	json_str(f, unit);
	fputs(",\"buckets\":[", f);
	for (i = 0; i < n; i++) {
		uint64_t lo, hi;

		if (!vals[i])
			continue;
		slot_range(i, &lo, &hi);
		fprintf(f, "%s{\"lo\":%llu,\"hi\":%llu,\"count\":%llu}",
			first ? "" : ",", (unsigned long long)lo,
			(unsigned long long)hi, (unsigned long long)vals[i]);
		total += vals[i];
		first = 0;
	}
	fprintf(f, "],\"count\":%llu}", (unsigned long long)total);
}

void stack_print_kernel(FILE *f, const struct bb_ksyms *ks,
			const uint64_t *ips, int n, const char *indent)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct bb_ksym *s = ks ? ksyms_find(ks, ips[i], NULL) : NULL;
		uint64_t off = s ? ips[i] - s->addr : 0;

		if (s)
			fprintf(f, "%s%s+0x%llx [kernel]\n", indent, s->name,
				(unsigned long long)off);
		else
			fprintf(f, "%s0x%llx [unknown]\n", indent,
				(unsigned long long)ips[i]);
	}
}

void stack_json_kernel(FILE *f, const struct bb_ksyms *ks,
		       const uint64_t *ips, int n)
{
	char buf[300];
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		const struct bb_ksym *s = ks ? ksyms_find(ks, ips[i], NULL) : NULL;

		if (s)
			snprintf(buf, sizeof(buf), "%s+0x%llx", s->name,
				 (unsigned long long)(ips[i] - s->addr));
		else
			snprintf(buf, sizeof(buf), "0x%llx",
				 (unsigned long long)ips[i]);
		if (i)
			fputc(',', f);
		json_str(f, buf);
	}
	fputc(']', f);
}

void usym_format(char *buf, size_t len, const struct bb_usym *s)
{
	if (s->name && s->module)
		snprintf(buf, len, "%s+0x%llx [%s]", s->name,
			 (unsigned long long)s->off, s->module);
	else if (s->module)
		snprintf(buf, len, "[unknown] [%s]", s->module);
	else
		snprintf(buf, len, "[unknown]");
}

void stack_print_user(FILE *f, struct bb_usyms *u, int pid,
		      const uint64_t *ips, int n, const char *indent)
{
	char buf[512];
	struct bb_usym s;
	int i;

	for (i = 0; i < n; i++) {
		usyms_find(u, pid, ips[i], &s);
		usym_format(buf, sizeof(buf), &s);
		/* a binary's symbol and path: the process' to choose */
		fputs(indent, f);
		out_text(f, buf);
		fputc('\n', f);
	}
}

void stack_json_user(FILE *f, struct bb_usyms *u, int pid,
		     const uint64_t *ips, int n)
{
	char buf[512];
	struct bb_usym s;
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		usyms_find(u, pid, ips[i], &s);
		usym_format(buf, sizeof(buf), &s);
		if (i)
			fputc(',', f);
		json_str(f, buf);
	}
	fputc(']', f);
}
