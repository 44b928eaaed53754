/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tool.h"

volatile int bb_stop;
volatile int bb_stop_signal;
/* errno of the first failed write of our output, 0 if none */
static int output_errno;

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
	if (!bb_stop_signal)
		bb_stop_signal = sig;
	bb_stop = 1;
}

/*
 * Every signal that would kill us stops the tool instead, so that its
 * probes are removed and tracefs unmounted on the way out: SIGPIPE too
 * (`barebpf trace ... | head -n 2`), where the write that raised it fails
 * with EPIPE and the output loop stops (tool_exit dies of SIGPIPE after
 * the cleanup, the status a shell expects of a pipeline cut short).
 */
void tool_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: poll() and nanosleep() must return on a signal */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * O_NONBLOCK belongs to the open file description, which a terminal or
 * pipe shares with whoever set the flag (an event loop, a program that
 * died without restoring it). On such a stdout, write() fails with EAGAIN
 * whenever the reader is slower than us, and stdio drops the lines it held:
 * `trace -j` printed 968,362 lines of 1,000,000 calls that way and, having
 * received every event, reported no loss. Open a private, blocking
 * description of the same pipe or terminal instead (through
 * /proc/self/fd), leaving the shared one as it is. A socket cannot be
 * reopened: its write errors are then reported (tool_exit).
 */
static void fd_make_blocking(int fd)
{
	char path[32];
	struct stat st;
	int fl = fcntl(fd, F_GETFL), nfd;

	if (fl < 0 || !(fl & O_NONBLOCK) || fstat(fd, &st) < 0 ||
	    !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* O_NONBLOCK for the open only: a FIFO without a reader fails
	 * (ENXIO) instead of blocking */
	nfd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (nfd < 0)
		return;
	if (fcntl(nfd, F_SETFL, (fl | O_WRONLY) & ~O_NONBLOCK) == 0)
		dup2(nfd, fd);
	close(nfd);
}

/*
 * Output to a pipe or file goes out in batches: stdout fully buffered in
 * 64 KiB (musl's own buffer is 1 KiB: a write() every dozen lines), and
 * flushed once per drain of the rings (tool_wait), so at most
 * PERFBUF_MAX_DELAY_MS after the event. A terminal stays line-buffered:
 * a person reads no faster, and its lines keep their order with stderr's.
 */
void tool_stdio_init(void)
{
	static char outbuf[65536];

	fd_make_blocking(1);
	fd_make_blocking(2);
	if (!isatty(1))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
}

/* errno is still that of the failed write when this sees the error
 * first: stdio leaves it alone on success, our system calls never set it */
int tool_output_failed(void)
{
	if (!ferror(stdout))
		return 0;
	if (!output_errno)
		output_errno = errno ? errno : EIO;
	bb_stop = 1;
	return -output_errno;
}

int tool_flush(void)
{
	fflush(stdout);
	return tool_output_failed();
}

int tool_exit(const char *name, int ret)
{
	tool_flush();
	if (bb_stop_signal == SIGPIPE || output_errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	if (output_errno) {
		fprintf(stderr, "barebpf %s: writing the output failed (%s): "
			"lines were lost\n", name, strerror(output_errno));
		return ret ? ret : 1;
	}
	return ret;
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
	long size = lz_size(buf, len);
	void *obj = size >= 0 ? malloc(size + 1) : NULL;
	int ret;

	if (size >= 0 && !obj) {
		tool_error(t, "out of memory");
		return -ENOMEM;
	}
	if (size < 0 || lz_decode(obj, size, buf, len) != size) {
		free(obj);
		tool_error(t, "the embedded BPF object is damaged (a bug in "
			   "the build: scripts/lzpack.c)");
		return -EINVAL;
	}
	ret = obj_open(&t->obj, obj, size, t->name, &err);
	if (ret < 0) {
		free(obj);
		tool_error(t, "%s", err.msg);
		return ret;
	}
	t->objbuf = obj;
	return 0;
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

int tool_syscall_tracepoints(struct tool_ctx *t, const char *sys)
{
	const char *tfs = tool_tracefs(t), *force = getenv("BAREBPF_SYSCALLS");
	char path[512];

	if (!tfs)
		return -1;
	if (force && !strcmp(force, "kprobes"))
		return 0;
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s", tfs,
		 sys);
	return access(path, F_OK) == 0;
}

int tool_syscall_funcs(struct tool_ctx *t, const char *const *sys, int n,
		       char (*out)[64])
{
	static const char *const pre[] = { "__x64_sys_", "__arm64_sys_",
					   "SyS_", "sys_" };
	const char *names[4 * 8] = { 0 };
	char cand[4 * 8][64], **avail;
	int i, j, k, m;

	if (n > 8)
		return tool_error(t, "internal: too many syscalls"), -1;
	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++) {
			snprintf(cand[4 * i + j], 64, "%s%s", pre[j], sys[i]);
			names[4 * i + j] = cand[4 * i + j];
		}
	m = tool_funcs(t, BB_FUNCS_KALLSYMS, names, 4 * n, 0, &avail);
	if (m < 0)
		return -1;
	for (i = 0; i < n; i++) {
		out[i][0] = 0;
		for (j = 0; j < 4 && !out[i][0]; j++)
			for (k = 0; k < m; k++)
				if (!strcmp(avail[k], cand[4 * i + j])) {
					strcpy(out[i], avail[k]);
					break;
				}
	}
	bb_free_strv(avail, m);
	return 0;
}

int tool_match_funcs(struct tool_ctx *t, const char *pattern, int regexp,
		     char ***names)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	int n, i, k;
	regex_t re;

	*names = NULL;
	if (!tfs)
		return -1;
	if (!regexp && !strpbrk(pattern, "*?[")) {
		/* one name: a pass that stops where it is found */
		n = tool_funcs(t, BB_FUNCS_FTRACE, &pattern, 1, 1, names);
		if (n < 0)
			return -1;
	} else {
		n = kprobe_match(tfs, regexp ? "*" : pattern, names, &err);
		if (n < 0)
			return tool_error(t, "%s", err.msg), -1;
	}
	if (regexp) {
		if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) {
			bb_free_strv(*names, n);
			*names = NULL;
			return tool_error(t, "bad regular expression '%s'",
					  pattern), -1;
		}
		for (i = k = 0; i < n; i++) {
			if (!regexec(&re, (*names)[i], 0, NULL, 0))
				(*names)[k++] = (*names)[i];
			else
				free((*names)[i]);
		}
		regfree(&re);
		n = k;
	}
	if (n == 0) {
		free(*names);
		*names = NULL;
		return tool_error(t, "no kernel function matches '%s' in "
				  "%s/available_filter_functions (it may not "
				  "exist on this kernel, be inlined or be "
				  "renamed: try a glob like '%s*')", pattern,
				  tfs, pattern), -1;
	}
	return n;
}

