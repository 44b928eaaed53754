/* SPDX-License-Identifier: MIT */
/*
 * uprobes and uretprobes: a kprobe program at a file offset of an ELF
 * file. Where the kernel has the perf uprobe PMU (4.17+), perf_event_open
 * makes the probe and our last fd removes it, even after SIGKILL; else a
 * line in uprobe_events (4.9 has it since 3.5), in our group like the
 * kprobes', removed by detach, and by the next barebpf if we were killed
 * (kprobe_events.c: uprobes_remove_stale).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_internal.h"
#include "kernel.h"
#include "user.h"

#define EVENT_NAME_MAX 60

int uprobes_available(const char *tracefs)
{
	char path[512];
	int bit;

	if (uprobe_pmu_type(&bit) > 0)
		return 1;
	if (!tracefs || !*tracefs)
		return 0;
	snprintf(path, sizeof(path), "%s/uprobe_events", tracefs);
	return access(path, F_OK) == 0;
}

int uprobe_ref_ctr_available(void)
{
	return access("/sys/bus/event_source/devices/uprobe/format/"
		      "ref_ctr_offset", F_OK) == 0;
}

/* uprobe_events reads "PATH:0xOFF" up to a space: a path with a space or
 * a newline would let it smuggle in a second definition. */
static int path_ok(const char *p)
{
	if (*p != '/')
		return 0;
	for (; *p; p++)
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		    *p == ':')
			return 0;
	return 1;
}

/* "bb<pid>x<pidns>_<n>_u_<name>": as kprobe.c names its events */
static void event_name(struct bb_session *s, const char *what, char *name)
{
	const char *fn = strrchr(what, ':');
	int n = snprintf(name, EVENT_NAME_MAX + 1, "bb%dx%lx_%d_u_",
			 (int)getpid(), s->pidns, s->nprobes++);

	for (fn = fn ? fn + 1 : what; *fn && n < EVENT_NAME_MAX; fn++, n++) {
		char c = *fn;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9');

		name[n] = ok ? c : '_';
	}
	name[n] = 0;
}

static int attach_fail(struct bb_err *err, int ret, const char *kind,
		       const struct bb_link *l, const char *how)
{
	switch (ret) {
	case -ESRCH:
		return bb_fail(err, ret, "cannot attach %s to %s: no process "
			       "%d", kind, l->target, l->upid);
	case -EACCES:
	case -EPERM:
		return bb_fail(err, ret, "cannot attach %s to %s: not "
			       "permitted (run as root)", kind, l->target);
	case -ENOENT:
		return bb_fail(err, ret, "cannot attach %s to %s: %s: no such "
			       "file", kind, l->target, l->path);
	case -EINVAL:
		return bb_fail(err, ret, "cannot attach %s to %s: the kernel "
			       "refused the probe at offset 0x%llx of %s "
			       "(EINVAL): not an instruction, or not a file "
			       "it can probe", kind, l->target,
			       (unsigned long long)l->off, l->path);
	default:
		return bb_fail(err, ret, "cannot attach %s to %s: %s: %s",
			       kind, l->target, how, strerror(-ret));
	}
}

static int tracefs_uprobe_attach(struct bb_session *s, struct bb_link *l,
				 int prog_fd, int retprobe,
				 struct bb_err *err)
{
	const char *kind = retprobe ? "uretprobe" : "uprobe";
	char name[EVENT_NAME_MAX + 1], path[512], *def;
	int ret, id, tries;

	snprintf(path, sizeof(path), "%s/uprobe_events", s->tracefs);
	if (access(path, F_OK))
		return bb_fail(err, -EOPNOTSUPP, "cannot attach %s to %s: "
			       "this kernel has neither the uprobe PMU nor "
			       "uprobe_events (CONFIG_UPROBE_EVENTS) in %s",
			       kind, l->target, s->tracefs);
	def = malloc(strlen(l->path) + 160);
	if (!def)
		return bb_fail(err, -ENOMEM, "out of memory");
	/* as kprobe.c: a dead barebpf with our pid may have left the name */
	for (tries = 0;; tries++) {
		event_name(s, l->target, name);
		int n = sprintf(def, "%c:%s/%s %s:0x%llx", retprobe ? 'r' :
				'p', s->group, name, l->path,
				(unsigned long long)l->off);

		/* path:offset(ref_ctr_offset), 4.20+ */
		if (l->ref_ctr)
			n += sprintf(def + n, "(0x%llx)",
				     (unsigned long long)l->ref_ctr);
		strcpy(def + n, "\n");
		ret = tracefs_append(s->tracefs, "uprobe_events", def);
		if (ret != -EEXIST || tries == 3)
			break;
	}
	free(def);
	if (ret < 0)
		return attach_fail(err, ret, kind, l, "uprobe_events");
	snprintf(l->event, sizeof(l->event), "%s/%s", s->group, name);
	id = tracefs_event_id(s->tracefs, s->group, name);
	if (id < 0) {
		ret = bb_fail(err, id, "cannot attach %s to %s: no id for "
			      "event %s: %s", kind, l->target, l->event,
			      strerror(-id));
		goto err_remove;
	}
	l->pfd = perf_tp_attach_pid(id, l->upid, prog_fd);
	if (l->pfd < 0) {
		ret = attach_fail(err, l->pfd, kind, l, "perf_event_open");
		l->pfd = -1;
		goto err_remove;
	}
	s->nutracefs++;
	return 0;

err_remove:
	probe_event_remove(s->tracefs, "uprobe_events", l->event);
	l->event[0] = 0;
	return ret;
}

