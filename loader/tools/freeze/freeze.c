/* SPDX-License-Identifier: MIT */
/* barebpf freeze: who freezes blk-mq queues, for how long, from where. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "outrec.h"
#include "mods.h"
#include "freeze_mod.h"
#include "freeze_out.h"

static const struct tool_usage help = { NULL, "freeze" };

static double ms(uint64_t ns)
{
	return ns / 1e6;
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

/* The record, once: the columns, and the JSON keys. */
enum {
	F_TIME, F_COMM, F_PID, F_TID, F_DISK, F_ATTR, F_FROZEN, F_JFROZEN,
	F_DRAIN, F_JDRAIN, F_NESTED, F_N
};
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", "time", OUT_STR, -8, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -16, 0, 0, 0, 0, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_TID] = { NULL, "tid", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_DISK] = { "DISK", "disk", OUT_STR, -12, 0, 0, 0, 0, NULL },
	/* the queue/ file whose write froze it; '-' (null): no such write */
	[F_ATTR] = { "ATTR", "attr", OUT_STR, -12, 0, 0, 0, 0, "-" },
	[F_FROZEN] = { "FROZEN(ms)", NULL, OUT_DBL, 12, 3, 0, 0, 0, NULL },
	[F_JFROZEN] = { NULL, "frozen_us", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	/* '-' (null): not drained, or not seen */
	[F_DRAIN] = { "DRAIN(ms)", NULL, OUT_DBL, 10, 3, 0, 0, 0, "-" },
	[F_JDRAIN] = { NULL, "drain_us", OUT_UINT, 0, 0, 0, 0, 0, NULL },
	[F_NESTED] = { "NESTED", "nested", OUT_UINT, 6, 0, 0, 1, 0, NULL },
};

void freeze_print_header(FILE *f)
{
	out_head(f, fields, F_N, 0);
}

void freeze_print_record(FILE *f, const struct freeze_event *ev,
			 const char *hms, const char *disk, int json)
{
	char comm[FREEZE_COMM_LEN + 1], attr[FREEZE_ATTR_LEN + 1];
	struct out_val v[F_N] = { 0 };

	snprintf(comm, sizeof(comm), "%.*s", FREEZE_COMM_LEN, ev->comm);
	snprintf(attr, sizeof(attr), "%.*s", FREEZE_ATTR_LEN, ev->attr);
	v[F_TIME].s = hms;
	v[F_COMM].s = comm;
	v[F_PID].u = ev->pid;
	v[F_TID].u = ev->tid;
	v[F_DISK].s = disk;
	v[F_ATTR].s = attr;
	v[F_ATTR].none = !attr[0];
	v[F_FROZEN].d = ms(ev->frozen_ns);
	v[F_JFROZEN].u = ev->frozen_ns / 1000;
	v[F_DRAIN].d = ms(ev->drain_ns);
	v[F_JDRAIN].u = ev->drain_ns / 1000;
	v[F_DRAIN].none = v[F_JDRAIN].none = !ev->drain_ns;
	v[F_NESTED].u = ev->nested;
	out_row_open(f, fields, F_N, 0, v, json);
}

static void print_event(struct freeze_run *r, const struct freeze_event *ev,
			const char *disk, const uint64_t *ips, int nips)
{
	const struct freeze_opts *o = r->o;

	freeze_print_record(stdout, ev, now_hms(), disk, o->json);
	if (o->json) {
		if (!o->no_stack) {
			printf(",\"stack\":");
			stack_json_kernel(stdout, run_ksyms(r), ips, nips);
			if (nips < 0)
				printf(",\"stack_error\":\"%s\"",
				       strerror(-nips));
		}
		printf("}\n");
	} else {
		putchar('\n');
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
	char disk[64], attr[FREEZE_ATTR_LEN + 1];
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
	freeze_stacks_maybe_clear(r, ev.stackid);
	snprintf(attr, sizeof(attr), "%.*s", FREEZE_ATTR_LEN, ev.attr);
	if (freeze_sum_add(&r->sum, disk, attr, ips, nips, ev.frozen_ns,
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
	double now = bb_now_mono();
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
			printf("still frozen at exit: ");
			out_col(stdout, disk, -12);
			printf(" by ");
			out_text(stdout, comm);
			printf(" (pid %u) for %.3f ms\n", st.pid,
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
		TOOL_LONGOPTS,
		{ "disk", required_argument, NULL, 'd' },
		{ "no-stack", no_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ "correlate", no_argument, NULL, 'C' },
		{ 0 }
	};
	uint32_t kdev;
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "hjd:Cv", longopts,
				&v)) > 0) {
		switch (c) {
		case 'd': o->disk = optarg; break;
		case 'C': o->correlate = 1; break;
		case TOOL_OPT_FIRST_OWN: o->no_stack = 1; break;
		}
	}
	if (c < 0)
		return c;
	if (opt_no_args(t, argc, argv))
		return -EINVAL;
	if (o->disk) {
		if (!strncmp(o->disk, "/dev/", 5))
			o->disk += 5;
		if (disk_kdev(o->disk, &kdev) < 0)
			return tool_unknown_disk(t, o->disk);
	}
	return 0;
}

static int freeze_main(int argc, char **argv)
{
	struct freeze_opts o = { 0 };
	struct freeze_run r = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	struct tool_ctx t;
	char **avail = NULL;
	uint64_t lost, v;
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
	n = freeze_find_functions(&t, &avail);
	if (n < 0) {
		n = 0;
		goto out;
	}
	if (freeze_start(&t, &r, on_event, &r, &pb, avail, n) < 0)
		goto out;

	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing blk-mq queue freezes... Hit Ctrl-C to end.\n");
	if (!o.json)
		freeze_print_header(stdout);
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
	print_still_frozen(&r, r.fstate_fd);
	tool_detach_drain(&t, pb, NULL, NULL);
	stats_fd = freeze_stats_fd(&t);
	lost = tool_ring_lost_fd(&t, pb, stats_fd, FREEZE_STAT_EMITTED,
				 r.received, NULL);
	v = 0;
	bpf_map_sum_percpu_u64(stats_fd, FREEZE_STAT_HEALED, &v);
	r.sum.healed = (unsigned long)v;
	v = 0;
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
