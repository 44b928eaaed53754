/* SPDX-License-Identifier: MIT */
/* barebpf freeze: who freezes blk-mq queues, for how long, from where. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "freeze_lib.h"
#include "../../bpf/freeze.h"

EMBEDDED_OBJ(freeze);

/* kretprobe instances: freezes are rare, but their calls sleep */
#define FREEZE_MAXACTIVE 64

static const char usage[] =
"usage: barebpf freeze [-h] [-j] [-d DISK] [--no-stack] [--correlate]\n"
"                      [--duration SECONDS]\n"
"\n"
"Trace blk-mq queue freezes: one line per freeze with the task that\n"
"started it, the disk, how long the queue stayed frozen and how long the\n"
"drain of the I/O in flight took, then the kernel stack of the freezing\n"
"task. At exit, a summary per disk and per stack.\n"
"\n"
"While a queue is frozen every new bio waits in blk_queue_enter(): writes\n"
"to /sys/block/*/queue/scheduler or nr_requests (udev rules re-applying\n"
"them) stall applications for as long as the disk takes to drain, and\n"
"iostat and biolatency cannot see it. The stack names the culprit.\n"
"\n"
"Needs kprobes (CONFIG_KPROBE_EVENTS); see `barebpf features`. Probes only\n"
"the freeze path: nothing runs per I/O unless --correlate is given.\n"
"FROZEN is from the outermost freeze to the unfreeze that ends it (nested\n"
"freezes are counted, not reported apart); DRAIN is the freezing task's\n"
"wait for in-flight I/O (blk_mq_freeze_queue_wait), '-' if it did not\n"
"wait. DISK comes from the sysfs write that caused the freeze, else from\n"
"reading each disk's queue/nr_requests once (the queue shows itself),\n"
"else from --correlate; '?' when none of them knows.\n"
"Started during an incident, freeze reports the freezes it saw begin; the\n"
"summary counts the unfreezes of earlier ones. A queue torn down frozen\n"
"whose address a new queue gets, or whose unfreeze was missed, does not\n"
"stay frozen: a new queue is not frozen, and a freeze the kernel shows to\n"
"be outermost (blk_mq_run_hw_queues in it) is not nested. The summary\n"
"says how often it healed so.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -j, --json            one JSON object per freeze, then the summary\n"
"  -d, --disk DISK       report freezes of this disk only\n"
"      --no-stack        do not print kernel stacks\n"
"  -C, --correlate       also learn the disk of queues frozen outside sysfs\n"
"                        from the bios that wait on them (costs a tracepoint\n"
"                        per I/O, and a kprobe per I/O before 5.15)\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say which functions were probed\n"
"\n"
"examples:\n"
"  barebpf freeze                     # trace until Ctrl-C, then summarize\n"
"  barebpf freeze -d sdb --duration 60  # sdb only, for a minute\n"
"  barebpf freeze --no-stack -j       # JSON lines without stacks\n"
"  udevadm trigger & barebpf freeze --duration 10  # who freezes on udev?\n";

/* Freeze start: wrappers first (their stack is the caller's), then the
 * functions that do it; all that exist are probed (see freeze.bpf.c). */
const char *const freeze_start_fns[] = {
	"blk_mq_freeze_queue",           /* 4.15-6.14 */
	"blk_freeze_queue",              /* 4.15-6.1 */
	"blk_mq_freeze_queue_nomemsave", /* 6.15+ */
	"blk_freeze_queue_start",        /* 4.15+ */
	"__blk_freeze_queue_start",      /* 6.14+ */
	"blk_mq_freeze_queue_start",     /* before 4.13 */
	NULL
};
/* wrappers that also wait: their return ends the drain */
static const char *const start_ret_fns[] = {
	"blk_mq_freeze_queue", "blk_freeze_queue",
	"blk_mq_freeze_queue_nomemsave", NULL
};
static const char *const wait_fns[] = {
	"blk_mq_freeze_queue_wait", "blk_mq_freeze_queue_wait_timeout", NULL
};
const char *const freeze_end_fns[] = {
	"blk_mq_unfreeze_queue",              /* -6.14 */
	"blk_mq_unfreeze_queue_nomemrestore", /* 6.15+ */
	"blk_mq_unfreeze_queue_non_owner",    /* 6.14+ */
	"__blk_mq_unfreeze_queue",            /* 5.16+ */
	NULL
};
static const char *const sysfs_fns[] = {
	"queue_attr_store", "queue_attr_show", NULL
};
/* a queue show method that takes the request_queue (4.15-6.9; 6.10 gave
 * them the gendisk) */
