/* SPDX-License-Identifier: MIT */
/*
 * kprobes and kretprobes. Where the kernel has the perf kprobe PMU (4.17+),
 * perf_event_open creates the probe and the kernel removes it with our
 * last fd: nothing is left behind, even after SIGKILL. Otherwise, and for
 * what the PMU cannot do (see kprobe_attach_common), through tracefs
 * kprobe_events: every probe we add there lives in the group
 * barebpf_<pid>_<pidns>, so that we remove exactly ours, and a later
 * barebpf recognises the leftovers of one that was SIGKILLed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "barebpf.h"

#define GROUP_PREFIX "barebpf_"
/* The kernel's limit is 64 (MAX_EVENT_NAME_LEN) including the NUL. */
#define EVENT_NAME_MAX 60
/* KRETPROBE_MAXACTIVE_MAX in kernel/trace/trace_kprobe.c */
#define MAXACTIVE_MAX 4096

int kprobes_available(const char *tracefs)
{
	char path[512];

	if (!tracefs || !*tracefs)
		return 0;
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	return access(path, F_OK) == 0;
}

/*
 * A symbol as kprobe_events takes it: "fn", "fn.isra.0", "module:fn",
 * "fn+0x10". Anything else (a space, a newline) would let the target
 * smuggle a second definition into the one write.
 */
static int target_ok(const char *t)
{
	if (!*t)
		return 0;
	for (; *t; t++)
		if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ||
		      (*t >= '0' && *t <= '9') || *t == '_' || *t == '.' ||
		      *t == ':' || *t == '+'))
			return 0;
	return 1;
}

/*
 * "bb<pid>x<pidns inode, hex>_<n>_<function>": an event name must be a C
 * identifier, and kprobe_profile shows it without its group, so what makes
 * the group unique is in it too. The unique part comes first; truncating
 * the function name is harmless.
 */
static void event_name(struct bb_session *s, const char *fn, char *name)
{
	int n = snprintf(name, EVENT_NAME_MAX + 1, "bb%dx%lx_%d_",
			 (int)getpid(), s->pidns, s->nprobes++);

	for (; *fn && n < EVENT_NAME_MAX; fn++, n++) {
		char c = *fn;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9');

		name[n] = ok ? c : '_';
	}
	name[n] = 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Remove "group/event" from kprobe_events. */
static int kprobe_event_remove(const char *tracefs, const char *event)
{
	char def[160];
	int ret, tries;

	snprintf(def, sizeof(def), "-:%s\n", event);
	/*
	 * EBUSY while a perf event still holds the probe: the last close can
	 * finish just after close() returns to us. Give it a moment.
	 */
	for (tries = 0; tries < 20; tries++) {
		ret = tracefs_append(tracefs, "kprobe_events", def);
		if (ret != -EBUSY)
			break;
		sleep_ms(10);
	}
	return ret;
}

static int add_fail(struct bb_err *err, int ret, const char *kind,
		    const char *fn)
{
	switch (ret) {
	case -ENOENT:
		return bb_fail(err, ret,
			       "cannot attach %s: function %s not found in "
			       "available_filter_functions/kallsyms (it may "
			       "be inlined or renamed on this kernel)",
			       kind, fn);
	case -EADDRNOTAVAIL:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: several functions "
			       "have that name on this kernel", kind, fn);
	case -EINVAL:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: the kernel refused "
			       "the probe (EINVAL): the function may be "
			       "blacklisted for kprobes (see "
			       "debug/kprobes/blacklist) or not probeable",
			       kind, fn);
	case -EBUSY:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: kprobe_events is busy "
			       "(EBUSY); another tracer may hold it, retry",
			       kind, fn);
	case -EACCES:
	case -EPERM:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: no permission to "
			       "write kprobe_events (run as root)", kind, fn);
	default:
		return bb_fail(err, ret, "cannot attach %s to %s: %s", kind,
			       fn, strerror(-ret));
	}
}

