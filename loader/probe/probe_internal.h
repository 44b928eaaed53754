/* SPDX-License-Identifier: MIT */
/*
 * loader/probe/: attaching programs, one file per attach kind behind one
 * provider table, as ply does. session.c keeps a session's books and picks
 * the provider of a program's kind; kprobe.c (kprobes and kretprobes),
 * uprobe.c (uprobes and uretprobes), tracepoint.c (tracepoints and raw
 * tracepoints) and sample.c (perf_event programs: a sampling event per
 * CPU, attached with session_attach_sampling, which knows the rate) are
 * the providers;
 * perf_event.c makes the perf events all of them use; kprobe_events.c owns
 * our lines in kprobe_events and uprobe_events (names, removal, leftovers
 * of dead barebpf processes); kretprobe_misses.c counts lost returns;
 * kprobe_funcs.c tells which functions the kernel has.
 *
 * This header is internal to the library: files of loader/probe/ include
 * it; the command line and the tests include probe.h, which declares the
 * public functions of this folder. Calls go one way only: session.c ->
 * providers -> perf_event.c, kprobe_events.c; nothing here calls back
 * into session.c.
 */
#ifndef BAREBPF_PROBE_INTERNAL_H
#define BAREBPF_PROBE_INTERNAL_H

#include <string.h>
#include "probe.h"

/* One per bb_prog_kind: session.c dispatches, the providers implement. */
struct bb_provider {
	const char *name;
	enum bb_prog_kind kind;
	int (*attach)(struct bb_session *s, struct bb_link *l, int prog_fd,
		      int maxactive, struct bb_err *err);
	int (*detach)(struct bb_session *s, struct bb_link *l);
};
extern const struct bb_provider kprobe_provider, kretprobe_provider,
	tracepoint_provider, sample_provider, uprobe_provider,
	uretprobe_provider, rawtp_provider;

/* ---- perf_event.c ---- */
/* perf_event_open on trace event id, SET_BPF, ENABLE: the perf fd. */
int perf_tp_attach(int tp_id, int prog_fd);
/* The same through the kprobe PMU of that type (kprobe_pmu_type): a
 * kretprobe if retbit >= 0. */
int kprobe_pmu_open(int type, int retbit, const char *fn, int prog_fd);
/* A kprobe off bytes past fn's address (the PMU's config2). */
int kprobe_pmu_open_at(int type, const char *fn, int off, int prog_fd);
/* A perf event of trace event tp_id, or of the uprobe PMU (type: a
 * uretprobe if retbit >= 0) at path's file offset off, only in process
 * pid if pid > 0; ref_ctr: the file offset of a USDT semaphore the kernel
 * raises while the probe is in (4.20+), or 0. */
int perf_tp_attach_pid(int tp_id, int pid, int prog_fd);
int uprobe_pmu_open(int type, int retbit, const char *path, uint64_t off,
		    uint64_t ref_ctr, int pid, int prog_fd);
/* DISABLE and close a perf event fd; -1 is fine. */
void perf_event_close(int pfd);
/* DISABLE and close n perf event fds (-1s are skipped) at once, from
 * several tasks: each is -1 after. */
void perf_events_close(int *fds, int n);
/* The same, calling watch (perf_close_watch_fn, probe.h) while it lasts;
 * -EINTR if the watch stopped it: the fds not closed are still >= 0. */
int perf_events_close_watch(int *fds, int n, perf_close_watch_fn watch,
			    void *ctx);

/* ---- kprobe_events.c ---- */
/* Remove "group/event" from kprobe_events. */
int kprobe_event_remove(const char *tracefs, const char *event);
/* The same from file (kprobe_events, uprobe_events) of tracefs. */
int probe_event_remove(const char *tracefs, const char *file,
		       const char *event);

/* The session's link of that kind on target, or NULL. */
static inline const struct bb_link *
session_link(const struct bb_session *s, enum bb_prog_kind kind,
	     const char *target)
{
	const struct bb_link *l;

	for (l = s->links; l; l = l->next)
		if (l->kind == kind && !strcmp(l->target, target))
			return l;
	return NULL;
}

#endif