static const char *const show_q_fns[] = {
	"queue_requests_show", "queue_ra_show", NULL
};
/* debugfs block/<disk>/state: queue_state_show(q, m) on every kernel (4.11+) */
static const char *const show_state_fns[] = { "queue_state_show", NULL };
#define DEBUGFS_DIR "/sys/kernel/debug"
/* what the kernel calls only when a freeze is outermost, and where it
 * makes a queue (see freeze.bpf.c: healing) */
static const char *const confirm_fns[] = { "blk_mq_run_hw_queues", NULL };
static const char *const newq_fns[] = {
	"blk_alloc_queue", "blk_alloc_queue_node", NULL
};
/* where a bio waits for a frozen queue: the slow path first (5.15+) */
static const char *const learn_fns[] = {
	"__bio_queue_enter", "blk_queue_enter", NULL
};

/*
 * The stack map only fills (a new stack whose bucket is taken fails with
 * EEXIST for the rest of the run). Once half of its 1024 buckets were read,
 * or a stack collided, empty it but for the stacks of freezes in progress:
 * their ids wait in fstate until the unfreeze sends them here. (A freeze
 * starting at that very moment with a stack already in the map may lose
 * it: its id is not in fstate yet.)
 */
#define FREEZE_STACKS 1024

static void stacks_maybe_clear(struct freeze_run *r, int stackid)
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

/* ---- pure helpers (tests/unit/test_freeze.c) ---- */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(char *const *)b);
}

int fn_available(char *const *avail, int navail, const char *name)
{
	return navail > 0 &&
	       bsearch(&name, avail, navail, sizeof(*avail), cmp_name) != NULL;
}

int fn_pick_first(const char *const *chain, char *const *avail, int navail)
{
	int i;

	for (i = 0; chain[i]; i++)
		if (fn_available(avail, navail, chain[i]))
			return i;
	return -ENOENT;
}

int fn_pick_all(const char *const *chain, char *const *avail, int navail,
		const char **out, int max)
{
	int i, n = 0;

	for (i = 0; chain[i] && n < max; i++)
		if (fn_available(avail, navail, chain[i]))
			out[n++] = chain[i];
	return n;
}

static struct freeze_agg *agg_find(struct freeze_agg **v, int *n,
				   const char *disk, const uint64_t *ips,
				   int nips)
{
	struct freeze_agg *a;
	int i;

	for (i = 0; i < *n; i++) {
		a = &(*v)[i];
		if (disk && !strcmp(a->disk, disk))
			return a;
		if (!disk && a->nips == nips &&
		    (!nips || !memcmp(a->ips, ips, nips * sizeof(*ips))))
			return a;
	}
	a = realloc(*v, (*n + 1) * sizeof(**v));
	if (!a)
		return NULL;
	*v = a;
	a = &a[*n];
	memset(a, 0, sizeof(*a));
	if (disk) {
		snprintf(a->disk, sizeof(a->disk), "%s", disk);
	} else if (nips) {
		a->ips = malloc(nips * sizeof(*ips));
		if (!a->ips)
			return NULL;
		memcpy(a->ips, ips, nips * sizeof(*ips));
		a->nips = nips;
	}
	(*n)++;
	return a;
}

static void agg_add(struct freeze_agg *a, uint64_t frozen_ns,
		    uint64_t drain_ns)
{
	a->count++;
	a->frozen_ns += frozen_ns;
	a->drain_ns += drain_ns;
	if (frozen_ns > a->max_ns)
		a->max_ns = frozen_ns;
}

