/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints: the event already exists in tracefs, we only look up its id
 * and attach a perf event. Targets are "category/name" (the section
 * convention) or "category:name" (the way perf and bpftrace spell them).
 * Raw tracepoints (4.17): the program is handed the tracepoint's own
 * arguments, attached by name (BPF_RAW_TRACEPOINT_OPEN, no tracefs); the
 * fd that holds it is the link's pfd.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "probe_internal.h"
#include "kernel.h"

static int tracepoint_attach(struct bb_session *s, struct bb_link *l,
			     int prog_fd, int maxactive, struct bb_err *err)
{
	char cat[128], *name;
	int id, pfd;

	(void)maxactive;
	snprintf(cat, sizeof(cat), "%s", l->target);
	name = strpbrk(cat, "/:");
	if (!name || name == cat || !name[1] || strpbrk(name + 1, "/:"))
		return bb_fail(err, -EINVAL,
			       "tracepoint '%s': expected category/name "
			       "(e.g. block/block_rq_complete)", l->target);
	*name++ = 0;
	id = tracefs_event_id(s->tracefs, cat, name);
	if (id == -ENOENT)
		return bb_fail(err, id,
			       "tracepoint %s:%s not found on this kernel (no "
			       "%s/events/%s/%s)", cat, name, s->tracefs, cat,
			       name);
	if (id < 0)
		return bb_fail(err, id, "tracepoint %s:%s: cannot read its "
			       "id: %s", cat, name, strerror(-id));
	pfd = perf_tp_attach(id, prog_fd);
	if (pfd == -EINVAL)
		return bb_fail(err, pfd,
			       "cannot attach to tracepoint %s:%s: the kernel "
			       "refused the program (EINVAL): is it a "
			       "tracepoint program?", cat, name);
	/* 4.15 runs several programs per trace event (EEXIST: this one is
	 * there already); before, the event holds one program, whoever
	 * attached it, and tracepoints cannot be made again like kprobes */
	if (pfd == -EEXIST)
		return bb_fail(err, pfd,
			       "cannot attach to tracepoint %s:%s: a program "
			       "is already attached there (a kernel before "
			       "4.15 runs one program per tracepoint)", cat,
			       name);
	/* bpf_prog_array_copy: BPF_TRACE_MAX_PROGS (64) on one event */
	if (pfd == -E2BIG)
		return bb_fail(err, pfd,
			       "cannot attach to tracepoint %s:%s: the kernel "
			       "runs at most 64 BPF programs on one event, and "
			       "that many are attached there already (this "
			       "run's and others')", cat, name);
	if (pfd == -EMFILE || pfd == -ENFILE)
		return bb_fail(err, pfd,
			       "cannot attach to tracepoint %s:%s: out of file "
			       "descriptors (%s): every probe holds one",
			       cat, name, strerror(-pfd));
	if (pfd < 0)
		return bb_fail(err, pfd,
			       "cannot attach to tracepoint %s:%s: "
			       "perf_event_open/SET_BPF: %s", cat, name,
			       strerror(-pfd));
	l->pfd = pfd;
	return 0;
}

static int tracepoint_detach(struct bb_session *s, struct bb_link *l)
{
	(void)s;
	perf_event_close(l->pfd);
	l->pfd = -1;
	return 0;
}

const struct bb_provider tracepoint_provider = {
	.name = "tracepoint",
	.kind = BB_PROG_TRACEPOINT,
	.attach = tracepoint_attach,
	.detach = tracepoint_detach,
};

static int rawtp_attach(struct bb_session *s, struct bb_link *l, int prog_fd,
			int maxactive, struct bb_err *err)
{
	const char *name = strrchr(l->target, '/');
	int fd;

	(void)s;
	(void)maxactive;
	if (!name)
		name = strrchr(l->target, ':');
	name = name ? name + 1 : l->target;
	fd = bpf_raw_tp_open(name, prog_fd);
	if (fd == -ENOENT)
		return bb_fail(err, fd, "raw tracepoint %s not found on this "
			       "kernel", name);
	if (fd < 0)
		return bb_fail(err, fd, "cannot attach to raw tracepoint %s: "
			       "BPF_RAW_TRACEPOINT_OPEN: %s%s", name,
			       strerror(-fd), fd == -EINVAL ? " (before Linux "
			       "4.17?)" : "");
	l->pfd = fd;
	return 0;
}

const struct bb_provider rawtp_provider = {
	.name = "raw tracepoint",
	.kind = BB_PROG_RAW_TRACEPOINT,
	.attach = rawtp_attach,
	.detach = tracepoint_detach, /* closes pfd: the link */
};