static int perf_fail(struct bb_err *err, int ret, const char *kind,
		     const char *fn)
{
	switch (ret) {
	case -EEXIST:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: this program is "
			       "already attached to that event", kind, fn);
	case -EINVAL:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: the kernel refused the "
			       "program (EINVAL): is it a kprobe program?",
			       kind, fn);
	case -EACCES:
	case -EPERM:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: perf_event_open not "
			       "permitted (run as root; see "
			       "kernel.perf_event_paranoid)", kind, fn);
	case -EMFILE:
	case -ENFILE:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: out of file "
			       "descriptors (%s): every probe holds one",
			       kind, fn, strerror(-ret));
	default:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: perf_event_open/"
			       "SET_BPF: %s", kind, fn, strerror(-ret));
	}
}

static int tracefs_probe_attach(struct bb_session *s, struct bb_link *l,
				int prog_fd, int retprobe, int maxactive,
				struct bb_err *err)
{
	const char *kind = retprobe ? "kretprobe" : "kprobe";
	const char *fn = l->target;
	char name[EVENT_NAME_MAX + 1], def[256], maxa[16] = "";
	int ret, id, tries;

	if (!kprobes_available(s->tracefs))
		return bb_fail(err, -EOPNOTSUPP,
			       "cannot attach %s to %s: this kernel has no "
			       "kprobe_events (CONFIG_KPROBE_EVENTS) in %s",
			       kind, fn, s->tracefs);
	if (retprobe && maxactive > 0)
		snprintf(maxa, sizeof(maxa), "%d", maxactive);

	/*
	 * Our names are unique within this process. Still, a barebpf that
	 * died with our pid may have left the same name: 4.15 silently
	 * replaces such an event, newer kernels say EEXIST; then move on.
	 */
	for (tries = 0;; tries++) {
		event_name(s, fn, name);
		snprintf(def, sizeof(def), "%c%s:%s/%s %s\n",
			 retprobe ? 'r' : 'p', maxa, s->group, name, fn);
		ret = tracefs_append(s->tracefs, "kprobe_events", def);
		if (ret != -EEXIST || tries == 3)
			break;
	}
	if (ret < 0)
		return add_fail(err, ret, kind, fn);
	snprintf(l->event, sizeof(l->event), "%s/%s", s->group, name);

	id = tracefs_event_id(s->tracefs, s->group, name);
	if (id < 0) {
		ret = bb_fail(err, id,
			      "cannot attach %s to %s: no id for event %s: %s",
			      kind, fn, l->event, strerror(-id));
		goto err_remove;
	}
	l->pfd = perf_tp_attach(id, prog_fd);
	if (l->pfd < 0) {
		ret = perf_fail(err, l->pfd, kind, fn);
		l->pfd = -1;
		goto err_remove;
	}
	s->ntracefs++;
	return 0;

err_remove:
	kprobe_event_remove(s->tracefs, l->event);
	l->event[0] = 0;
	return ret;
}

int kprobe_pmu_format_bit(const char *text)
{
	char *end;
	long bit;

	if (strncmp(text, "config:", 7))
		return -EINVAL;
	bit = strtol(text + 7, &end, 10);
	if (end == text + 7 || bit < 0 || bit > 63 ||
	    (*end && *end != '\n'))
		return -EINVAL;
	return (int)bit;
}

#define PMU_DIR "/sys/bus/event_source/devices/kprobe"

int kprobe_pmu_type(int *retbit)
{
	const char *env = getenv("BAREBPF_KPROBES");
	char buf[64];
	int ret;

	*retbit = -1;
	if (env && !strcmp(env, "tracefs"))
		return -ENOENT;
	ret = bb_read_small(PMU_DIR "/type", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	ret = atoi(buf);
	if (ret <= 0)
		return -EINVAL;
	if (bb_read_small(PMU_DIR "/format/retprobe", buf, sizeof(buf)) >= 0)
		*retbit = kprobe_pmu_format_bit(buf);
	return ret;
}

/*
 * The kprobe PMU takes the function name by pointer in config1 and an
 * offset in config2, and a kretprobe is a config bit. As with a trace
 * event, one perf event (pid -1, CPU 0) runs the program on every CPU.
 */
static int pmu_open(struct bb_session *s, const char *fn, int retprobe,
		    int prog_fd)
{
	struct perf_event_attr attr;
	int pfd, ret;

	memset(&attr, 0, sizeof(attr));
	attr.type = s->pmu_type;
	attr.size = sizeof(attr);
	attr.config = retprobe ? 1ULL << s->pmu_retbit : 0;
	attr.config1 = (uint64_t)(uintptr_t)fn;
	attr.config2 = 0;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return pfd;
	ret = sys_ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd);
	if (ret == 0)
		ret = sys_ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	if (ret < 0) {
		close(pfd);
		return ret;
	}
	return pfd;
}

