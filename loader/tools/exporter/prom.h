/* SPDX-License-Identifier: MIT */
/*
 * Prometheus' text exposition format (0.0.4: what every Prometheus server
 * scrapes and node_exporter's textfile collector reads): metric families
 * with their HELP and TYPE lines, samples with escaped labels, histograms
 * made from the log2 slots our BPF programs keep, and the atomic write of a
 * textfile. Writes only to the FILE* or directory it is given; every
 * function returns 0 or -errno (-EINVAL for a name the format refuses,
 * -EIO when the stream failed).
 */
#ifndef BAREBPF_PROM_H
#define BAREBPF_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct prom_label {
	const char *name;
	const char *value; /* any bytes: escaped, invalid UTF-8 replaced */
};

/* [a-zA-Z_:][a-zA-Z0-9_:]* */
int prom_metric_name_ok(const char *name);
/* [a-zA-Z_][a-zA-Z0-9_]*, not beginning with "__" (reserved) */
int prom_label_name_ok(const char *name);

/* "# HELP name help" and "# TYPE name type" (counter, gauge, histogram). */
int prom_family(FILE *f, const char *name, const char *type,
		const char *help);
/* name{labels} value: an integer, exactly */
int prom_sample_u64(FILE *f, const char *name, const struct prom_label *l,
		    int nl, uint64_t v);
/* the same with a float: the shortest text that reads back as v */
int prom_sample(FILE *f, const char *name, const struct prom_label *l,
		int nl, double v);

/*
 * A histogram from log2 slots: slots[i] counts integer values of a unit in
 * [2^i, 2^(i+1) - 1] (slot 0 holds 0 and 1), unit_per_s is how many of
 * that unit make a second (1e6 for microseconds); sum_s is in seconds.
 * Bucket i has le = (2^(i+1) - 1) units:
 * the largest value the slot holds (2^i would put the slot's values above
 * its bound, ebpf_exporter's #488). The first nbuckets slots get a bucket
 * each, always, so that every scrape has the same series; slots past them
 * count in +Inf only. Then name_sum and name_count.
 */
int prom_hist_log2(FILE *f, const char *name, const struct prom_label *l,
		   int nl, const uint64_t *slots, int nslots, int nbuckets,
		   double unit_per_s, double sum_s);
/* The le of slot i in seconds, (2^(i+1) - 1) / unit_per_s. */
double prom_log2_le(int i, double unit_per_s);
/* v as the format writes floats (NaN, +Inf, -Inf, else the shortest
 * %g that reads back as v) into buf. */
void prom_format_double(char *buf, size_t len, double v);

/*
 * Replace dir/name with len bytes of buf so that a reader sees either the
 * old file or the new one, never a part: the bytes go to a temporary file
 * in dir (".name.<pid>", which the textfile collector's *.prom glob skips),
 * mode 0644, then rename() over name. No fsync: see prom.c.
 */
int prom_textfile_write(const char *dir, const char *name, const void *buf,
			size_t len);

#endif
