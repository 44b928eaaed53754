/* SPDX-License-Identifier: MIT */
/* barebpf runqlen: run queue length sampled at 99 Hz, bcc's options and
 * output (histograms, -C per CPU, -O occupancy). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mods.h"
#include "../../bpf/runqlen.h"

static const struct tool_usage help = { NULL, "runqlen" };

struct runqlen_opts {
	int timestamp, occ, per_cpu, json;
	double interval, duration;
	unsigned long count;
};

/* the counts by CPU (one row without -C) and length, cumulative */
struct counts {
	int ncpus;
	uint64_t *now, *prev; /* ncpus * RUNQLEN_SLOTS */
};

static int parse_args(struct tool_ctx *t, struct runqlen_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		TOOL_LONGOPT_BTF,
		{ "runqocc", no_argument, NULL, 'O' },
		{ "cpus", no_argument, NULL, 'C' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTOCjv", longopts, &v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'O': o->occ = 1; break;
		case 'C': o->per_cpu = 1; break;
		}
	}
	if (c < 0)
		return c;
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

/* Read the map into c->now; the interval's counts are now - prev. */
static int collect(int fd, struct counts *c)
{
	struct runqlen_key key, next;
	void *kp = NULL;
	uint64_t v;

	memset(c->now, 0, c->ncpus * RUNQLEN_SLOTS * sizeof(*c->now));
	while (bpf_map_get_next_key(fd, kp, &next) == 0) {
		key = next;
		kp = &key;
		if (bpf_map_lookup_elem(fd, &key, &v) < 0 ||
		    (int)key.cpu >= c->ncpus || key.len >= RUNQLEN_SLOTS)
			continue;
		c->now[key.cpu * RUNQLEN_SLOTS + key.len] = v;
	}
	return 0;
}

static void occupancy(const uint64_t *d, double *pct)
{
	uint64_t all = 0;
	int i;

	for (i = 0; i < RUNQLEN_SLOTS; i++)
		all += d[i];
	*pct = all ? 100.0 * (all - d[0]) / all : 0;
}

static int last_cpu(const struct counts *c, const uint64_t *d)
{
	int cpu, i, last = -1;

	for (cpu = 0; cpu < c->ncpus; cpu++)
		for (i = 0; i < RUNQLEN_SLOTS; i++)
			if (d[cpu * RUNQLEN_SLOTS + i])
				last = cpu;
	return last;
}

static void print_json(const struct runqlen_opts *o, const struct counts *c,
		       const uint64_t *d)
{
	int cpu, last = o->per_cpu ? last_cpu(c, d) : 0;
	double pct;

	printf("{\"time\":\"%s\"", now_hms());
	if (!o->per_cpu) {
		occupancy(d, &pct);
		if (o->occ)
			printf(",\"runqocc\":%.2f}\n", pct);
		else {
			printf(",\"runqlen\":");
			hist_json_linear(stdout, d, RUNQLEN_SLOTS, "len");
			printf("}\n");
		}
		return;
	}
	printf(",\"cpus\":[");
	for (cpu = 0; cpu <= last; cpu++) {
		const uint64_t *row = d + cpu * RUNQLEN_SLOTS;

		printf("%s{\"cpu\":%d,", cpu ? "," : "", cpu);
		occupancy(row, &pct);
		if (o->occ)
			printf("\"runqocc\":%.2f}", pct);
		else {
			printf("\"runqlen\":");
			hist_json_linear(stdout, row, RUNQLEN_SLOTS, "len");
			printf("}");
		}
	}
	printf("]}\n");
}

static void print_text(const struct runqlen_opts *o, const struct counts *c,
		       const uint64_t *d)
{
	int cpu, last = o->per_cpu ? last_cpu(c, d) : 0;
	double pct;

	putchar('\n');
	if (o->timestamp)
		printf("%-8s\n", now_hms());
	if (!o->per_cpu) {
		occupancy(d, &pct);
		if (o->occ)
			printf("runqocc: %0.2f%%\n", pct);
		else
			hist_print_linear(stdout, d, RUNQLEN_SLOTS, "runqlen");
		return;
	}
	for (cpu = 0; cpu <= last; cpu++) {
		const uint64_t *row = d + cpu * RUNQLEN_SLOTS;

		if (o->occ) {
			occupancy(row, &pct);
			printf("runqocc, CPU %-3d %6.2f%%\n", cpu, pct);
			continue;
		}
		/* bcc prints the CPUs that have counts */
		if (last_cpu(&(struct counts){ 1, NULL, NULL }, row) < 0)
			continue;
		printf("\ncpu = %d\n", cpu);
		hist_print_linear(stdout, row, RUNQLEN_SLOTS, "runqlen");
	}
}

static int output_loop(struct tool_ctx *t, const struct runqlen_opts *o,
		       int fd, struct counts *c)
{
	size_t n = c->ncpus * RUNQLEN_SLOTS;
	uint64_t *d = calloc(n, sizeof(*d));
	unsigned long count = o->count;
	struct tool_timer tm;
	int tick;
	size_t i;

	if (!d)
		return tool_fail(t, -ENOMEM, "out of memory");
	tool_timer_init(&tm, o->interval, o->duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		collect(fd, c);
		for (i = 0; i < n; i++)
			d[i] = c->now[i] - c->prev[i];
		memcpy(c->prev, c->now, n * sizeof(*d));
		if (o->json)
			print_json(o, c, d);
		else
			print_text(o, c, d);
		fflush(stdout);
		if (tick == TOOL_TICK_LAST || (count && --count == 0))
			break;
	}
	free(d);
	return 0;
}

static int runqlen_main(int argc, char **argv)
{
	struct runqlen_opts o = { 0 };
	struct runqlen_settings s = { 0 };
	struct runqlen_run r;
	struct counts c = { 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "runqlen");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	s.per_cpu = o.per_cpu;
	s.hz = 99;
	c.ncpus = o.per_cpu ? bb_ncpus_possible() : 1;
	if (c.ncpus < 1)
		c.ncpus = 1;
	c.now = calloc(c.ncpus * RUNQLEN_SLOTS, sizeof(*c.now));
	c.prev = calloc(c.ncpus * RUNQLEN_SLOTS, sizeof(*c.prev));
	if (!c.now || !c.prev) {
		tool_error(&t, "out of memory");
		goto out;
	}
	tool_signals();
	if (runqlen_start(&t, &s, &r) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Sampling run queue length... Hit Ctrl-C to end.\n");
	if (output_loop(&t, &o, r.dist_fd, &c) == 0)
		ret = 0;
out:
	tool_cleanup(&t);
	free(c.now);
	free(c.prev);
	return ret;
}

const struct tool tool_runqlen = {
	"runqlen", runqlen_main,
	"run queue length histogram, sampled (perf events; bcc's options)"
};
