/* SPDX-License-Identifier: MIT */
/*
 * barebpf exporter: the block-layer signals as Prometheus metrics, for the
 * hosts ebpf_exporter cannot reach (no BTF).
 *
 * One collector per BPF program (exporter_collect.c). One poll loop
 * renders every --interval seconds, serves HTTP (httpd.c: non-blocking)
 * and drains the freeze ring; nothing in it waits for a client.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "exporter.h"
#include "prom.h"

static const char usage[] =
"usage: barebpf exporter [-h] [--listen ADDR:PORT] [--allow ADDR[/PREFIX]]\n"
"                        [--textfile DIR]\n"
"                        [--interval SECONDS] [--slow-us US] [--no-kprobes]\n"
"                        [--duration SECONDS] [-v]\n"
"\n"
"Export block-layer latency, queue freezes and the waits they cause as\n"
"Prometheus metrics: over HTTP (GET /metrics) and/or as a file for\n"
"node_exporter's textfile collector. The probes stay attached; every\n"
"interval the maps are read (never cleared: counters grow for the whole\n"
"run) and the metrics are rendered anew.\n"
"\n"
"metrics (labels):\n"
"  barebpf_bio_latency_seconds (disk, op)   histogram, issue to completion\n"
"                                            (op: read write discard flush\n"
"                                            other); tracepoints\n"
"  barebpf_queue_enter_wait_seconds (disk)  histogram, time bios wait to\n"
"                                            enter the queue; kprobes\n"
"  barebpf_queue_freezes_total (disk)       blk-mq queue freezes; kprobes\n"
"  barebpf_queue_frozen_seconds_total (disk)  time frozen; kprobes\n"
"  barebpf_queue_last_freezer_info (disk, comm)  who froze it last\n"
"  barebpf_slow_bio_submissions_total (disk)  bio submissions slower than\n"
"                                            --slow-us; kprobes\n"
"  barebpf_collector_enabled, barebpf_probes_attached,\n"
"  barebpf_kretprobe_misses_total, barebpf_events_lost_total,\n"
"  barebpf_bpf_prog_skips_total (6.7+), barebpf_http_*, barebpf_build_info\n"
"Buckets are the log2 slots of integer microseconds: le is the largest\n"
"value a slot holds, (2^(i+1) - 1) us, up to 134 s.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -l, --listen ADDR:PORT  serve GET /metrics here (default 127.0.0.1:19435\n"
"                        unless --textfile alone is given; :PORT for every\n"
"                        IPv4 interface, [::]:PORT for IPv6 too)\n"
"  -a, --allow ADDR[/PREFIX]  serve only these clients (repeatable; e.g.\n"
"                        10.0.0.7 or 192.168.1.0/24): others are closed\n"
"                        unanswered. The metrics name tasks and the kernel\n"
"                        release: beyond loopback, restrict who scrapes\n"
"  -t, --textfile DIR    write DIR/barebpf.prom every interval (a temporary\n"
"                        file renamed over it: never a part); removed at exit\n"
"  -i, --interval SECONDS  how often the metrics are rendered (default 5,\n"
"                        at most 86400)\n"
"      --slow-us US      slow bio submission threshold (default 10000)\n"
"      --no-kprobes      tracepoint collectors only\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf exporter                    # http://127.0.0.1:19435/metrics\n"
"  barebpf exporter --listen :19435 --allow 10.0.0.7\n"
"                                      # every interface, for a remote\n"
"                                      # Prometheus at 10.0.0.7 only\n"
"  barebpf exporter --textfile /var/lib/prometheus/node-exporter\n"
"                                      # for node_exporter's textfile\n"
"                                      # collector, no HTTP\n"
"  barebpf exporter --no-kprobes -i 15 # latency only, every 15 s\n";
static const struct tool_usage help = { NULL, usage };

/* ---- the exporter's own health ---- */

static int nlinks(const struct collector *c)
{
	const struct bb_link *l;
	int n = 0;

	for (l = c->t.sess.links; l; l = l->next)
		n++;
	return n;
}

/* bpf_prog_info.recursion_misses over the collector's programs. */
static int prog_skips(struct collector *c, uint64_t *sum)
{
	int i, n = obj_nprogs(c->t.obj);

	*sum = 0;
	for (i = 0; i < n; i++) {
		struct bb_prog *p = obj_prog_at(c->t.obj, i);
		uint64_t v;

		if (p->fd < 0)
			continue;
		if (bpf_prog_recursion_misses(p->fd, &v) < 0)
			return -1;
		*sum += v;
	}
	return 0;
}

