/* SPDX-License-Identifier: MIT */
/*
 * barebpf run: load a user's own BPF object (compiled elsewhere with the
 * conventions of bpf/bb_elf.h), attach every program by its section name,
 * run until Ctrl-C or --duration, print perf event output as it comes and
 * the maps' contents at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run_out.h"

static const struct tool_usage help = { NULL, "run" };

static int json;
static unsigned long sample_hz = 49; /* -F */

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	run_print_sample(ctx, cpu, data, size, json);
}

static int read_file(const char *path, void **buf, size_t *len)
{
	struct stat st;
	int fd, ret = 0;
	ssize_t n;

	/* a FIFO blocked open() until a writer came, deaf to SIGINT (no
	 * handler yet): refused before, and opened so that it cannot block
	 * if it becomes one in between */
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	*buf = malloc(st.st_size ? st.st_size : 1);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, *buf, st.st_size);
	if (n != st.st_size)
		ret = n < 0 ? -errno : -EIO;
	close(fd);
	*len = st.st_size;
	return ret;
}

/* Messages name the object file, where tool_open would say "run". */
static int run_open(struct tool_ctx *t, const char *path, const void *buf,
		    size_t len)
{
	struct bb_err err = { "" };
	const char *base = strrchr(path, '/');
	int ret = obj_open(&t->obj, buf, len, base ? base + 1 : path, &err);

	if (ret < 0)
		tool_error(t, "%s", err.msg);
	return ret;
}

/* What the load decided that the user should know. */
static void run_after_load(struct tool_ctx *t, const char *path)
{
	const char *notes = obj_notes(t->obj);
	char caps[256];

	if (t->verbose) {
		kcaps_describe(obj_kcaps(t->obj), caps, sizeof(caps));
		fprintf(stderr, "this kernel: %s\n", caps);
		if (*obj_maps_layout(t->obj))
			fprintf(stderr, "%s: %s\n", path,
				obj_maps_layout(t->obj));
	}
	while (*notes) {
		size_t n = strcspn(notes, "\n");

		fprintf(stderr, "barebpf run: %s: %.*s\n", path, (int)n, notes);
		notes += n + (notes[n] == '\n');
	}
}

/*
 * A perf event array the programs read counters from
 * (bpf_perf_event_read) is not an output ring: leave it alone, and say
 * that nothing opens its counters.
 */
static int run_is_output(struct tool_ctx *t, const struct bb_map *m)
{
	if (!(m->usage & BB_MAP_USE_COUNTERS) || (m->usage & BB_MAP_USE_OUTPUT))
		return 1;
	tool_error(t, "warning: map %s is read with bpf_perf_event_read: its "
		   "hardware or software counters must be opened by the "
		   "program's own loader, which barebpf run does not do "
		   "(unsupported); those reads fail", m->name);
	return 0;
}

/* Every perf_event program on a sampling event of each CPU, at -F. */
static int attach_sampling(struct tool_ctx *t)
{
	struct bb_err err = { "" };
	int i, n, sw = 0;

	for (i = 0; i < obj_nprogs(t->obj); i++) {
		struct bb_prog *pr = obj_prog_at(t->obj, i);

		if (pr->kind != BB_PROG_PERF_EVENT)
			continue;
		n = session_attach_sampling(&t->sess, pr, sample_hz, &sw, &err);
		if (n < 0)
			return tool_fail(t, n, "%s", err.msg);
		if (t->verbose)
			fprintf(stderr, "attached %s to %s at %lu Hz on %d "
				"CPU%s\n", pr->name, sw ? "the software "
				"cpu-clock" : "the hardware cycles event",
				sample_hz, n, n == 1 ? "" : "s");
	}
	return 0;
}

/*
 * Every program at its section's target. What run can tell of the attach
 * rule: a kretprobe closes what the kprobe on the same function opens, so
 * it goes first; of tracepoints it knows nothing (their order is kept).
 */
