/* SPDX-License-Identifier: MIT */
/* The frame of every tool: its context, errors, signals, output,
 * and the object from open to load (tool.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tool.h"
volatile int bb_stop;
volatile int bb_stop_signal;
/* errno of the first failed write of our output, 0 if none */
static int output_errno;

/*
 * Messages quote what the user gave (probe specs, paths, file contents):
 * through the text escaper, so that a name with ESC or bytes that are not
 * UTF-8 cannot reach the terminal as a control sequence. The message's
 * own line breaks and tabs stay as they are.
 */
static void vtool_error(const struct tool_ctx *t, const char *fmt,
			va_list ap)
{
	char small[1024], *msg = small, *p;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		small[0] = 0;
	else if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)))
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	else
		msg = small; /* whole, or cut short without memory */
	fprintf(stderr, "barebpf %s: ", t->name);
	p = msg;
	/* a library sentence naming the tool's own object ("profile: cannot
	 * create map ...") is said once: "barebpf profile: cannot ..." */
	if (!strncmp(p, t->name, strlen(t->name)) &&
	    !strncmp(p + strlen(t->name), ": ", 2))
		p += strlen(t->name) + 2;
	while (*p) {
		size_t k = strcspn(p, "\n\t");

		out_textn(stderr, p, k);
		p += k;
		if (*p)
			fputc(*p++, stderr);
	}
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
}

void tool_error(const struct tool_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtool_error(t, fmt, ap);
	va_end(ap);
}

int tool_fail(const struct tool_ctx *t, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtool_error(t, fmt, ap);
	va_end(ap);
	return err;
}

void tool_init(struct tool_ctx *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->t0 = bb_now_mono();
	session_init(&t->sess);
}

/* stdout is a description of our own (fd_make_blocking): O_NONBLOCK on
 * it touches no one else */
static int stdout_private;
static volatile sig_atomic_t stop_signals;

static void on_signal(int sig)
{
	if (!bb_stop_signal)
		bb_stop_signal = sig;
	bb_stop = 1;
	/*
	 * A second Ctrl-C (or TERM, HUP, QUIT) gives up on a reader that
	 * stopped reading: a write blocked on it (restarted, SA_RESTART)
	 * then fails with EAGAIN, said at exit as lines lost, and the tool
	 * goes on to remove its probes. Writes that find room still go out.
	 */
	if (sig != SIGPIPE && ++stop_signals == 2 && stdout_private) {
		int fl = fcntl(1, F_GETFL);

		if (fl >= 0)
			fcntl(1, F_SETFL, fl | O_NONBLOCK);
	}
}