/* l->path, l->off, l->upid are set */
static int uprobe_attach_link(struct bb_session *s, struct bb_link *l,
			      int prog_fd, int retprobe, struct bb_err *err)
{
	const char *kind = retprobe ? "uretprobe" : "uprobe";
	int pfd;

	if (!path_ok(l->path))
		return bb_fail(err, -EINVAL, "cannot attach %s: '%s' is not "
			       "an absolute path without spaces or ':'",
			       kind, l->path);
	if (access(l->path, R_OK))
		return attach_fail(err, -errno, kind, l, "access");
	/* before 4.20 the PMU ignores the config bits of ref_ctr_offset and
	 * uprobe_events refuses the form: the probe would never fire */
	if (l->ref_ctr && !uprobe_ref_ctr_available())
		return bb_fail(err, -EOPNOTSUPP, "cannot attach %s to %s: a "
			       "USDT probe guarded by a semaphore needs the "
			       "kernel to raise it (ref_ctr_offset, Linux "
			       "4.20+), which this kernel lacks", kind,
			       l->target);
	if (s->upmu_type == -2)
		s->upmu_type = uprobe_pmu_type(&s->upmu_retbit);
	if (s->upmu_type > 0 && (!retprobe || s->upmu_retbit >= 0)) {
		pfd = uprobe_pmu_open(s->upmu_type,
				      retprobe ? s->upmu_retbit : -1, l->path,
				      l->off, l->ref_ctr, l->upid, prog_fd);
		if (pfd >= 0) {
			l->pfd = pfd;
			l->pmu = 1;
			s->nupmu++;
			return 0;
		}
		/* what uprobe_events would refuse just the same */
		if (pfd != -EOPNOTSUPP && pfd != -ENOTSUP)
			return attach_fail(err, pfd, kind, l,
					   "perf_event_open");
	}
	return tracefs_uprobe_attach(s, l, prog_fd, retprobe, err);
}

/* The first function named exactly sym. */
static int first_offset(void *ctx, const char *name, uint64_t foff)
{
	(void)name;
	*(uint64_t *)ctx = foff;
	return 1;
}

int uprobe_resolve(const char *spec, int pid, char *path, size_t len,
		   uint64_t *off, struct bb_err *err)
{
	const char *colon = strrchr(spec, ':'), *fn;
	char lib[512], sym[256], *plus, *end;
	uint64_t add = 0;
	int ret;

	if (!colon || colon == spec || !colon[1] ||
	    (size_t)(colon - spec) >= sizeof(lib) ||
	    strlen(colon + 1) >= sizeof(sym))
		return bb_fail(err, -EINVAL, "'%s': a uprobe is LIBRARY:"
			       "FUNCTION or /PATH:FUNCTION", spec);
	memcpy(lib, spec, colon - spec);
	lib[colon - spec] = 0;
	strcpy(sym, colon + 1);
	ret = ulib_resolve(lib, pid, path, len);
	if (ret < 0)
		return bb_fail(err, ret, "'%s': cannot find library or program "
			       "'%s' (ld.so.cache, LD_LIBRARY_PATH, /lib, "
			       "/usr/lib, PATH): %s", spec, lib,
			       strerror(-ret));
	fn = sym;
	if (!strncmp(sym, "0x", 2)) { /* a file offset of its own */
		*off = strtoull(sym, &end, 16);
		if (*end || end == sym + 2)
			return bb_fail(err, -EINVAL, "'%s': not a hex offset",
				       sym);
		return 0;
	}
	plus = strchr(sym, '+');
	if (plus) {
		*plus++ = 0;
		add = strtoull(plus, &end, 0);
		if (*end || end == plus)
			return bb_fail(err, -EINVAL, "'%s': not an offset",
				       plus);
	}
	ret = elfsyms_lookup(path, fn, first_offset, off);
	if (ret == 0)
		return bb_fail(err, -ENOENT, "'%s': no function '%s' in %s "
			       "(searched .symtab, .dynsym and the "
			       "MiniDebugInfo of .gnu_debugdata)", spec, fn,
			       path);
	if (ret == -EOPNOTSUPP)
		return bb_fail(err, ret, "'%s': %s is Thumb code in %s: 32-bit "
			       "ARM kernels probe ARM code only (build it "
			       "with -marm)", spec, fn, path);
	if (ret < 0)
		return bb_fail(err, ret, "'%s': cannot read the symbols of "
			       "%s: %s", spec, path, bb_elf_strerror(ret));
	*off += add;
	return 0;
}

