/* SPDX-License-Identifier: MIT */
/* barebpf hardirqs: time (or calls) per hard interrupt handler, bcc's
 * options and columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "mapdelta.h"
#include "namedhist.h"
#include "mods.h"
#include "../../bpf/hardirqs.h"

static const struct tool_usage help = { NULL, "hardirqs" };

/* -C: the calls that returned IRQ_NONE, by name, said at the end. */
struct nones {
	char name[16][HARDIRQS_NAME + 1];
	uint64_t n[16];
	int len;
};

static void none_add(struct nones *s, const char *name, uint64_t n)
{
	int i;

	for (i = 0; i < s->len; i++)
		if (!strncmp(s->name[i], name, HARDIRQS_NAME))
			break;
	if (i == s->len) {
		if (s->len == 16)
			return;
		memcpy(s->name[s->len], name, HARDIRQS_NAME);
		s->n[s->len++] = 0;
	}
	s->n[i] += n;
}

static void none_report(struct tool_ctx *t, const struct nones *s)
{
	int i;

	for (i = 0; i < s->len; i++) {
		char name[4 * HARDIRQS_NAME + 1];

		esc_text(name, sizeof(name), s->name[i], HARDIRQS_NAME);
		tool_error(t, "%s: %llu calls returned IRQ_NONE (not its "
			   "device's, or spurious): not counted, as in bcc",
			   name, (unsigned long long)s->n[i]);
	}
}

static void print_summary(const struct nh_irq_opts *o, struct mapdelta *md,
			  struct nones *nones)
{
	static const struct nh_table tab[3] = {
		{ "HARDIRQ", 26, "usecs", "hardirq", 0 },
		{ "HARDIRQ", 26, "nsecs", "hardirq", 0 },
		{ "HARDIRQ", 26, "count", "hardirq", 0 },
	};
	const struct nh_table *tb = &tab[o->counts ? 2 : o->ns ? 1 : 0];
	struct mapdelta_row *r = NULL;
	struct nh_row *rows;
	int n = mapdelta_read(md, &r), i, k;

	rows = calloc(n > 0 ? n : 1, sizeof(*rows));
	for (i = 0, k = 0; rows && i < n; i++) {
		const struct hardirqs_key *key = (const void *)r[i].key;

		if (key->none) {
			none_add(nones, key->name, r[i].val);
			continue;
		}
		memcpy(rows[k].name, key->name, HARDIRQS_NAME);
		rows[k].slot = key->slot;
		rows[k++].val = r[i].val;
	}
	n = rows ? k : 0;
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

struct hardirqs_loop {
	const struct nh_irq_opts *o;
	struct mapdelta *md;
	struct nones *nones;
};

static void every_interval(void *ctx)
{
	struct hardirqs_loop *l = ctx;

	print_summary(l->o, l->md, l->nones);
}

static int hardirqs_main(int argc, char **argv)
{
	struct nh_irq_opts o = { 0 };
	struct mapdelta md;
	struct nones nones = { .len = 0 };
	struct tool_ctx t;
	struct hardirqs_loop l = { &o, &md, &nones };
	int ret = 1;

	tool_init(&t, "hardirqs");
	if (nh_irq_parse_args(&t, &help, &o, argc, argv))
		return 1;
	tool_signals();
	if (hardirqs_start(&t, o.counts ? HARDIRQS_COUNT : o.dist ?
			   HARDIRQS_DIST : HARDIRQS_TIME, o.ns ? 1 : 1000) < 0)
		goto out;
	mapdelta_init(&md, hardirqs_dist_fd(&t), sizeof(struct hardirqs_key),
		      HARDIRQS_MAX_KEYS);
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing hard irq %s... "
		     "Hit Ctrl-C to end.\n", o.counts ? "events" :
		     "event time");
	tool_every(o.interval, o.duration, o.count, TOOL_EVERY_PARTIAL,
		   every_interval, &l);
	mapdelta_free(&md);
	if (t.verbose)
		none_report(&t, &nones);
	ret = 0;
out:
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_hardirqs = {
	"hardirqs", hardirqs_main,
	"time or calls per hard interrupt handler (tracepoints)"
};
