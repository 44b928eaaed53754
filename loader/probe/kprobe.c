/* SPDX-License-Identifier: MIT */
/*
 * kprobes and kretprobes. Where the kernel has the perf kprobe PMU (4.17+),
 * perf_event_open creates the probe and the kernel removes it with our
 * last fd: nothing is left behind, even after SIGKILL. Otherwise, and for
 * what the PMU cannot do (see kprobe_attach_common), through tracefs
 * kprobe_events (kprobe_events.c: our group, removal, leftovers).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "probe_internal.h"
#include "syscall.h"
#include "kernel.h"

/* The kernel's limit is 64 (MAX_EVENT_NAME_LEN) including the NUL. */
#define EVENT_NAME_MAX 60
/* KRETPROBE_MAXACTIVE_MAX in kernel/trace/trace_kprobe.c */
#define MAXACTIVE_MAX 4096

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
	case -E2BIG: /* BPF_TRACE_MAX_PROGS */
		return bb_fail(err, ret,
			       "cannot attach %s to %s: the kernel runs at "
			       "most 64 BPF programs on one event, and that "
			       "many are attached there already", kind, fn);
	default:
		return bb_fail(err, ret,
			       "cannot attach %s to %s: perf_event_open/"
			       "SET_BPF: %s", kind, fn, strerror(-ret));
	}
}

/*
 * "r<maxactive>:" is 4.12: before, the kernel reads an event name only
 * right after "r:", so "r4096:group/name fn" makes kprobes/r_<fn>_0 and
 * our event does not appear. Then that probe is removed and kretprobes go
 * without maxactive for the rest of the run (1: taken, 0: not, -1: not
 * known yet).
 */
static int maxactive_taken = -1;

static int maxactive_refused(struct bb_session *s, const char *fn)
{
	char def[200];

	snprintf(def, sizeof(def), "kprobes/r_%s_0", fn);
	if (tracefs_event_id(s->tracefs, "kprobes", def + 8) < 0)
		return 0; /* not that: something else went wrong */
	kprobe_event_remove(s->tracefs, def);
	maxactive_taken = 0;
	return 1;
}

/* off: bytes past the function's address (0: the function itself) */
static int tracefs_probe_attach(struct bb_session *s, struct bb_link *l,
				int prog_fd, int retprobe, int maxactive,
				int off, struct bb_err *err)
{
	const char *kind = retprobe ? "kretprobe" : "kprobe";
	const char *fn = l->target;
	char name[EVENT_NAME_MAX + 1], def[288], maxa[16] = "", at[16] = "";
	int ret, id, tries;

	if (!kprobes_available(s->tracefs))
		return bb_fail(err, -EOPNOTSUPP,
			       "cannot attach %s to %s: this kernel has no "
			       "kprobe_events (CONFIG_KPROBE_EVENTS) in %s",
			       kind, fn, s->tracefs);
again:
	if (retprobe && maxactive > 0 && maxactive_taken != 0)
		snprintf(maxa, sizeof(maxa), "%d", maxactive);
	if (off)
		snprintf(at, sizeof(at), "+%d", off);

	/*
	 * Our names are unique within this process. Still, a barebpf that
	 * died with our pid may have left the same name: 4.15 silently
	 * replaces such an event, newer kernels say EEXIST; then move on.
	 */
	for (tries = 0;; tries++) {
		event_name(s, fn, name);
		snprintf(def, sizeof(def), "%c%s:%s/%s %s%s\n",
			 retprobe ? 'r' : 'p', maxa, s->group, name, fn, at);
		ret = tracefs_append(s->tracefs, "kprobe_events", def);
		if (ret != -EEXIST || tries == 3)
			break;
	}
	if (ret < 0)
		return add_fail(err, ret, kind, fn);
	snprintf(l->event, sizeof(l->event), "%s/%s", s->group, name);

	id = tracefs_event_id(s->tracefs, s->group, name);
	if (id == -ENOENT && maxa[0] && maxactive_taken < 0 &&
	    maxactive_refused(s, fn)) {
		l->event[0] = 0;
		maxa[0] = 0;
		goto again;
	}
	if (id >= 0 && maxa[0])
		maxactive_taken = 1;
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

/* BPF_ENABLE_STATS (5.8): program run counts, while we hold the fd. */
#define BB_BPF_ENABLE_STATS 32
static int stats_enable(void)
{
	uint32_t type = 0; /* BPF_STATS_RUN_TIME */

	return (int)sys_bpf(BB_BPF_ENABLE_STATS, &type, sizeof(type));
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

/*
 * riscv64 before 7.x (6.12 seen): a kprobe at a function's first
 * instruction is refused (EINVAL): it is the function's ftrace patch site
 * (-fpatchable-function-entry: 8 bytes of nops, made an auipc+jalr pair
 * when traced), and without CONFIG_KPROBES_ON_FTRACE check_ftrace_location
 * refuses kprobes on it. The probe goes right past the site: the first
 * instruction of the function's own code, before its prologue, where the
 * arguments are still in a0..a7 (the site only calls out and back). Not
 * inside the site (+4 is accepted, but is the jalr half that ftrace
 * rewrites). A kretprobe must sit at the entry: no retry for it.
 */
static int ftrace_site_retry(int retprobe, const char *fn)
{
	return BB_KPROBE_FTRACE_SITE > 0 && !retprobe && !strchr(fn, '+');
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
	if (!use_pmu(s, l, retprobe, maxactive)) {
		pfd = tracefs_probe_attach(s, l, prog_fd, retprobe, maxactive,
					   0, err);
		if (pfd == -EINVAL && ftrace_site_retry(retprobe, fn))
			pfd = tracefs_probe_attach(s, l, prog_fd, retprobe,
						   maxactive,
						   BB_KPROBE_FTRACE_SITE, err);
		return pfd;
	}
	pfd = kprobe_pmu_open(s->pmu_type, retprobe ? s->pmu_retbit : -1, fn,
			      prog_fd);
	if (pfd == -EINVAL && ftrace_site_retry(retprobe, fn))
		pfd = kprobe_pmu_open_at(s->pmu_type, fn,
					 BB_KPROBE_FTRACE_SITE, prog_fd);
	if (pfd >= 0) {
		l->pfd = pfd;
		l->pmu = 1;
		s->npmu++;
		return 0;
	}
	if (pfd == -EINVAL && retprobe && BB_KPROBE_FTRACE_SITE > 0)
		return bb_fail(err, pfd,
			       "cannot attach kretprobe to %s: the kernel "
			       "refused the probe (EINVAL): this kernel takes "
			       "no kprobe on a function's ftrace patch site "
			       "(riscv64 without KPROBES_ON_FTRACE, as 6.12), "
			       "and a return probe cannot move past it; or the "
			       "function is blacklisted for kprobes", fn);
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
	return tracefs_probe_attach(s, l, prog_fd, retprobe, maxactive, 0, err);
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

	perf_event_close(l->pfd);
	l->pfd = -1;
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
