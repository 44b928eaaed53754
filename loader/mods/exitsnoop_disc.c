/* SPDX-License-Identifier: MIT */
/*
 * Where exitsnoop's fields of struct task_struct are, on a kernel without
 * BTF: from what the kernel does. A process P named "bbexdisc" forks
 * children, one by one, 10 ms apart, noting the monotonic clock before
 * and after each fork: c0 exits with 0x5a (exit_code 0x5a00), c1 is ended
 * by SIGUSR2 (exit_code 12), c2 starts a thread that exits (a thread: its
 * pid is not its tgid) and then exits with 0x33 (0x3300); P waits for
 * them and exits with 0x11. The program tp_disc (bpf/exitsnoop.bpf.c)
 * copies the first EXITSNOOP_WINDOW bytes of each of these tasks as it
 * exits, with its address. Then, over every snapshot:
 *  - exit_code: the u32 equal to the known code of each (one only);
 *  - tgid: the u32 equal to its tgid (one only; pid differs in the thread);
 *  - real_parent: the pointer equal to P's task_struct in each of P's
 *    children (and the thread, whose real_parent is its leader's); the
 *    field parent next to it is the same unless the task is ptraced: of
 *    two, the first (real_parent precedes parent in every kernel from 2.6
 *    to 7.x), of more, none;
 *  - start_time: the u64 within its fork's window of the monotonic clock
 *    in each (start_time: monotonic ns since 3.17); start_boottime (or
 *    real_start_time) after it is the same on a machine never suspended:
 *    of two, the first, of more, none.
 * A field not found is a refusal that names it, never a guess.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "mods.h"
#include "fieldoff.h"
#include "exitsnoop.skel.h"
#include "../../bpf/exitsnoop.h"

EMBEDDED_OBJ(exitsnoop);

#define DISC_NAME "bbexdisc"
#define NCHILD 3

/* what P tells the parent through the pipe */
struct disc_report {
	int32_t pid[NCHILD + 1];  /* c0, c1, c2, c2's thread */
	uint64_t lo[NCHILD], hi[NCHILD];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* a thread that says its tid to P (fd 3) and exits, the process going on */
static void *thread_fn(void *arg)
{
	int tid = (int)syscall(SYS_gettid);

	(void)arg;
	if (write(3, &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	return NULL;
}

static void child(int i)
{
	sigset_t all;
	pthread_t th;
	int tid;

	usleep(20000);
	if (i == 0)
		_exit(0x5a);
	if (i == 1) {
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		signal(SIGUSR2, SIG_DFL);
		kill(getpid(), SIGUSR2);
		_exit(1);
	}
	/* the thread says its tid to P; -errno if there is none */
	tid = pthread_create(&th, NULL, thread_fn, NULL);
	if (tid) {
		tid = -tid;
		if (write(3, &tid, sizeof(tid)) != sizeof(tid))
			_exit(1);
	} else {
		pthread_join(th, NULL);
	}
	usleep(30000); /* its exit reaches the tracepoint (after join) */
	_exit(0x33);
}

/* P: the children, then its report into out */
static void proc_p(int out, pid_t parent)
{
	struct disc_report r;
	int tp[2], i;

	memset(&r, 0, sizeof(r));
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, DISC_NAME);
	if (getppid() != parent || pipe(tp) < 0)
		_exit(1);
	for (i = 0; i < NCHILD; i++) {
		r.lo[i] = mono_ns();
		r.pid[i] = fork();
		r.hi[i] = mono_ns();
		if (r.pid[i] < 0)
			_exit(2);
		if (!r.pid[i]) {
			if (dup2(tp[1], 3) < 0)
				_exit(1);
			child(i);
		}
		usleep(10000);
	}
	close(tp[1]);
	if (read(tp[0], &r.pid[NCHILD], sizeof(int)) != sizeof(int))
		r.pid[NCHILD] = 0;
	for (i = 0; i < NCHILD; i++)
		waitpid(r.pid[i], NULL, 0);
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0x11);
}

/* ---- the matching: pure (tests/unit/test_exitsnoop.c) ---- */

static uint64_t snap_word(const struct exitsnoop_snap *s, int off, int size)
{
	uint32_t v32;
	uint64_t v64;

	if (size == 4) {
		memcpy(&v32, s->bytes + off, 4);
		return v32;
	}
	memcpy(&v64, s->bytes + off, 8);
	return v64;
}

/* Does snapshot s hold what field wants at off? -1: s says nothing. */
static int snap_fits(const struct exitsnoop_snap *s, int field, int off,
		     int psize)
{
	switch (field) {
	case EXITSNOOP_F_EXIT_CODE:
		return s->code < 0 ? -1 : snap_word(s, off, 4) ==
			(uint32_t)s->code;
	case EXITSNOOP_F_TGID:
		return snap_word(s, off, 4) == s->tgid;
	case EXITSNOOP_F_REAL_PARENT:
		/* a 32-bit kernel's bpf_get_current_task() is sign-extended
		 * (0xc... addresses are negative longs): its low half */
		return !s->parent ? -1 : snap_word(s, off, psize) ==
			(psize == 4 ? (uint32_t)s->parent : s->parent);
	default: { /* start_time */
		uint64_t v = snap_word(s, off, 8);

		return !s->fork_hi ? -1 : v >= s->fork_lo && v <= s->fork_hi;
	}
	}
}

int exitsnoop_match(const struct exitsnoop_snap *s, int n, int field,
		    int psize, int *offs, int max)
{
	int size = field == EXITSNOOP_F_REAL_PARENT ? psize :
		   field == EXITSNOOP_F_START_TIME ? 8 : 4;
	int off, i, found = 0;

	for (off = 0; off + size <= EXITSNOOP_WINDOW; off += size) {
		int yes = 0, no = 0;

		for (i = 0; i < n; i++) {
			int f = snap_fits(&s[i], field, off, psize);

			yes += f == 1;
			no += f == 0;
		}
		if (yes < 2 || no)
			continue;
		if (found < max)
			offs[found] = off;
		found++;
	}
	return found;
}

/* ---- the experiment ---- */

static int read_snap(int chunks_fd, int who_fd, uint32_t tid,
		     struct exitsnoop_snap *s)
{
	struct exitsnoop_who w;
	struct exitsnoop_chunk_key k = { tid, 0 };