int tool_tp_offset(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field, const char *cname)
{
	struct bb_err err = { "" };
	struct bb_tp_field f;
	const char *tfs = tool_tracefs(t);
	char name[sizeof(t->tp_event)];
	int ret;

	if (!tfs)
		return -ENOENT;
	snprintf(name, sizeof(name), "%s/%s", cat, event);
	if (strcmp(name, t->tp_event)) {
		free(t->tp_fields);
		t->tp_event[0] = 0;
		t->tp_nfields = tp_fields(tfs, cat, event, &t->tp_fields, &err);
		if (t->tp_nfields < 0) {
			tool_error(t, "%s", err.msg);
			return t->tp_nfields;
		}
		snprintf(t->tp_event, sizeof(t->tp_event), "%s", name);
	}
	ret = tp_fields_find(t->tp_fields, t->tp_nfields, tfs, cat, event,
			     field, &f, &err);
	if (ret < 0) {
		tool_error(t, "%s", err.msg);
		return ret;
	}
	return obj_set_const(t->obj, cname, f.offset);
}

/* Up to this much of a verifier log is shown: its end says why. */
#define LOG_SHOWN (64 * 1024)

static void print_verifier_log(const char *log, int truncated)
{
	size_t len = log ? strlen(log) : 0;
	const char *from = log, *nl;

	if (!len)
		return;
	if (len > LOG_SHOWN) {
		from = log + len - LOG_SHOWN;
		nl = strchr(from, '\n');
		if (nl)
			from = nl + 1;
		fprintf(stderr, "--- verifier log: its last %zu of %zu bytes%s "
			"---\n", len - (size_t)(from - log), len,
			truncated ? " the kernel kept" : "");
	} else {
		fprintf(stderr, "--- verifier log%s ---\n",
			truncated ? " (the part the kernel kept)" : "");
	}
	fputs(from, stderr);
	if (log[len - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "--- end of verifier log ---\n");
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
	/* every probe and ring holds a file descriptor */
	bb_raise_nofile();
	ret = kver_detect(t->kver_override, &kver, src, sizeof(src), &err);
	if (ret < 0)
		return tool_error(t, "%s", err.msg), ret;
	if (t->verbose)
		fprintf(stderr, "kern_version 0x%06x (%s)\n", kver, src);
	ret = obj_load(t->obj, kver, &err);
	if (ret < 0) {
		print_verifier_log(obj_verifier_log(t->obj),
				   obj_verifier_log_truncated(t->obj));
		tool_error(t, "%s", err.msg);
		if (ret == -EPERM)
			tool_error(t, "bpf() needs root (CAP_SYS_ADMIN); if "
				   "you are root, RLIMIT_MEMLOCK may be too "
				   "low: try `ulimit -l unlimited`");
	}
	return ret;
}

/* session_attach of p (NULL: program prog); the message in err, not printed. */
static int attach_one(struct tool_ctx *t, struct bb_prog *p, const char *prog,
		      const char *target, int maxactive, struct bb_err *err)
{
	int ret;

	if (!p)
		p = obj_prog(t->obj, prog);
	if (!p)
		return bb_fail(err, -ENOENT, "internal: no program %s", prog);
	ret = session_attach(&t->sess, p, target, maxactive, err);
	if (t->verbose && t->sess.pmu_note[0])
		fprintf(stderr, "%s\n", t->sess.pmu_note);
	t->sess.pmu_note[0] = 0;
	return ret;
}

int tool_attach(struct tool_ctx *t, const char *prog, const char *target,
		int maxactive)
{
	struct bb_err err = { "" };
	int ret = attach_one(t, NULL, prog, target, maxactive, &err);

	if (ret < 0)
		tool_error(t, "%s", err.msg);
	return ret;
}

void tool_fails_count(struct tool_fails *f, int ret, const struct bb_err *err)
{
	switch (ret) {
	case -EINVAL: f->refused++; break;
	case -ENOENT: f->missing++; break;
	case -EADDRNOTAVAIL: f->ambiguous++; break;
	default:
		f->other++;
		snprintf(f->other_msg, sizeof(f->other_msg), "%s", err->msg);
	}
}

void tool_fails_report(struct tool_ctx *t, const struct tool_fails *f, int n)
{
	if (f->refused || f->missing || f->ambiguous || f->other)
		tool_error(t, "%d of %d functions could not be probed: %d "
			   "refused by the kernel (blacklisted for kprobes or "
			   "not probeable), %d not found, %d with several "
			   "definitions, %d for other reasons%s%s (-v names "
			   "each)", f->refused + f->missing + f->ambiguous +
			   f->other, n, f->refused, f->missing, f->ambiguous,
			   f->other, f->other ? ", the last: " : "",
			   f->other ? f->other_msg : "");
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
	return tool_attach_probe_progs(t, p, NULL, n);
}

int tool_attach_probe_progs(struct tool_ctx *t, struct bb_probe *p,
			    struct bb_prog **progs, int n)
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
		struct bb_err err = { "" };

		if (bb_stop) {
			ret = -EINTR;
			break;
		}
		ret = attach_one(t, progs ? progs[order[i]] : NULL, q->prog,
				 q->target, q->maxactive, &err);
		if (ret == -EMFILE || ret == -ENFILE) {
			tool_error(t, "%s", err.msg);
			tool_error(t, "%d probes take about %d file descriptors "
				   "and the limit is %ld: raise it with `ulimit "
				   "-n %d`, or narrow the pattern", n, n + 32,
				   bb_raise_nofile(), n + 32);
			break;
		}
		if (ret < 0) {
			if (!q->optional || !t->fails || t->verbose)
				tool_error(t, "%s", err.msg);
			if (!q->optional)
				break;
			if (t->fails)
				tool_fails_count(t->fails, ret, &err);
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

/* Counts a full map could not take (bb_helpers.h: BB_DROPS_MAP). */
static void report_drops(struct tool_ctx *t)
{
	struct bb_map *m = t->obj ? obj_map(t->obj, "drops") : NULL;
	uint32_t k = 0;
	uint64_t n = 0;

	if (m && m->fd >= 0 && bpf_map_lookup_elem(m->fd, &k, &n) == 0 && n)
		tool_error(t, "warning: %llu event(s) not counted: a map of "
			   "the BPF program was full", (unsigned long long)n);
}

/*
 * Runs of the object's programs the kernel skipped because another BPF
 * program was running on that CPU (6.7+ counts them): events never seen.
 */
static void report_skips(struct tool_ctx *t)
{
	uint64_t sum = 0, n;
	int i;

	if (t->skips_own || !t->obj)
		return;
	for (i = 0; i < obj_nprogs(t->obj); i++) {
		struct bb_prog *p = obj_prog_at(t->obj, i);

		if (p->fd >= 0 && bpf_prog_recursion_misses(p->fd, &n) == 0)
			sum += n;
	}
	if (sum)
		tool_error(t, "warning: %llu event(s) not seen: the kernel "
			   "skipped our programs because another BPF program "
			   "was running on that CPU", (unsigned long long)sum);
}

void tool_detach(struct tool_ctx *t)
{
	long missed;

	if (!t->sess.links) {
		session_detach_all(&t->sess); /* unmounts, if still owed */
		return;
	}
	report_drops(t);
	report_skips(t);
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
	free(t->tp_fields);
	t->tp_fields = NULL;
	t->tp_event[0] = 0;
	tool_detach(t);
	obj_close(t->obj);
	t->obj = NULL;
	free(t->objbuf);
	t->objbuf = NULL;
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
	tool_flush();
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

int opt_pid(struct tool_ctx *t, const char *arg, unsigned long *v)
{
	if (parse_ulong(arg, v) < 0 || !*v || *v > 0x7fffffff)
		return tool_error(t, "-p needs a process id, not '%s'", arg);
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
	const char *end;

	if (!s || bb_parse_double(s, &end, v) < 0 || *end || !(*v > 0) ||
	    *v > 1e9)
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