/* BPF_ENABLE_STATS (5.8): program run counts, while we hold the fd. */
#define BB_BPF_ENABLE_STATS 32
static int stats_enable(void)
{
	uint32_t type = 0; /* BPF_STATS_RUN_TIME */

	return (int)sys_bpf(BB_BPF_ENABLE_STATS, &type, sizeof(type));
}

static const struct bb_link *session_link(const struct bb_session *s,
					  enum bb_prog_kind kind,
					  const char *target)
{
	const struct bb_link *l;

	for (l = s->links; l; l = l->next)
		if (l->kind == kind && !strcmp(l->target, target))
			return l;
	return NULL;
}

/*
 * Which way a probe goes (1: the PMU), and if not the PMU while it exists,
 * why, in s->pmu_note:
 *  - a kretprobe's maxactive cannot be given to the PMU (its probes are
 *    made with maxactive 0 up to 6.8 and since: create_local_trace_kprobe),
 *    where the kernel's default is max(10, 2 * CPUs), or only the CPU count
 *    without CONFIG_PREEMPTION before 6.2. So a kretprobe asking for more
 *    than the CPU count goes through kprobe_events;
 *  - kprobe_profile does not list PMU probes: the misses of a PMU
 *    kretprobe are counted as returns missing against entries, from the
 *    run counts of the programs (BPF_ENABLE_STATS, 5.8+). Without those
 *    counts, kretprobes go through kprobe_events;
 *  - and the kprobe of a function whose kretprobe is in kprobe_events goes
 *    there too, so that kprobe_profile has both counts (before 5.14 its
 *    misses column of a kretprobe leaves out the returns lost to maxactive).
 */
static int use_pmu(struct bb_session *s, struct bb_link *l, int retprobe,
		   int maxactive)
{
	const struct bb_link *ret;
	int ncpus;

	if (s->pmu_type == -2)
		s->pmu_type = kprobe_pmu_type(&s->pmu_retbit);
	if (s->pmu_type < 0)
		return 0;
	if (!retprobe) {
		ret = session_link(s, BB_PROG_KRETPROBE, l->target);
		if (ret && !ret->pmu) {
			snprintf(s->pmu_note, sizeof(s->pmu_note),
				 "the kprobe on %s goes through kprobe_events, "
				 "with its kretprobe", l->target);
			return 0;
		}
		return 1;
	}
	if (s->pmu_retbit < 0) {
		snprintf(s->pmu_note, sizeof(s->pmu_note),
			 "kretprobes go through kprobe_events: the kprobe PMU "
			 "has no retprobe format");
		return 0;
	}
	ncpus = bb_ncpus_possible();
	if (maxactive > 0 && maxactive > ncpus) {
		snprintf(s->pmu_note, sizeof(s->pmu_note),
			 "the kretprobe on %s goes through kprobe_events: the "
			 "kprobe PMU cannot give it maxactive %d", l->target,
			 maxactive);
		return 0;
	}
	if (s->stats_fd < 0)
		s->stats_fd = stats_enable();
	if (s->stats_fd < 0) {
		snprintf(s->pmu_note, sizeof(s->pmu_note),
			 "the kretprobe on %s goes through kprobe_events: no "
			 "program run counts (BPF_ENABLE_STATS, 5.8) to count "
			 "its misses by", l->target);
		return 0;
	}
	return 1;
}

static int kprobe_attach_common(struct bb_session *s, struct bb_link *l,
				int prog_fd, int retprobe, int maxactive,
				struct bb_err *err)
{
	const char *kind = retprobe ? "kretprobe" : "kprobe";
	const char *fn = l->target;
	int pfd;

