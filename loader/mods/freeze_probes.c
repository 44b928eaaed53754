/* SPDX-License-Identifier: MIT */
/* blk-mq queue freezes: the probes, the disk of a queue (freeze_mod.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "freeze_mod.h"
#include "freeze.skel.h"
#include "../../bpf/freeze.h"

/* kretprobe instances: freezes are rare, but their calls sleep */
#define FREEZE_MAXACTIVE 64
#define DEBUGFS_DIR "/sys/kernel/debug"

/*
 * The stack map only fills (a new stack whose bucket is taken fails with
 * EEXIST for the rest of the run). Once half of its 1024 buckets were read,
 * or a stack collided, empty it but for the stacks of freezes in progress:
 * their ids wait in fstate until the unfreeze sends them here. (A freeze
 * starting at that very moment with a stack already in the map may lose
 * it: its id is not in fstate yet.)
 */
#define FREEZE_STACKS 1024

void freeze_stacks_maybe_clear(struct freeze_run *r, int stackid)
{
	unsigned char held[FREEZE_STACKS / 8] = { 0 };
	struct freeze_state st;
	uint64_t key, next;
	void *prev = NULL;
	uint32_t id;

	if (stackid >= 0)
		r->nstacks++;
	if (r->nstacks < FREEZE_STACKS / 2 && stackid != -EEXIST)
		return;
	while (bpf_map_get_next_key(r->fstate_fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(r->fstate_fd, &next, &st) == 0 &&
		    st.stackid >= 0 && st.stackid < FREEZE_STACKS)
			held[st.stackid / 8] |= 1 << (st.stackid % 8);
		key = next;
		prev = &key;
	}
	for (id = 0; id < FREEZE_STACKS; id++)
		if (!(held[id / 8] & (1 << (id % 8))))
			bpf_map_delete_elem(r->stacks_fd, &id);
	r->nstacks = 0;
}

/* ---- the disk of a queue ---- */

/*
 * Make every disk's queue show itself: reading queue/<attr> runs
 * queue_attr_show(kobj) -> queue_<attr>_show(q) on this task, which
 * sysfs_enter/sysfs_show_q turn into q_name[q] = disk. Done afresh for
 * each freeze the sysfs write did not name, so that a queue pointer
 * reused by a new disk is never reported under the old name.
 */
/*
 * From 6.10 the queue/ show methods take the gendisk, not the queue; the
 * blk-mq debugfs file block/<disk>/state still shows the queue itself
 * (queue_state_show(q, m)). No sysfs write names that read, so we name it:
 * task_sysfs[our tid] = disk, which sysfs_show_q turns into q_name[q].
 * debugfs is mounted for the scan if nobody did (and unmounted at once).
 */
static int learn_from_debugfs(struct freeze_run *r)
{
	struct freeze_sysfs name;
	uint32_t tid = (uint32_t)getpid(); /* single-threaded: our tid */
	struct dirent *e;
	char path[320], buf[256];
	int mounted = 0;
	DIR *d;

	d = opendir(DEBUGFS_DIR "/block");
	if (!d && sys_mount("debugfs", DEBUGFS_DIR, "debugfs", 0, NULL) == 0) {
		mounted = 1;
		d = opendir(DEBUGFS_DIR "/block");
	}
	if (d) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			memset(&name, 0, sizeof(name));
			snprintf(name.disk, sizeof(name.disk), "%.*s",
				 (int)sizeof(name.disk) - 1, e->d_name);
			if (bpf_map_update_elem(r->tasksysfs_fd, &tid, &name,
						BPF_ANY) < 0)
				continue;
			snprintf(path, sizeof(path), DEBUGFS_DIR "/block/%s/state",
				 e->d_name);
			(void)bb_read_small(path, buf, sizeof(buf));
		}
		bpf_map_delete_elem(r->tasksysfs_fd, &tid);
		closedir(d);
	}
	if (mounted)
		sys_umount2(DEBUGFS_DIR, 0);
	return d ? 0 : -ENOENT;
}

static void learn_queue_names(struct freeze_run *r)
{
	DIR *d;
	struct dirent *e;
	uint64_t key, next;
	char path[320], buf[64];

	/* forget what an earlier scan learned */
	while (bpf_map_get_next_key(r->qname_fd, NULL, &next) == 0) {
		key = next;
		if (bpf_map_delete_elem(r->qname_fd, &key) < 0)
			break;
	}
	if (r->show_state && learn_from_debugfs(r) == 0)
		return;
	if (!r->show_attr || !(d = opendir("/sys/block")))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/queue/%s",
			 e->d_name, r->show_attr);
		(void)bb_read_small(path, buf, sizeof(buf));
	}
	closedir(d);
}