static void render_health(struct exporter *e, FILE *f)
{
	static const char *const codes[] = { "200", "400", "404", "405", "431",
					     "505" };
	struct prom_label l;
	int i;

	prom_family(f, "barebpf_collector_enabled", "gauge",
		    "1 if the collector is attached; 0 if this kernel or the "
		    "options left it out.");
	for (i = 0; i < e->nc; i++) {
		l = (struct prom_label){ "collector", e->c[i].k->name };
		prom_sample_u64(f, "barebpf_collector_enabled", &l, 1,
				e->c[i].on);
	}
	prom_family(f, "barebpf_probes_attached", "gauge",
		    "Probes (tracepoints, kprobes, kretprobes) attached.");
	for (i = 0; i < e->nc; i++) {
		l = (struct prom_label){ "collector", e->c[i].k->name };
		prom_sample_u64(f, "barebpf_probes_attached", &l, 1,
				e->c[i].on ? nlinks(&e->c[i]) : 0);
	}
	prom_family(f, "barebpf_kretprobe_misses_total", "counter",
		    "Calls whose return was not seen (more in flight than the "
		    "kretprobe's maxactive), from kprobe_profile.");
	for (i = 0; i < e->nc; i++) {
		long m;

		if (!e->c[i].on || !e->c[i].k->kprobes)
			continue;
		m = session_kretprobe_misses(&e->c[i].t.sess);
		l = (struct prom_label){ "collector", e->c[i].k->name };
		if (m >= 0)
			prom_sample_u64(f, "barebpf_kretprobe_misses_total", &l,
					1, m);
	}
	prom_family(f, "barebpf_events_lost_total", "counter",
		    "Records the kernel could not put in a full perf ring.");
	for (i = 0; i < e->nc; i++) {
		if (!e->c[i].on || !e->c[i].pb)
			continue;
		l = (struct prom_label){ "collector", e->c[i].k->name };
		prom_sample_u64(f, "barebpf_events_lost_total", &l, 1,
				perfbuf_lost(e->c[i].pb));
	}
	/* counted for tracepoint and kprobe programs from 6.7 on (5.12-6.6
	 * have the field but count only trampoline programs in it) */
	if (e->kver >= KVER(6, 7, 0)) {
		prom_family(f, "barebpf_bpf_prog_skips_total", "counter",
			    "Runs of our programs the kernel skipped because "
			    "a BPF program was already running on that CPU.");
		for (i = 0; i < e->nc; i++) {
			uint64_t v;

			if (!e->c[i].on || prog_skips(&e->c[i], &v) < 0)
				continue;
			l = (struct prom_label){ "collector", e->c[i].k->name };
			prom_sample_u64(f, "barebpf_bpf_prog_skips_total", &l,
					1, v);
		}
	}
	if (e->h) {
		const struct httpd_stats *st = httpd_stats(e->h);

		prom_family(f, "barebpf_http_requests_total", "counter",
			    "HTTP requests answered, by status code.");
		for (i = 0; i < 6; i++) {
			l = (struct prom_label){ "code", codes[i] };
			prom_sample_u64(f, "barebpf_http_requests_total", &l,
					1, st->by_status[i]);
		}
		prom_family(f, "barebpf_http_connections_dropped_total",
			    "counter", "HTTP connections closed before an "
			    "answer: evicted for a newer one, refused while "
			    "all were new, or past their deadline.");
		l = (struct prom_label){ "reason", "evicted" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->evicted);
		l = (struct prom_label){ "reason", "refused" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->refused);
		l = (struct prom_label){ "reason", "timeout" };
		prom_sample_u64(f, "barebpf_http_connections_dropped_total", &l,
				1, st->timed_out);
	}
	{
		struct prom_label b[2] = { { "version", BB_VERSION },
					   { "kernel", e->release } };

		prom_family(f, "barebpf_build_info", "gauge",
			    "barebpf's version and the running kernel's "
			    "release (uname -r).");
		prom_sample_u64(f, "barebpf_build_info", b, 2, 1);
	}
}