	if (!target_ok(fn))
		return bb_fail(err, -EINVAL,
			       "cannot attach %s: '%s' is not a function name",
			       kind, fn);
	if (retprobe && (maxactive < 0 || maxactive > MAXACTIVE_MAX))
		return bb_fail(err, -EINVAL,
			       "kretprobe maxactive %d out of range (0..%d)",
			       maxactive, MAXACTIVE_MAX);
	if (!use_pmu(s, l, retprobe, maxactive))
		return tracefs_probe_attach(s, l, prog_fd, retprobe, maxactive,
					    err);
	pfd = pmu_open(s, fn, retprobe, prog_fd);
	if (pfd >= 0) {
		l->pfd = pfd;
		l->pmu = 1;
		s->npmu++;
		return 0;
	}
	/* what kprobe_events would refuse just the same */
	switch (pfd) {
	case -ENOENT:
	case -EADDRNOTAVAIL:
	case -EINVAL:
	case -EMFILE:
	case -ENFILE:
	case -ENOMEM:
	case -EPERM:
	case -EACCES:
	case -EEXIST:
		return pfd == -EMFILE || pfd == -ENFILE || pfd == -EEXIST ||
		       pfd == -EPERM || pfd == -EACCES ?
			       perf_fail(err, pfd, kind, fn) :
			       add_fail(err, pfd, kind, fn);
	}
	snprintf(s->pmu_note, sizeof(s->pmu_note),
		 "the kprobe PMU refused the %s on %s (%s): using "
		 "kprobe_events", kind, fn, strerror(-pfd));
	return tracefs_probe_attach(s, l, prog_fd, retprobe, maxactive, err);
}

static int kprobe_attach(struct bb_session *s, struct bb_link *l, int prog_fd,
			 int maxactive, struct bb_err *err)
{
	(void)maxactive;
	return kprobe_attach_common(s, l, prog_fd, 0, 0, err);
}

static int kretprobe_attach(struct bb_session *s, struct bb_link *l,
			    int prog_fd, int maxactive, struct bb_err *err)
{
	return kprobe_attach_common(s, l, prog_fd, 1, maxactive, err);
}

/* The perf event goes first: a probe in use cannot be removed (EBUSY). */
static int kprobe_detach(struct bb_session *s, struct bb_link *l)
{
	int ret = 0;

	if (l->pfd >= 0) {
		sys_ioctl(l->pfd, PERF_EVENT_IOC_DISABLE, 0);
		close(l->pfd);
		l->pfd = -1;
	}
	if (l->event[0] && s->tracefs[0]) {
		ret = kprobe_event_remove(s->tracefs, l->event);
		l->event[0] = 0;
	}
	return ret;
}

const struct bb_provider kprobe_provider = {
	.name = "kprobe",
	.kind = BB_PROG_KPROBE,
	.attach = kprobe_attach,
	.detach = kprobe_detach,
};

const struct bb_provider kretprobe_provider = {
	.name = "kretprobe",
	.kind = BB_PROG_KRETPROBE,
	.attach = kretprobe_attach,
	.detach = kprobe_detach,
};

/*
 * "p:group/event symbol args", "r128:group/event symbol" (the maxactive
 * shows since 4.12).
 */
int kprobe_events_line_owner(const char *line, char *event, size_t len,
			     unsigned long *ns)
{
	const char *p = line, *group, *slash, *end;
	unsigned long v = 0;
	long pid = 0;
	size_t n;

	*ns = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != 'p' && *p != 'r')
		return -EINVAL;
	p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != ':')
		return -EINVAL;
	group = p;
	slash = strchr(group, '/');
	if (!slash || slash == group)
		return -EINVAL;
	end = slash + 1;
	while (*end && *end != ' ' && *end != '\t' && *end != '\n')
		end++;
	if (end == slash + 1)
		return -EINVAL;
	n = end - group;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(event, group, n);
	event[n] = 0;

	/* Ours only if the group is exactly barebpf_<pid>[_<pidns inode>]. */
	if ((size_t)(slash - group) <= strlen(GROUP_PREFIX) ||
	    strncmp(group, GROUP_PREFIX, strlen(GROUP_PREFIX)))
		return 0;
	for (p = group + strlen(GROUP_PREFIX); p < slash && *p != '_'; p++) {
		if (*p < '0' || *p > '9' || pid > 0x3fffffff)
			return 0;
		pid = pid * 10 + (*p - '0');
	}
	if (p < slash) {
		if (++p == slash)
			return 0;
		for (; p < slash; p++) {
			if (*p < '0' || *p > '9' || v > 0xffffffffUL)
				return 0;
			v = v * 10 + (*p - '0');
		}
	}
	if (pid <= 0)
		return 0;
	*ns = v;
	return (int)pid;
}

