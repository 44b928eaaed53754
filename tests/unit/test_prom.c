/* SPDX-License-Identifier: MIT */
/*
 * Prometheus text format (loader/tools/exporter/prom.c): exact text for
 * known inputs, the bucket bounds of log2 slots, escaping, names the
 * format refuses, and the atomic textfile write.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bbtest.h"
#include "prom.h"

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->f);
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

START_TEST(test_counter_and_gauge_text)
{
	struct prom_label l[] = { { "disk", "sda" }, { "op", "read" } };
	struct mem m;
	char *out;

	mem_open(&m);
	ck_assert_int_eq(prom_family(m.f, "barebpf_x_total", "counter",
				     "Things done."), 0);
	ck_assert_int_eq(prom_sample_u64(m.f, "barebpf_x_total", l, 2,
					 18446744073709551615ULL), 0);
	ck_assert_int_eq(prom_sample_u64(m.f, "barebpf_x_total", NULL, 0, 0),
			 0);
	ck_assert_int_eq(prom_family(m.f, "barebpf_y_seconds", "gauge",
				     "A gauge."), 0);
	ck_assert_int_eq(prom_sample(m.f, "barebpf_y_seconds", l, 1, 0.25), 0);
	ck_assert_int_eq(prom_sample(m.f, "barebpf_y_seconds", l, 1, 1e-6), 0);
	ck_assert_int_eq(prom_sample(m.f, "barebpf_y_seconds", l, 1, 0.1), 0);
	ck_assert_int_eq(prom_sample(m.f, "barebpf_y_seconds", l, 1, 1.0 / 3),
			 0);
	out = mem_close(&m);
	ck_assert_str_eq(out,
		"# HELP barebpf_x_total Things done.\n"
		"# TYPE barebpf_x_total counter\n"
		"barebpf_x_total{disk=\"sda\",op=\"read\"} 18446744073709551615\n"
		"barebpf_x_total 0\n"
		"# HELP barebpf_y_seconds A gauge.\n"
		"# TYPE barebpf_y_seconds gauge\n"
		"barebpf_y_seconds{disk=\"sda\"} 0.25\n"
		"barebpf_y_seconds{disk=\"sda\"} 1e-06\n"
		"barebpf_y_seconds{disk=\"sda\"} 0.1\n"
		"barebpf_y_seconds{disk=\"sda\"} 0.3333333333333333\n");
	free(out);
}
END_TEST

START_TEST(test_escapes)
{
	struct prom_label l[] = { { "comm", "a\\b\"c\nd" } };
	struct prom_label bad[] = { { "comm", "x\xff" "y\xc3\xa9\xe2\x82" } };
	struct mem m;
	char *out;

	mem_open(&m);
	ck_assert_int_eq(prom_family(m.f, "m", "gauge",
				     "Back\\slash \"quoted\"\nnext"), 0);
	ck_assert_int_eq(prom_sample_u64(m.f, "m", l, 1, 1), 0);
	/* invalid UTF-8 (a lone 0xff, a cut sequence) becomes U+FFFD; a
	 * valid one (e-acute) stays */
	ck_assert_int_eq(prom_sample_u64(m.f, "m", bad, 1, 1), 0);
	out = mem_close(&m);
	ck_assert_str_eq(out,
		"# HELP m Back\\\\slash \"quoted\"\\nnext\n"
		"# TYPE m gauge\n"
		"m{comm=\"a\\\\b\\\"c\\nd\"} 1\n"
		"m{comm=\"x\xef\xbf\xbdy\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\"} 1\n");
	free(out);
}
END_TEST

