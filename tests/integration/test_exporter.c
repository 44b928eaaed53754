/* SPDX-License-Identifier: MIT */
/*
 * barebpf exporter on this kernel, with the real consumers: Debian's
 * Prometheus scrapes it on loopback and its HTTP API must show
 * barebpf_bio_latency_seconds_count{disk="loopN"} grown by exactly what
 * /sys/block/loopN/stat grew by over N direct reads; promtool checks a
 * scrape; node_exporter serves its --textfile; hostile clients do not stop
 * it from serving or counting, and its memory stays bounded; bad options
 * fail plainly.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"
#include "probe.h"

static const char *need_prometheus(void)
{
	const char *why = need_root_and_tools();
	char out[256];

	if (why)
		return why;
	if (sh("command -v prometheus", out, sizeof(out)) || !out[0])
		return "prometheus not found (scripts/deps.sh installs it)";
	if (sh("command -v prometheus-node-exporter", out, sizeof(out)) ||
	    !out[0])
		return "prometheus-node-exporter not found (scripts/deps.sh)";
	return NULL;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Start the exporter with args after "exporter"; wait for its line. */
static void exporter_start(struct proc *p, char **args)
{
	char *argv[16] = { (char *)barebpf(), "exporter" }, out[4096];
	int i;

	for (i = 0; args[i] && i < 13; i++)
		argv[2 + i] = args[i];
	argv[2 + i] = NULL;
	spawn(p, argv);
	read_until(p->out, out, sizeof(out), "Exporting", 30000);
	ck_assert_msg(strstr(out, "Exporting"), "the exporter did not start: "
		      "%s", out);
}

static void exporter_stop(struct proc *p)
{
	char err[4096];

	kill(p->pid, SIGINT);
	read_until(p->err, err, sizeof(err), NULL, 10000);
	ck_assert_msg(wait_exit(p->pid) == 0, "exporter exit: %s", err);
	close(p->out);
	close(p->err);
}

static void reads(int n)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "dd if=/dev/%s of=/dev/null bs=4k "
		 "count=%d iflag=direct 2>/dev/null", loopdev, n);
	ck_assert_int_eq(system(cmd), 0);
}

/* The sum of barebpf_bio_latency_seconds_count{disk=loopdev} in a scrape
 * text (0 if no series yet). */
static unsigned long long scraped_count(const char *text)
{
	char want[128];
	unsigned long long sum = 0;
	const char *p = text;

	snprintf(want, sizeof(want),
		 "barebpf_bio_latency_seconds_count{disk=\"%s\",", loopdev);
	while ((p = strstr(p, want))) {
		const char *sp = strchr(p, ' ');

		ck_assert_ptr_nonnull(sp);
		sum += strtoull(sp + 1, NULL, 10);
		p = sp;
	}
	return sum;
}

/*
 * Runs of biolatency's programs the kernel skipped (6.7+: another BPF
 * program was running on that CPU, e.g. another tool's on this shared
 * machine), from a scrape text: each loses at most one I/O's count.
 */
static unsigned long long scraped_skips(const char *text)
{
	const char *want = "barebpf_bpf_prog_skips_total{collector=\"biolatency\"} ";
	const char *p = strstr(text, want);

	return p ? strtoull(p + strlen(want), NULL, 10) : 0;
}

/* Every I/O counted, or lost to a skip the exporter reported. */
static void assert_accounted(const char *what, unsigned long long counted,
			     unsigned long long done, unsigned long long skips)
{
	ck_assert_msg(counted <= done && done - counted <= skips,
		      "%s: %llu I/Os counted, /sys/block/%s/stat %llu, %llu "
		      "program runs skipped by the kernel", what, counted,
		      loopdev, done, skips);
}

/* ---- Prometheus ---- */

static void url_encode(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 4 < len; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_')
			out[n++] = *s;
		else
			n += snprintf(out + n, len - n, "%%%02X",
				      (unsigned char)*s);
	}
	out[n] = 0;
}

/* An instant query: 1 and *v, *ts (the sample's value and time of the
 * first series), 0 for an empty result. */
