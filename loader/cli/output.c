/* SPDX-License-Identifier: MIT */
/*
 * What the tools print, in bcc's text so that users can compare our output
 * with bcc's and reuse their scripts, or as JSON: log2 histograms (slot i
 * holds values in [2^i, 2^(i+1) - 1]; slot 0 also holds 0, the BPF side
 * stores floor(log2(v))), kernel and user stacks.
 */
#include <stdint.h>
#include <stdio.h>
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

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
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
		fprintf(f, "%s%s\n", indent, buf);
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
