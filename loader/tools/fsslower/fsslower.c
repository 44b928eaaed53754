/* SPDX-License-Identifier: MIT */
/*
 * barebpf fsslower (ext4slower, xfsslower, btrfsslower, nfsslower,
 * f2fsslower): a file system's slow reads, writes, opens and fsyncs, one
 * line each, as bcc's ext4slower.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "outrec.h"
#include "stream.h"
#include "mods.h"
#include "fsslower_out.h"

static const struct tool_usage help = { NULL, "fsslower" };

struct fss_opts {
	const char *fs;
	unsigned long pid, min_ms;
	int json;
	double duration;
};

struct fss_run {
	const struct fss_opts *o;
	struct tool_stream s;
};

enum { F_TIME, F_COMM, F_JCOMM, F_PID, F_JPID, F_JTID, F_T, F_JT,
       F_BYTES, F_JBYTES, F_OFF, F_JOFF, F_LAT, F_JLAT, F_JFILE, F_FILE,
       F_N };
/* bcc: "%-8s %-14.14s %-7s %1s %-7s %-8d %7.2f %s" */
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", "time", OUT_STR, -8, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", NULL, OUT_STR, -14, 14, 0, 0, 0, NULL },
	[F_JCOMM] = { NULL, "comm", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", NULL, OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_JPID] = { NULL, "pid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_JTID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_T] = { "T", NULL, OUT_STR, 1, 0, 0, 0, 0, NULL },
	[F_JT] = { NULL, "type", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_BYTES] = { "BYTES", NULL, OUT_INT, -7, 0, 0, 0, 0, NULL },
	[F_JBYTES] = { NULL, "bytes", OUT_INT, 0, 0, 0, 0, 0, NULL },
	[F_OFF] = { "OFF_KB", NULL, OUT_UINT, -8, 0, 0, 0, 0, NULL },
	[F_JOFF] = { NULL, "offset", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_LAT] = { "LAT(ms)", NULL, OUT_DBL, 7, 2, 0, 0, 0, NULL },
	[F_JLAT] = { NULL, "lat_ms", OUT_DBL, 0, 0, 3, 0, 0, NULL },
	[F_FILE] = { "FILENAME", NULL, OUT_STR, 0, 0, 0, 1, 0, NULL },
	[F_JFILE] = { NULL, "file", OUT_STR, 0, 0, 0, 0, 0, NULL },
};

char fsslower_op_char(unsigned op)
{
	return op < FSS_NOPS ? "RWOS"[op] : '?';
}

const char *fsslower_op_name(unsigned op)
{
	static const char *const n[FSS_NOPS] = { "read", "write", "open",
						 "fsync" };

	return op < FSS_NOPS ? n[op] : "?";
}

void fsslower_print_header(FILE *f)
{
	out_head(f, fields, F_N, 0);
}

