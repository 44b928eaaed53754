/* SPDX-License-Identifier: MIT */
/*
 * Attaching programs: a session records every link it makes so that one
 * call takes them all down again. The work per kind is done by a provider
 * (kprobe.c, tracepoint.c); this file picks one and keeps the books.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_internal.h"
#include "kernel.h"

static const struct bb_provider *providers[] = {
	&kprobe_provider,
	&kretprobe_provider,
	&tracepoint_provider,
	&sample_provider,
	&uprobe_provider,
	&uretprobe_provider,
	&rawtp_provider,
};

static const struct bb_provider *provider_for(enum bb_prog_kind kind)
{
	size_t i;

	for (i = 0; i < sizeof(providers) / sizeof(providers[0]); i++)
		if (providers[i]->kind == kind)
			return providers[i];
	return NULL;
}

void session_init(struct bb_session *s)
{
	memset(s, 0, sizeof(*s));
	s->pmu_type = -2;
	s->upmu_type = -2;
	s->stats_fd = -1;
	/* see kprobes_remove_stale: the pid alone is not unique on a host */
	s->pidns = bb_pidns_ino("self");
	snprintf(s->group, sizeof(s->group), "barebpf_%d_%lu", (int)getpid(),
		 s->pidns);
}

int session_tracefs(struct bb_session *s, struct bb_err *err)
{
	int ret;

	if (s->tracefs[0])
		return 0;
	ret = tracefs_find(s->tracefs, sizeof(s->tracefs), err);
	if (ret < 0) {
		s->tracefs[0] = 0;
		return ret;
	}
	s->mounted = ret;
	return 0;
}

int session_attach(struct bb_session *s, struct bb_prog *prog,
		   const char *target, int maxactive, struct bb_err *err)
{
	const struct bb_provider *p = provider_for(prog->kind);
	struct bb_link *l;
	int ret;

	if (!p)
		return bb_fail(err, -EINVAL, "program %s: unknown kind %d",
			       prog->name, (int)prog->kind);
	if (prog->fd < 0)
		return bb_fail(err, -EBADF, "program %s is not loaded",
			       prog->name);
	if (!target)
		target = prog->target;
	if (!target || !*target)
		return bb_fail(err, -EINVAL,
			       "program %s (section %s) names no %s to attach "
			       "to: give one", prog->name, prog->section,
			       prog->kind == BB_PROG_TRACEPOINT ? "tracepoint"
								: "function");
	if (strlen(target) >= sizeof(l->target))
		return bb_fail(err, -ENAMETOOLONG, "%s target too long: %s",
			       p->name, target);
	ret = session_tracefs(s, err);
	if (ret < 0)
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l)
		return bb_fail(err, -ENOMEM, "out of memory");
	l->kind = prog->kind;
	l->pfd = -1;
	l->prog_fd = prog->fd;
	strcpy(l->target, target);
	ret = p->attach(s, l, prog->fd, maxactive, err);
	if (ret < 0) {
		free(l->path);
		free(l); /* the provider has undone its part */
		return ret;
	}
	l->next = s->links;
	s->links = l;
	return 0;
}

static void link_detach(struct bb_session *s, struct bb_link *l)
{
	const struct bb_provider *p = provider_for(l->kind);

	if (p)
		p->detach(s, l);
	free(l->path);
	free(l);
}

void session_detach_newest(struct bb_session *s)
{
	struct bb_link *l = s->links;

	if (l) {
		s->links = l->next;
		link_detach(s, l);
	}
}

/*
 * The attach rule. A tool is started in the middle of an incident, so
 * events race the attach: a program that opens state (a freeze start, a
 * kprobe entry, a request issue, a sysfs write entry) must only run once
 * every program that closes or names that state is attached. Attached the
 * other way round, a freeze that starts after its opener is attached and
 * ends before its closer is leaves the queue "frozen" for the rest of the
 * run (seen on 5.10: every later freeze counted as nested, none reported).
 * The other way, a close without its open is simply not counted. So
 * closers first: a program goes after every other program that closes or
 * names a state it opens. Within that, the tool's order is kept, level by
 * level (all the closers, then what they allow, and so on).
 */

/* Add the space-separated words of list to the state table; mask of them. */
static int state_mask(const char *list, const char **words, size_t *lens,
		      int *nwords, uint64_t *mask)
{
	const char *w = list;
	int i;

	*mask = 0;
	while (w && *w) {
		size_t len;

		while (*w == ' ')
			w++;
		len = strcspn(w, " ");
		if (!len)
			break;
		for (i = 0; i < *nwords; i++)
			if (lens[i] == len && !strncmp(words[i], w, len))
				break;
		if (i == *nwords) {
			if (i == 64)
				return -E2BIG;
			words[i] = w;
			lens[i] = len;
			(*nwords)++;
		}
		*mask |= 1ULL << i;
		w += len;
	}
	return 0;
}

int probe_order(const struct bb_probe *p, int n, int *order)
{
	const char *words[64];
	size_t lens[64];
	uint64_t *opens, *closes;
	int nwords = 0, closers[64] = { 0 }, left[64];
	int i, s, k = 0, ret = 0;
	char *placed;

	if (n <= 0)
		return 0;
	opens = calloc(n, sizeof(*opens));
	closes = calloc(n, sizeof(*closes));
	placed = calloc(n, 1);
	if (!opens || !closes || !placed) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = state_mask(p[i].opens, words, lens, &nwords, &opens[i]);
		if (!ret)
			ret = state_mask(p[i].closes, words, lens, &nwords,
					 &closes[i]);
	}
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		for (s = 0; s < nwords; s++)
			closers[s] += !!(closes[i] & (1ULL << s));
	while (k < n) {
		int before = k;

		/* what is still to attach, as this level starts */
		memcpy(left, closers, sizeof(left));
		for (i = 0; i < n; i++) {
			int ok = !placed[i];

			for (s = 0; ok && s < nwords; s++)
				if (opens[i] & (1ULL << s))
					ok = left[s] ==
					     !!(closes[i] & (1ULL << s));
			if (ok)
				order[k++] = i;
		}
		if (k == before) {
			ret = -ELOOP;
			goto out;
		}
		for (i = before; i < k; i++) {
			placed[order[i]] = 1;
			for (s = 0; s < nwords; s++)
				closers[s] -= !!(closes[order[i]] & (1ULL << s));
		}
	}