	if (bpf_map_lookup_elem(who_fd, &tid, &w) < 0)
		return -ENOENT;
	for (k.chunk = 0; k.chunk < EXITSNOOP_NCHUNKS; k.chunk++)
		if (bpf_map_lookup_elem(chunks_fd, &k, s->bytes +
					k.chunk * EXITSNOOP_CHUNK) < 0)
			return -ENOENT;
	s->task = w.task;
	s->tgid = w.pid;
	return 0;
}

/* P and its children run; their snapshots into d->snaps */
static int experiment(struct exitsnoop_disc *d, struct tool_ctx *td,
		      struct bb_err *err)
{
	int cfd = exitsnoop_map_fd(td->obj, EXITSNOOP_M_chunks);
	int wfd = exitsnoop_map_fd(td->obj, EXITSNOOP_M_who);
	static const int codes[NCHILD] = { 0x5a00, SIGUSR2, 0x3300 };
	struct disc_report r;
	int out[2], st, i, ret;
	pid_t p, parent = getpid();
	uint64_t lo, hi;

	if (pipe(out) < 0)
		return bb_fail(err, -errno, "discovery: pipe: %s",
			       strerror(errno));
	lo = mono_ns();
	p = fork();
	hi = mono_ns();
	if (p == 0)
		proc_p(out[1], parent);
	close(out[1]);
	if (p < 0) {
		close(out[0]);
		return bb_fail(err, -errno, "discovery: fork: %s",
			       strerror(errno));
	}
	ret = read(out[0], &r, sizeof(r)) == sizeof(r) ? 0 : -EIO;
	close(out[0]);
	waitpid(p, &st, 0);
	usleep(10000); /* P's exit reached the tracepoint */
	if (ret < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0x11)
		return bb_fail(err, -EIO, "discovery: the test processes "
			       "did not run as planned (status 0x%x)", st);
	memset(d->snaps, 0, sizeof(d->snaps));
	d->nsnaps = NCHILD + 2;
	if ((ret = read_snap(cfd, wfd, p, &d->snaps[0])) < 0)
		return bb_fail(err, ret, "discovery: no snapshot of the "
			       "test process %d at its exit", (int)p);
	d->snaps[0].code = 0x1100;
	d->snaps[0].fork_lo = lo;
	d->snaps[0].fork_hi = hi;
	for (i = 0; i <= NCHILD; i++) {
		struct exitsnoop_snap *s = &d->snaps[i + 1];

		if (r.pid[i] < 0)
			return bb_fail(err, r.pid[i], "discovery: the test "
				       "thread did not start: %s",
				       strerror(-r.pid[i]));
		if (r.pid[i] == 0 ||
		    read_snap(cfd, wfd, r.pid[i], s) < 0)
			return bb_fail(err, -ENOENT, "discovery: no snapshot "
				       "of the test process %d at its exit",
				       r.pid[i]);
		s->code = i < NCHILD ? codes[i] : 0;
		s->parent = d->snaps[0].task;
		if (i < NCHILD) {
			s->fork_lo = r.lo[i];
			s->fork_hi = r.hi[i];
		}
	}
	return 0;
}

static const char *const field_names[EXITSNOOP_NF] = {
	"task_struct.exit_code", "task_struct.tgid",
	"task_struct.real_parent", "task_struct.start_time",
};

static void conclude(struct exitsnoop_disc *d, int f, double secs)
{
	int psize = sizeof(void *), offs[3];
	int n = exitsnoop_match(d->snaps, d->nsnaps, f, psize, offs, 3);
	int two_ok = f == EXITSNOOP_F_REAL_PARENT ||
		     f == EXITSNOOP_F_START_TIME;
	struct bb_field *o = &d->field[f];

	if (n == 0 || n > (two_ok ? 2 : 1)) {
		d->ret[f] = -ESRCH;
		snprintf(d->why[f], sizeof(d->why[f]), "%s in the first %d "
			 "bytes of %d exiting test tasks' task_struct held "
			 "what %s holds", n ? "more than one place" :
			 "no place", EXITSNOOP_WINDOW, d->nsnaps,
			 field_names[f]);
		return;
	}
	d->ret[f] = 0;
	o->offset = offs[0];
	o->size = f == EXITSNOOP_F_REAL_PARENT ? psize :
		  f == EXITSNOOP_F_START_TIME ? 8 : 4;
	o->src = BB_FIELD_DISCOVERED;
	snprintf(o->how, sizeof(o->how), "discovered: the word at offset %d "
		 "held it in each (of %d) exiting test task that knew it%s "
		 "(%.2f s)",
		 offs[0], d->nsnaps, n == 2 ? "; of the two that did, the "
		 "first" : "", secs);
}

static void no_record(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)ctx;
	(void)cpu;
	(void)data;
	(void)size;
}

