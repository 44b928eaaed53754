/* SPDX-License-Identifier: MIT */
/* Attaching a tool's probes (closers first: probe_order), its output
 * rings, and detaching with what the run missed (tool.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#include "tool.h"

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

int tool_ring(struct tool_ctx *t, int map_fd, int pages,
	      perfbuf_sample_fn fn, void *ctx, struct bb_perfbuf **pb)
{
	struct bb_err err = { "" };
	struct sysinfo si;
	int ret, big = pages;
	const char *env;

	if (map_fd < 0)
		return tool_fail(t, map_fd, "internal: no ring map: %s",
				 strerror(-map_fd));
	/* BAREBPF_RING_PAGES: the operator's size (a board short of memory,
	 * or a test that must fill the ring), fixed; else the tool's own
	 * size, which grows under pressure to rings scaled to the memory
	 * (perfbuf_grow_to): a quiet tool starts and stays small */
	env = getenv("BAREBPF_RING_PAGES");
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (*end || !v || v > 65536 || (v & (v - 1)))
			return tool_fail(t, -EINVAL, "BAREBPF_RING_PAGES=%s: "
					 "give pages per CPU, a power of two "
					 "from 1 to 65536 (or unset it)", env);
		pages = big = (int)v;
	} else {
		/* 2 MiB at least (or the scaled size if smaller): the slack
		 * (three quarters of it past the wake-up) a burst fills while
		 * the reader grows the ring; a 256 KiB one lost records under
		 * a kill() loop before its reader could grow it */
		long psz = sysconf(_SC_PAGESIZE);
		int least = psz > 0 && psz < (2L << 20) ? (int)((2L << 20) / psz)
							: 1;

		if (sysinfo(&si) == 0)
			big = perfbuf_pages_scaled(pages, (uint64_t)si.totalram *
						   si.mem_unit,
						   bb_ncpus_possible(), psz);
		if (pages < least)
			pages = least < big ? least : big;
	}
	ret = perfbuf_open(pb, map_fd, pages, fn, ctx, &err);
	if (ret < 0)
		return tool_fail(t, ret, "%s", err.msg);
	perfbuf_grow_to(*pb, big);
	ring_add(t, map_fd);
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
			return tool_fail(t, -EINVAL,
					 "internal: the ring of map %s must "
					 "be open before the first attach",
					 m->name);
	}
	order = malloc((n > 0 ? n : 1) * sizeof(*order));
	if (!order)
		return tool_fail(t, -ENOMEM, "out of memory");
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

/* Counts a full map could not take (bb_helpers.h: BB_DROPS_MAP). */
void tool_report_drops(struct tool_ctx *t)
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

/*
 * Before 4.17 each tracepoint's last perf event ends with a wait for the
 * kernel (perf_trace_event_unreg: RCU, under event_mutex), and so does each
 * kprobe_events probe removed: minutes for hundreds, uninterruptible. So a
 * terminal sees progress after a second, and a stop signal that comes
 * during the detach (or a second one) ends the tool: the rest goes on in
 * the background (session_detach_fork).
 */
struct detach_watch {
	double t0, shown;
	int sigs, tty, done, total;
};

#define DETACH_HINT " (Ctrl-C: finish in the background)"

static int detach_tick(void *ctx, int done, int total)
{
	struct detach_watch *w = ctx;
	int sigs = tool_stop_signals();
	double now;

	w->done = done;
	w->total = total;
	if (sigs > w->sigs || sigs >= 2)
		return 1;
	if (!w->tty)
		return 0;
	now = bb_now_mono();
	if (now - w->t0 < 1.0 || now - w->shown < 0.1)
		return 0;
	w->shown = now;
	fprintf(stderr, "\rDetaching... %d/%d" DETACH_HINT, done, total);
	return 0;
}

void tool_detach(struct tool_ctx *t)
{
	struct detach_watch w = { 0 };
	const struct bb_link *l;
	double t0;
	long missed;
	int n, ret;

	if (!t->sess.links) {
		session_detach_all(&t->sess); /* unmounts, if still owed */
		return;
	}
	tool_report_drops(t);
	report_skips(t);
	missed = session_kretprobe_misses(&t->sess);
	if (missed > 0)
		tool_error(t, "warning: %ld call(s) entered without their "
			   "return being seen: still in flight at exit, or "
			   "missed because more calls were in flight than the "
			   "kretprobe's maxactive (raise it with --maxactive)",
			   missed);
	n = 0;
	for (l = t->sess.links; l; l = l->next)
		n++;
	t0 = w.t0 = bb_now_mono();
	w.sigs = tool_stop_signals();
	w.tty = isatty(2);
	ret = session_detach_watch(&t->sess, detach_tick, &w);
	if (w.shown > 0 && ret == 0)
		fprintf(stderr, "\rDetaching... %d/%d%*s\n", w.total, w.total,
			(int)sizeof(DETACH_HINT) - 1, "");
	else if (w.shown > 0)
		fputc('\n', stderr);
	if (ret == -EINTR && getpid() == 1) {
		/* the kernel kills a pid namespace's processes with its
		 * first: a child would not outlive us */
		tool_error(t, "the detach goes on: as pid 1 of its namespace, "
			   "barebpf cannot leave it to a child");
		session_detach_all(&t->sess);
	} else if (ret == -EINTR) {
		ret = session_detach_fork(&t->sess);
		if (ret > 0) {
			tool_error(t, "finishing the detach in the background "
				   "(pid %d)", ret);
			return;
		}
		tool_error(t, "cannot finish the detach in the background "
			   "(%s): finishing it here", strerror(-ret));
		session_detach_all(&t->sess);
	}
	if (t->verbose)
		fprintf(stderr, "detached %d probe%s in %.0f ms\n", n,
			n == 1 ? "" : "s", (bb_now_mono() - t0) * 1e3);
}

void tool_detach_drain(struct tool_ctx *t, struct bb_perfbuf *pb,
		       void (*drain)(void *ctx, struct bb_perfbuf *pb),
		       void *ctx)
{
	int i;

	tool_detach(t);
	for (i = 0; i < 2; i++) {
		/* a grace period (membarrier: 6-16 ms on 6.18) where the
		 * kernel gives one, else a pause that outlasts any run */
		if (i && bb_rcu_wait() < 0)
			poll(NULL, 0, 50);
		if (drain)
			drain(ctx, pb);
		else
			perfbuf_poll(pb, 0);
	}
}

uint64_t tool_ring_lost(struct tool_ctx *t, struct bb_perfbuf *pb,
			const char *map, uint32_t idx, uint64_t received,
			uint64_t *sent)
{
	struct bb_map *m = obj_map(t->obj, map);

	return tool_ring_lost_fd(t, pb, m ? m->fd : -ENOENT, idx, received,
				 sent);
}

uint64_t tool_ring_lost_fd(struct tool_ctx *t, struct bb_perfbuf *pb,
			   int stats_fd, uint32_t idx, uint64_t received,
			   uint64_t *sent)
{
	uint64_t emitted = 0, lost;
	int ret = stats_fd >= 0 ?
		  bpf_map_sum_percpu_u64(stats_fd, idx, &emitted) : stats_fd;

	if (ret < 0) {
		tool_error(t, "warning: cannot read how many records were sent "
			   "(%s): only the losses the kernel reported count",
			   strerror(-ret));
		emitted = received;
	}
	lost = emitted > received ? emitted - received : 0;
	if (perfbuf_lost(pb) > lost)
		lost = perfbuf_lost(pb);
	if (sent)
		*sent = emitted;
	return lost;
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
