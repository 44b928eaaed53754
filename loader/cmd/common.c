/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tool.h"

volatile int bb_stop;

int tool_error(const struct tool_ctx *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "barebpf %s: ", t->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void tool_init(struct tool_ctx *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->t0 = now_mono();
	session_init(&t->sess);
}

static void on_signal(int sig)
{
	(void)sig;
	bb_stop = 1;
}

void tool_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: poll() and nanosleep() must return on a signal */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

const char *tool_tracefs(struct tool_ctx *t)
{
	struct bb_err err = { "" };

	if (!t->sess.tracefs[0] &&
	    session_tracefs(&t->sess, &err) < 0) {
		tool_error(t, "%s", err.msg);
		return NULL;
	}
	return t->sess.tracefs;
}

int tool_need_kprobes(struct tool_ctx *t)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	int n;

	if (!tfs)
		return -ENOENT;
	if (!kprobes_available(tfs)) {
		tool_error(t, "this kernel has no kprobe_events in %s: it was "
			   "built without CONFIG_KPROBES/CONFIG_KPROBE_EVENTS, "
			   "and this tool needs kprobes (see `barebpf features`)",
			   tfs);
		return -ENOTSUP;
	}
	n = kprobes_remove_stale(tfs, &err);
	if (n < 0)
		tool_error(t, "warning: could not remove stale probes: %s",
			   err.msg);
	else if (n > 0 && t->verbose)
		fprintf(stderr, "removed %d probe(s) left by dead barebpf "
			"processes\n", n);
	return 0;
}

int tool_open(struct tool_ctx *t, const void *buf, size_t len)
{
	struct bb_err err = { "" };
	int ret = obj_open(&t->obj, buf, len, t->name, &err);

	if (ret < 0)
		tool_error(t, "%s", err.msg);
	return ret;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tool_funcs(struct tool_ctx *t, int source, const char *const *names,
	       int n, int need, char ***avail)
{
	struct bb_err err = { "" };
	const char *tfs = source == BB_FUNCS_FTRACE ? tool_tracefs(t) : "";
	char *found = calloc(n > 0 ? n : 1, 1);
	char **v = calloc(n > 0 ? n : 1, sizeof(*v));
	int i, k = 0, ret;

	*avail = NULL;
	if (!found || !v || !tfs) {
		if (tfs)
			tool_error(t, "out of memory");
		free(found);
		free(v);
		return -1;
	}
	ret = kprobe_funcs_find(tfs, source, names, n, need, found, &err);
	if (ret < 0) {
		tool_error(t, "%s", err.msg);
		free(found);
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!found[i])
			continue;
		v[k] = strdup(names[i]);
		if (!v[k]) {
			bb_free_strv(v, k);
			free(found);
			return tool_error(t, "out of memory"), -1;
		}
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_strp);
	free(found);
	*avail = v;
	return k;
}

int tool_tp_offset(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field, const char *cname)
{
	struct bb_err err = { "" };
	struct bb_tp_field f;
	const char *tfs = tool_tracefs(t);
	int ret;

	if (!tfs)
		return -ENOENT;
	ret = tp_field(tfs, cat, event, field, &f, &err);
	if (ret < 0) {
		tool_error(t, "%s", err.msg);
		return ret;
	}
	return obj_set_const(t->obj, cname, f.offset);
}

int tool_load(struct tool_ctx *t)
{
	struct bb_err err = { "" };
	char src[64];
	uint32_t kver;
	int ret;

	ret = bb_raise_memlock(&err);
	if (ret < 0 && t->verbose)
		/* not fatal: 5.11+ does not charge maps to memlock; the map
		 * creation below says so if it was needed */
		tool_error(t, "warning: %s", err.msg);
	ret = kver_detect(t->kver_override, &kver, src, sizeof(src), &err);
	if (ret < 0)
		return tool_error(t, "%s", err.msg), ret;
	if (t->verbose)
		fprintf(stderr, "kern_version 0x%06x (%s)\n", kver, src);
	ret = obj_load(t->obj, kver, &err);
	if (ret < 0) {
		const char *log = obj_verifier_log(t->obj);

		if (log && *log)
			fprintf(stderr, "--- verifier log ---\n%s--- end of "
				"verifier log ---\n", log);
		tool_error(t, "%s", err.msg);
		if (ret == -EPERM)
			tool_error(t, "bpf() needs root (CAP_SYS_ADMIN); if "
				   "you are root, RLIMIT_MEMLOCK may be too "
				   "low: try `ulimit -l unlimited`");
	}
	return ret;
}