int kprobe_events_line_pid(const char *line, char *event, size_t len)
{
	unsigned long ns;

	return kprobe_events_line_owner(line, event, len, &ns);
}

static int pid_alive(int pid)
{
	if (kill(pid, 0) == 0)
		return 1;
	/* EPERM: it exists, it just isn't ours to signal. */
	return errno != ESRCH;
}

/* The kernel's fixed inode number of the initial pid namespace
 * (PROC_PID_INIT_INO, include/linux/proc_ns.h, 3.8+). */
#define PIDNS_INIT_INO 0xEFFFFFFCUL

unsigned long bb_pidns_ino(const char *pid)
{
	char path[64], link[64];
	unsigned long ino = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/ns/pid", pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	if (sscanf(link, "pid:[%lu]", &ino) != 1)
		return 0;
	return ino;
}

/* Is any process (that we can see) in pid namespace ino? */
static int pidns_in_use(unsigned long ino)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 1; /* cannot tell: assume it is */
	while (!found && (e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			found = bb_pidns_ino(e->d_name) == ino;
	closedir(d);
	return found;
}

/*
 * A SIGKILLed barebpf leaves its probes behind; remove those of barebpf
 * processes that are gone. The group names the pid and the pid namespace
 * (barebpf_<pid>_<ns inode>): two containers each with a barebpf as pid 1
 * share one kprobe_events, and 4.15 silently replaces a probe of the same
 * group and name instead of refusing it.
 *  - our namespace: stale if the pid is free (kill() says ESRCH);
 *  - another namespace: its pids mean nothing here. Only from the initial
 *    namespace, which sees every process, can we tell that no process is
 *    left in that namespace: then its probes are stale. Otherwise they are
 *    left alone.
 */
int kprobes_remove_stale(const char *tracefs, struct bb_err *err)
{
	unsigned long self_ns = bb_pidns_ino("self");
	char *text, *line, *eol;
	int ret, removed = 0, first_err = 0;

	if (!kprobes_available(tracefs))
		return 0;
	ret = tracefs_read(tracefs, "kprobe_events", &text);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s/kprobe_events: %s",
			       tracefs, strerror(-ret));
	for (line = text; line && *line; line = eol) {
		char event[160];
		unsigned long ns;
		int pid, stale;

		eol = strchr(line, '\n');
		if (eol)
			*eol++ = 0;
		pid = kprobe_events_line_owner(line, event, sizeof(event), &ns);
		if (pid <= 0)
			continue;
		if (!ns || ns == self_ns)
			stale = pid != getpid() && !pid_alive(pid);
		else
			stale = self_ns == PIDNS_INIT_INO && !pidns_in_use(ns);
		if (!stale)
			continue;
		ret = kprobe_event_remove(tracefs, event);
		if (ret < 0) {
			if (!first_err)
				first_err = bb_fail(err, ret,
						    "cannot remove stale probe "
						    "%s: %s", event,
						    strerror(-ret));
			continue;
		}
		removed++;
	}
	free(text);
	return first_err ? first_err : removed;
}

int kprobe_profile_line(const char *line, char *event, size_t len,
			unsigned long *hits, unsigned long *misses)
{
	const char *p = line, *start;
	char *end;
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	start = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	n = p - start;
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(event, start, n);
	event[n] = 0;
	*hits = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	p = end;
	*misses = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	return 0;
}

