/* SPDX-License-Identifier: MIT */
/* barebpf bitesize: block I/O size histograms per command, as bcc's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "tool.h"
#include "mapdelta.h"
#include "mods.h"
#include "bitesize_out.h"

static const struct tool_usage help = { NULL, "bitesize" };

struct bitesize_opts {
	int timestamp, json;
	const char *comm, *disk;
	uint32_t kdev;
	struct blkdisks disks;
	double interval, duration;
	unsigned long count;
};

static int cmp_kv(const void *a, const void *b)
{
	return memcmp(&((const struct bitesize_kv *)a)->key,
		      &((const struct bitesize_kv *)b)->key,
		      sizeof(struct bitesize_key));
}

void bitesize_sort(struct bitesize_kv *kv, int n)
{
	if (n > 1)
		qsort(kv, n, sizeof(*kv), cmp_kv);
}

int bitesize_hists(const struct bitesize_kv *now, int n,
		   const struct bitesize_kv *prev, int nprev,
		   struct bitesize_hist **out)
{
	struct bitesize_hist *h = NULL, *nh;
	int i, nh_used = 0;

	for (i = 0; i < n; i++) {
		const struct bitesize_kv *old = nprev ?
			bsearch(&now[i], prev, nprev, sizeof(*prev), cmp_kv) :
			NULL;
		uint64_t v = now[i].val;

		if (old && old->val <= v)
			v -= old->val;
		if (!v || now[i].key.slot >= BITESIZE_SLOTS)
			continue;
		if (!nh_used || memcmp(h[nh_used - 1].comm, now[i].key.comm,
				       sizeof(now[i].key.comm))) {
			nh = realloc(h, (nh_used + 1) * sizeof(*h));
			if (!nh) {
				free(h);
				return -ENOMEM;
			}
			h = nh;
			memset(&h[nh_used], 0, sizeof(*h));
			memcpy(h[nh_used].comm, now[i].key.comm,
			       sizeof(now[i].key.comm));
			nh_used++;
		}
		h[nh_used - 1].slots[now[i].key.slot] += v;
	}
	*out = h;
	return nh_used;
}

void bitesize_print(FILE *f, const struct bitesize_hist *h, int n,
		    const char *hms, int json)
{
	int i;

	if (json) {
		fputs("{", f);
		if (hms)
			fprintf(f, "\"time\":\"%s\",", hms);
		fputs("\"unit\":\"Kbytes\",\"hists\":[", f);
		for (i = 0; i < n; i++) {
			fprintf(f, "%s{\"comm\":", i ? "," : "");
			json_str(f, h[i].comm);
			fputs(",\"hist\":", f);
			hist_json_log2(f, h[i].slots, BITESIZE_SLOTS, "Kbytes");
			fputs("}", f);
		}
		fputs("]}\n", f);
		return;
	}
	/* libbpf-tools' bitesize: an empty line, the time, then each
	 * command's histogram after a "Process Name = " line */
	fputs("\n", f);
	if (hms)
		fprintf(f, "%-8s\n", hms);
	for (i = 0; i < n; i++) {
		fputs("\nProcess Name = ", f);
		out_text(f, h[i].comm);
		fputs("\n", f);
		hist_print_log2(f, h[i].slots, BITESIZE_SLOTS, "Kbytes");
	}
}

/* Every key and its total, sorted; -ENOMEM. */
static int read_totals(int fd, struct bitesize_kv **out)
{
	int n = map_read_rows(fd, sizeof((*out)->key),
			      offsetof(struct bitesize_kv, val),
			      sizeof(**out), (void **)out);

	if (n > 0)
		bitesize_sort(*out, n);
	return n;
}

static int print_interval(const struct bitesize_opts *o, int fd,
			  struct bitesize_kv **prev, int *nprev)
{
	struct bitesize_kv *now;
	struct bitesize_hist *h;
	int n = read_totals(fd, &now), nh;

	if (n < 0)
		return n;
	nh = bitesize_hists(now, n, *prev, *nprev, &h);
	free(*prev);
	*prev = now;
	*nprev = n;
	if (nh < 0)
		return nh;
	bitesize_print(stdout, h, nh, o->timestamp || o->json ? now_hms() :
		       NULL, o->json);
	free(h);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct bitesize_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		{ "comm", required_argument, NULL, 'c' },
		{ "disk", required_argument, NULL, 'd' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTjc:d:v", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'c': o->comm = optarg; break;
		case 'd': o->disk = optarg; break;
		}
	}
	if (c < 0)
		return c;
	if (o->comm && !*o->comm)
		return tool_fail(t, -EINVAL, "-c: an empty process name; give "
				 "one as ps -o comm shows it");
	return opt_interval_count(t, argc, argv, &o->interval, &o->count);
}

/* The disks, and -d's (a partition means its disk: requests, and so
 * block_rq_issue, belong to the whole disk). */
static int pick_disk(struct tool_ctx *t, struct bitesize_opts *o)
{
	const struct blkdisk *d;

	if (blkdisks_scan(&o->disks) < 0)
		return tool_fail(t, -EIO, "cannot read /sys/class/block");
	if (!o->disk)
		return 0;
	d = blkdisks_by_name(&o->disks, o->disk);
	if (!d)
		return tool_unknown_disk(t, o->disk);
	o->kdev = d->disk;
	return 0;
}

static int output_loop(struct tool_ctx *t, const struct bitesize_opts *o,
		       int fd)
{
	struct bitesize_kv *prev = NULL;
	struct tool_timer tm;
	unsigned long count = o->count;
	int nprev = 0, tick, ret = 0;

	tool_timer_init(&tm, o->interval, o->duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		ret = print_interval(o, fd, &prev, &nprev);
		if (ret == -ENOMEM)
			tool_error(t, "out of memory");
		if (ret < 0 || tick == TOOL_TICK_LAST ||
		    (count && --count == 0))
			break;
	}
	free(prev);
	return ret;
}

static int bitesize_main(int argc, char **argv)
{
	struct bitesize_opts o = { 0 };
	struct bitesize_settings s = { 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "bitesize");
	if (parse_args(&t, &o, argc, argv) || pick_disk(&t, &o))
		goto out;
	s.filter_dev = o.kdev;
	s.comm = o.comm;
	s.disks = &o.disks;
	tool_signals();
	if (bitesize_start(&t, &s) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing block I/O... Hit Ctrl-C to end.\n");
	if (output_loop(&t, &o, bitesize_hist_fd(&t)) == 0)
		ret = 0;
out:
	tool_cleanup(&t);
	blkdisks_free(&o.disks);
	return ret;
}

const struct tool tool_bitesize = {
	"bitesize", bitesize_main,
	"block I/O size histogram per process (tracepoints; bcc's)"
};