/* Every family, into a malloc'ed buffer. */
static int render(struct exporter *e, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int i, ret;

	if (!f)
		return -ENOMEM;
	blkdisks_scan(&e->disks);
	for (i = 0; i < e->nc; i++)
		if (e->c[i].on)
			e->c[i].k->render(e, &e->c[i], f);
	render_health(e, f);
	ret = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) || ret) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void publish(struct exporter *e)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (render(e, &buf, &len) < 0) {
		tool_error(&e->c[0].t, "warning: out of memory: metrics not "
			   "renewed");
		return;
	}
	if (e->h && httpd_set_metrics(e->h, buf, len) < 0)
		tool_error(&e->c[0].t, "warning: out of memory: metrics not "
			   "renewed");
	if (e->o.textfile) {
		ret = prom_textfile_write(e->o.textfile, EXP_TEXTFILE, buf, len);
		if (ret < 0 && ret != e->textfile_err)
			tool_error(&e->c[0].t, "warning: cannot write %s/%s: %s "
				   "(trying again every interval)",
				   e->o.textfile, EXP_TEXTFILE, strerror(-ret));
		else if (!ret && e->textfile_err)
			tool_error(&e->c[0].t, "%s/%s written again",
				   e->o.textfile, EXP_TEXTFILE);
		e->textfile_err = ret;
		e->wrote_textfile |= !ret;
	}
	free(buf);
}

/* ---- the straight line ---- */

/* Create and remove a file in dir as prom_textfile_write would. */
static int textfile_try(const char *dir)
{
	char path[4096];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/.%s.%d.try", dir,
			     EXP_TEXTFILE, (int)getpid()) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(path);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct exporter *e, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "listen", required_argument, NULL, 'l' },
		{ "allow", required_argument, NULL, 'a' },
		{ "textfile", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "slow-us", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ "no-kprobes", no_argument, NULL, TOOL_OPT_FIRST_OWN + 1 },
		{ 0 }
	};
	struct exp_opts *o = &e->o;
	struct sockaddr_storage ss;
	const char *why;
	socklen_t len;
	struct stat st;
	int c, ret;

	o->interval = EXP_INTERVAL;
	o->slow_us = EXP_SLOW_US;
	while ((c = getopt_long(argc, argv, "hl:a:t:i:v", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'l': o->listen = optarg; break;
		case 'a':
			if (o->nallow == EXP_MAX_ALLOW)
				return tool_fail(t, -EINVAL, "at most %d --allow",
						 EXP_MAX_ALLOW);
			if (httpd_parse_allow(optarg, &o->allow[o->nallow],
					      &why) < 0)
				return tool_fail(t, -EINVAL, "--allow '%s': %s",
						 optarg, why);
			o->nallow++;
			break;
		case 't': o->textfile = optarg; break;
		case 'i':
			if (opt_seconds(t, "--interval", optarg, &o->interval))
				return 1;
			if (o->interval > EXP_INTERVAL_MAX)
				return tool_fail(t, -EINVAL, "--interval %s: at "
						 "most %.0f seconds (a day)",
						 optarg, EXP_INTERVAL_MAX);
			break;
		case TOOL_OPT_FIRST_OWN:
			if (parse_ulong(optarg, &o->slow_us) < 0 || !o->slow_us ||
			    o->slow_us > 3600000000UL)
				return tool_fail(t, -EINVAL,
						 "--slow-us needs a number of "
						 "microseconds from 1 to "
						 "3600000000, not '%s'",
						 optarg);
			break;
		case TOOL_OPT_FIRST_OWN + 1: o->no_kprobes = 1; break;
		default:
			if (tool_opt(t, c, &help, NULL, &o->duration))
				return 1;
			break;
		}
	}
	if (opt_no_args(t, argc, argv))
		return 1;
	/* serve() waits in int milliseconds until the end */
	if (o->duration > EXP_DURATION_MAX)
		return tool_fail(t, -EINVAL, "--duration: at most %.0f seconds "
				 "(24 days); without it, the exporter runs "
				 "until stopped", EXP_DURATION_MAX);
	if (!o->listen && !o->textfile) {
		static char dflt[32];

		snprintf(dflt, sizeof(dflt), "127.0.0.1:%d",
			 HTTPD_DEFAULT_PORT);
		o->listen = dflt;
	}
	if (o->listen && httpd_parse_listen(o->listen, &ss, &len, &why) < 0)
		return tool_fail(t, -EINVAL,
				 "--listen '%s': %s", o->listen, why);
	if (o->textfile && (stat(o->textfile, &st) < 0 ||
			    !S_ISDIR(st.st_mode)))
		return tool_fail(t, -EINVAL,
				 "--textfile '%s' is not a directory: give "
				 "the directory node_exporter reads "
				 "(--collector.textfile.directory)",
				 o->textfile);
	if (o->textfile && access(o->textfile, W_OK) < 0)
		return tool_fail(t, -EINVAL,
				 "--textfile '%s': %s: barebpf.prom cannot "
				 "be written there", o->textfile,
				 strerror(errno));
	/* root passes access(), yet /proc or a read-only mount refuse the
	 * file: find out now, not in a warning every interval */
	if (o->textfile && (ret = textfile_try(o->textfile)) < 0)
		return tool_fail(t, -EINVAL,
				 "--textfile '%s': %s: barebpf.prom cannot "
				 "be written there", o->textfile,
				 strerror(-ret));
	if (o->nallow && !o->listen)
		return tool_fail(t, -EINVAL,
				 "--allow is for the HTTP listener: give "
				 "--listen too");
	return 0;
}