/*
 * Quirk: until probes_profile_seq_show() was fixed in 2021 (and in the
 * stable trees that took the fix), the misses column of a kretprobe counts
 * only misses of its entry kprobe, not the returns lost because all
 * maxactive instances were in use. On 4.15 that column stays 0. So where a
 * kprobe and a kretprobe of this session share a function, the returns
 * missing against the entries count too (the larger of the two per
 * function). Calls still in flight when this is read count as missing: a
 * lost return and a call that has not returned yet look the same here.
 */
struct profile_row {
	const struct bb_link *link;
	unsigned long hits, misses;
};

static int profile_rows(struct bb_session *s, struct profile_row *rows, int n)
{
	char *text, *line, *eol;
	int ret, i;

	ret = tracefs_read(s->tracefs, "kprobe_profile", &text);
	if (ret < 0)
		return ret;
	for (line = text; line && *line; line = eol) {
		unsigned long hits, misses;
		char event[160];

		eol = strchr(line, '\n');
		if (eol)
			*eol++ = 0;
		if (kprobe_profile_line(line, event, sizeof(event), &hits,
					&misses) < 0)
			continue;
		for (i = 0; i < n; i++) {
			const char *ours = strchr(rows[i].link->event, '/');

			/* Shown as "event", or "group/event" on some kernels. */
			if (ours && (!strcmp(event, ours + 1) ||
				     !strcmp(event, rows[i].link->event))) {
				rows[i].hits = hits;
				rows[i].misses = misses;
			}
		}
	}
	free(text);
	return 0;
}

/* Run count of a program (bpf_prog_info.run_cnt, counted while
 * BPF_ENABLE_STATS is held), or -errno. */