static int attach_object(struct tool_ctx *t, int maxactive)
{
	int n = obj_nprogs(t->obj), i, j, k = 0, ret;
	struct bb_probe *p = calloc(n > 0 ? n : 1, sizeof(*p));
	struct bb_prog **prog = calloc(n > 0 ? n : 1, sizeof(*prog));

	if (!p || !prog) {
		free(p);
		free(prog);
		return tool_fail(t, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		struct bb_prog *pr = obj_prog_at(t->obj, i);

		/* A tail call's target runs from its slot, not from a hook;
		 * sampling programs have no target (attach_sampling). */
		if (pr->tail_slot >= 0 || pr->kind == BB_PROG_PERF_EVENT)
			continue;
		prog[k] = pr;
		p[k].prog = pr->name;
		if (pr->kind == BB_PROG_KRETPROBE) {
			p[k].maxactive = maxactive;
			p[k].closes = pr->target;
		}
		for (j = 0; pr->kind == BB_PROG_KPROBE && j < n; j++)
			if (obj_prog_at(t->obj, j)->kind == BB_PROG_KRETPROBE &&
			    !strcmp(obj_prog_at(t->obj, j)->target, pr->target))
				p[k].opens = pr->target;
		k++;
	}
	ret = tool_attach_probes(t, p, k);
	if (ret >= 0)
		ret = attach_sampling(t);
	if (ret >= 0 && t->verbose)
		for (i = 0; i < k; i++)
			if (p[i].attached)
				fprintf(stderr, "attached %s to %s\n", p[i].prog,
					prog[i]->section);
	free(p);
	free(prog);
	return ret;
}

/* -c NAME=NUMBER, each: a constant or a variable of .rodata or .data. */
static int set_consts(struct tool_ctx *t, const char *path, char **consts,
		      int n)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		char *eq = strchr(consts[i], '=');
		unsigned long v;

		if (!eq || eq == consts[i] || parse_ulong(eq + 1, &v) < 0)
			return tool_fail(t, -EINVAL,
					 "-c wants NAME=NUMBER, not '%s'",
					 consts[i]);
		*eq = 0;
		ret = obj_set_const(t->obj, consts[i], v);
		if (ret == -ERANGE)
			return tool_fail(t, ret,
					 "%s: %lu does not fit variable "
					 "'%s'", path, v, consts[i]);
		if (ret < 0)
			return tool_fail(t, ret,
					 "%s: no program uses a constant "
					 "named '%s', and no variable of "
					 ".rodata or .data has that name",
					 path, consts[i]);
	}
	return 0;
}

/* Every program says where it attaches; *need_kp: 1 if some are kprobes,
 * | 2 if some are uprobes. */
static int check_targets(struct tool_ctx *t, int *need_kp)
{
	int i;

	for (i = 0; i < obj_nprogs(t->obj); i++) {
		struct bb_prog *p = obj_prog_at(t->obj, i);

		if (p->kind == BB_PROG_UPROBE || p->kind == BB_PROG_URETPROBE)
			*need_kp |= 2;
		else if (p->kind != BB_PROG_TRACEPOINT &&
			 p->kind != BB_PROG_PERF_EVENT)
			*need_kp |= 1;
		if (p->kind == BB_PROG_PERF_EVENT)
			continue;
		if (!*p->target && p->tail_slot < 0)
			return tool_fail(t, -EINVAL,
					 "program %s is in section '%s', "
					 "which does not say where to attach: "
					 "name the section kprobe/<function>, "
					 "kretprobe/<function> or "
					 "tracepoint/<category>/<event>",
					 p->name, p->section);
	}
	return 0;
}

/* The ring of the one perf event array that is output; the others are
 * left unread, said. */