int tool_attach(struct tool_ctx *t, const char *prog, const char *target,
		int maxactive)
{
	struct bb_err err = { "" };
	struct bb_prog *p = obj_prog(t->obj, prog);
	int ret;

	if (!p)
		return tool_error(t, "internal: no program %s", prog), -ENOENT;
	ret = session_attach(&t->sess, p, target, maxactive, &err);
	if (ret < 0)
		tool_error(t, "%s", err.msg);
	return ret;
}

static int ring_open(const struct tool_ctx *t, int map_fd)
{
	int i;

	for (i = 0; i < t->nrings; i++)
		if (t->ring_fds[i] == map_fd)
			return 1;
	return 0;
}

static void ring_add(struct tool_ctx *t, int map_fd)
{
	if (t->nrings < (int)(sizeof(t->ring_fds) / sizeof(t->ring_fds[0])))
		t->ring_fds[t->nrings++] = map_fd;
}

int tool_ring(struct tool_ctx *t, const char *map, int pages,
	      perfbuf_sample_fn fn, void *ctx, struct bb_perfbuf **pb)
{
	struct bb_err err = { "" };
	struct bb_map *m = obj_map(t->obj, map);
	int ret;

	if (!m)
		return tool_error(t, "internal: no map %s", map), -ENOENT;
	ret = perfbuf_open(pb, m->fd, pages, fn, ctx, &err);
	if (ret < 0)
		return tool_error(t, "%s", err.msg), ret;
	ring_add(t, m->fd);
	return 0;
}

void tool_ring_unread(struct tool_ctx *t, int map_fd)
{
	ring_add(t, map_fd);
}

int tool_attach_probes(struct tool_ctx *t, struct bb_probe *p, int n)
{
	int *order, i, ret = 0;

	for (i = 0; i < obj_nmaps(t->obj); i++) {
		struct bb_map *m = obj_map_at(t->obj, i);

		if (m->def.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		    !ring_open(t, m->fd))
			return tool_error(t, "internal: the ring of map %s must "
					  "be open before the first attach",
					  m->name), -EINVAL;
	}
	order = malloc((n > 0 ? n : 1) * sizeof(*order));
	if (!order)
		return tool_error(t, "out of memory"), -ENOMEM;
	ret = probe_order(p, n, order);
	if (ret < 0) {
		tool_error(t, "internal: no attach order for these probes: %s",
			   strerror(-ret));
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct bb_probe *q = &p[order[i]];

		if (bb_stop) {
			ret = -EINTR;
			break;
		}
		ret = tool_attach(t, q->prog, q->target, q->maxactive);
		if (ret < 0) {
			if (!q->optional)
				break;
			ret = 0;
			continue;
		}
		q->attached = 1;
		if (t->verbose)
			fprintf(stderr, "%s: %s\n", q->prog, q->target ?
				q->target : obj_prog(t->obj, q->prog)->target);
	}
out:
	free(order);
	return ret;
}