#define BB_OBJ_GET_INFO_BY_FD 15
#define PROG_INFO_RUN_CNT 200 /* offsetof(struct bpf_prog_info, run_cnt) */
static long long prog_run_cnt(int prog_fd)
{
	uint64_t info[32] = { 0 };
	struct {
		uint32_t bpf_fd, info_len;
		uint64_t info;
	} attr = { 0 };
	int ret;

	attr.bpf_fd = prog_fd;
	attr.info_len = sizeof(info);
	attr.info = (uintptr_t)info;
	ret = (int)sys_bpf(BB_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	if (ret < 0)
		return ret;
	if (attr.info_len < PROG_INFO_RUN_CNT + 8)
		return -EOPNOTSUPP;
	return (long long)info[PROG_INFO_RUN_CNT / 8];
}

/*
 * Does every PMU link of program prog_fd (of kind) have a PMU link of the
 * other kind on its function? Then its run count pairs with theirs.
 */
static int pmu_prog_paired(const struct bb_session *s, int prog_fd,
			   enum bb_prog_kind kind)
{
	enum bb_prog_kind other = kind == BB_PROG_KPROBE ? BB_PROG_KRETPROBE
							 : BB_PROG_KPROBE;
	const struct bb_link *l, *o;
	int n = 0;

	for (l = s->links; l; l = l->next) {
		if (l->prog_fd != prog_fd || l->kind != kind)
			continue;
		o = session_link(s, other, l->target);
		if (!l->pmu || !o || !o->pmu)
			return 0;
		n++;
	}
	return n > 0;
}

/* Has an earlier link of the list the same program? */
static int prog_seen(const struct bb_session *s, const struct bb_link *upto)
{
	const struct bb_link *l;

	for (l = s->links; l != upto; l = l->next)
		if (l->prog_fd == upto->prog_fd)
			return 1;
	return 0;
}

/*
 * PMU kretprobes are not in kprobe_profile: their misses are the returns
 * missing against the entries, from the run counts of the entry and return
 * programs paired on the same functions (calls in flight count as missing,
 * as in the kprobe_profile case).
 */
static long pmu_kretprobe_misses(struct bb_session *s)
{
	long long entries = 0, returns = 0, n;
	struct bb_link *l;

	if (s->stats_fd < 0)
		return 0;
	for (l = s->links; l; l = l->next) {
		if (!l->pmu || prog_seen(s, l) ||
		    !pmu_prog_paired(s, l->prog_fd, l->kind))
			continue;
		n = prog_run_cnt(l->prog_fd);
		if (n < 0)
			return n;
		if (l->kind == BB_PROG_KPROBE)
			entries += n;
		else
			returns += n;
	}
	return entries > returns ? (long)(entries - returns) : 0;
}

long session_kretprobe_misses(struct bb_session *s)
{
	struct profile_row *rows;
	struct bb_link *l;
	long sum = pmu_kretprobe_misses(s);
	int n = 0, i, j, ret;

	if (sum < 0)
		return sum;
	for (l = s->links; l; l = l->next)
		n += l->event[0] != 0;
	if (!n)
		return sum;
	rows = calloc(n, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (l = s->links, i = 0; l; l = l->next)
		if (l->event[0])
			rows[i++].link = l;
	ret = profile_rows(s, rows, n);
	for (i = 0; ret == 0 && i < n; i++) {
		unsigned long missed = rows[i].misses;

		if (rows[i].link->kind != BB_PROG_KRETPROBE)
			continue;
		for (j = 0; j < n; j++)
			if (rows[j].link->kind == BB_PROG_KPROBE &&
			    !strcmp(rows[j].link->target, rows[i].link->target) &&
			    rows[j].hits > rows[i].hits &&
			    rows[j].hits - rows[i].hits > missed)
				missed = rows[j].hits - rows[i].hits;
		sum += missed;
	}
	free(rows);
	return ret < 0 ? ret : sum;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * available_filter_functions: one function a line, "name" or
 * "name [module]"; a static function may appear several times. Since 6.5
 * it also lists "__ftrace_invalid_address___<n>" placeholders.
 */
int kprobe_match_text(const char *text, const char *pattern, char ***namesp)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i, out;
	const char *line, *eol;

	*namesp = NULL;
	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		char name[256];
		size_t len;

		eol = strchr(line, '\n');
		len = eol ? (size_t)(eol - line) : strlen(line);
		for (i = 0; i < len && line[i] != ' ' && line[i] != '\t'; i++)
			;
		len = i;
		if (len == 0 || len >= sizeof(name))
			continue;
		memcpy(name, line, len);
		name[len] = 0;
		if (!strncmp(name, "__ftrace_invalid_address__", 26) ||
		    fnmatch(pattern, name, 0))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto err_free;
			names = nn;
		}
		names[n] = strdup(name);
		if (!names[n])
			goto err_free;
		n++;
	}
	if (n == 0) {
		free(names);
		return 0;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 1, out = 1; i < n; i++) {
		if (!strcmp(names[i], names[out - 1]))
			free(names[i]);
		else
			names[out++] = names[i];
	}
	*namesp = names;
	return out;

err_free:
	bb_free_strv(names, n);
	return -ENOMEM;
}

/*
 * Without a readable available_filter_functions, /proc/kallsyms
 * ("addr t name [module]") has the text symbols, which is what kprobes
 * can take. Rewrite it in place into one name a line.
 */
static void kallsyms_to_names(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		char *eol = strchr(in, '\n'), *next;
		char type = 0, *name = NULL;
		size_t len;

		next = eol ? eol + 1 : in + strlen(in);
		if (eol)
			*eol = 0;
		/* addr, type, name */
		in = strchr(in, ' ');
		if (in) {
			type = in[1];
			if (type && in[2] == ' ')
				name = in + 3;
		}
		if (name && (type == 't' || type == 'T')) {
			len = strcspn(name, " \t");
			memmove(out, name, len);
			out += len;
			*out++ = '\n';
		}
		in = next;
	}
	*out = 0;
}

/*
 * The function a line names: "name" or "name [module]" in
 * available_filter_functions, "addr t name [module]" in /proc/kallsyms
 * (text symbols only). Returns its length, 0 for none.
 */
static size_t line_func(const char *line, size_t len, int kallsyms,
			const char **name)
{
	size_t i = 0;

	if (kallsyms) {
		while (i < len && line[i] != ' ')
			i++;
		if (i + 3 > len || (line[i + 1] != 't' && line[i + 1] != 'T') ||
		    line[i + 2] != ' ')
			return 0;
		line += i + 3;
		len -= i + 3;
	}
	for (i = 0; i < len && line[i] != ' ' && line[i] != '\t'; i++)
		;
	*name = line;
	return i;
}