static int link_set_path(struct bb_link *l, const char *path)
{
	l->path = strdup(path);
	return l->path ? 0 : -ENOMEM;
}

int session_attach_uprobe(struct bb_session *s, struct bb_prog *prog,
			  const char *path, uint64_t off, int retprobe,
			  int pid, const char *target, struct bb_err *err)
{
	struct bb_link *l;
	int ret;

	if (prog->fd < 0)
		return bb_fail(err, -EBADF, "program %s is not loaded",
			       prog->name);
	ret = session_tracefs(s, err);
	if (ret < 0)
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l || link_set_path(l, path) < 0) {
		free(l);
		return bb_fail(err, -ENOMEM, "out of memory");
	}
	l->kind = retprobe ? BB_PROG_URETPROBE : BB_PROG_UPROBE;
	l->pfd = -1;
	l->prog_fd = prog->fd;
	l->off = off;
	l->upid = pid;
	snprintf(l->target, sizeof(l->target), "%s", target ? target : path);
	ret = uprobe_attach_link(s, l, prog->fd, retprobe, err);
	if (ret < 0) {
		free(l->path);
		free(l);
		return ret;
	}
	l->next = s->links;
	s->links = l;
	return 0;
}

/* "LIB:0xOFF(0xREF)" -> "LIB:0xOFF" and REF, a USDT probe's semaphore
 * (trace's u: probes); else target itself and 0. */
static int split_ref_ctr(const char *target, char *spec, size_t len,
			 uint64_t *ref, struct bb_err *err)
{
	const char *open = strrchr(target, '('), *colon;
	size_t n = strlen(target);
	char *end;

	*ref = 0;
	colon = strrchr(target, ':');
	if (!open || !colon || open < colon || !n || target[n - 1] != ')' ||
	    strncmp(colon + 1, "0x", 2)) {
		snprintf(spec, len, "%s", target);
		return 0;
	}
	*ref = strtoull(open + 1, &end, 16);
	if (end != target + n - 1 || end == open + 1 || !*ref ||
	    (size_t)(open - target) >= len)
		return bb_fail(err, -EINVAL, "'%s': not PATH:0xOFFSET(0xREF)",
			       target);
	memcpy(spec, target, open - target);
	spec[open - target] = 0;
	return 0;
}

/* A target "LIB:FUNC" (run's uprobe/PATH:FUNC sections, trace), resolved
 * here, for the session's process if it has one. */
static int provider_attach(struct bb_session *s, struct bb_link *l,
			   int prog_fd, int retprobe, struct bb_err *err)
{
	char path[4096], spec[sizeof(l->target)];
	int ret;

	l->upid = s->upid;
	ret = split_ref_ctr(l->target, spec, sizeof(spec), &l->ref_ctr, err);
	if (ret == 0)
		ret = uprobe_resolve(spec, s->upid, path, sizeof(path),
				     &l->off, err);
	if (ret < 0)
		return ret;
	if (link_set_path(l, path) < 0)
		return bb_fail(err, -ENOMEM, "out of memory");
	return uprobe_attach_link(s, l, prog_fd, retprobe, err);
}

static int uprobe_attach(struct bb_session *s, struct bb_link *l, int prog_fd,
			 int maxactive, struct bb_err *err)
{
	(void)maxactive;
	return provider_attach(s, l, prog_fd, 0, err);
}

static int uretprobe_attach(struct bb_session *s, struct bb_link *l,
			    int prog_fd, int maxactive, struct bb_err *err)
{
	(void)maxactive;
	return provider_attach(s, l, prog_fd, 1, err);
}

/* The perf event goes first: a probe in use cannot be removed (EBUSY). */
static int uprobe_detach(struct bb_session *s, struct bb_link *l)
{
	int ret = 0;

	perf_event_close(l->pfd);
	l->pfd = -1;
	if (l->event[0] && s->tracefs[0]) {
		ret = probe_event_remove(s->tracefs, "uprobe_events",
					 l->event);
		l->event[0] = 0;
	}
	return ret;
}

const struct bb_provider uprobe_provider = {
	.name = "uprobe",
	.kind = BB_PROG_UPROBE,
	.attach = uprobe_attach,
	.detach = uprobe_detach,
};

const struct bb_provider uretprobe_provider = {
	.name = "uretprobe",
	.kind = BB_PROG_URETPROBE,
	.attach = uretprobe_attach,
	.detach = uprobe_detach,
};
