/* SPDX-License-Identifier: MIT */
/* barebpf softirqs: time (or runs) per softirq vector, bcc's options and
 * columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "softirqs_out.h"
#include "mapdelta.h"
#include "namedhist.h"
#include "mods.h"
#include "../../../bpf/softirqs.h"

static const struct tool_usage help = { NULL, "softirqs" };

/* The kernel's softirq_to_name[] (kernel/softirq.c), lower case as bcc's
 * vec_to_name; a vector this table lacks by its number. */
void softirqs_vec_name(unsigned int vec, char *buf, size_t len)
{
	static const char *const names[] = { "hi", "timer", "net_tx",
		"net_rx", "block", "irq_poll", "tasklet", "sched", "hrtimer",
		"rcu" };

	if (vec < sizeof(names) / sizeof(names[0]))
		snprintf(buf, len, "%s", names[vec]);
	else
		snprintf(buf, len, "vec%u", vec);
}

static void print_summary(const struct nh_irq_opts *o, struct mapdelta *md)
{
	static const struct nh_table tab[3] = {
		{ "SOFTIRQ", 16, "usecs", "softirq", 1 },
		{ "SOFTIRQ", 16, "nsecs", "softirq", 1 },
		{ "SOFTIRQ", 16, "count", "softirq", 1 },
	};
	const struct nh_table *tb = &tab[o->counts ? 2 : o->ns ? 1 : 0];
	struct mapdelta_row *r = NULL;
	struct nh_row *rows;
	int n = mapdelta_read(md, &r), i;

	rows = calloc(n > 0 ? n : 1, sizeof(*rows));
	for (i = 0; rows && i < n; i++) {
		const struct softirqs_key *k = (const void *)r[i].key;

		softirqs_vec_name(k->vec, rows[i].name, sizeof(rows[i].name));
		rows[i].slot = k->slot;
		rows[i].val = r[i].val;
	}
	if (n < 0 || !rows)
		n = 0;
	if (!o->json) {
		putchar('\n');
		if (o->timestamp)
			printf("%-8s\n", now_hms());
	}
	if (o->dist)
		nh_print_dists(stdout, tb, rows, n, now_hms(), o->json);
	else
		nh_print_totals(stdout, tb, rows, n,
				o->counts || o->ns ? 1 : 1000, now_hms(),
				o->json);
	free(rows);
	free(r);
}

struct softirqs_loop {
	const struct nh_irq_opts *o;
	struct mapdelta *md;
};

static void every_interval(void *ctx)
{
	struct softirqs_loop *l = ctx;

	print_summary(l->o, l->md);
}

static int softirqs_main(int argc, char **argv)
{
	struct nh_irq_opts o = { 0 };
	struct mapdelta md;
	struct tool_ctx t;
	struct softirqs_loop l = { &o, &md };
	int ret = 1;

	tool_init(&t, "softirqs");
	if (nh_irq_parse_args(&t, &help, &o, argc, argv))
		return 1;
	tool_signals();
	if (softirqs_start(&t, o.counts ? SOFTIRQS_COUNT : o.dist ?
			   SOFTIRQS_DIST : SOFTIRQS_TIME, o.ns ? 1 : 1000) < 0)
		goto out;
	mapdelta_init(&md, softirqs_dist_fd(&t), sizeof(struct softirqs_key),
		      SOFTIRQS_MAX_KEYS);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing soft irq %s... "
		     "Hit Ctrl-C to end.\n", o.counts ? "events" :
		     "event time");
	tool_every(o.interval, o.duration, o.count, TOOL_EVERY_PARTIAL,
		   every_interval, &l);
	mapdelta_free(&md);
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_softirqs = {
	"softirqs", softirqs_main,
	"time or runs per softirq vector (tracepoints)"
};
