/* SPDX-License-Identifier: MIT */
/*
 * barebpf trace: one line per call of kernel functions or tracepoints, with
 * kernel (-K) and user (-U) stacks, in bcc trace's format:
 *
 *   PID     TID     COMM            FUNC
 *   3809642 3809642 systemd-udevd   blk_freeze_queue
 *           blk_freeze_queue+0x1 [kernel]
 *           elevator_switch+0x29 [kernel]
 *           ...
 *           __write_nocancel+0x7 [libc.so.6]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "../../bpf/trace.h"

EMBEDDED_OBJ(trace);

#define TRACE_MAX_PROBES 64
/* one kprobe each: bcc's funccount stops at 1000 too */
#define TRACE_MAX_FUNCS 1000
#define TRACE_PAGES_PER_CPU 64
#define INDENT "        "

static const char usage[] =
"usage: barebpf trace [-h] [-K] [-U] [-p PID] [-d DISK] [-j]\n"
"                     [--duration SECS] [-M MAXEVENTS] probe [probe ...]\n"
"\n"
"Print one line per call of kernel functions or tracepoints, optionally\n"
"with the kernel and user stacks of the caller (bcc trace's output).\n"
"\n"
"positional arguments:\n"
"  probe                 a kernel function: NAME, p:NAME or p::NAME (bcc's\n"
"                        syntax), or a glob over available_filter_functions\n"
"                        ('blk_*freeze*'); needs kprobes (see `barebpf\n"
"                        features`).\n"
"                        a tracepoint: t:CATEGORY:EVENT (at most 8)\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -K, --kernel-stack    print the kernel stack of each call\n"
"  -U, --user-stack      print the user stack of each call (symbols from the\n"
"                        process's ELF symbol tables; the program must keep\n"
"                        frame pointers for more than its first frames)\n"
"  -p, --pid PID         trace this process (thread group) only\n"
"  -d, --disk DISK       only calls by tasks whose latest bio went to DISK\n"
"                        (learned from the block_bio_queue tracepoint)\n"
"  -j, --json            one JSON object per call\n"
"      --duration SECS   stop after this many seconds\n"
"  -M, --max-events N    stop after printing N calls\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf trace -K blk_freeze_queue_start   # who freezes block queues\n"
"  barebpf trace -K -U do_sys_open           # with kernel and user stacks\n"
"  barebpf trace -p 181 vfs_read vfs_write   # two functions, one process\n"
"  barebpf trace -K -d sdb generic_make_request  # submissions to sdb\n"
"  barebpf trace -U t:syscalls:sys_enter_getppid\n"
"  barebpf trace -M 10 -K t:block:block_rq_issue\n";

struct trace_probe {
	const char *arg;
	int is_tp;
	char target[128]; /* function (or glob), or "category/event" */
	const char *event; /* tracepoint: what FUNC shows */
};

struct trace_opts {
	unsigned long pid, max_events;
	const char *disk;
	uint32_t kdev;
	double duration;
	int kstack, ustack, json;
	struct trace_probe probes[TRACE_MAX_PROBES];
	int nprobes, ntp;
};