START_TEST(test_names)
{
	struct prom_label dunder[] = { { "__name__", "x" } };
	struct prom_label dup[] = { { "a", "x" }, { "a", "y" } };
	struct prom_label le[] = { { "le", "1" } };
	struct prom_label digit[] = { { "1a", "x" } };
	uint64_t slots[1] = { 1 };
	struct mem m;
	char *out;

	ck_assert(prom_metric_name_ok("a"));
	ck_assert(prom_metric_name_ok("_a:b_9"));
	ck_assert(prom_metric_name_ok(":a"));
	ck_assert(!prom_metric_name_ok(""));
	ck_assert(!prom_metric_name_ok("9a"));
	ck_assert(!prom_metric_name_ok("a-b"));
	ck_assert(!prom_metric_name_ok("a b"));
	ck_assert(!prom_metric_name_ok("é"));
	ck_assert(!prom_metric_name_ok(NULL));
	ck_assert(prom_label_name_ok("_a"));
	ck_assert(!prom_label_name_ok("__a"));
	ck_assert(!prom_label_name_ok("a:b"));
	ck_assert(!prom_label_name_ok(""));

	/* refused before anything is written: no half line */
	mem_open(&m);
	ck_assert_int_eq(prom_family(m.f, "a-b", "gauge", "x"), -EINVAL);
	ck_assert_int_eq(prom_family(m.f, "a", "info", "x"), -EINVAL);
	ck_assert_int_eq(prom_sample_u64(m.f, "a", dunder, 1, 1), -EINVAL);
	ck_assert_int_eq(prom_sample_u64(m.f, "a", dup, 2, 1), -EINVAL);
	ck_assert_int_eq(prom_sample_u64(m.f, "a", digit, 1, 1), -EINVAL);
	ck_assert_int_eq(prom_sample(m.f, "9", NULL, 0, 1), -EINVAL);
	ck_assert_int_eq(prom_hist_log2(m.f, "h", le, 1, slots, 1, 1, 1e6, 0),
			 -EINVAL);
	ck_assert_int_eq(prom_hist_log2(m.f, "h", NULL, 0, slots, 1, 65, 1e6,
					0), -EINVAL);
	out = mem_close(&m);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

/*
 * A slot of integer microseconds [2^i, 2^(i+1) - 1] has le (2^(i+1) - 1)
 * us: slot 0 (0 and 1 us) le 1e-06, slot 1 (2-3 us) 3e-06, slot 9
 * (512-1023 us) 0.001023. Buckets are cumulative; slots past the last
 * bucket count in +Inf only; _count is the total.
 */
START_TEST(test_histogram_text)
{
	struct prom_label l[] = { { "disk", "loop0" } };
	uint64_t slots[64] = { 0 };
	struct mem m;
	char *out;

	slots[0] = 2;
	slots[1] = 3;
	slots[3] = 1;
	slots[40] = 4; /* past the 5 buckets: in +Inf only */
	mem_open(&m);
	ck_assert_int_eq(prom_family(m.f, "lat_seconds", "histogram", "L."), 0);
	ck_assert_int_eq(prom_hist_log2(m.f, "lat_seconds", l, 1, slots, 64, 5,
					1e6, 0.5), 0);
	out = mem_close(&m);
	ck_assert_str_eq(out,
		"# HELP lat_seconds L.\n"
		"# TYPE lat_seconds histogram\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"1e-06\"} 2\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"3e-06\"} 5\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"7e-06\"} 5\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"1.5e-05\"} 6\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"3.1e-05\"} 6\n"
		"lat_seconds_bucket{disk=\"loop0\",le=\"+Inf\"} 10\n"
		"lat_seconds_sum{disk=\"loop0\"} 0.5\n"
		"lat_seconds_count{disk=\"loop0\"} 10\n");
	free(out);

	/* no labels, no slots at all: every bucket 0 */
	mem_open(&m);
	ck_assert_int_eq(prom_hist_log2(m.f, "h", NULL, 0, NULL, 0, 2, 1e6, 0),
			 0);
	out = mem_close(&m);
	ck_assert_str_eq(out, "h_bucket{le=\"1e-06\"} 0\n"
			      "h_bucket{le=\"3e-06\"} 0\n"
			      "h_bucket{le=\"+Inf\"} 0\n"
			      "h_sum 0\nh_count 0\n");
	free(out);
}
END_TEST

START_TEST(test_bucket_bounds)
{
	char buf[40];
	int i;

	for (i = 0; i < 53; i++) {
		/* the largest integer microsecond value of slot i */
		unsigned long long top = (1ULL << (i + 1)) - 1;

		ck_assert(prom_log2_le(i, 1e6) == (double)top / 1e6);
		/* the text reads back as that very double */
		prom_format_double(buf, sizeof(buf), prom_log2_le(i, 1e6));
		ck_assert(strtod(buf, NULL) == (double)top / 1e6);
		/* the first value of the next slot is above it (while
		 * doubles tell the two apart: 2^40 us is 12 days) */
		if (i < 40)
			ck_assert((double)(top + 1) / 1e6 >
				  prom_log2_le(i, 1e6));
	}
	prom_format_double(buf, sizeof(buf), prom_log2_le(9, 1e6));
	ck_assert_str_eq(buf, "0.001023");
	prom_format_double(buf, sizeof(buf), prom_log2_le(26, 1e6));
	ck_assert_str_eq(buf, "134.217727");
	prom_format_double(buf, sizeof(buf), prom_log2_le(0, 1e3));
	ck_assert_str_eq(buf, "0.001");
	prom_format_double(buf, sizeof(buf), 1.0 / 0.0);
	ck_assert_str_eq(buf, "+Inf");
	prom_format_double(buf, sizeof(buf), -1.0 / 0.0);
	ck_assert_str_eq(buf, "-Inf");
	prom_format_double(buf, sizeof(buf), 0.0 / 0.0);
	ck_assert_str_eq(buf, "NaN");
}
END_TEST

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") &&
					     strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

START_TEST(test_textfile_atomic)
{
	char dir[] = "/tmp/barebpf-prom-XXXXXX", path[256], buf[64];
	struct stat st;
	FILE *f;
	mode_t old;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/barebpf.prom", dir);
	old = umask(077); /* the file must still be readable by others */
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", "a 1\n", 4),
			 0);
	umask(old);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", "b 2\n", 4),
			 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "b 2\n");
	/* no temporary file left beside it */
	ck_assert_int_eq(count_entries(dir), 1);
	/* a temporary file of a killed process with our pid is replaced */
	snprintf(path, sizeof(path), "%s/.barebpf.prom.%d", dir, (int)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", "c 3\n", 4),
			 0);
	ck_assert_int_eq(count_entries(dir), 1);
	/* errors: no such directory, a name with a slash */
	ck_assert_int_eq(prom_textfile_write("/nonexistent-barebpf",
					     "barebpf.prom", "x", 1), -ENOENT);
	ck_assert_int_eq(prom_textfile_write(dir, "a/b", "x", 1), -EINVAL);
	snprintf(path, sizeof(path), "%s/barebpf.prom", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *prom_suite(void)
{
	Suite *s = suite_create("prom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_counter_and_gauge_text);
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_histogram_text);
	tcase_add_test(tc, test_bucket_bounds);
	tcase_add_test(tc, test_textfile_atomic);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(prom, prom_suite, NULL)