int freeze_sum_add(struct freeze_sum *s, const char *disk, const uint64_t *ips,
		   int nips, uint64_t frozen_ns, uint64_t drain_ns)
{
	struct freeze_agg *d, *k;

	if (nips < 0)
		nips = 0;
	d = agg_find(&s->disks, &s->ndisks, disk && *disk ? disk : "?",
		     NULL, 0);
	if (!d)
		return -ENOMEM;
	k = agg_find(&s->stacks, &s->nstacks, NULL, ips, nips);
	if (!k)
		return -ENOMEM;
	agg_add(d, frozen_ns, drain_ns);
	agg_add(k, frozen_ns, drain_ns);
	s->count++;
	s->frozen_ns += frozen_ns;
	return 0;
}

static int cmp_agg(const void *a, const void *b)
{
	const struct freeze_agg *x = a, *y = b;
	int i;

	if (x->frozen_ns != y->frozen_ns)
		return x->frozen_ns > y->frozen_ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (strcmp(x->disk, y->disk))
		return strcmp(x->disk, y->disk);
	for (i = 0; i < x->nips && i < y->nips; i++)
		if (x->ips[i] != y->ips[i])
			return x->ips[i] < y->ips[i] ? -1 : 1;
	return x->nips - y->nips;
}

void freeze_sum_sort(struct freeze_sum *s)
{
	if (s->ndisks)
		qsort(s->disks, s->ndisks, sizeof(*s->disks), cmp_agg);
	if (s->nstacks)
		qsort(s->stacks, s->nstacks, sizeof(*s->stacks), cmp_agg);
}

