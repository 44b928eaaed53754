/* SPDX-License-Identifier: MIT */
/*
 * What loader/tools/exporter/prom.c writes, read by the real programs: promtool
 * (Debian's prometheus package) checks and lints the text; node_exporter's
 * textfile collector (prometheus-node-exporter) reads a file that
 * prom_textfile_write rewrites as fast as it can, and every scrape must see
 * one whole version or the other, never a part; a full filesystem leaves
 * the old file whole and no temporary file behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "prom.h"
#include "util.h"

static const char *need_prom_tools(void)
{
	char out[256];

	if (geteuid())
		return "needs root (a tmpfs is mounted for the full-disk case)";
	if (sh("command -v promtool", out, sizeof(out)) || !out[0])
		return "promtool not found (Debian package prometheus; "
		       "scripts/deps.sh installs it)";
	if (sh("command -v prometheus-node-exporter", out, sizeof(out)) ||
	    !out[0])
		return "prometheus-node-exporter not found (scripts/deps.sh "
		       "installs it)";
	return NULL;
}

/* Every kind of family the exporter writes, with hostile label values. */
static char *sample(size_t *len)
{
	struct prom_label build[] = { { "version", "0.1.0" },
				      { "kernel", "6.18.0-1-amd64" } };
	struct prom_label lat[] = { { "disk", "loop0" }, { "op", "read" } };
	struct prom_label odd[] = { { "disk", "we\"ird\\disk\nname\xff" } };
	struct prom_label freezer[] = { { "disk", "nullb0" },
					{ "comm", "kworker/0:1H" } };
	uint64_t slots[64] = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	slots[0] = 2;
	slots[4] = 7;
	slots[30] = 1;
	ck_assert_int_eq(prom_family(f, "barebpf_build_info", "gauge",
				     "Version of barebpf and of the kernel."), 0);
	ck_assert_int_eq(prom_sample_u64(f, "barebpf_build_info", build, 2, 1),
			 0);
	ck_assert_int_eq(prom_family(f, "barebpf_bio_latency_seconds",
				     "histogram", "Block I/O latency."), 0);
	ck_assert_int_eq(prom_hist_log2(f, "barebpf_bio_latency_seconds", lat,
					2, slots, 64, 27, 1e6, 0.125), 0);
	ck_assert_int_eq(prom_hist_log2(f, "barebpf_bio_latency_seconds", odd,
					1, slots, 64, 27, 1e6, 1e-3), 0);
	ck_assert_int_eq(prom_family(f, "barebpf_queue_freezes_total",
				     "counter", "Queue freezes."), 0);
	ck_assert_int_eq(prom_sample_u64(f, "barebpf_queue_freezes_total", odd,
					 1, 3), 0);
	ck_assert_int_eq(prom_family(f, "barebpf_queue_frozen_seconds_total",
				     "counter", "Time frozen."), 0);
	ck_assert_int_eq(prom_sample(f, "barebpf_queue_frozen_seconds_total",
				     odd, 1, 0.0421), 0);
	ck_assert_int_eq(prom_family(f, "barebpf_queue_last_freezer_info",
				     "gauge", "The task that froze it last."),
			 0);
	ck_assert_int_eq(prom_sample_u64(f, "barebpf_queue_last_freezer_info",
					 freezer, 2, 1), 0);
	fclose(f);
	return buf;
}

static char *write_temp(const char *text, size_t len)
{
	static char path[64];
	int fd;

	strcpy(path, "/tmp/barebpf-prom-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

START_TEST(test_promtool_accepts)
{
	char cmd[256], out[4096];
	size_t len;
	char *text = sample(&len), *path = write_temp(text, len);
	const char *bad;
	int st;

	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s 2>&1", path);
	st = sh(cmd, out, sizeof(out));
	ck_assert_msg(st == 0 && !out[0],
		      "promtool check metrics (exit %d): %s\n--- input:\n%s",
		      WEXITSTATUS(st), out, text);
	/* and it is a real check: a counter without _total is linted */
	unlink(path);
	bad = "# HELP b x\n# TYPE b counter\nb 1\n";
	path = write_temp(bad, strlen(bad));
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s 2>&1", path);
	st = sh(cmd, out, sizeof(out));
	ck_assert_int_ne(st, 0);
	ck_assert_ptr_nonnull(strstr(out, "_total"));
	unlink(path);
	free(text);
}
END_TEST

/* Does text have a sample line of name with every label of l and value? */
static int has_sample(const char *text, const char *name,
		      const struct prom_label *l, int nl, const char *value)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		const char *eol = strchr(p, '\n'), *sp;
		char line[2048];
		int i, ok = 1;

		if (!eol)
			eol = p + strlen(p);
		if ((p == text || p[-1] == '\n') && (p[n] == '{' || p[n] == ' ') &&
		    (size_t)(eol - p) < sizeof(line)) {
			snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
			for (i = 0; i < nl && ok; i++) {
				char want[512];

				snprintf(want, sizeof(want), "%s=\"%s\"",
					 l[i].name, l[i].value);
				ok = strstr(line, want) != NULL;
			}
			sp = strrchr(line, ' ');
			if (ok && sp && !strcmp(sp + 1, value))
				return 1;
		}
		p = eol;
	}
	return 0;
}

static int count_lines(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while ((p = strstr(p, prefix))) {
		n += p == text || p[-1] == '\n';
		p++;
	}
	return n;
}