/* What the event callback needs. */
struct trace_run {
	const struct trace_opts *o;
	struct bb_ksyms *ks;
	struct bb_usyms *us;
	/* the two stack maps used in turn (trace.h), the one in use, its
	 * stack ids seen, whether it fills, and when it last changed */
	int stacks_fd[2], gen_fd;
	uint32_t gen;
	unsigned char seen[TRACE_STACK_ENTRIES / 8];
	int nseen, collisions, full, drains;
	double switched;
	char **funcs; /* the kernel functions attached */
	int nfuncs;
	const char *tp_event[TRACE_TP_SLOTS];
	uint64_t received, printed;
	int done;
};

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* NAME | p:NAME | p::NAME | t:CAT:EVENT */
static int parse_probe(struct tool_ctx *t, struct trace_probe *p,
		       const char *arg)
{
	const char *fn = arg, *colon;

	p->arg = arg;
	if (strpbrk(arg, " \t\"(")) /* bcc: 'func "fmt", arg1' */
		return tool_error(t, "'%s': arguments and format strings are "
				  "not supported; give only the probe", arg);
	if (!strncmp(arg, "t:", 2)) {
		const char *cat = arg + 2, *ev = strchr(cat, ':');

		if (!ev || ev == cat || !ev[1] || strchr(ev + 1, ':') ||
		    strlen(arg) >= sizeof(p->target))
			return tool_error(t, "'%s': a tracepoint is "
					  "t:CATEGORY:EVENT", arg);
		p->is_tp = 1;
		snprintf(p->target, sizeof(p->target), "%.*s/%s",
			 (int)(ev - cat), cat, ev + 1);
		p->event = ev + 1;
		return 0;
	}
	if (!strncmp(arg, "p:", 2)) {
		fn = arg + 2;
		colon = strchr(fn, ':');
		if (colon) {
			if (colon != fn)
				return tool_error(t, "'%s': user-space probes "
						  "(uprobes) are not supported; "
						  "kernel functions are p::NAME "
						  "or NAME", arg);
			fn = colon + 1;
		}
	} else if (strlen(arg) > 1 && arg[1] == ':') {
		return tool_error(t, "'%s': only p: (kernel function) and t: "
				  "(tracepoint) probes are supported", arg);
	}
	if (!*fn || strchr(fn, ':') || strlen(fn) >= sizeof(p->target))
		return tool_error(t, "'%s' is not a kernel function name", arg);
	snprintf(p->target, sizeof(p->target), "%s", fn);
	return 0;
}

static int parse_args(struct tool_ctx *t, struct trace_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "kernel-stack", no_argument, NULL, 'K' },
		{ "user-stack", no_argument, NULL, 'U' },
		{ "pid", required_argument, NULL, 'p' },
		{ "disk", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "duration", required_argument, NULL, 3 },
		{ "max-events", required_argument, NULL, 'M' },
		{ "kern-version", required_argument, NULL, 2 },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 }
	};
	int c, i, j;

	while ((c = getopt_long(argc, argv, "hKUp:d:jM:v", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); exit(0);
		case 'K': o->kstack = 1; break;
		case 'U': o->ustack = 1; break;
		case 'p':
			if (parse_ulong(optarg, &o->pid) < 0 || !o->pid ||
			    o->pid > 0x7fffffff)
				return tool_error(t, "-p needs a process id, "
						  "not '%s'", optarg);
			break;
		case 'd': o->disk = optarg; break;
		case 'j': o->json = 1; break;
		case 3:
			if (opt_seconds(t, "--duration", optarg, &o->duration))
				return 1;
			break;
		case 'M':
			if (parse_ulong(optarg, &o->max_events) < 0 ||
			    !o->max_events)
				return tool_error(t, "-M needs a number of "
						  "events > 0, not '%s'", optarg);
			break;
		case 2: t->kver_override = optarg; break;
		case 'v': t->verbose = 1; break;
		default:
			fputs(usage, stderr);
			return 1;
		}
	}
	if (o->disk && disk_kdev(o->disk, &o->kdev) < 0)
		return tool_unknown_disk(t, o->disk);
	if (optind >= argc) {
		fputs(usage, stderr);
		return tool_error(t, "a probe is needed (a kernel function or "
				  "t:CATEGORY:EVENT)");
	}
	if (argc - optind > TRACE_MAX_PROBES)
		return tool_error(t, "at most %d probes", TRACE_MAX_PROBES);
	for (i = optind; i < argc; i++) {
		struct trace_probe *p = &o->probes[o->nprobes];

		if (parse_probe(t, p, argv[i]))
			return 1;
		for (j = 0; j < o->nprobes; j++)
			if (o->probes[j].is_tp == p->is_tp &&
			    !strcmp(o->probes[j].target, p->target))
				return tool_error(t, "'%s' is given twice",
						  argv[i]);
		o->ntp += p->is_tp;
		o->nprobes++;
	}
	if (o->ntp > TRACE_TP_SLOTS)
		return tool_error(t, "at most %d tracepoints at once",
				  TRACE_TP_SLOTS);
	return 0;
}