/* available_filter_functions once for the kprobe collectors; 0 if this
 * kernel has no kprobes (said once), -1 on an error said. */
static int kprobes_ready(struct exporter *e)
{
	struct tool_ctx *t = &e->c[0].t;
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	char names[64] = "";
	int i;

	if (!tfs)
		return -1;
	if (kprobes_available(tfs)) {
		if (tool_need_kprobes(t) < 0)
			return -1;
		e->navail = kprobe_match(tfs, "*", &e->avail, &err);
		if (e->navail >= 0)
			return 1;
		e->navail = 0;
		tool_error(t, "%s", err.msg);
		return -1;
	}
	for (i = 0; i < e->nc; i++)
		if (e->c[i].k->kprobes)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 *names ? ", " : "", e->c[i].k->name);
	tool_error(t, "this kernel has no kprobe_events (CONFIG_KPROBES, "
		   "CONFIG_KPROBE_EVENTS): the %s collectors are left out; "
		   "only what tracepoints show is exported", names);
	return 0;
}

static int start_collectors(struct exporter *e)
{
	int i, kp = -2, on = 0;

	for (i = 0; i < e->nc && !bb_stop; i++) {
		struct collector *c = &e->c[i];

		if (c->k->kprobes && e->o.no_kprobes)
			continue;
		if (c->k->kprobes && kp == -2)
			kp = kprobes_ready(e);
		if (c->k->kprobes && kp <= 0)
			continue;
		if (c->k->start(e, c) < 0) {
			tool_error(&c->t, "the %s collector is left out",
				   c->k->name);
			c->k->stop(c);
			perfbuf_close(c->pb);
			c->pb = NULL;
			tool_cleanup(&c->t);
			continue;
		}
		c->on = 1;
		on++;
		if (c->t.verbose)
			fprintf(stderr, "collector %s: %d probes\n", c->k->name,
				nlinks(c));
	}
	return on;
}

static void stop_collectors(struct exporter *e)
{
	int i;

	/* the reverse order: the first one may have mounted tracefs, which
	 * the others' probes need until they are gone */
	for (i = e->nc - 1; i >= 0; i--) {
		struct collector *c = &e->c[i];

		perfbuf_close(c->pb);
		c->pb = NULL;
		tool_cleanup(&c->t);
		c->k->stop(c);
		c->on = 0;
	}
}

static void serve(struct exporter *e)
{
	struct pollfd fds[HTTPD_MAX_CONNS + 1];
	double now = now_mono(), next = now, end = 0;
	int i, n, wait, ring = 0;

	if (e->o.duration > 0)
		end = now + e->o.duration;
	for (i = 0; i < e->nc; i++)
		ring |= e->c[i].on && e->c[i].pb;
	while (!bb_stop) {
		now = now_mono();
		if (end && now >= end)
			break;
		if (now >= next) {
			publish(e);
			while (next <= now)
				next += e->o.interval;
		}
		/* wake at least once a second: a signal between the check
		 * and the poll is not missed for long */
		wait = (int)((next - now) * 1000) + 1;
		if (wait > 1000)
			wait = 1000;
		if (end && (int)((end - now) * 1000) + 1 < wait)
			wait = (int)((end - now) * 1000) + 1;
		if (ring && wait > EXP_RING_DRAIN_MS)
			wait = EXP_RING_DRAIN_MS;
		n = 0;
		if (e->h) {
			int t = httpd_timeout_ms(e->h, now);

			n = httpd_pollfds(e->h, fds, HTTPD_MAX_CONNS + 1, now);
			if (t >= 0 && t < wait)
				wait = t;
		}
		poll(fds, n, wait); /* EINTR on a signal: bb_stop is looked at */
		if (e->h)
			httpd_serve(e->h, fds, n, now_mono());
		for (i = 0; i < e->nc; i++)
			if (e->c[i].on && e->c[i].pb)
				perfbuf_poll(e->c[i].pb, 0);
	}
}

/*
 * The metrics name tasks (the last freezer's comm) and the kernel release:
 * listening beyond loopback with no --allow serves them to anyone who can
 * reach the port. Said, not refused: a remote Prometheus is a normal
 * setup, behind a firewall of its own.
 */