void fsslower_print(FILE *f, const struct fss_event *e, const char *hms,
		    int json)
{
	struct out_val v[F_N] = { 0 };
	char comm[sizeof(e->comm) + 1], name[sizeof(e->name) + 1];
	char t[2] = { fsslower_op_char(e->op), 0 };

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	memcpy(name, e->name, sizeof(e->name));
	name[sizeof(e->name)] = 0;
	v[F_TIME].s = hms;
	v[F_COMM].s = v[F_JCOMM].s = comm;
	v[F_PID].u = v[F_JPID].u = e->pid;
	v[F_JTID].u = e->tid;
	v[F_T].s = v[F_JT].s = t;
	v[F_BYTES].i = v[F_JBYTES].i = e->size;
	v[F_OFF].u = e->offset / 1024;
	v[F_JOFF].u = e->offset;
	v[F_LAT].d = v[F_JLAT].d = e->delta / 1e6;
	v[F_FILE].s = v[F_JFILE].s = name;
	out_row(f, fields, F_N, 0, v, json);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct fss_run *r = ctx;
	struct fss_event e;

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	fsslower_print(stdout, &e, now_hms(), r->o->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct fss_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_PID,
		TOOL_LONGOPT_BTF,
		{ "type", required_argument, NULL, 't' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration, .pid = &o->pid };
	int c, fixed = o->fs != NULL;

	o->min_ms = 10;
	while ((c = tool_getopt(t, argc, argv, fixed ? "ht:p:d:jv" :
				"ht:p:d:jv", longopts, &v)) > 0) {
		if (c == 'd' && opt_seconds(t, "-d", optarg, &o->duration))
			return -EINVAL;
		if (c == 't' && fixed)
			return tool_fail(t, -EINVAL, "-t: %s traces %s only; "
					 "for another, barebpf fsslower -t FS",
					 t->name, o->fs);
		if (c == 't' && !fsslower_fs(optarg))
			return tool_fail(t, -EINVAL, "-t '%s': give ext4, "
					 "xfs, btrfs, nfs or f2fs", optarg);
		if (c == 't')
			o->fs = optarg;
	}
	if (c < 0)
		return c;
	if (optind < argc && (parse_ulong(argv[optind], &o->min_ms) < 0 ||
			      o->min_ms > 1000000000UL))
		return tool_fail(t, -EINVAL, "min_ms '%s': give a number of "
				 "milliseconds (0: every operation)",
				 argv[optind]);
	if (optind < argc)
		optind++;
	if (!o->fs)
		o->fs = "ext4";
	if (o->pid && tool_need_pid(t, o->pid) < 0)
		return -ESRCH;
	return opt_no_args(t, argc, argv);
}

/* The functions of o->fs this kernel has; -errno after saying why. */
static int pick(struct tool_ctx *t, const char *name, struct fss_pick *p)
{
	const struct fss_fs *fs = fsslower_fs(name);
	const char *names[7];
	char **avail = NULL, why[300];
	int n, ret;

	names[0] = fs->read[0];
	names[1] = fs->read[1] ? fs->read[1] : fs->read[0];
	names[2] = fs->write;
	names[3] = fs->open;
	names[4] = fs->fsync;
	n = tool_funcs(t, BB_FUNCS_FTRACE, names, 5, 5, &avail);
	if (n < 0)
		return n;
	ret = fsslower_pick(fs, avail, n, p, why, sizeof(why));
	bb_free_strv(avail, n);
	if (ret < 0)
		return tool_fail(t, ret, "%s", why);
	if (t->verbose)
		tool_error(t, "probing %s, %s, %s, %s%s", p->fn[0], p->fn[1],
			   p->fn[2], p->fn[3], p->generic ? " (the f_op of "
			   "each read checked)" : "");
	return 0;
}

/* Shared with fsdist: kprobes, the functions, the start. */
int fsslower_run_start(struct tool_ctx *t, struct fsslower_settings *s,
		       struct bb_perfbuf **pb)
{
	struct fss_pick p;

	if (tool_need_kprobes(t) < 0 || pick(t, s->fs, &p) < 0)
		return -1;
	return fsslower_start(t, s, &p, pb) < 0 ? -1 : 0;
}

static int fss_main(const char *name, const char *fs, int argc, char **argv)
{
	struct fss_opts o = { fs, 0, 0, 0, 0 };
	struct fss_run r = { &o, { "operations", FSS_EMITTED, FSS_UNTRACKED,
		"tracked: more than 10240 threads were in the file system at "
		"once" } };
	struct fsslower_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, name);
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	s.fs = o.fs;
	s.pid = o.pid;
	s.min_ns = o.min_ms * 1000000ULL;
	s.on_event = on_event;
	s.ctx = &r;
	if (fsslower_run_start(&t, &s, &pb) < 0)
		goto out;
	if (o.min_ms)
		tool_tracing(&t, o.json ? stderr : stdout, "Tracing %s "
			     "operations slower than %lu ms\n", o.fs,
			     o.min_ms);
	else
		tool_tracing(&t, o.json ? stderr : stdout, "Tracing %s "
			     "operations\n", o.fs);
	if (!o.json)
		fsslower_print_header(stdout);
	fflush(stdout);
	tool_stream_run(&t, &r.s, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

static int fsslower_main(int argc, char **argv)
{
	return fss_main("fsslower", NULL, argc, argv);
}
static int ext4slower_main(int argc, char **argv)
{
	return fss_main("ext4slower", "ext4", argc, argv);
}
static int xfsslower_main(int argc, char **argv)
{
	return fss_main("xfsslower", "xfs", argc, argv);
}
static int btrfsslower_main(int argc, char **argv)
{
	return fss_main("btrfsslower", "btrfs", argc, argv);
}
static int nfsslower_main(int argc, char **argv)
{
	return fss_main("nfsslower", "nfs", argc, argv);
}
static int f2fsslower_main(int argc, char **argv)
{
	return fss_main("f2fsslower", "f2fs", argc, argv);
}

const struct tool tool_fsslower = {
	"fsslower", fsslower_main,
	"slow file system reads, writes, opens, fsyncs (kprobes; bcc's)"
};
const struct tool tool_ext4slower = {
	"ext4slower", ext4slower_main, "fsslower -t ext4"
};
const struct tool tool_xfsslower = {
	"xfsslower", xfsslower_main, "fsslower -t xfs"
};
const struct tool tool_btrfsslower = {
	"btrfsslower", btrfsslower_main, "fsslower -t btrfs"
};
const struct tool tool_nfsslower = {
	"nfsslower", nfsslower_main, "fsslower -t nfs"
};
const struct tool tool_f2fsslower = {
	"f2fsslower", f2fsslower_main, "fsslower -t f2fs"
};
