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
		const struct httpd_stats *st = httpd_get_stats(e->h);

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
		if (e->c[i].k->kprobes && (e->o.collectors & (1u << i)))
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

		if ((c->k->kprobes && e->o.no_kprobes) ||
		    !(e->o.collectors & (1u << i)))
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
	double now = bb_now_mono(), next = now, end = 0;
	int i, n, wait, ring = 0;

	if (e->o.duration > 0)
		end = now + e->o.duration;
	for (i = 0; i < e->nc; i++)
		ring |= e->c[i].on && e->c[i].pb;
	while (!bb_stop) {
		now = bb_now_mono();
		if (end && now >= end)
			break;
		if (now >= next) {
			publish(e);
			next = tool_next_tick(next, e->o.interval, now);
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
			httpd_serve(e->h, fds, n, bb_now_mono());
		for (i = 0; i < e->nc; i++)
			if (e->c[i].on && e->c[i].pb)
				perfbuf_poll(e->c[i].pb, 0);
	}
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
	if (exporter_parse_args(&cs[0].t, &e, argc, argv))
		return 1;
	for (i = 0; i < e.nc; i++) {
		cs[i].t.verbose = cs[0].t.verbose;
		cs[i].t.kver_override = cs[0].t.kver_override;
		cs[i].t.btf_file = cs[0].t.btf_file;
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
		exporter_listen_warn(&cs[0].t, &e.o);
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
		exporter_listen_url(e.o.listen, where, sizeof(where));
	if (e.o.textfile)
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "%s%s/%s", *where ? " and " : "", e.o.textfile,
			 EXP_TEXTFILE);
	printf("Exporting metrics (");
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
