/* SPDX-License-Identifier: MIT */
/* barebpf drsnoop: direct reclaim stalls, one line each, as bcc's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "mods.h"
#include "drsnoop_out.h"

static const struct tool_usage help = { NULL, "drsnoop" };

struct drsnoop_opts {
	int timestamp, print_uid, extended, json, uid_set;
	unsigned long pid, tid, uid;
	const char *name;
	double duration;
};

struct drsnoop_run {
	const struct drsnoop_opts *o;
	uint64_t first_ts;
	unsigned page_kb;
	struct tool_stream s;
};

enum { F_TIME, F_TS, F_UID, F_JUID, F_COMM, F_JCOMM, F_PID, F_TID, F_JPID, F_JTID,
       F_LAT, F_JLAT, F_PAGES, F_FREE, F_JFREE, F_JMEMCG, F_N };
/* bcc: "%-14.9f" "%-6d" "%-14.14s %-6s %8.2f %5d" "%10d", glued */
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME(s)", NULL, OUT_DBL, -14, 9, 0, 1, DRSNOOP_COL_TIME,
		     NULL },
	[F_TS] = { NULL, "ts", OUT_DBL, 0, 0, 9, 0, 0, NULL },
	[F_UID] = { "UID", NULL, OUT_UINT, -6, 0, 0, 1, DRSNOOP_COL_UID,
		    NULL },
	[F_JUID] = { NULL, "uid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", NULL, OUT_STR, -14, 14, 0, 0, 0, NULL },
	[F_JCOMM] = { NULL, "comm", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", NULL, OUT_UINT, -6, 0, 0, 0, DRSNOOP_COL_PID,
		    NULL },
	[F_TID] = { "TID", NULL, OUT_UINT, -6, 0, 0, 0, DRSNOOP_COL_TID,
		    NULL },
	[F_JPID] = { NULL, "pid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_LAT] = { "LAT(ms)", NULL, OUT_DBL, 8, 2, 0, 0, 0, NULL },
	[F_JLAT] = { NULL, "lat_ms", OUT_DBL, 0, 0, 3, 0, 0, NULL },
	[F_PAGES] = { "PAGES", "pages", OUT_UINT, 5, 0, 0, 1, 0, NULL },
	[F_FREE] = { "FREE(KB)", NULL, OUT_UINT, 10, 0, 0, 1,
		     DRSNOOP_COL_FREE, NULL },
	[F_JFREE] = { NULL, "free_kb", OUT_UINT, 0, 0, 0, 0, DRSNOOP_COL_FREE,
		      NULL },
	[F_JMEMCG] = { NULL, "memcg", OUT_BOOL, 0, 0, 0, 0, 0, NULL },
};

void drsnoop_print_header(FILE *f, unsigned mask)
{
	out_head(f, fields, F_N, mask);
}

void drsnoop_print(FILE *f, const struct drsnoop_event *e, uint64_t first_ts,
		   unsigned page_kb, unsigned mask, int json)
{
	struct out_val v[F_N] = { 0 };
	char comm[sizeof(e->comm) + 1];

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	v[F_TIME].d = v[F_TS].d = (e->ts - first_ts) / 1e9;
	v[F_UID].u = v[F_JUID].u = e->uid;
	v[F_COMM].s = v[F_JCOMM].s = comm;
	v[F_PID].u = v[F_JPID].u = e->pid;
	v[F_TID].u = v[F_JTID].u = e->tid;
	v[F_LAT].d = v[F_JLAT].d = e->delta / 1e6;
	v[F_PAGES].u = e->nr_reclaimed;
	v[F_FREE].u = v[F_JFREE].u = e->free_pages * page_kb;
	v[F_JMEMCG].u = !!(e->flags & DRSNOOP_F_MEMCG);
	out_row(f, fields, F_N, mask, v, json);
}

uint64_t drsnoop_ksym_addr(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long a;
		char type;
		int n = 0;

		if (sscanf(p, "%llx %c %n", &a, &type, &n) == 2 && n &&
		    !strncmp(p + n, name, len) &&
		    (p[n + len] == '\n' || p[n + len] == '\t' ||
		     p[n + len] == ' ' || !p[n + len]))
			return a;
	}
	return 0;
}