void freeze_queue_disk(struct freeze_run *r, const struct freeze_event *ev,
		       char *disk, size_t len)
{
	struct freeze_sysfs name;
	uint32_t dev;

	if (ev->disk[0]) {
		snprintf(disk, len, "%.*s", FREEZE_NAME_LEN, ev->disk);
		return;
	}
	if (r->show_attr || r->show_state) {
		learn_queue_names(r);
		if (bpf_map_lookup_elem(r->qname_fd, &ev->q, &name) == 0 &&
		    name.disk[0]) {
			snprintf(disk, len, "%.*s", FREEZE_NAME_LEN, name.disk);
			return;
		}
	}
	if (r->qdev_fd >= 0 &&
	    bpf_map_lookup_elem(r->qdev_fd, &ev->q, &dev) == 0 &&
	    dev && dev != FREEZE_QDEV_AMBIGUOUS &&
	    disk_name(dev, disk, len) == 0)
		return;
	snprintf(disk, len, "?");
}

/* ---- the probes ---- */

/* Add a probe of prog on every function of chain this kernel has (only
 * the first with first). Returns how many. */
static int add_chain(struct bb_probe *p, int *np, int max, const char *prog,
		     const char *const *chain, char **avail, int navail,
		     int maxactive, const char *opens, const char *closes,
		     int first)
{
	const char *fns[8];
	int n = fn_pick_all(chain, avail, navail, fns, 8), i;

	if (first && n > 1)
		n = 1;
	for (i = 0; i < n && *np < max; i++)
		p[(*np)++] = (struct bb_probe){ prog, fns[i], maxactive, opens,
						closes, 1, 0 };
	return n;
}

/* How many probes of prog are attached; the first one's target. */
static int attached(const struct bb_probe *p, int n, const char *prog,
		    const char **target)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (!p[i].attached || strcmp(p[i].prog, prog))
			continue;
		if (!k++ && target)
			*target = p[i].target;
	}
	return k;
}

static int chain_error(struct tool_ctx *t, const char *const *chain)
{
	char names[256] = "";
	int i;

	for (i = 0; chain[i]; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? ", " : "", chain[i]);
	return tool_fail(t, -ENOENT,
			 "cannot trace queue freezes: none of %s could "
			 "be probed on this kernel", names);
}

/*
 * Every name of each chain that this kernel has is probed: the compiler
 * inlines different ones into the others in different builds. The states
 * (see freeze.bpf.c): "frozen" (fstate), "start" (cand), "drain"
 * (waitq), "ret" (retq), "sysfs" (task_sysfs), "taskdev" (taskdev.h).
 */