static int prom_query(int port, const char *q, double *v, double *ts)
{
	char path[1024], enc[900];
	struct http_reply r;
	const char *p;

	url_encode(q, enc, sizeof(enc));
	snprintf(path, sizeof(path), "/api/v1/query?query=%s", enc);
	ck_assert_int_eq(http_get(port, path, &r, 10), 200);
	ck_assert_msg(strstr(r.body, "\"status\":\"success\""), "%s: %s", q,
		      r.body);
	p = strstr(r.body, "\"value\":[");
	if (!p)
		return 0;
	*ts = strtod(p + 9, NULL);
	p = strchr(p + 9, '"');
	ck_assert_ptr_nonnull(p);
	*v = strtod(p + 1, NULL);
	return 1;
}

/*
 * The time of the latest scrape of our job, once it is past `after`
 * (polling the API every 200 ms, 60 s at most).
 */
static double scraped_after(int port, double after)
{
	double t0 = mono(), v, ts = 0;

	while (mono() - t0 < 60) {
		if (prom_query(port, "timestamp(up{job=\"barebpf\"} == 1)", &v,
			       &ts) && v > after)
			return v;
		usleep(200000);
	}
	ck_abort_msg("Prometheus has not scraped the exporter since %.3f "
		     "(60 s)", after);
	return 0;
}

static double count_in_prometheus(int port)
{
	char q[256];
	double v = 0, ts;

	snprintf(q, sizeof(q), "sum(barebpf_bio_latency_seconds_count{disk="
		 "\"%s\"})", loopdev);
	return prom_query(port, q, &v, &ts) ? v : 0;
}

static double skips_in_prometheus(int port)
{
	double v = 0, ts;

	return prom_query(port, "sum(barebpf_bpf_prog_skips_total{collector="
			  "\"biolatency\"})", &v, &ts) ? v : 0;
}

START_TEST(test_prometheus_counts_exactly)
{
	char dir[] = "/tmp/barebpf-prometheus-XXXXXX", conf[320], listen[64];
	char cfgarg[340], tsdb[340], web[64], cmd[400], promtool[4200];
	char *args[] = { "--listen", listen, "--interval", "1", NULL };
	unsigned long long s0, s1;
	double v0, v1, k0, k1, t;
	struct http_reply r;
	struct proc ex;
	pid_t prom;
	int eport, pport, st;
	FILE *f;

	loop_setup();
	eport = free_port();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", eport);
	exporter_start(&ex, args);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/prometheus.yml", dir);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
		"scrape_configs:\n  - job_name: barebpf\n    static_configs:\n"
		"      - targets: ['127.0.0.1:%d']\n", eport);
	fclose(f);
	pport = free_port();
	snprintf(cfgarg, sizeof(cfgarg), "--config.file=%s", conf);
	snprintf(tsdb, sizeof(tsdb), "--storage.tsdb.path=%s/data", dir);
	snprintf(web, sizeof(web), "--web.listen-address=127.0.0.1:%d", pport);
	prom = fork();
	ck_assert_int_ge(prom, 0);
	if (!prom) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("prometheus", "prometheus", cfgarg, tsdb, web,
		       (char *)NULL);
		_exit(127);
	}

	for (t = mono(); mono() - t < 60; usleep(200000))
		if (http_get(pport, "/-/ready", &r, 5) == 200)
			break;
	ck_assert_msg(http_get(pport, "/-/ready", &r, 5) == 200,
		      "Prometheus not ready after 60 s");
	/* a scrape after a render after s0: Prometheus has what was done
	 * before s0 (nothing is done on the device meanwhile) */
	s0 = completed(loopdev);
	t = scraped_after(pport, wall() + 2.0);
	v0 = count_in_prometheus(pport);
	k0 = skips_in_prometheus(pport);
	reads(500);
	s1 = completed(loopdev);
	t = scraped_after(pport, wall() + 2.0);
	v1 = count_in_prometheus(pport);
	k1 = skips_in_prometheus(pport);
	printf("prometheus: barebpf_bio_latency_seconds_count{disk=\"%s\"} "
	       "%.0f -> %.0f (scraped at %.3f); /sys/block/%s/stat %llu -> "
	       "%llu\n", loopdev, v0, v1, t, loopdev, s0, s1);
	ck_assert_uint_ge(s1 - s0, 500);
	assert_accounted("Prometheus", (unsigned long long)(v1 - v0), s1 - s0,
			 (unsigned long long)(k1 - k0));

	/* promtool on a scrape of the exporter itself */
	ck_assert_int_eq(http_get(eport, "/metrics", &r, 5), 200);
	f = fopen(conf, "w"); /* reused as the scrape's file */
	ck_assert_ptr_nonnull(f);
	fwrite(r.body, 1, r.body_len, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s 2>&1", conf);
	st = sh(cmd, promtool, sizeof(promtool));
	ck_assert_msg(st == 0 && !promtool[0], "promtool check metrics: %s",
		      promtool);

	kill(prom, SIGTERM);
	ck_assert_int_eq(waitpid(prom, NULL, 0), prom);
	exporter_stop(&ex);
	loop_teardown();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---- every series from the start ---- */

/* Each operation of disk's histogram is in text, at 0. */
static void assert_disk_at_zero(const char *text, const char *disk)
{
	static const char *const ops[] = { "read", "write", "discard",
					   "flush", "other" };
	char want[160];
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		snprintf(want, sizeof(want), "barebpf_bio_latency_seconds_count"
			 "{disk=\"%s\",op=\"%s\"} ", disk, ops[i]);
		ck_assert_msg(strstr(text, want), "no %s in the first scrape",
			      want);
	}
}