out:
	free(opens);
	free(closes);
	free(placed);
	return ret;
}

/* Steps of a watched detach: perf events closed, then probes removed. */
struct steps {
	perf_close_watch_fn watch;
	void *ctx;
	int base, total;
};

static int steps_watch(void *ctx, int done, int total)
{
	struct steps *st = ctx;

	(void)total;
	return st->watch(st->ctx, st->base + done, st->total);
}

/*
 * Every perf event at once (perf_events_close), newest disabled first as
 * link by link would, before the providers take down the rest (kprobe
 * events). Without memory for the list, link by link it is. -EINTR if the
 * watch stopped it: the links keep the fds not closed.
 */
static int close_events(struct bb_session *s, struct steps *st)
{
	struct bb_link *l;
	int *fds, n = 0, ret;

	for (l = s->links; l; l = l->next)
		n += l->pfd >= 0;
	if (n < 2 || !(fds = malloc(n * sizeof(*fds))))
		return 0;
	n = 0;
	for (l = s->links; l; l = l->next)
		if (l->pfd >= 0)
			fds[n++] = l->pfd;
	ret = perf_events_close_watch(fds, n, st->watch ? steps_watch : NULL,
				      st);
	n = 0;
	for (l = s->links; l; l = l->next)
		if (l->pfd >= 0)
			l->pfd = fds[n++];
	free(fds);
	return ret;
}

int session_detach_watch(struct bb_session *s, perf_close_watch_fn watch,
			 void *ctx)
{
	struct steps st = { watch, ctx, 0, 0 };
	struct bb_link *l;
	int npfd = 0;

	for (l = s->links; l; l = l->next) {
		npfd += l->pfd >= 0;
		st.total += (l->pfd >= 0) + !!l->event[0];
	}
	if (close_events(s, &st) < 0)
		return -EINTR;
	st.base = npfd;
	while ((l = s->links) != NULL) {
		int removes = !!l->event[0];

		s->links = l->next;
		link_detach(s, l);
		st.base += removes;
		/* removing a probe waits for the kernel too (unregister_kprobe) */
		if (watch && removes && s->links &&
		    watch(ctx, st.base, st.total))
			return -EINTR;
	}
	if (s->stats_fd >= 0) {
		close(s->stats_fd);
		s->stats_fd = -1;
	}
	if (s->mounted) {
		tracefs_unmount(s->mounted);
		s->mounted = 0;
		s->tracefs[0] = 0;
	}
	return 0;
}

/*
 * Safe to call twice and from an error path: each link leaves the list
 * before it is taken down. Not async-signal-safe; the command line calls it
 * from its main flow after a signal stopped it.
 */
void session_detach_all(struct bb_session *s)
{
	session_detach_watch(s, NULL, NULL);
}

static void child_quiet(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGPIPE };
	size_t i;
	int fd;

	setsid();
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_IGN);
	/* a pipe's reader (`| tee log`) must not wait for us */
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (i = 0; i < 3; i++)
		if (fd < 0 || dup2(fd, (int)i) < 0)
			close((int)i);
	if (fd > 2)
		close(fd);
}

static int session_fd(const struct bb_session *s, int fd)
{
	const struct bb_link *l;

	if (fd == s->stats_fd)
		return 1;
	for (l = s->links; l; l = l->next)
		if (l->pfd == fd)
			return 1;
	return 0;
}

/* Every fd but stdio and the session's: one inherited from whoever
 * started the tool (a pipe's write end) must not make its reader wait. */
static void close_others(const struct bb_session *s)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fd;

	if (!d) {
		for (fd = 3; fd < 1024; fd++)
			if (!session_fd(s, fd))
				close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		fd = atoi(e->d_name);
		if (fd > 2 && fd != dirfd(d) && !session_fd(s, fd))
			close(fd);
	}
	closedir(d);
}

/*
 * A perf event ends (and, being a tracepoint's last, waits) with the last
 * reference to its file, whoever drops it: so the child waits until we
 * have exited before it closes its copies, else our exit could be the
 * last and wait. The end of our file table says so: the pipe's write end
 * stays open until then, and with it every fd of ours, those the library
 * does not know of included.
 */
int session_detach_fork(struct bb_session *s)
{
	struct bb_link *l;
	int p[2], ret;
	pid_t pid;
	char b;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(p[0]);
		close(p[1]);
		return ret;
	}
	if (pid == 0) {
		close(p[1]);
		child_quiet();
		while (read(p[0], &b, 1) < 0 && errno == EINTR)
			;
		close(p[0]);
		/* only now: what we share with the parent is its to end */
		close_others(s);
		session_detach_all(s);
		_exit(0);
	}
	close(p[0]);
	/* the child holds them: these closes wait for nothing */
	while ((l = s->links) != NULL) {
		s->links = l->next;
		if (l->pfd >= 0)
			close(l->pfd);
		free(l->path);
		free(l);
	}
	if (s->stats_fd >= 0) {
		close(s->stats_fd);
		s->stats_fd = -1;
	}
	s->mounted = 0; /* the child unmounts */
	return pid;
}