int tool_stop_signals(void)
{
	return stop_signals;
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
	/*
	 * SA_RESTART: a write to a reader that is behind completes instead
	 * of failing with EINTR (stdio then drops its buffer: a Ctrl-C while
	 * the test's pipe was full lost lines, "writing the output failed
	 * (Interrupted system call)"). poll() and nanosleep(), which the
	 * loops wait in, are never restarted (signal(7)): they still return
	 * on a signal, and the loops look at bb_stop.
	 */
	sa.sa_flags = SA_RESTART;
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
 * reopened: its write errors are then reported (tool_exit). A pipe's is
 * made private even when blocking, so that a second stop signal may set
 * O_NONBLOCK on it (on_signal). Returns 1 if fd is now private.
 */
#define TOOL_PIPE_SIZE (1024 * 1024)

static int fd_make_blocking(int fd)
{
	char path[32];
	struct stat st;
	int fl = fcntl(fd, F_GETFL), nfd;

	if (fl < 0 || fstat(fd, &st) < 0 ||
	    !(S_ISFIFO(st.st_mode) ||
	      (S_ISCHR(st.st_mode) && (fl & O_NONBLOCK))))
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* O_NONBLOCK for the open only: a FIFO without a reader fails
	 * (ENXIO) instead of blocking */
	nfd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (nfd < 0)
		return 0;
	if (fcntl(nfd, F_SETFL, (fl | O_WRONLY) & ~O_NONBLOCK) == 0 &&
	    dup2(nfd, fd) == fd) {
		close(nfd);
		return 1;
	}
	close(nfd);
	return 0;
}

/*
 * Output to a pipe or file goes out in batches: stdout fully buffered in
 * 64 KiB (musl's own buffer is 1 KiB: a write() every dozen lines), and
 * flushed once per drain of the rings (tool_wait), so at most
 * PERFBUF_MAX_DELAY_MS after the event. A terminal stays line-buffered:
 * a person reads no faster, and its lines keep their order with stderr's.
 */
/* tool_exit said how the output went; otherwise the atexit check does */
static int exit_said;

/*
 * Every way out that did not pass through tool_exit (`--help`, `--version`
 * and --list-tools returning from main, -h's exit(0)) comes here: what is
 * left is flushed, and a write that failed (`--help >/dev/full`) is said
 * and fails the run, which exit 0 hid. A pipe's reader gone: SIGPIPE, as
 * tool_exit.
 */
static void stdout_check_at_exit(void)
{
	if (exit_said)
		return;
	fflush(stdout);
	if (!tool_output_failed())
		return;
	if (output_errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	fprintf(stderr, "barebpf: writing the output failed (%s)\n",
		strerror(output_errno));
	_exit(1);
}

void tool_stdio_init(void)
{
	static char outbuf[65536];
	struct stat st;

	/*
	 * Started with stdout closed (`>&-`), whatever we print would be
	 * lost: we used to put /dev/null there and exit 0 having printed
	 * nothing. The caller is told instead (stderr is never closed here:
	 * main put /dev/null there if it was).
	 */
	if (fcntl(1, F_GETFD) < 0) {
		fputs("barebpf: standard output is closed (>&-): the output "
		      "would be lost; give it a file or a pipe, or >/dev/null "
		      "to discard it\n", stderr);
		exit(1);
	}
	atexit(stdout_check_at_exit);
	stdout_private = fd_make_blocking(1);
	fd_make_blocking(2);
	if (!isatty(1))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/*
	 * A pipe of 1 MiB (the most an unprivileged user may ask for), not
	 * 64 KiB: with the default, each 64 KiB batch filled the pipe and
	 * the next write waited for the reader of the pipe to be scheduled
	 * (trace -j | cat at a million lines a second: 600 such waits,
	 * while the rings filled). Where it is refused, the pipe stays.
	 */
	if (fstat(1, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(1, F_GETPIPE_SZ) < TOOL_PIPE_SIZE)
		fcntl(1, F_SETPIPE_SZ, TOOL_PIPE_SIZE);
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
	/* 0, 1, or 2 (usage): never a -errno that a path forgot to turn
	 * into 1 (`run -c nosuch=1` exited 254) */
	if (ret < 0 || ret > 2)
		ret = 1;
	tool_flush();
	exit_said = 1;
	if (bb_stop_signal == SIGPIPE || output_errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	if (output_errno == EAGAIN && stop_signals >= 2) {
		fprintf(stderr, "barebpf %s: the output's reader stopped "
			"reading; given up at the second signal: lines were "
			"lost\n", name);
		return ret ? ret : 1;
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

int tool_need_uprobes(struct tool_ctx *t, int pid)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	int n;

	if (!tfs)
		return -ENOENT;
	if (!uprobes_available(tfs)) {
		tool_error(t, "this kernel has neither the perf uprobe PMU nor "
			   "uprobe_events in %s: it was built without "
			   "CONFIG_UPROBE_EVENTS, and user-space probes need it",
			   tfs);
		return -ENOTSUP;
	}
	t->sess.upid = pid;
	n = uprobes_remove_stale(tfs, &err);
	if (n < 0)
		tool_error(t, "warning: could not remove stale uprobes: %s",
			   err.msg);
	else if (n > 0 && t->verbose)
		fprintf(stderr, "removed %d uprobe(s) left by dead barebpf "
			"processes\n", n);
	return 0;
}

int tool_open(struct tool_ctx *t, const struct bb_skel *skel,
	      const void *buf, size_t len)
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
	obj_set_lazy_hash(t->obj);
	obj_set_str_fallback(t->obj);
	t->objbuf = obj;
	if (skel) {
		ret = obj_skel_bind(t->obj, skel, &err);
		if (ret < 0)
			return tool_fail(t, ret, "%s", err.msg);
	}
	return 0;
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

void tool_taskdev_unused(struct tool_ctx *t)
{
	struct bb_map *m = obj_map(t->obj, "task_dev");

	if (m)
		m->def.max_entries = 1;
	obj_set_noload(t->obj, "taskdev_bio_queue");
}

static void fds_exhausted(struct tool_ctx *t, int ret)
{
	struct rlimit r = { 0, 0 };

	getrlimit(RLIMIT_NOFILE, &r);
	if (ret == -ENFILE)
		tool_error(t, "the system is out of file descriptors "
			   "(fs.file-max): %d programs and %d maps need one "
			   "each", obj_nprogs(t->obj), obj_nmaps(t->obj));
	else
		tool_error(t, "out of file descriptors: %d programs and %d "
			   "maps need one each, more than this process may "
			   "open (%llu: raise it with `ulimit -n`, or load "
			   "fewer programs)", obj_nprogs(t->obj),
			   obj_nmaps(t->obj), (unsigned long long)r.rlim_cur);
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
		return tool_fail(t, ret, "%s", err.msg);
	if (t->verbose)
		fprintf(stderr, "kern_version 0x%06x (%s)\n", kver, src);
	ret = obj_load(t->obj, kver, &err);
	if (ret == -EMFILE || ret == -ENFILE)
		/* not the verifier's doing: its log is of a program it
		 * passed, whose descriptor could not be made */
		return fds_exhausted(t, ret), ret;
	if (ret < 0) {
		print_verifier_log(obj_verifier_log(t->obj),
				   obj_verifier_log_truncated(t->obj));
		tool_error(t, "%s", err.msg);
		if (ret == -EPERM && geteuid() != 0)
			tool_error(t, "bpf() needs root (CAP_SYS_ADMIN, or "
				   "CAP_BPF and CAP_PERFMON on 5.8+)");
		else if (ret == -EPERM)
			tool_error(t, "bpf() needs root (CAP_SYS_ADMIN); if "
				   "you are root, RLIMIT_MEMLOCK may be too "
				   "low: try `ulimit -l unlimited`");
	}
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
			n == 1 ? "" : "s", (bb_now_mono() - t->t0) * 1e3);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
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