static unsigned columns(const struct drsnoop_opts *o)
{
	return (o->timestamp ? OUT_BIT(DRSNOOP_COL_TIME) : 0) |
	       (o->print_uid ? OUT_BIT(DRSNOOP_COL_UID) : 0) |
	       OUT_BIT(o->tid ? DRSNOOP_COL_TID : DRSNOOP_COL_PID) |
	       (o->extended ? OUT_BIT(DRSNOOP_COL_FREE) : 0);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct drsnoop_run *r = ctx;
	struct drsnoop_event e;
	char comm[sizeof(e.comm) + 1];

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	if (!r->first_ts)
		r->first_ts = e.ts;
	if (r->o->name && !strstr(comm, r->o->name))
		return;
	drsnoop_print(stdout, &e, r->first_ts, r->page_kb, columns(r->o),
		      r->o->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_id(struct tool_ctx *t, const char *opt, const char *s,
		    unsigned long *v)
{
	if (parse_ulong(s, v) < 0 || !*v || *v >= 0xffffffffUL)
		return tool_fail(t, -EINVAL,
				 "%s '%s': give a positive number", opt, s);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct drsnoop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_TIMESTAMP,
		TOOL_LONGOPT_PID,
		{ "print-uid", no_argument, NULL, 'U' },
		{ "tid", required_argument, NULL, 't' },
		{ "uid", required_argument, NULL, 'u' },
		{ "name", required_argument, NULL, 'n' },
		{ "extended", no_argument, NULL, 'e' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hTUp:t:u:d:n:ejv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'T': o->timestamp = 1; break;
		case 'U': o->print_uid = 1; break;
		case 'e': o->extended = 1; break;
		case 'n': o->name = optarg; break;
		case 'p':
			if (parse_id(t, "-p", optarg, &o->pid))
				return -EINVAL;
			break;
		case 't':
			if (parse_id(t, "-t", optarg, &o->tid))
				return -EINVAL;
			break;
		case 'u':
			if (parse_ulong(optarg, &o->uid) < 0 ||
			    o->uid >= 0xffffffffUL)
				return tool_fail(t, -EINVAL,
						 "-u '%s': give a UID",
						 optarg);
			o->uid_set = 1;
			break;
		case 'd':
			if (opt_seconds(t, "-d", optarg, &o->duration))
				return -EINVAL;
			break;
		}
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

/* -e: where the kernel keeps its free page count (vm_zone_stat since
 * 4.8, vm_stat before), as bcc finds it */
static int free_pages_addr(struct tool_ctx *t, uint64_t *addr)
{
	char *text = NULL;
	int ret = bb_read_file("/proc/kallsyms", &text);

	if (ret < 0)
		return tool_fail(t, ret, "-e: cannot read /proc/kallsyms: %s",
				 strerror(-ret));
	*addr = drsnoop_ksym_addr(text, "vm_zone_stat");
	if (!*addr)
		*addr = drsnoop_ksym_addr(text, "vm_stat");
	free(text);
	if (!*addr)
		return tool_fail(t, -ENOENT, "-e: no vm_zone_stat or vm_stat "
				 "in /proc/kallsyms: this kernel lists no data "
				 "symbols (CONFIG_KALLSYMS_ALL); run without "
				 "-e");
	return 0;
}

static int drsnoop_main(int argc, char **argv)
{
	struct drsnoop_opts o = { 0 };
	struct drsnoop_run r = { .s = {
		"reclaims", DRSNOOP_EMITTED, DRSNOOP_UNTRACKED,
		"tracked: more than 10240 tasks were in reclaim at once" } };
	struct drsnoop_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	char tp[160];
	const char *tfs;
	int ret = 1;

	tool_init(&t, "drsnoop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	r.page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (o.extended && free_pages_addr(&t, &s.free_addr) < 0)
		return 1;
	tool_signals();
	tfs = tool_tracefs(&t);
	if (!tfs)
		goto out;
	snprintf(tp, sizeof(tp), "%s/events/vmscan/mm_vmscan_memcg_reclaim_end",
		 tfs);
	s.memcg = access(tp, F_OK) == 0;
	s.pid = o.pid;
	s.tid = o.tid;
	s.filter_uid = o.uid_set ? o.uid : 0xffffffff;
	s.on_event = on_event;
	s.ctx = &r;
	if (drsnoop_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout, "Tracing direct reclaim%s"
		     "... Hit Ctrl-C to end.\n", s.memcg ? " (and memory "
		     "cgroups' reclaim)" : "");
	if (!o.json)
		drsnoop_print_header(stdout, columns(&o));
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_drsnoop = {
	"drsnoop", drsnoop_main,
	"direct reclaim stalls: process, latency, pages (vmscan tracepoints)"
};
