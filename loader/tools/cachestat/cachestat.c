/* SPDX-License-Identifier: MIT */
/* barebpf cachestat: page-cache hits and misses per interval, as bcc's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "cachestat_out.h"

static const struct tool_usage help = { NULL, "cachestat" };

struct cachestat_opts {
	int timestamp, json;
	double interval, duration;
	unsigned long count;
};

void cachestat_compute(const uint64_t *d, struct cachestat_row *r)
{
	int64_t total = (int64_t)d[CACHESTAT_MPA] - (int64_t)d[CACHESTAT_MBD];
	int64_t misses = (int64_t)d[CACHESTAT_APCL] -
			 (int64_t)d[CACHESTAT_APD];
	int64_t hits;

	if (misses < 0)
		misses = 0;
	if (total < 0)
		total = 0;
	hits = total - misses;
	if (hits < 0) {
		misses = total;
		hits = 0;
	}
	r->hits = hits;
	r->misses = misses;
	r->dirties = d[CACHESTAT_MBD];
	r->ratio = total > 0 ? (double)hits / total : 0;
}

void cachestat_print_header(FILE *f, int timestamp)
{
	if (timestamp)
		fprintf(f, "%-8s ", "TIME");
	fprintf(f, "%8s %8s %8s %8s %12s %10s\n", "HITS", "MISSES", "DIRTIES",
		"HITRATIO", "BUFFERS_MB", "CACHED_MB");
}

void cachestat_print(FILE *f, const struct cachestat_row *r,
		     uint64_t buffers_kb, uint64_t cached_kb, const char *hms,
		     int timestamp, int json)
{
	if (json) {
		fprintf(f, "{\"time\":\"%s\",\"hits\":%llu,\"misses\":%llu,"
			"\"dirties\":%llu,\"hitratio\":%.4f,\"buffers_mb\":%.0f,"
			"\"cached_mb\":%.0f}\n", hms,
			(unsigned long long)r->hits,
			(unsigned long long)r->misses,
			(unsigned long long)r->dirties, r->ratio,
			buffers_kb / 1024.0, cached_kb / 1024.0);
		return;
	}
	if (timestamp)
		fprintf(f, "%-8s ", hms);
	fprintf(f, "%8llu %8llu %8llu %7.2f%% %12.0f %10.0f\n",
		(unsigned long long)r->hits, (unsigned long long)r->misses,
		(unsigned long long)r->dirties, 100 * r->ratio,
		buffers_kb / 1024.0, cached_kb / 1024.0);
}

/* "Buffers:" and "Cached:" of /proc/meminfo, in KiB (0 if unread) */
static void meminfo(uint64_t *buffers, uint64_t *cached)
{
	char *text = NULL, *p;

	*buffers = *cached = 0;
	if (bb_read_file("/proc/meminfo", &text) < 0)
		return;
	if ((p = strstr(text, "\nBuffers:")))
		*buffers = strtoull(p + 9, NULL, 10);
	if ((p = strstr(text, "\nCached:")))
		*cached = strtoull(p + 8, NULL, 10);
	free(text);
}

struct cachestat_loop {
	const struct cachestat_opts *o;
	int fd;
	uint64_t prev[CACHESTAT_NSTATS];
};

static void print_interval(void *ctx)
{
	struct cachestat_loop *l = ctx;
	const struct cachestat_opts *o = l->o;
	uint64_t d[CACHESTAT_NSTATS], buffers, cached;
	struct cachestat_row r;

	bpf_map_percpu_deltas(l->fd, CACHESTAT_NSTATS, l->prev, d);
	cachestat_compute(d, &r);
	meminfo(&buffers, &cached);
	cachestat_print(stdout, &r, buffers, cached, now_hms(), o->timestamp,
			o->json);
}

static int parse_args(struct tool_ctx *t, struct cachestat_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	o->interval = 1;
	while ((c = tool_getopt(t, argc, argv, "hTjv", longopts, &v)) > 0)
		if (c == 'T')
			o->timestamp = 1;
	if (c < 0)
		return c;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

static int output_loop(const struct cachestat_opts *o, int fd)
{
	struct cachestat_loop l = { .o = o, .fd = fd };
	uint64_t d[CACHESTAT_NSTATS];

	/* the calls made while attaching are not the first interval's */
	bpf_map_percpu_deltas(fd, CACHESTAT_NSTATS, l.prev, d);
	/* bcc prints the interval cut short by Ctrl-C */
	tool_every(o->interval, o->duration, o->count, TOOL_EVERY_PARTIAL,
		   print_interval, &l);
	return 0;
}

static int cachestat_main(int argc, char **argv)
{
	struct cachestat_opts o = { 0 };
	struct tool_ctx t;
	char **avail = NULL, what[160] = "";
	int ret = 1, n = 0;

	tool_init(&t, "cachestat");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (tool_need_kprobes(&t) < 0)
		goto out;
	n = tool_funcs(&t, BB_FUNCS_FTRACE, cachestat_wanted_fns, 7, 7,
		       &avail);
	if (n < 0) {
		n = 0;
		goto out;
	}
	if (cachestat_start(&t, avail, n, what, sizeof(what)) < 0)
		goto out;
	if (o.json) {
		tool_tracing(&t, stderr, "Tracing page cache (%s)... Hit "
			     "Ctrl-C to end.\n", what);
	} else {
		if (t.verbose)
			tool_error(&t, "counting %s", what);
		cachestat_print_header(stdout, o.timestamp);
		tool_tracing(&t, stdout, "%s", "");
	}
	ret = output_loop(&o, cachestat_stats_fd(&t));
out:
	tool_cleanup(&t);
	bb_free_strv(avail, n);
	return ret;
}

const struct tool tool_cachestat = {
	"cachestat", cachestat_main,
	"page-cache hits, misses, dirties per interval (kprobes; bcc's)"
};