/* node_exporter with the textfile collector only, on a free port. */
static pid_t node_exporter(const char *dir, int *port)
{
	char listen[64], tdir[300];
	struct http_reply r;
	double t0;
	pid_t pid;
	int i;

	*port = free_port();
	snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d",
		 *port);
	snprintf(tdir, sizeof(tdir), "--collector.textfile.directory=%s", dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int null = open("/dev/null", 1);

		dup2(null, 1);
		dup2(null, 2);
		execlp("prometheus-node-exporter", "prometheus-node-exporter",
		       listen, "--collector.disable-defaults",
		       "--collector.textfile", tdir, (char *)NULL);
		_exit(127);
	}
	for (t0 = mono(), i = 0; mono() - t0 < 20; i++) {
		if (http_get(*port, "/metrics", &r, 2) == 200)
			return pid;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ck_abort_msg("node_exporter did not answer on port %d in 20 s", *port);
	return -1;
}

static void stop(pid_t pid)
{
	kill(pid, SIGTERM);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
}

/* Two versions of a file, of different series and sizes. */
static char *version(int which, size_t *len)
{
	char *buf = NULL, v[16];
	FILE *f = open_memstream(&buf, len);
	struct prom_label l[1] = { { "i", v } };
	const char *name = which ? "barebpf_test_b_total" :
			   "barebpf_test_a_total";
	int i;

	ck_assert_ptr_nonnull(f);
	prom_family(f, name, "counter", "One version of the file.");
	for (i = 0; i < (which ? 500 : 1000); i++) {
		snprintf(v, sizeof(v), "%d", i);
		ck_assert_int_eq(prom_sample_u64(f, name, l, 1, i), 0);
	}
	fclose(f);
	return buf;
}

START_TEST(test_node_exporter_reads_textfile)
{
	char dir[] = "/tmp/barebpf-textfile-XXXXXX", path[300];
	struct prom_label lat[] = { { "disk", "loop0" }, { "op", "read" },
				    { "le", "3.1e-05" } };
	struct prom_label inf[] = { { "disk", "loop0" }, { "op", "read" },
				    { "le", "+Inf" } };
	struct prom_label fr[] = { { "disk", "nullb0" },
				   { "comm", "kworker/0:1H" } };
	struct http_reply r;
	size_t len, la, lb;
	char *text = sample(&len), *a = version(0, &la), *b = version(1, &lb);
	int port, scrapes = 0, sa = 0, sb = 0, st;
	pid_t ne, writer;
	double t0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", text, len),
			 0);
	ne = node_exporter(dir, &port);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	ck_assert_msg(has_sample(r.body, "barebpf_bio_latency_seconds_bucket",
				 lat, 3, "9") &&
		      has_sample(r.body, "barebpf_bio_latency_seconds_bucket",
				 inf, 3, "10") &&
		      has_sample(r.body, "barebpf_queue_last_freezer_info",
				 fr, 2, "1") &&
		      has_sample(r.body, "node_textfile_scrape_error", NULL, 0,
				 "0"),
		      "node_exporter did not show our metrics:\n%s", r.body);

	/* a writer rewrites it as fast as it can; scrapes see one version
	 * whole, or the other */
	writer = fork();
	ck_assert_int_ge(writer, 0);
	if (!writer) {
		double end = mono() + 3;
		int i;

		for (i = 0; mono() < end; i++)
			if (prom_textfile_write(dir, "barebpf.prom",
						i % 2 ? b : a,
						i % 2 ? lb : la) < 0)
				_exit(1);
		_exit(0);
	}
	for (t0 = mono(); mono() - t0 < 3; scrapes++) {
		int na, nb;

		ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
		na = count_lines(r.body, "barebpf_test_a_total{");
		nb = count_lines(r.body, "barebpf_test_b_total{");
		ck_assert_msg((na == 1000 && nb == 0) || (na == 0 && nb == 500) ||
			      (!na && !nb && count_lines(r.body,
				"barebpf_bio_latency_seconds_bucket{")),
			      "scrape %d saw %d series of one version and %d "
			      "of the other", scrapes, na, nb);
		ck_assert_msg(has_sample(r.body, "node_textfile_scrape_error",
					 NULL, 0, "0"),
			      "node_exporter could not read the file");
		sa += na == 1000;
		sb += nb == 500;
	}
	ck_assert_int_eq(waitpid(writer, &st, 0), writer);
	ck_assert_int_eq(st, 0);
	printf("textfile: %d node_exporter scrapes while it was rewritten: %d "
	       "saw one version whole, %d the other, none a part\n", scrapes,
	       sa, sb);
	ck_assert_int_gt(sa, 0);
	ck_assert_int_gt(sb, 0);
	stop(ne);
	snprintf(path, sizeof(path), "%s/barebpf.prom", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0); /* nothing else was left there */
	free(text);
	free(a);
	free(b);
}
END_TEST

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* A full filesystem (a 64 KiB tmpfs): the old file stays whole. */
START_TEST(test_textfile_full_disk)
{
	static char big[256 * 1024];
	char dir[] = "/tmp/barebpf-full-XXXXXX", cmd[128], buf[64], path[128];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mount -t tmpfs -o size=64k tmpfs %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", "old 1\n", 6),
			 0);
	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(prom_textfile_write(dir, "barebpf.prom", big,
					     sizeof(big)), -ENOSPC);
	snprintf(path, sizeof(path), "%s/barebpf.prom", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "old 1\n");
	ck_assert_int_eq(entries(dir), 1);
	snprintf(cmd, sizeof(cmd), "umount %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *prom_tools_suite(void)
{
	Suite *s = suite_create("prom_tools");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_promtool_accepts);
	tcase_add_test(tc, test_node_exporter_reads_textfile);
	tcase_add_test(tc, test_textfile_full_disk);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(prom_tools, prom_tools_suite, need_prom_tools)