/* Mark the wanted names this line holds; 1 once the first `need` are all
 * found. */
static int funcs_line(const char *line, size_t len, int kallsyms,
		      const char *const *names, int n, int need, char *found)
{
	const char *name;
	size_t nlen = line_func(line, len, kallsyms, &name);
	int i, done = 1;

	for (i = 0; nlen && i < n; i++)
		if (!found[i] && names[i][0] == name[0] &&
		    !strncmp(names[i], name, nlen) && !names[i][nlen])
			found[i] = 1;
	for (i = 0; i < need && done; i++)
		done = found[i];
	return done;
}

int kprobe_funcs_text(const char *text, int kallsyms, const char *const *names,
		      int n, int need, char *found)
{
	const char *line, *eol;
	int i, k = 0;

	memset(found, 0, n);
	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		if (funcs_line(line, eol ? (size_t)(eol - line) : strlen(line),
			       kallsyms, names, n, need, found) && need > 0)
			break;
	}
	for (i = 0; i < n; i++)
		k += found[i];
	return k;
}

/* The same on a file, read a piece at a time; stops reading once done. */
static int funcs_fd(int fd, int kallsyms, const char *const *names, int n,
		    int need, char *found)
{
	size_t size = 1 << 16, have = 0;
	char *buf = malloc(size);
	int i, k = 0, done = 0;

	if (!buf)
		return -ENOMEM;
	memset(found, 0, n);
	while (!done) {
		ssize_t r = read(fd, buf + have, size - have);
		size_t start = 0, j;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			k = -errno;
			goto out;
		}
		if (r == 0) {
			if (have)
				funcs_line(buf, have, kallsyms, names, n, need,
					   found);
			break;
		}
		have += r;
		for (j = 0; j < have && !done; j++) {
			if (buf[j] != '\n')
				continue;
			done = funcs_line(buf + start, j - start, kallsyms,
					  names, n, need, found) && need > 0;
			start = j + 1;
		}
		if (start == 0 && have == size)
			start = have; /* a line longer than the buffer: skip */
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	for (i = 0; i < n; i++)
		k += found[i];
out:
	free(buf);
	return k;
}

int kprobe_funcs_find(const char *tracefs, int source,
		      const char *const *names, int n, int need, char *found,
		      struct bb_err *err)
{
	char path[512];
	int fd = -ENOENT, kallsyms = 1, ret;

	if (source == BB_FUNCS_FTRACE && tracefs && *tracefs) {
		snprintf(path, sizeof(path), "%s/available_filter_functions",
			 tracefs);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		kallsyms = 0;
	}
	/* ENOENT without DYNAMIC_FTRACE; EPERM seen on a 6.18 without it. */
	if (fd < 0) {
		fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		kallsyms = 1;
	}
	if (fd < 0)
		return bb_fail(err, fd, "cannot read %s/available_filter_"
			       "functions or /proc/kallsyms: %s",
			       tracefs ? tracefs : "tracefs", strerror(-fd));
	ret = funcs_fd(fd, kallsyms, names, n, need, found);
	close(fd);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s: %s", kallsyms ?
			       "/proc/kallsyms" : path, strerror(-ret));
	return ret;
}

int kprobe_match(const char *tracefs, const char *pattern, char ***names,
		 struct bb_err *err)
{
	char *text;
	int ret;

	*names = NULL;
	ret = tracefs_read(tracefs, "available_filter_functions", &text);
	/* ENOENT without DYNAMIC_FTRACE; EPERM seen on a 6.18 without it. */
	if (ret < 0) {
		ret = tracefs_read("/proc", "kallsyms", &text);
		if (ret >= 0)
			kallsyms_to_names(text);
	}
	if (ret < 0)
		return bb_fail(err, ret,
			       "cannot read %s/available_filter_functions or "
			       "/proc/kallsyms: %s", tracefs, strerror(-ret));
	ret = kprobe_match_text(text, pattern, names);
	free(text);
	if (ret < 0)
		return bb_fail(err, ret, "out of memory");
	return ret;
}