/*
 * A series that appears with its first count loses it to Prometheus's
 * increase() and rate() (269 of 1,000 I/Os in one run): every whole disk
 * and operation is exported from the first scrape, and a disk made while
 * the exporter runs from the next render, before any I/O on it. Before:
 * only disks and operations that had I/O since the start.
 */
START_TEST(test_every_disk_from_start)
{
	char listen[64], name[32], path[64];
	char *args[] = { "--listen", listen, "--interval", "1", NULL };
	struct http_reply r;
	struct proc ex;
	int port, ctl, n;
	double t0;

	port = free_port();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	exporter_start(&ex, args);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	/* an idle whole disk of this machine, and vda's discards */
	ck_assert_msg(access("/sys/block/loop7", F_OK) == 0 ||
		      access("/sys/block/vda", F_OK) == 0, "no disk to check");
	if (access("/sys/block/loop7", F_OK) == 0)
		assert_disk_at_zero(r.body, "loop7");
	if (access("/sys/block/vda", F_OK) == 0)
		assert_disk_at_zero(r.body, "vda");
	/* a new loop device (LOOP_CTL_ADD, 0x4C80): no file, no I/O */
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(ctl, 0);
	for (n = 240; n < 256; n++) {
		snprintf(path, sizeof(path), "/sys/block/loop%d", n);
		if (access(path, F_OK) < 0 && ioctl(ctl, 0x4C80, n) == n)
			break;
	}
	ck_assert_int_lt(n, 256);
	snprintf(name, sizeof(name), "loop%d", n);
	for (t0 = mono(); mono() - t0 < 3; usleep(100000)) {
		ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
		if (strstr(r.body, name))
			break;
	}
	ioctl(ctl, 0x4C81, n); /* LOOP_CTL_REMOVE */
	close(ctl);
	exporter_stop(&ex);
	assert_disk_at_zero(r.body, name);
}
END_TEST

/* ---- node_exporter's textfile collector ---- */