void freeze_sum_free(struct freeze_sum *s)
{
	int i;

	for (i = 0; i < s->nstacks; i++)
		free(s->stacks[i].ips);
	free(s->stacks);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

void freeze_sum_print(FILE *f, const struct freeze_sum *s,
		      const struct bb_ksyms *ks)
{
	int i;

	fprintf(f, "\n%lu freeze%s, %.3f ms frozen in total\n", s->count,
		s->count == 1 ? "" : "s", ms(s->frozen_ns));
	if (s->healed)
		fprintf(f, "healed %lu time%s: a queue we held frozen was made "
			"anew or frozen anew by the kernel (it was torn down "
			"frozen, or its unfreeze was missed); the freeze left "
			"open is not reported\n",
			s->healed, s->healed == 1 ? "" : "s");
	if (s->unseen)
		fprintf(f, "%lu unfreeze%s of freezes that began before "
			"tracing (not reported)\n", s->unseen,
			s->unseen == 1 ? "" : "s");
	if (!s->count)
		return;
	fprintf(f, "\n%-16s %8s %12s %10s %12s\n", "DISK", "FREEZES",
		"FROZEN(ms)", "MAX(ms)", "DRAIN(ms)");
	for (i = 0; i < s->ndisks; i++) {
		const struct freeze_agg *a = &s->disks[i];

		fprintf(f, "%-16s %8lu %12.3f %10.3f %12.3f\n", a->disk,
			a->count, ms(a->frozen_ns), ms(a->max_ns),
			ms(a->drain_ns));
	}
	if (s->no_stacks)
		return;
	fprintf(f, "\n%8s %12s %10s  %s\n", "FREEZES", "FROZEN(ms)", "MAX(ms)",
		"STACK");
	for (i = 0; i < s->nstacks; i++) {
		const struct freeze_agg *a = &s->stacks[i];

		fprintf(f, "%8lu %12.3f %10.3f  ", a->count, ms(a->frozen_ns),
			ms(a->max_ns));
		if (!a->nips) {
			fprintf(f, "[no stack]\n");
			continue;
		}
		stack_print_kernel(f, ks, a->ips, 1, "");
		stack_print_kernel(f, ks, a->ips + 1, a->nips - 1,
				   "                                  ");
	}
}

void freeze_sum_json(FILE *f, const struct freeze_sum *s,
		     const struct bb_ksyms *ks)
{
	int i;

	fprintf(f, "{\"freezes\":%lu,\"frozen_us\":%llu,\"healed\":%lu,"
		"\"unseen\":%lu,\"disks\":[", s->count,
		(unsigned long long)(s->frozen_ns / 1000), s->healed,
		s->unseen);
	for (i = 0; i < s->ndisks; i++) {
		const struct freeze_agg *a = &s->disks[i];

		fprintf(f, "%s{\"disk\":", i ? "," : "");
		json_str(f, a->disk);
		fprintf(f, ",\"freezes\":%lu,\"frozen_us\":%llu,\"max_us\":%llu,"
			"\"drain_us\":%llu}", a->count,
			(unsigned long long)(a->frozen_ns / 1000),
			(unsigned long long)(a->max_ns / 1000),
			(unsigned long long)(a->drain_ns / 1000));
	}
	fprintf(f, "],\"stacks\":[");
	for (i = 0; i < s->nstacks && !s->no_stacks; i++) {
		const struct freeze_agg *a = &s->stacks[i];

		fprintf(f, "%s{\"freezes\":%lu,\"frozen_us\":%llu,"
			"\"max_us\":%llu,\"stack\":", i ? "," : "", a->count,
			(unsigned long long)(a->frozen_ns / 1000),
			(unsigned long long)(a->max_ns / 1000));
		stack_json_kernel(f, ks, a->ips, a->nips);
		fputc('}', f);
	}
	fprintf(f, "]}");
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

/* ---- output ---- */

/*
 * Kernel symbols for the stacks, read at the first stack to print rather
 * than before tracing: /proc/kallsyms is 70k-100k lines, which under
 * emulation took half of freeze's start.
 */
static const struct bb_ksyms *run_ksyms(struct freeze_run *r)
{
	struct bb_err err = { "" };

	if (!r->ks && !r->ks_tried && !r->o->no_stack) {
		r->ks_tried = 1;
		if (ksyms_load(&r->ks, "/proc/kallsyms", &err) < 0)
			tool_error(r->t, "warning: %s: stacks will show "
				   "addresses", err.msg);
	}
	return r->ks;
}

static void print_event(struct freeze_run *r, const struct freeze_event *ev,
			const char *disk, const uint64_t *ips, int nips)
{
	const struct freeze_opts *o = r->o;
	char comm[FREEZE_COMM_LEN + 1];

	snprintf(comm, sizeof(comm), "%.*s", FREEZE_COMM_LEN, ev->comm);
	if (o->json) {
		printf("{\"time\":\"%s\",\"comm\":", now_hms());
		json_str(stdout, comm);
		printf(",\"pid\":%u,\"tid\":%u,\"disk\":", ev->pid, ev->tid);
		json_str(stdout, disk);
		printf(",\"frozen_us\":%llu,\"drain_us\":",
		       (unsigned long long)(ev->frozen_ns / 1000));
		if (ev->drain_ns)
			printf("%llu",
			       (unsigned long long)(ev->drain_ns / 1000));
		else
			printf("null");
		printf(",\"nested\":%u", ev->nested);
		if (!o->no_stack) {
			printf(",\"stack\":");
			stack_json_kernel(stdout, run_ksyms(r), ips, nips);
			if (nips < 0)
				printf(",\"stack_error\":\"%s\"",
				       strerror(-nips));
		}
		printf("}\n");
	} else {
		char drain[32] = "-";

		if (ev->drain_ns)
			snprintf(drain, sizeof(drain), "%.3f",
				 ms(ev->drain_ns));
		printf("%-8s %-16s %-7u %-12s %12.3f %10s %6u\n", now_hms(),
		       comm, ev->pid, disk, ms(ev->frozen_ns), drain,
		       ev->nested);
		if (!o->no_stack) {
			if (nips >= 0)
				stack_print_kernel(stdout, run_ksyms(r), ips, nips,
						   "        ");
			else
				printf("        [stack unavailable: %s]\n",
				       strerror(-nips));
			putchar('\n');
		}
	}
	fflush(stdout);
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct freeze_run *r = ctx;
	struct freeze_event ev;
	uint64_t ips[BB_MAX_STACK];
	char disk[64];
	int nips;

	(void)cpu;
	if (size < sizeof(ev))
		return;
	memcpy(&ev, data, sizeof(ev));
	r->received++;
	freeze_queue_disk(r, &ev, disk, sizeof(disk));
	if (r->o->disk && strcmp(disk, r->o->disk))
		return;
	nips = stack_add_entry_ret(ips, stack_read(r->stacks_fd, ev.stackid,
						   ips, BB_MAX_STACK),
				   BB_MAX_STACK, ev.entry_ret);
	stacks_maybe_clear(r, ev.stackid);
	if (freeze_sum_add(&r->sum, disk, ips, nips, ev.frozen_ns,
			   ev.drain_ns) < 0)
		r->oom = 1;
	print_event(r, &ev, disk, ips, nips);
}

/* Queues still frozen at exit (a freeze in progress, or a queue that was
 * torn down frozen, which is never unfrozen). */
static int print_still_frozen(struct freeze_run *r, int fd)
{
	struct freeze_state st;
	uint64_t key, next;
	void *prev = NULL;
	double now = now_mono();
	int n = 0;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct freeze_event ev = { 0 };
		char disk[64], comm[FREEZE_COMM_LEN + 1];

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &st) < 0)
			continue;
		ev.q = key;
		memcpy(ev.disk, st.disk, sizeof(ev.disk));
		snprintf(comm, sizeof(comm), "%.*s", FREEZE_COMM_LEN, st.comm);
		freeze_queue_disk(r, &ev, disk, sizeof(disk));
		if (r->o->disk && strcmp(disk, r->o->disk))
			continue;
		if (r->o->json) {
			printf("{\"still_frozen\":{\"comm\":");
			json_str(stdout, comm);
			printf(",\"pid\":%u,\"disk\":", st.pid);
			json_str(stdout, disk);
			printf(",\"frozen_us\":%.0f}}\n",
			       now * 1e6 - st.start_ns / 1e3);
		} else {
			printf("still frozen at exit: %-12s by %s (pid %u) "
			       "for %.3f ms\n", disk, comm, st.pid,
			       now * 1e3 - ms(st.start_ns));
		}
		n++;
	}
	return n;
}