/* Every kernel function to probe: the names as given, globs expanded. */
static int find_functions(struct tool_ctx *t, const struct trace_opts *o,
			  char ***namesp)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	char **names = NULL, **m;
	int n = 0, i, k, nm;

	*namesp = NULL;
	if (!tfs)
		return -1;
	for (i = 0; i < o->nprobes; i++) {
		const struct trace_probe *p = &o->probes[i];
		char **nn;

		if (p->is_tp)
			continue;
		if (is_glob(p->target)) {
			nm = kprobe_match(tfs, p->target, &m, &err);
			if (nm < 0) {
				tool_error(t, "%s", err.msg);
				goto err;
			}
			if (!nm) {
				free(m);
				tool_error(t, "no kernel function matches '%s' "
					   "in %s/available_filter_functions",
					   p->target, tfs);
				goto err;
			}
		} else {
			m = malloc(sizeof(*m));
			if (!m || !(m[0] = strdup(p->target))) {
				free(m);
				tool_error(t, "out of memory");
				goto err;
			}
			nm = 1;
		}
		nn = n + nm <= TRACE_MAX_FUNCS ?
			realloc(names, (n + nm) * sizeof(*names)) : NULL;
		if (!nn) {
			bb_free_strv(m, nm);
			tool_error(t, "more than %d functions to probe: narrow "
				   "the patterns", TRACE_MAX_FUNCS);
			goto err;
		}
		names = nn;
		/* a glob may match a function named elsewhere too */
		for (k = 0; k < nm; k++) {
			int j, dup = 0;

			for (j = 0; j < n && !dup; j++)
				dup = !strcmp(names[j], m[k]);
			if (dup)
				free(m[k]);
			else
				names[n++] = m[k];
		}
		free(m);
	}
	*namesp = names;
	return n;

err:
	bb_free_strv(names, n);
	return -1;
}

/* FUNC of a kprobe event: the function regs->ip is in (x86 reports the
 * probed address + 1, the int3 that trapped; kprobes through ftrace fake
 * the same). */
static const char *kfunc_name(const struct trace_run *r, uint64_t ip,
			      char *buf, size_t len)
{
	const struct bb_ksym *s;

	if (r->nfuncs == 1)
		return r->funcs[0];
	s = r->ks ? ksyms_find(r->ks, ip, NULL) : NULL;
	if (s)
		return s->name;
	snprintf(buf, len, "0x%llx", (unsigned long long)ip);
	return buf;
}

static const char *stack_error(int id)
{
	switch (id) {
	case -EEXIST:
		return "another stack holds its slot of the stack map (hash "
		       "collision)";
	case -ENOMEM:
		return "the stack map is full";
	case -EFAULT:
		return "no stack could be read";
	default:
		return strerror(-id);
	}
}

/* The depth of stack id, or -errno (the id itself when BPF failed). A user
 * stack of -EFAULT means the task has no user space (a kernel thread). */
static int read_stack(const struct trace_run *r, const struct trace_event *e,
		      int id, uint64_t *ips)
{
	return stack_read(r->stacks_fd[e->stack_map & 1], id, ips,
			  BB_MAX_STACK);
}

/*
 * Does the map in use fill? Its buckets taken (the stack ids seen): half
 * of them, where half of the new stacks collide. Collisions themselves
 * come early (two of 4096 buckets meet after about 80 stacks), so only
 * many of them count.
 */
static void stack_seen(struct trace_run *r, const struct trace_event *e,
		       int id)
{
	if ((e->stack_map & 1) != r->gen)
		return;
	if (id == -EEXIST) {
		if (++r->collisions >= TRACE_STACK_ENTRIES / 8)
			r->full = 1;
	} else if (id >= 0 && id < TRACE_STACK_ENTRIES &&
		   !(r->seen[id / 8] & (1 << (id % 8)))) {
		r->seen[id / 8] |= 1 << (id % 8);
		if (++r->nseen >= TRACE_STACK_ENTRIES / 2)
			r->full = 1;
	}
}

/*
 * Between drains, once the map in use fills: empty the other one and
 * switch to it. The other one's events were all sent before the last
 * switch; a whole drain begun since (two tool_wait calls, each draining
 * every ring) has read them. At most once a second.
 */