static void listen_warn(struct tool_ctx *t, const struct exp_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (httpd_parse_listen(o->listen, &ss, &len, NULL) < 0 ||
	    httpd_is_loopback(&ss))
		return;
	if (!o->nallow)
		tool_error(t, "warning: listening on %s, beyond loopback, "
			   "and any client that reaches the port may read "
			   "the metrics (task names, the kernel release): "
			   "restrict it with --allow ADDR[/PREFIX], or use "
			   "--textfile and no port", o->listen);
	else if (t->verbose)
		fprintf(stderr, "listening on %s for %d allowed address%s\n",
			o->listen, o->nallow, o->nallow == 1 ? "" : "es");
}

/* A URL to the metrics that a browser or curl on this host can open:
 * for a wildcard, loopback (not http://:19435/metrics); otherwise the
 * address as given. */
static void listen_url(const char *listen, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	if (httpd_parse_listen(listen, &ss, &sl, NULL) == 0 &&
	    ((ss.ss_family == AF_INET &&
	      ((struct sockaddr_in *)&ss)->sin_addr.s_addr == INADDR_ANY) ||
	     (ss.ss_family == AF_INET6 &&
	      IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr))))
		httpd_url(&ss, buf, len);
	else
		snprintf(buf, len, "http://%s/metrics", listen);
}

static int exporter_main(int argc, char **argv)
{
	struct collector cs[EXP_NCOLLECTORS];
	struct exporter e = { 0 };
	struct bb_err err = { "" };
	struct utsname u;
	char src[64], where[320] = "";
	int i, n, ret = 1;

	memset(cs, 0, sizeof(cs));
	e.c = cs;
	e.nc = EXP_NCOLLECTORS;
	for (i = 0; i < e.nc; i++) {
		cs[i].k = &exp_collectors[i];
		tool_init(&cs[i].t, "exporter");
		/* the collectors' sessions share our kprobe group: each
		 * names its events from a counter of its own */
		cs[i].t.sess.nprobes = i * 10000;
	}
	if (parse_args(&cs[0].t, &e, argc, argv))
		return 1;
	for (i = 0; i < e.nc; i++) {
		cs[i].t.verbose = cs[0].t.verbose;
		cs[i].t.kver_override = cs[0].t.kver_override;
	}
	if (uname(&u) == 0)
		snprintf(e.release, sizeof(e.release), "%s", u.release);
	if (kver_detect(cs[0].t.kver_override, &e.kver, src, sizeof(src), &err) < 0)
		e.kver = 0; /* tool_load says why, where it matters */
	tool_signals();
	/* the port first: a port in use is said before any probe exists */
	if (e.o.listen) {
		ret = httpd_open(&e.h, e.o.listen);
		if (ret < 0) {
			tool_error(&cs[0].t, "cannot listen on %s: %s%s",
				   e.o.listen, strerror(-ret),
				   ret == -EADDRINUSE ? " (another exporter on "
				   "this port? choose one with --listen)" : "");
			return 1;
		}
		ret = 1;
		httpd_set_allow(e.h, e.o.allow, e.o.nallow);
		listen_warn(&cs[0].t, &e.o);
	}
	/* every collector needs it: said once, not once per collector */
	if (!tool_tracefs(&cs[0].t))
		goto out;
	if (!start_collectors(&e)) {
		if (!bb_stop)
			tool_error(&cs[0].t, "no collector could start: "
				   "nothing to export");
		goto out;
	}
	if (e.o.listen)
		listen_url(e.o.listen, where, sizeof(where));
	if (e.o.textfile)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "%s%s/%s", *where ? " and " : "", e.o.textfile,
			 EXP_TEXTFILE);
	printf("Exporting block-layer metrics (");
	for (i = 0, n = 0; i < e.nc; i++)
		if (cs[i].on)
			printf("%s%s", n++ ? ", " : "", cs[i].k->name);
	printf(") to %s every %g s... Hit Ctrl-C to end.\n", where,
	       e.o.interval);
	fflush(stdout);
	serve(&e);
	ret = 0;
out:
	httpd_close(e.h);
	stop_collectors(&e);
	if (e.wrote_textfile) {
		char path[4096];

		/* stale numbers would look live to node_exporter */
		snprintf(path, sizeof(path), "%s/%s", e.o.textfile,
			 EXP_TEXTFILE);
		unlink(path);
	}
	blkdisks_free(&e.disks);
	bb_free_strv(e.avail, e.navail);
	return ret;
}

const struct tool tool_exporter = {
	"exporter", exporter_main,
	"Prometheus metrics: latency, queue freezes, waits (HTTP, textfile)"
};