/* ---- the straight line ---- */

static int parse_args(struct tool_ctx *t, struct freeze_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "disk", required_argument, NULL, 'd' },
		{ "no-stack", no_argument, NULL, 3 },
		{ "correlate", no_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 1 },
		{ "kern-version", required_argument, NULL, 2 },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 }
	};
	uint32_t kdev;
	int c;

	while ((c = getopt_long(argc, argv, "hjd:Cv", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); exit(0);
		case 'j': o->json = 1; break;
		case 'd': o->disk = optarg; break;
		case 'C': o->correlate = 1; break;
		case 'v': t->verbose = 1; break;
		case 3: o->no_stack = 1; break;
		case 1:
			if (opt_seconds(t, "--duration", optarg, &o->duration))
				return 1;
			break;
		case 2: t->kver_override = optarg; break;
		default:
			fputs(usage, stderr);
			return 1;
		}
	}
	if (optind < argc)
		return tool_error(t, "unexpected argument '%s' (see --help)",
				  argv[optind]);
	if (o->disk) {
		if (!strncmp(o->disk, "/dev/", 5))
			o->disk += 5;
		if (disk_kdev(o->disk, &kdev) < 0)
			return tool_unknown_disk(t, o->disk);
	}
	return 0;
}

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
	return tool_error(t, "cannot trace queue freezes: none of %s could "
			  "be probed on this kernel", names), -ENOENT;
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

	add_chain(p, &np, 48, "freeze_end", freeze_end_fns, avail, n, 0,
		  NULL, "frozen", 0);
	/* they replace or end a stale "frozen" (what opens it is the start) */
	add_chain(p, &np, 48, "freeze_confirm", confirm_fns, avail, n, 0,
		  NULL, "start frozen", 0);
	add_chain(p, &np, 48, "freeze_newq", newq_fns, avail, n,
		  FREEZE_MAXACTIVE, NULL, "frozen", 0);
	/*
	 * A kretprobe on a function whose callers' stack we record hides
	 * them: the return address is the kretprobe trampoline then, and
	 * before 5.14 the ORC unwinder stops there. So the wrappers' return
	 * ends the drain only on a kernel without the wait function.
	 */
	if (add_chain(p, &np, 48, "freeze_wait", wait_fns, avail, n, 0,
		      "drain", "frozen", 0))
		add_chain(p, &np, 48, "freeze_wait_ret", wait_fns, avail, n,
			  FREEZE_MAXACTIVE, NULL, "drain frozen", 0);
	else
		add_chain(p, &np, 48, "freeze_start_ret", start_ret_fns, avail,
			  n, FREEZE_MAXACTIVE, NULL, "ret frozen", 0);
	add_chain(p, &np, 48, "freeze_start", freeze_start_fns, avail, n, 0,
		  "frozen start ret", "sysfs", 0);
	/*
	 * The kretprobe that ends a task's sysfs write shows in the stacks of
	 * its freezes as kretprobe_trampoline in place of sysfs_kf_write (and
	 * ORC stops there before 5.14); without it a freeze could be given
	 * the disk of an earlier write that did not freeze.
	 */
	add_chain(p, &np, 48, "sysfs_enter", sysfs_fns, avail, n, 0, "sysfs",
		  NULL, 0);
	add_chain(p, &np, 48, "sysfs_exit", sysfs_fns, avail, n,
		  FREEZE_MAXACTIVE, NULL, "sysfs", 0);
	add_chain(p, &np, 48, "sysfs_show_q", show_q_fns, avail, n, 0, NULL,
		  "sysfs", 1);
	/* 6.10+: the queue's show methods take the gendisk */
	add_chain(p, &np, 48, "sysfs_show_q", show_state_fns, avail, n, 0,
		  NULL, "sysfs", 1);
	if (o->correlate) {
		if (!add_chain(p, &np, 48, "freeze_learn", learn_fns, avail, n,
			       0, NULL, "taskdev", 1))
			return chain_error(t, learn_fns);
		p[np++] = (struct bb_probe){ "taskdev_bio_queue", NULL, 0,
					     "taskdev", NULL, 0, 0 };
	}
	ret = tool_attach_probes(t, p, np);
	if (ret < 0)
		return ret;
	if (!attached(p, np, "freeze_end", NULL))
		return chain_error(t, freeze_end_fns);
	if (t->verbose && (!attached(p, np, "freeze_confirm", NULL) ||
			   !attached(p, np, "freeze_newq", NULL)))
		fprintf(stderr, "blk_mq_run_hw_queues or blk_alloc_queue "
			"cannot be probed: fewer stale queue states can heal\n");
	if (!attached(p, np, "freeze_start", NULL))
		return chain_error(t, freeze_start_fns);
	if (o->correlate && !attached(p, np, "freeze_learn", NULL))
		return chain_error(t, learn_fns);
	if (!attached(p, np, "sysfs_enter", NULL) ||
	    !attached(p, np, "sysfs_exit", NULL))
		tool_error(t, "warning: cannot probe queue_attr_store: the "
			   "disk of a freeze will come from correlation only");
	for (i = 0; i < np; i++) {
		if (!p[i].attached || strcmp(p[i].prog, "sysfs_show_q"))
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
static int find_functions(struct tool_ctx *t, char ***avail)
{
	static const char *const *const chains[] = {
		freeze_start_fns, start_ret_fns, wait_fns, freeze_end_fns,
		confirm_fns, newq_fns, sysfs_fns, show_q_fns, show_state_fns,
		learn_fns,
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

static int freeze_main(int argc, char **argv)
{
	struct freeze_opts o = { 0 };
	struct freeze_run r = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	struct tool_ctx t;
	char **avail = NULL;
	uint64_t emitted, lost, v;
	int ret = 1, n = 0, tick, stats_fd;

	tool_init(&t, "freeze");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	r.t = &t;
	r.sum.no_stacks = o.no_stack;
	r.qdev_fd = -1;
	tool_signals();
	if (tool_need_kprobes(&t) < 0)
		goto out;
	n = find_functions(&t, &avail);
	if (n < 0) {
		n = 0;
		goto out;
	}
	if (tool_open(&t, EMBEDDED_ARGS(freeze)) < 0)
		goto out;
	obj_set_const(t.obj, "dedup_ns", FREEZE_DEDUP_NS);
	obj_set_const(t.obj, "want_stack", !o.no_stack);
	obj_set_const(t.obj, "confirm_ns", FREEZE_CONFIRM_NS);
	if (o.correlate) {
		if (tool_tp_offset(&t, "block", "block_bio_queue", "dev",
				   "tpoff_bio_queue_dev") < 0)
			goto out;
	} else {
		obj_set_const(t.obj, "tpoff_bio_queue_dev", 0);
	}
	if (tool_load(&t) < 0)
		goto out;
	r.stacks_fd = obj_map(t.obj, "stacks")->fd;
	r.fstate_fd = obj_map(t.obj, "fstate")->fd;
	r.qname_fd = obj_map(t.obj, "q_name")->fd;
	r.tasksysfs_fd = obj_map(t.obj, "task_sysfs")->fd;
	if (o.correlate)
		r.qdev_fd = obj_map(t.obj, "qdev")->fd;
	if (tool_ring(&t, "events", 64, on_event, &r, &pb) < 0 ||
	    freeze_attach_probes(&t, &r, avail, n) < 0)
		goto out;

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing blk-mq queue freezes... Hit Ctrl-C to end.\n");
	if (!o.json)
		printf("%-8s %-16s %-7s %-12s %12s %10s %6s\n", "TIME", "COMM",
		       "PID", "DISK", "FROZEN(ms)", "DRAIN(ms)", "NESTED");
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	do
		tick = tool_wait(&tm, pb);
	while (tick != TOOL_TICK_LAST);
	/*
	 * What the ring holds, while the probes that name a queue's disk
	 * (learn_queue_names) are still there; then stop the programs and
	 * take the rest, so that every record counted as sent is read.
	 */
	perfbuf_poll(pb, 0);
	print_still_frozen(&r, obj_map(t.obj, "fstate")->fd);
	tool_detach(&t);
	perfbuf_poll(pb, 0);
	tool_sleep(0.05); /* a program still running on another CPU */
	perfbuf_poll(pb, 0);
	stats_fd = obj_map(t.obj, "stats")->fd;
	bpf_map_sum_percpu_u64(stats_fd, FREEZE_STAT_EMITTED, &emitted);
	lost = emitted > r.received ? emitted - r.received : 0;
	if (perfbuf_lost(pb) > lost)
		lost = perfbuf_lost(pb);
	bpf_map_sum_percpu_u64(stats_fd, FREEZE_STAT_HEALED, &v);
	r.sum.healed = (unsigned long)v;
	bpf_map_sum_percpu_u64(stats_fd, FREEZE_STAT_UNSEEN, &v);
	r.sum.unseen = (unsigned long)v;
	freeze_sum_sort(&r.sum);
	if (o.json) {
		printf("{\"summary\":");
		freeze_sum_json(stdout, &r.sum, run_ksyms(&r));
		printf(",\"lost\":%llu}\n", (unsigned long long)lost);
	} else {
		freeze_sum_print(stdout, &r.sum, run_ksyms(&r));
	}
	fflush(stdout);
	if (lost)
		tool_error(&t, "warning: %llu freeze record(s) lost: the "
			   "perf buffer was full", (unsigned long long)lost);
	if (r.oom)
		tool_error(&t, "warning: out of memory: the summary is "
			   "incomplete");
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	ksyms_free(r.ks);
	freeze_sum_free(&r.sum);
	bb_free_strv(avail, n);
	return ret;
}

const struct tool tool_freeze = {
	"freeze", freeze_main,
	"who freezes blk-mq queues: duration, drain, stack (kprobes)"
};