static void stack_maps_turn(struct trace_run *r, struct tool_ctx *t)
{
	uint32_t zero = 0, next = r->gen ^ 1;
	double now = now_mono();

	r->drains++;
	if (!r->full || r->drains < 2 || now - r->switched < 1)
		return;
	stack_map_clear(r->stacks_fd[next], TRACE_STACK_ENTRIES);
	if (bpf_map_update_elem(r->gen_fd, &zero, &next, BPF_ANY) < 0)
		return;
	if (t->verbose)
		fprintf(stderr, "stack map %u filled (%d stacks, %d "
			"collisions): now map %u\n", r->gen, r->nseen,
			r->collisions, next);
	r->gen = next;
	memset(r->seen, 0, sizeof(r->seen));
	r->nseen = r->collisions = r->full = r->drains = 0;
	r->switched = now;
}

static int read_kstack(const struct trace_run *r, const struct trace_event *e,
		       uint64_t *ips)
{
	return stack_add_entry_ret(ips, read_stack(r, e, e->kstack, ips),
				   BB_MAX_STACK, e->entry_ret);
}

static void print_text(struct trace_run *r, const struct trace_event *e,
		       const char *comm, const char *func)
{
	uint64_t ips[BB_MAX_STACK];
	int n;

	printf("%-7u %-7u %-15s %s\n", e->tgid, e->tid, comm, func);
	if (r->o->kstack) {
		n = read_kstack(r, e, ips);
		if (n >= 0)
			stack_print_kernel(stdout, r->ks, ips, n, INDENT);
		else
			printf(INDENT "[no kernel stack: %s]\n", stack_error(n));
	}
	if (r->o->ustack && e->ustack != -EFAULT) {
		n = read_stack(r, e, e->ustack, ips);
		if (n >= 0)
			stack_print_user(stdout, r->us, e->tgid, ips, n, INDENT);
		else
			printf(INDENT "[no user stack: %s]\n", stack_error(n));
	}
	if (r->o->kstack || r->o->ustack)
		putchar('\n');
}

