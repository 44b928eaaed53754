/* SPDX-License-Identifier: MIT */
/*
 * The text exposition format as Prometheus' own parser (expfmt, 0.0.4)
 * reads it: label values escape \ " and newline, HELP escapes \ and
 * newline, and label values must be UTF-8 (a comm or a disk name is any
 * bytes: invalid sequences become U+FFFD rather than failing the scrape).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h> /* isnan, isinf: macros, no libm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "barebpf.h"
#include "prom.h"

static int is_alpha_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

int prom_metric_name_ok(const char *s)
{
	if (!s || !(is_alpha_(*s) || *s == ':'))
		return 0;
	for (s++; *s; s++)
		if (!(is_alpha_(*s) || is_digit(*s) || *s == ':'))
			return 0;
	return 1;
}

int prom_label_name_ok(const char *s)
{
	if (!s || !is_alpha_(*s) || (s[0] == '_' && s[1] == '_'))
		return 0;
	for (s++; *s; s++)
		if (!(is_alpha_(*s) || is_digit(*s)))
			return 0;
	return 1;
}

static int done(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

/* The length of the valid UTF-8 sequence at s, or 0 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF). */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

static void put_escaped(FILE *f, const char *s, int quote)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			p++;
			continue;
		}
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '"' && quote)
			fputs("\\\"", f);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
}

int prom_family(FILE *f, const char *name, const char *type,
		const char *help)
{
	if (!prom_metric_name_ok(name) || !type || !help ||
	    (strcmp(type, "counter") && strcmp(type, "gauge") &&
	     strcmp(type, "histogram") && strcmp(type, "summary") &&
	     strcmp(type, "untyped")))
		return -EINVAL;
	fprintf(f, "# HELP %s ", name);
	put_escaped(f, help, 0);
	fprintf(f, "\n# TYPE %s %s\n", name, type);
	return done(f);
}

static int labels_ok(const struct prom_label *l, int nl, int le)
{
	int i, j;

	if (nl < 0 || (nl && !l))
		return 0;
	for (i = 0; i < nl; i++) {
		if (!prom_label_name_ok(l[i].name) || !l[i].value ||
		    (le && !strcmp(l[i].name, "le")))
			return 0;
		for (j = 0; j < i; j++)
			if (!strcmp(l[i].name, l[j].name))
				return 0;
	}
	return 1;
}

/* "name<suffix>{a="x",le="y"} " */
static void put_series(FILE *f, const char *name, const char *suffix,
		       const struct prom_label *l, int nl, const char *le)
{
	int i;

	fputs(name, f);
	if (suffix)
		fputs(suffix, f);
	if (nl || le) {
		fputc('{', f);
		for (i = 0; i < nl; i++) {
			fprintf(f, "%s%s=\"", i ? "," : "", l[i].name);
			put_escaped(f, l[i].value, 1);
			fputc('"', f);
		}
		if (le)
			fprintf(f, "%sle=\"%s\"", nl ? "," : "", le);
		fputc('}', f);
	}
	fputc(' ', f);
}

void prom_format_double(char *buf, size_t len, double v)
{
	int prec;

	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	/* 17 significant digits always read back exactly; fewer usually do
	 * (checked where bb_parse_double is exact: a value that needs 16
	 * digits, or beyond 1e+-22, may get 17 where 16 would do) */
	for (prec = 1; prec < 17; prec++) {
		const char *end;
		double x;

		snprintf(buf, len, "%.*g", prec, v);
		if (bb_parse_double(buf, &end, &x) == 1 && !*end && x == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

int prom_sample_u64(FILE *f, const char *name, const struct prom_label *l,
		    int nl, uint64_t v)
{
	if (!prom_metric_name_ok(name) || !labels_ok(l, nl, 0))
		return -EINVAL;
	put_series(f, name, NULL, l, nl, NULL);
	fprintf(f, "%llu\n", (unsigned long long)v);
	return done(f);
}

int prom_sample(FILE *f, const char *name, const struct prom_label *l,
		int nl, double v)
{
	char num[40];

	if (!prom_metric_name_ok(name) || !labels_ok(l, nl, 0))
		return -EINVAL;
	prom_format_double(num, sizeof(num), v);
	put_series(f, name, NULL, l, nl, NULL);
	fprintf(f, "%s\n", num);
	return done(f);
}

double prom_log2_le(int i, double unit_per_s)
{
	/* a division, not a product with 1e-6: 3 / 1e6 rounds to the double
	 * nearest 3e-06, which prints as "3e-06" */
	double top = 1.0;
	int k;

	for (k = 0; k <= i; k++)
		top *= 2; /* exact: a power of two */
	return (top - 1.0) / unit_per_s;
}

int prom_hist_log2(FILE *f, const char *name, const struct prom_label *l,
		   int nl, const uint64_t *slots, int nslots, int nbuckets,
		   double unit_per_s, double sum_s)
{
	unsigned long long cum = 0, total = 0;
	char le[40];
	int i;

	if (!prom_metric_name_ok(name) || !labels_ok(l, nl, 1) ||
	    nslots < 0 || nbuckets < 0 || nbuckets > 64 ||
	    (nslots && !slots) || !(unit_per_s > 0))
		return -EINVAL;
	for (i = 0; i < nslots; i++)
		total += slots[i];
	for (i = 0; i < nbuckets; i++) {
		if (i < nslots)
			cum += slots[i];
		prom_format_double(le, sizeof(le), prom_log2_le(i, unit_per_s));
		put_series(f, name, "_bucket", l, nl, le);
		fprintf(f, "%llu\n", cum);
	}
	put_series(f, name, "_bucket", l, nl, "+Inf");
	fprintf(f, "%llu\n", total);
	prom_format_double(le, sizeof(le), sum_s);
	put_series(f, name, "_sum", l, nl, NULL);
	fprintf(f, "%s\n", le);
	put_series(f, name, "_count", l, nl, NULL);
	fprintf(f, "%llu\n", total);
	return done(f);
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * No fsync before the rename: the exporter watches hosts whose disks stall,
 * and an fsync there would hold the collection loop (and the HTTP server
 * that shares it) for as long as the stall lasts. What a crash can cost is
 * a short file after reboot, until the next interval rewrites it; ext4 and
 * xfs flush a file renamed over another before the rename commits
 * (auto_da_alloc), and textfile directories are often on tmpfs anyway.
 */
int prom_textfile_write(const char *dir, const char *name, const void *buf,
			size_t len)
{
	char tmp[4096], dst[4096];
	int fd, ret, tries;

	if (!*name || strchr(name, '/'))
		return -EINVAL;
	if ((size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, name) >=
	    sizeof(dst) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.%d", dir, name,
			     (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	for (tries = 0;; tries++) {
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
			  O_NOFOLLOW, 0644);
		if (fd >= 0 || errno != EEXIST || tries)
			break;
		/* left by a killed process that had our pid */
		unlink(tmp);
	}
	if (fd < 0)
		return -errno;
	/* readable by node_exporter's user whatever our umask */
	ret = fchmod(fd, 0644) < 0 ? -errno : 0;
	if (!ret)
		ret = write_all(fd, buf, len);
	if (close(fd) < 0 && !ret)
		ret = -errno; /* NFS reports write errors at close */
	if (!ret && rename(tmp, dst) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}