int freeze_attach_probes(struct tool_ctx *t, struct freeze_run *r,
			 char **avail, int n)
{
	const struct freeze_opts *o = r->o;
	struct bb_probe p[48];
	const char *show;
	int np = 0, ret, i;

	add_chain(p, &np, 48, FREEZE_P_freeze_end, freeze_end_fns, avail, n,
		  0, NULL, "frozen", 0);
	/* they replace or end a stale "frozen" (what opens it is the start) */
	add_chain(p, &np, 48, FREEZE_P_freeze_confirm, freeze_confirm_fns,
		  avail, n, 0, NULL, "start frozen", 0);
	add_chain(p, &np, 48, FREEZE_P_freeze_newq, queue_new_fns, avail, n,
		  FREEZE_MAXACTIVE, NULL, "frozen", 0);
	/*
	 * A kretprobe on a function whose callers' stack we record hides
	 * them: the return address is the kretprobe trampoline then, and
	 * before 5.14 the ORC unwinder stops there. So the wrappers' return
	 * ends the drain only on a kernel without the wait function.
	 */
	if (add_chain(p, &np, 48, FREEZE_P_freeze_wait, freeze_wait_fns, avail,
		      n, 0, "drain", "frozen", 0))
		add_chain(p, &np, 48, FREEZE_P_freeze_wait_ret, freeze_wait_fns,
			  avail, n, FREEZE_MAXACTIVE, NULL, "drain frozen", 0);
	else
		add_chain(p, &np, 48, FREEZE_P_freeze_start_ret,
			  freeze_start_ret_fns, avail, n, FREEZE_MAXACTIVE,
			  NULL, "ret frozen", 0);
	add_chain(p, &np, 48, FREEZE_P_freeze_start, freeze_start_fns, avail,
		  n, 0, "frozen start ret", "sysfs", 0);
	/*
	 * The kretprobe that ends a task's sysfs write shows in the stacks of
	 * its freezes as kretprobe_trampoline in place of sysfs_kf_write (and
	 * ORC stops there before 5.14); without it a freeze could be given
	 * the disk of an earlier write that did not freeze.
	 */
	add_chain(p, &np, 48, FREEZE_P_sysfs_enter, queue_sysfs_fns, avail, n,
		  0, "sysfs", NULL, 0);
	add_chain(p, &np, 48, FREEZE_P_sysfs_exit, queue_sysfs_fns, avail, n,
		  FREEZE_MAXACTIVE, NULL, "sysfs", 0);
	add_chain(p, &np, 48, FREEZE_P_sysfs_show_q, queue_show_q_fns, avail,
		  n, 0, NULL, "sysfs", 1);
	/* 6.10+: the queue's show methods take the gendisk */
	add_chain(p, &np, 48, FREEZE_P_sysfs_show_q, queue_show_state_fns,
		  avail, n, 0, NULL, "sysfs", 1);
	if (o->correlate) {
		if (!add_chain(p, &np, 48, FREEZE_P_freeze_learn,
			       queue_enter_fns, avail, n, 0, NULL, "taskdev",
			       1))
			return chain_error(t, queue_enter_fns);
		p[np++] = (struct bb_probe){ FREEZE_P_taskdev_bio_queue, NULL,
					     0, "taskdev", NULL, 0, 0 };
	}
	ret = tool_attach_probes(t, p, np);
	if (ret < 0)
		return ret;
	if (!attached(p, np, FREEZE_P_freeze_end, NULL))
		return chain_error(t, freeze_end_fns);
	if (t->verbose && (!attached(p, np, FREEZE_P_freeze_confirm, NULL) ||
			   !attached(p, np, FREEZE_P_freeze_newq, NULL)))
		fprintf(stderr, "blk_mq_run_hw_queues or blk_alloc_queue "
			"cannot be probed: fewer stale queue states can heal\n");
	if (!attached(p, np, FREEZE_P_freeze_start, NULL))
		return chain_error(t, freeze_start_fns);
	if (o->correlate && !attached(p, np, FREEZE_P_freeze_learn, NULL))
		return chain_error(t, queue_enter_fns);
	if (!attached(p, np, FREEZE_P_sysfs_enter, NULL) ||
	    !attached(p, np, FREEZE_P_sysfs_exit, NULL))
		tool_error(t, "warning: cannot probe queue_attr_store: the "
			   "disk of a freeze will come from correlation only");
	for (i = 0; i < np; i++) {
		if (!p[i].attached || strcmp(p[i].prog, FREEZE_P_sysfs_show_q))
			continue;
		show = p[i].target;
		if (!strcmp(show, "queue_state_show"))
			r->show_state = 1;
		else if (!r->show_attr)
			r->show_attr = !strcmp(show, "queue_requests_show") ?
				       "nr_requests" : "read_ahead_kb";
	}
	return 0;
}

static int name_in(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* Which of the functions of every chain this kernel has, sorted (as
 * fn_pick_* take them): one pass over available_filter_functions. */
int freeze_find_functions(struct tool_ctx *t, char ***avail)
{
	static const char *const *const chains[] = {
		freeze_start_fns, freeze_start_ret_fns, freeze_wait_fns, freeze_end_fns,
		freeze_confirm_fns, queue_new_fns, queue_sysfs_fns, queue_show_q_fns, queue_show_state_fns,
		queue_enter_fns,
	};
	const char *names[48];
	size_t c;
	int n = 0, i;

	for (c = 0; c < sizeof(chains) / sizeof(chains[0]); c++)
		for (i = 0; chains[c][i] && n < 48; i++)
			if (!name_in(names, n, chains[c][i]))
				names[n++] = chains[c][i];
	return tool_funcs(t, BB_FUNCS_FTRACE, names, n, n, avail);
}