int exitsnoop_attach(struct tool_ctx *t, const char *prog, int raw)
{
	struct bb_probe p = { prog, raw ? "sched_process_exit" : NULL, 0,
			      NULL, NULL, 0, 0 };
	struct bb_prog *copy = NULL;
	struct bb_err err = { "" };
	int ret;

	if (raw) {
		ret = obj_prog_load_copy(t->obj, prog, BB_PROG_RAW_TRACEPOINT,
					 &copy, &err);
		if (ret < 0)
			return tool_fail(t, ret, "%s", err.msg);
	}
	return tool_attach_probe_progs(t, &p, &copy, 1);
}

static int run_once(struct exitsnoop_disc *d, struct bb_err *err)
{
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx td;
	uint64_t name = 0;
	double t0 = bb_now_mono();
	int ret, f;

	memcpy(&name, DISC_NAME, 8);
	tool_init(&td, d->t->name);
	td.verbose = d->t->verbose;
	td.kver_override = d->t->kver_override;
	ret = tool_open(&td, &exitsnoop_skel, EMBEDDED_ARGS(exitsnoop));
	if (ret == 0) {
		/* every constant is set, even those of tp_exit */
		const int set[] = {
			exitsnoop_set(td.obj, EXITSNOOP_C_disc_comm, name),
			exitsnoop_set(td.obj, EXITSNOOP_C_filter_pid, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_per_thread, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_failed_only, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_off_exit_code, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_off_tgid, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_off_real_parent, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_off_start_time, 0),
			exitsnoop_set(td.obj, EXITSNOOP_C_task_arg, d->raw),
		};
		obj_set_noload(td.obj, EXITSNOOP_P_tp_exit);
		if (d->raw)
			obj_set_noload(td.obj, EXITSNOOP_P_tp_disc);
		ret = MOD_CONSTS_SET(&td, set);
	}
	if (ret == 0)
		ret = tool_load(&td);
	/* the frame wants the object's ring open first; tp_disc sends
	 * nothing there */
	if (ret == 0)
		ret = tool_ring(&td, exitsnoop_map_fd(td.obj,
						       EXITSNOOP_M_events), 1,
				no_record, NULL, &pb);
	if (ret == 0)
		ret = exitsnoop_attach(&td, EXITSNOOP_P_tp_disc, d->raw);
	if (ret == 0)
		ret = experiment(d, &td, err);
	else
		bb_fail(err, ret, "discovery: its program did not start "
			"(above)");
	perfbuf_close(pb);
	tool_cleanup(&td);
	if (ret < 0)
		return ret;
	for (f = 0; f < EXITSNOOP_NF; f++)
		conclude(d, f, bb_now_mono() - t0);
	return 0;
}

int exitsnoop_discover(void *ctx, const char *path, struct bb_field *out,
		       struct bb_err *err)
{
	struct exitsnoop_disc *d = ctx;
	int f;

	for (f = 0; f < EXITSNOOP_NF; f++)
		if (!strcmp(path, field_names[f]))
			break;
	if (f == EXITSNOOP_NF)
		return bb_fail(err, -EINVAL, "internal: no discovery of %s",
			       path);
	if (!d->done) {
		d->run_ret = run_once(d, &d->run_err);
		d->done = 1;
	}
	if (d->run_ret < 0) {
		*err = d->run_err;
		return d->run_ret;
	}
	if (d->ret[f] < 0)
		return bb_fail(err, d->ret[f], "%s; or give this kernel's BTF "
			       "with --btf FILE", d->why[f]);
	*out = d->field[f];
	return 0;
}