static int open_rings(struct tool_ctx *t, struct bb_perfbuf **pb)
{
	int i;

	for (i = 0; i < obj_nmaps(t->obj); i++) {
		struct bb_map *m = obj_map_at(t->obj, i);

		if (m->def.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		if (!run_is_output(t, m)) {
			tool_ring_unread(t, m->fd);
			continue;
		}
		if (*pb) {
			tool_error(t, "only one perf event array is read; "
				   "map %s is ignored", m->name);
			tool_ring_unread(t, m->fd);
			continue;
		}
		if (tool_ring(t, m->fd, 64, on_sample, m, pb) < 0)
			return -1;
	}
	return 0;
}

/* Relay until duration (0: a signal) ends it, then stop the programs
 * and print the maps. */
static void run_loop(struct tool_ctx *t, struct bb_perfbuf *pb,
		     struct run_printk *printk, double duration)
{
	double end = duration > 0 ? bb_now_mono() + duration : 0;

	while (!bb_stop && (!end || bb_now_mono() < end)) {
		double left = end ? end - bb_now_mono() : 1;

		if (left > 1)
			left = 1;
		if (printk && left > 0.1)
			left = 0.1;
		run_printk_poll(printk, json);
		if (pb)
			perfbuf_poll(pb, (int)(left * 1000) + 1);
		else
			tool_sleep(left);
		tool_flush();
	}
	/* The programs stop before the maps are read, so that they are
	 * printed as of one moment (a counter in two maps counts alike),
	 * and the ring's last samples are read. */
	if (pb)
		tool_detach_drain(t, pb, NULL, NULL);
	else
		tool_detach(t);
	if (pb && perfbuf_lost(pb))
		tool_error(t, "warning: %llu samples lost (the reader fell "
			   "behind)", (unsigned long long)perfbuf_lost(pb));
	run_printk_poll(printk, json);
	run_print_maps(t->obj, json);
}

static int run_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ "const", required_argument, NULL, 'c' },
		TOOL_LONGOPT_MAXACTIVE,
		{ "frequency", required_argument, NULL, 'F' },
		{ 0 }
	};
	struct bb_perfbuf *pb = NULL;
	struct run_printk *printk = NULL;
	struct tool_ctx t;
	char **consts = NULL;
	int nconsts = 0, c, ret = 1, need_kp = 0;
	unsigned long maxactive = 128;
	double duration = 0;
	void *buf = NULL;
	size_t len = 0;

	tool_init(&t, "run");
	while ((c = getopt_long(argc, argv, "hjc:d:M:F:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			consts = realloc(consts, (nconsts + 1) * sizeof(*consts));
			if (!consts) {
				tool_error(&t, "out of memory");
				return 1;
			}
			consts[nconsts++] = optarg;
			break;
		case 'd':
			if (opt_seconds(&t, "-d", optarg, &duration))
				return 1;
			break;
		case 'M':
			if (opt_maxactive(&t, optarg, &maxactive))
				return 1;
			break;
		case 'F':
			if (opt_count(&t, "-F", "Hertz", optarg, &sample_hz))
				return 1;
			if (sample_hz > 1000000) {
				tool_error(&t, "-F %lu: more than a million "
					   "samples a second", sample_hz);
				return 1;
			}
			break;
		default:
			if (tool_opt(&t, c, &help, &json, &duration))
				return 1;
			break;
		}
	}
	if (optind != argc - 1) {
		free(consts);
		tool_error(&t, "one BPF object file is needed");
		tool_see_help(&t);
		return 1;
	}
	ret = read_file(argv[optind], &buf, &len);
	if (ret < 0) {
		tool_error(&t, "cannot read '%s': %s", argv[optind],
			   ret == -EINVAL ? "not a regular file" : strerror(-ret));
		ret = 1;
		goto out_free;
	}
	ret = 1;
	tool_signals();
	if (run_open(&t, argv[optind], buf, len) < 0)
		goto out_free;
	if (set_consts(&t, argv[optind], consts, nconsts) < 0 ||
	    check_targets(&t, &need_kp) < 0)
		goto out;
	if ((need_kp & 1) && tool_need_kprobes(&t) < 0)
		goto out;
	if ((need_kp & 2) && tool_need_uprobes(&t, 0) < 0)
		goto out;
	if (tool_load(&t) < 0)
		goto out;
	run_after_load(&t, argv[optind]);
	if (open_rings(&t, &pb) < 0)
		goto out;
	/* The relay opens before the attach: a first line is not lost. */
	if (obj_uses_printk(t.obj))
		printk = run_printk_open(&t, tool_tracefs(&t));
	if (attach_object(&t, (int)maxactive) < 0)
		goto out;
	tool_tracing(&t, stderr, "Running %d program(s) from %s... Hit Ctrl-C "
		     "to end.\n", obj_nprogs(t.obj), argv[optind]);
	run_loop(&t, pb, printk, duration);
	ret = 0;
out:
	run_printk_close(printk);
	perfbuf_close(pb);
	tool_cleanup(&t);
out_free:
	free(buf);
	free(consts);
	return ret;
}

const struct tool tool_run = {
	"run", run_main,
	"load and attach your own BPF object (kprobe/, uprobe/, tracepoint/, ...)"
};
