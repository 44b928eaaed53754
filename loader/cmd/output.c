/* SPDX-License-Identifier: MIT */
/*
 * Log2 histograms in the text bcc prints, so that users can compare our
 * output with bcc's and reuse their scripts. Slot i holds values in
 * [2^i, 2^(i+1) - 1]; slot 0 also holds 0 (the BPF side stores
 * floor(log2(v))).
 */
#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"

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