static void print_json(struct trace_run *r, const struct trace_event *e,
		       const char *comm, const char *func)
{
	uint64_t ips[BB_MAX_STACK];
	int n;

	printf("{\"pid\":%u,\"tid\":%u,\"comm\":", e->tgid, e->tid);
	json_str(stdout, comm);
	printf(",\"func\":");
	json_str(stdout, func);
	if (r->o->kstack) {
		printf(",\"kstack\":");
		n = read_kstack(r, e, ips);
		if (n >= 0)
			stack_json_kernel(stdout, r->ks, ips, n);
		else
			json_str(stdout, stack_error(n));
	}
	if (r->o->ustack) {
		printf(",\"ustack\":");
		n = e->ustack == -EFAULT ? 0 : read_stack(r, e, e->ustack, ips);
		if (n >= 0)
			stack_json_user(stdout, r->us, e->tgid, ips, n);
		else
			json_str(stdout, stack_error(n));
	}
	printf("}\n");
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct trace_run *r = ctx;
	struct trace_event e;
	char comm[TRACE_COMM_LEN + 1], buf[32];
	const char *func;

	(void)cpu;
	/* the raw sample is padded to 8 bytes: at least our record */
	if (size < sizeof(e))
		return;
	memcpy(&e, data, sizeof(e));
	r->received++;
	if (r->done)
		return;
	/* Its maps now: it may be gone by the time a later event of it, or
	 * this one's stack, is printed. */
	if (r->us && e.ustack >= 0)
		usyms_add_pid(r->us, (int)e.tgid);
	if (r->o->kstack)
		stack_seen(r, &e, e.kstack);
	if (r->o->ustack)
		stack_seen(r, &e, e.ustack);
	memcpy(comm, e.comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = 0;
	if (e.probe == TRACE_PROBE_KPROBE)
		func = kfunc_name(r, e.ip, buf, sizeof(buf));
	else if (e.probe < TRACE_TP_SLOTS && r->tp_event[e.probe])
		func = r->tp_event[e.probe];
	else
		func = "?";
	if (r->o->json)
		print_json(r, &e, comm, func);
	else
		print_text(r, &e, comm, func);
	r->printed++;
	tool_output_failed();
	if (r->o->max_events && r->printed >= r->o->max_events)
		r->done = 1;
}

/* Events the programs sent (a per-CPU counter): 0 or -errno. */
static int count_emitted(struct tool_ctx *t, uint64_t *emitted)
{
	struct bb_map *m = obj_map(t->obj, "counters");

	*emitted = 0;
	return m ? bpf_map_sum_percpu_u64(m->fd, TRACE_CNT_EMITTED, emitted)
		 : -ENOENT;
}

/* Calls the kernel did not run our programs for (see
 * bpf_prog_recursion_misses): never sent, so never counted as emitted. */
static uint64_t count_skipped(struct tool_ctx *t)
{
	uint64_t sum = 0, n;
	int i;

	for (i = 0; i < obj_nprogs(t->obj); i++) {
		struct bb_prog *p = obj_prog_at(t->obj, i);

		if (p->fd >= 0 && bpf_prog_recursion_misses(p->fd, &n) == 0)
			sum += n;
	}
	return sum;
}

/*
 * Every call is printed, or counted here: sent but not received (the ring
 * was full: the kernel's own count of lost records shows only once a later
 * record fits, the program's count does not wait), or never sent because
 * the kernel skipped the program.
 */
static void report_losses(struct tool_ctx *t, const struct trace_run *r,
			  struct bb_perfbuf *pb)
{
	uint64_t emitted, lost, skipped = count_skipped(t);
	int ret = count_emitted(t, &emitted);

	if (ret < 0) {
		tool_error(t, "warning: cannot read how many events were sent "
			   "(%s): only the losses the kernel reported count",
			   strerror(-ret));
		emitted = r->received;
	}
	lost = emitted > r->received ? emitted - r->received : 0;
	if (perfbuf_lost(pb) > lost)
		lost = perfbuf_lost(pb);
	if (t->verbose)
		fprintf(stderr, "events: %llu sent, %llu received, %llu "
			"printed, %llu reported lost by the kernel, %llu "
			"skipped\n", (unsigned long long)emitted,
			(unsigned long long)r->received,
			(unsigned long long)r->printed,
			(unsigned long long)perfbuf_lost(pb),
			(unsigned long long)skipped);
	if (lost)
		tool_error(t, "warning: %llu event(s) lost: the perf buffer "
			   "was full (output too slow for the event rate)",
			   (unsigned long long)lost);
	if (skipped)
		tool_error(t, "warning: %llu event(s) not seen: the kernel "
			   "skipped our program because another BPF program "
			   "was running on that CPU", (unsigned long long)skipped);
}

/* Every function and tracepoint; with -d the programs read the disk that
 * block_bio_queue leaves (taskdev.h), so that one goes last. */
static int attach_all(struct tool_ctx *t, struct trace_run *r)
{
	static const char *const tp_progs[TRACE_TP_SLOTS] = {
		"trace_tp0", "trace_tp1", "trace_tp2", "trace_tp3",
		"trace_tp4", "trace_tp5", "trace_tp6", "trace_tp7",
	};
	const char *needs = r->o->disk ? "taskdev" : NULL;
	struct bb_probe *p;
	int i, n = 0, slot = 0, ret;

	p = calloc(r->nfuncs + r->o->nprobes + 1, sizeof(*p));
	if (!p)
		return tool_error(t, "out of memory"), -ENOMEM;
	for (i = 0; i < r->nfuncs; i++)
		p[n++] = (struct bb_probe){ "trace_kprobe", r->funcs[i], 0,
					    NULL, needs, 0, 0 };
	for (i = 0; i < r->o->nprobes; i++) {
		const struct trace_probe *tp = &r->o->probes[i];

		if (!tp->is_tp)
			continue;
		p[n++] = (struct bb_probe){ tp_progs[slot], tp->target, 0,
					    NULL, needs, 0, 0 };
		r->tp_event[slot++] = tp->event;
	}
	if (r->o->disk)
		p[n++] = (struct bb_probe){ "taskdev_bio_queue", NULL, 0,
					    "taskdev", NULL, 0, 0 };
	ret = tool_attach_probes(t, p, n);
	if (ret == -EMFILE || ret == -ENFILE)
		tool_error(t, "%d functions take about %d file descriptors, "
			   "more than this process may open (raise `ulimit "
			   "-n`, or narrow the patterns)", r->nfuncs,
			   r->nfuncs + 64);
	free(p);
	return ret;
}

static int trace_main(int argc, char **argv)
{
	static struct trace_opts o; /* 8 KiB of probes: not on the stack */
	struct trace_run r;
	struct tool_ctx t;
	struct bb_err err = { "" };
	struct bb_perfbuf *pb = NULL;
	struct tool_timer tm;
	int ret = 1, nfuncs;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	r.o = &o;
	tool_init(&t, "trace");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	tool_signals();
	if (o.nprobes > o.ntp) {
		if (tool_need_kprobes(&t) < 0)
			goto out;
		nfuncs = find_functions(&t, &o, &r.funcs);
		if (nfuncs < 0)
			goto out;
		r.nfuncs = nfuncs;
	}
	if (tool_open(&t, EMBEDDED_ARGS(trace)) < 0)
		goto out;
	obj_set_const(t.obj, "filter_tgid", o.pid);
	obj_set_const(t.obj, "kstack", o.kstack);
	obj_set_const(t.obj, "ustack", o.ustack);
	obj_set_const(t.obj, "filter_dev", o.kdev);
	if (o.disk) {
		if (tool_tp_offset(&t, "block", "block_bio_queue", "dev",
				   "tpoff_bio_queue_dev") < 0)
			goto out;
	} else {
		obj_set_const(t.obj, "tpoff_bio_queue_dev", 0);
	}
	if (!o.kstack && !o.ustack) {
		/* 2 x 4 MB of kernel memory for nothing */
		obj_map(t.obj, "stacks")->def.max_entries = 1;
		obj_map(t.obj, "stacks1")->def.max_entries = 1;
	}
	if (tool_load(&t) < 0)
		goto out;
	r.stacks_fd[0] = obj_map(t.obj, "stacks")->fd;
	r.stacks_fd[1] = obj_map(t.obj, "stacks1")->fd;
	r.gen_fd = obj_map(t.obj, "stack_gen")->fd;
	r.switched = now_mono();
	/* kallsyms names the functions of kprobe events and kernel frames */
	if (o.kstack || r.nfuncs > 1) {
		if (ksyms_load(&r.ks, "/proc/kallsyms", &err) < 0) {
			tool_error(&t, "%s", err.msg);
			goto out;
		}
	}
	if (o.ustack) {
		if (usyms_new(&r.us) < 0) {
			tool_error(&t, "out of memory");
			goto out;
		}
		if (o.pid) /* while it surely lives */
			usyms_add_pid(r.us, (int)o.pid);
	}
	if (tool_ring(&t, "events", TRACE_PAGES_PER_CPU, on_event, &r,
		      &pb) < 0 ||
	    attach_all(&t, &r) < 0)
		goto out;

	tool_tracing(&t, stderr, "Tracing %d probe%s... Hit Ctrl-C to end.\n",
		     r.nfuncs + o.ntp, r.nfuncs + o.ntp == 1 ? "" : "s");
	if (!o.json)
		printf("%-7s %-7s %-15s %s\n", "PID", "TID", "COMM", "FUNC");
	fflush(stdout);
	tool_timer_init(&tm, 0, o.duration);
	while (!r.done) {
		int tick = tool_wait(&tm, pb);

		if (tick == TOOL_TICK_LAST)
			break;
		if (o.kstack || o.ustack)
			stack_maps_turn(&r, &t);
	}

	/* Stop the sources, then take what is still in the rings: a count
	 * of lost records is only written once a later record fits. */
	tool_detach(&t);
	perfbuf_poll(pb, 0);
	/* a program still running on another CPU: close() does not wait */
	perfbuf_poll(pb, 50);
	tool_flush();
	report_losses(&t, &r, pb);
	ret = 0;
out:
	tool_cleanup(&t);
	perfbuf_close(pb);
	bb_free_strv(r.funcs, r.nfuncs);
	ksyms_free(r.ks);
	usyms_free(r.us);
	return ret;
}

const struct tool tool_trace = {
	"trace", trace_main,
	"one line per call, with kernel/user stacks (bcc's trace -K -U)"
};