START_TEST(test_textfile_for_node_exporter)
{
	char dir[] = "/tmp/barebpf-textfile-XXXXXX", path[320], listen[64];
	char tdir[340];
	char *args[] = { "--textfile", dir, "--interval", "1", NULL };
	unsigned long long s0, s1, c0 = 0, c1 = 0, k0;
	struct http_reply r;
	struct proc ex;
	double t0;
	pid_t ne;
	int port;

	loop_setup();
	ck_assert_ptr_nonnull(mkdtemp(dir));
	exporter_start(&ex, args);
	port = free_port();
	snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d",
		 port);
	snprintf(tdir, sizeof(tdir), "--collector.textfile.directory=%s", dir);
	ne = fork();
	ck_assert_int_ge(ne, 0);
	if (!ne) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("prometheus-node-exporter", "prometheus-node-exporter",
		       listen, "--collector.disable-defaults",
		       "--collector.textfile", tdir, (char *)NULL);
		_exit(127);
	}
	/* node_exporter reads the file at each scrape: poll until our
	 * build_info shows, then until the count settles after the reads */
	for (t0 = mono(); mono() - t0 < 30; usleep(200000))
		if (http_get(port, "/metrics", &r, 5) == 200 &&
		    strstr(r.body, "barebpf_build_info{"))
			break;
	ck_assert_msg(strstr(r.body, "barebpf_build_info{"),
		      "node_exporter never showed barebpf_build_info");
	ck_assert_ptr_nonnull(strstr(r.body, "node_textfile_scrape_error 0"));
	usleep(1500000);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	s0 = completed(loopdev);
	c0 = scraped_count(r.body);
	k0 = scraped_skips(r.body);
	reads(200);
	s1 = completed(loopdev);
	for (t0 = mono(); mono() - t0 < 10; usleep(200000)) {
		ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
		c1 = scraped_count(r.body);
		if (c1 - c0 >= s1 - s0)
			break;
	}
	usleep(2500000); /* two more renders: no count beyond the reads */
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	c1 = scraped_count(r.body);
	printf("textfile: node_exporter shows %llu I/Os on %s, its stat %llu\n",
	       c1 - c0, loopdev, s1 - s0);
	assert_accounted("textfile", c1 - c0, s1 - s0,
			 scraped_skips(r.body) - k0);
	kill(ne, SIGTERM);
	ck_assert_int_eq(waitpid(ne, NULL, 0), ne);
	exporter_stop(&ex);
	/* removed at exit: stale numbers would look live */
	snprintf(path, sizeof(path), "%s/barebpf.prom", dir);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	loop_teardown();
}
END_TEST

/* ---- hostile clients against the exporter itself ---- */

static long rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