void tool_tracing(struct tool_ctx *t, FILE *f, const char *fmt, ...)
{
	const struct bb_link *l;
	va_list ap;
	int n = 0;

	if (t->verbose) {
		for (l = t->sess.links; l; l = l->next)
			n++;
		fprintf(stderr, "attached %d probe%s in %.0f ms\n", n,
			n == 1 ? "" : "s", (now_mono() - t->t0) * 1e3);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}

void tool_sleep(double secs)
{
	struct timespec ts;

	if (bb_stop || secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL); /* EINTR on a signal: the caller checks bb_stop */
}

void tool_detach(struct tool_ctx *t)
{
	long missed;

	if (!t->sess.links) {
		session_detach_all(&t->sess); /* unmounts, if still owed */
		return;
	}
	missed = session_kretprobe_misses(&t->sess);
	if (missed > 0)
		tool_error(t, "warning: %ld call(s) entered without their "
			   "return being seen: still in flight at exit, or "
			   "missed because more calls were in flight than the "
			   "kretprobe's maxactive (raise it with --maxactive)",
			   missed);
	session_detach_all(&t->sess);
}

void tool_cleanup(struct tool_ctx *t)
{
	tool_detach(t);
	obj_close(t->obj);
	t->obj = NULL;
}

void tool_timer_init(struct tool_timer *tm, double interval, double duration)
{
	double now = now_mono();

	tm->interval = interval;
	tm->next = interval > 0 ? now + interval : 0;
	tm->end = duration > 0 ? now + duration : 0;
}

int tool_wait(struct tool_timer *tm, struct bb_perfbuf *pb)
{
	double now = now_mono(), wake = now + 1;

	/* wake at least once a second so that a signal is never missed for
	 * long, even if it lands between the check and the sleep */
	if (tm->next && tm->next < wake)
		wake = tm->next;
	if (tm->end && tm->end < wake)
		wake = tm->end;
	if (!bb_stop) {
		if (pb)
			perfbuf_poll(pb, (int)((wake - now) * 1000) + 1);
		else
			tool_sleep(wake - now);
	}
	now = now_mono();
	if (bb_stop || (tm->end && now >= tm->end))
		return TOOL_TICK_LAST;
	if (tm->next && now >= tm->next) {
		while (tm->next <= now)
			tm->next += tm->interval;
		return TOOL_TICK_INTERVAL;
	}
	return TOOL_TICK_NONE;
}

int opt_seconds(struct tool_ctx *t, const char *opt, const char *arg,
		double *v)
{
	if (parse_seconds(arg, v) < 0)
		return tool_error(t, "%s needs a number of seconds > 0, not "
				  "'%s'", opt, arg);
	return 0;
}

int opt_maxactive(struct tool_ctx *t, const char *arg, unsigned long *v)
{
	/* KRETPROBE_MAXACTIVE_MAX in kernel/trace/trace_kprobe.c */
	if (parse_ulong(arg, v) < 0 || !*v || *v > 4096)
		return tool_error(t, "--maxactive needs a number from 1 to "
				  "4096, not '%s'", arg);
	return 0;
}

int opt_interval_count(struct tool_ctx *t, int argc, char **argv,
		       double *interval, unsigned long *count)
{
	if (optind < argc) {
		if (parse_seconds(argv[optind], interval) < 0)
			return tool_error(t, "interval must be a number of "
					  "seconds > 0, not '%s'", argv[optind]);
		optind++;
	}
	if (optind < argc) {
		if (parse_ulong(argv[optind], count) < 0 || !*count)
			return tool_error(t, "count must be a whole number > 0, "
					  "not '%s'", argv[optind]);
		optind++;
	}
	if (optind < argc)
		return tool_error(t, "unexpected argument '%s' (see --help)",
				  argv[optind]);
	return 0;
}

int tool_unknown_disk(struct tool_ctx *t, const char *disk)
{
	return tool_error(t, "unknown disk '%s': there is no "
			  "/sys/class/block/%s (list disks with `ls /sys/block` "
			  "or `cat /proc/partitions`)", disk, disk);
}

int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int parse_seconds(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	*v = strtod(s, &end);
	if (*end || !(*v > 0) || *v > 1e9)
		return -EINVAL;
	return 0;
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *now_hms(void)
{
	static char buf[16];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	return buf;
}
