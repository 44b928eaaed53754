/* SPDX-License-Identifier: MIT */
/*
 * Our probes in kprobe_events (and uprobe_events, whose lines start the
 * same way: uprobe.c): every probe barebpf adds there lives in the
 * group barebpf_<pid>_<pidns>, so that we remove exactly ours, and a later
 * barebpf recognises the leftovers of one that was SIGKILLed (and removes
 * them, never another tool's).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "probe_internal.h"
#include "kernel.h"

#define GROUP_PREFIX "barebpf_"

int kprobes_available(const char *tracefs)
{
	char path[512];

	if (!tracefs || !*tracefs)
		return 0;
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	return access(path, F_OK) == 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

int kprobe_event_remove(const char *tracefs, const char *event)
{
	return probe_event_remove(tracefs, "kprobe_events", event);
}

/* file: kprobe_events or uprobe_events, which take the same "-:" line */
int probe_event_remove(const char *tracefs, const char *file,
		       const char *event)
{
	char def[160];
	int ret, tries;

	snprintf(def, sizeof(def), "-:%s\n", event);
	/*
	 * EBUSY while a perf event still holds the probe: the last close can
	 * finish just after close() returns to us. Give it a moment.
	 */
	for (tries = 0; tries < 20; tries++) {
		ret = tracefs_append(tracefs, file, def);
		if (ret != -EBUSY)
			break;
		sleep_ms(10);
	}
	return ret;
}

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
	char path[64], link[64], *end;
	unsigned long ino;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/ns/pid", pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	/* "pid:[4026531836]" */
	if (strncmp(link, "pid:[", 5))
		return 0;
	ino = strtoul(link + 5, &end, 10);
	return end > link + 5 && *end == ']' ? ino : 0;
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
static int remove_stale_in(const char *tracefs, const char *file,
			   struct bb_err *err)
{
	unsigned long self_ns = bb_pidns_ino("self");
	char *text, *line, *eol, path[512];
	int ret, removed = 0, first_err = 0;

	if (!tracefs || !*tracefs)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	if (access(path, F_OK))
		return 0;
	ret = tracefs_read(tracefs, file, &text);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s/%s: %s",
			       tracefs, file, strerror(-ret));
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
		ret = probe_event_remove(tracefs, file, event);
		/* EBUSY: a perf event still holds it, its process is ending
		 * it (a SIGKILLed barebpf's exit, the child that finishes a
		 * detach in the background: session_detach_fork); ENOENT:
		 * that process removed it since we read the list */
		if (ret == -EBUSY || ret == -ENOENT)
			continue;
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

int kprobes_remove_stale(const char *tracefs, struct bb_err *err)
{
	return remove_stale_in(tracefs, "kprobe_events", err);
}

/* uprobe_events lines have the same "p:group/event" start */
int uprobes_remove_stale(const char *tracefs, struct bb_err *err)
{
	return remove_stale_in(tracefs, "uprobe_events", err);
}