START_TEST(test_hostile_clients_exporter)
{
	static int fds[1200];
	char listen[64];
	char *args[] = { "--listen", listen, "--interval", "1", NULL };
	unsigned long long s0, s1, c0, c1, k0;
	struct http_reply r;
	struct proc ex;
	long rss0, rss1;
	double t0, worst = 0;
	int port, i, k;

	loop_setup();
	port = free_port();
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	exporter_start(&ex, args);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	usleep(1500000);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	rss0 = rss_kib(ex.pid);
	s0 = completed(loopdev);
	c0 = scraped_count(r.body);
	k0 = scraped_skips(r.body);

	/* 1,000 idle connections and 200 slow ones, the I/O meanwhile */
	for (i = 0; i < 1000; i++)
		fds[i] = tcp_connect(port, 1);
	for (; i < 1200; i++) {
		fds[i] = tcp_connect(port, 0);
		ck_assert_int_ge(fds[i], 0);
		fcntl(fds[i], F_SETFL, O_NONBLOCK);
		(void)!send(fds[i], "GET /metrics HTTP/1.1\r\nX: ", 26,
			    MSG_NOSIGNAL);
	}
	/* the flood's handshakes done first: a scrape whose SYN meets a
	 * full accept queue is retried by its kernel a second later */
	usleep(300000);
	reads(300);
	s1 = completed(loopdev);
	for (t0 = mono(), k = 0; mono() - t0 < 6; k++) {
		for (i = 1000; i < 1200; i++)
			(void)!send(fds[i], "a", 1, MSG_NOSIGNAL);
		if (k % 5 == 0) {
			/* 2 s: a server that blocked on a client would
			 * lose its 5 s read timeout; the machine is shared
			 * (a 1 s bound failed once under load) */
			ck_assert_msg(http_get(port, "/metrics", &r, 2) == 200,
				      "no scrape within 2 s under attack");
			if (r.secs > worst)
				worst = r.secs;
		}
		usleep(100000);
	}
	c1 = scraped_count(r.body);
	rss1 = rss_kib(ex.pid);
	printf("exporter under attack (1,000 idle, 200 slowloris for 6 s): "
	       "scrapes answered in %.1f ms at most; counted %llu of %llu "
	       "I/Os; RSS %ld KiB before, %ld KiB after\n", worst * 1000,
	       c1 - c0, s1 - s0, rss0, rss1);
	assert_accounted("under attack", c1 - c0, s1 - s0,
			 scraped_skips(r.body) - k0);
	ck_assert_int_le(rss1 - rss0, 4096);
	for (i = 0; i < 1200; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	exporter_stop(&ex);
	loop_teardown();
}
END_TEST

/* ---- bad options: a plain message, exit 1, nothing left ---- */

START_TEST(test_bad_options)
{
	char out[4096], err[4096], listen[64];
	char *busy[] = { (char *)barebpf(), "exporter", "--listen", listen,
			 "--duration", "5", NULL };
	char *notdir[] = { (char *)barebpf(), "exporter", "--textfile",
			   "/etc/passwd", NULL };
	char *badaddr[] = { (char *)barebpf(), "exporter", "--listen", "19435",
			    NULL };
	char *badint[] = { (char *)barebpf(), "exporter", "--interval", "0",
			   NULL };
	int fd, port = free_port();

	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	fd = tcp_connect(port, 0); /* nobody there: refused */
	ck_assert_int_lt(fd, 0);
	{
		/* a first exporter holds the port */
		char *first[] = { "--listen", listen, NULL };
		struct proc a;

		exporter_start(&a, first);
		ck_assert_int_eq(run(busy, out, sizeof(out), err, sizeof(err)),
				 1);
		ck_assert_msg(strstr(err, "cannot listen on") &&
			      strstr(err, "another exporter"), "%s", err);
		exporter_stop(&a);
	}
	ck_assert_int_eq(run(notdir, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "is not a directory"));
	ck_assert_int_eq(run(badaddr, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "ADDR:PORT"));
	ck_assert_int_eq(run(badint, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "--interval"));
}
END_TEST

/*
 * Without kprobes (this build machine's kernel) the kprobe collectors are
 * left out and said so once; with --no-kprobes they are not tried at all.
 */
START_TEST(test_kprobe_collectors_left_out)
{
	char out[8192], err[8192], listen[64], tfs[256];
	char *plain[] = { (char *)barebpf(), "exporter", "--listen", listen,
			  "--duration", "1", NULL };
	char *none[] = { (char *)barebpf(), "exporter", "--listen", listen,
			 "--duration", "1", "--no-kprobes", NULL };
	const char *said = "the qenter, freeze, slowbio collectors are left out";
	const char *p;
	int n = 0;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	if (kprobes_available(tfs))
		bbtest_skip("this kernel has kprobes: the VM case "
			    "exporter-freeze runs every collector");
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", free_port());
	ck_assert_int_eq(run(plain, out, sizeof(out), err, sizeof(err)), 0);
	for (p = err; (p = strstr(p, said)); p++)
		n++;
	ck_assert_msg(n == 1, "said %d times: %s", n, err);
	ck_assert_msg(strstr(out, "Exporting metrics (biolatency)"),
		      "%s", out);
	ck_assert_int_eq(run(none, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(!strstr(err, "left out") && !strstr(err, "kprobe"),
		      "--no-kprobes: %s", err);
	ck_assert_msg(strstr(out, "Exporting metrics (biolatency)"),
		      "%s", out);
}
END_TEST

static Suite *exporter_suite(void)
{
	Suite *s = suite_create("exporter");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, test_prometheus_counts_exactly);
	tcase_add_test(tc, test_textfile_for_node_exporter);
	tcase_add_test(tc, test_every_disk_from_start);
	tcase_add_test(tc, test_hostile_clients_exporter);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_kprobe_collectors_left_out);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exporter, exporter_suite, need_prometheus)
