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
#include "tool.h"

static const char usage[] =
"usage: barebpf run [-h] [-c NAME=VALUE]... [-d SECONDS] [-M MAXACTIVE]\n"
"                   [--kern-version V] [-v] object.o\n"
"\n"
"Load a BPF ELF object and attach each of its programs by section name:\n"
"  kprobe/<function>  kretprobe/<function>  tracepoint/<category>/<event>\n"
"Maps come from a \"maps\" section of struct bb_map_def (see bpf/bb_elf.h in\n"
"the barebpf sources); relocations against undefined symbols are load-time\n"
"constants, set with -c. Compile with:\n"
"  clang -target bpf -O2 -mcpu=v2 -c prog.bpf.c -o prog.o\n"
"Samples a program writes to a BPF_MAP_TYPE_PERF_EVENT_ARRAY map are\n"
"printed in hex as they arrive; every other map is printed at exit.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -c, --const NAME=VAL  set the load-time constant NAME (repeatable)\n"
"  -d, --duration SECS   exit after this many seconds\n"
"  -M, --maxactive N     kretprobe instances per probe (default 128)\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"  -v, --verbose         say what was detected and attached\n";

static void print_hex(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x%s", p[i], i + 1 < n ? " " : "");
}

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)ctx;
	printf("cpu %d: ", cpu);
	print_hex(data, size);
	putchar('\n');
}

static void dump_map(const struct bb_map *m)
{
	unsigned char *key, *next, *val;
	int ncpus = bb_ncpus_possible(), percpu, first = 1;
	size_t vsize;

	if (m->def.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	    m->def.type == BPF_MAP_TYPE_PROG_ARRAY)
		return;
	percpu = m->def.type == BPF_MAP_TYPE_PERCPU_HASH ||
		 m->def.type == BPF_MAP_TYPE_PERCPU_ARRAY ||
		 m->def.type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	/* per-CPU values come as one 8-byte-aligned slot per possible CPU */
	vsize = percpu ? ((m->def.value_size + 7) & ~7u) * (ncpus > 0 ? ncpus : 1)
		       : m->def.value_size;
	key = calloc(1, m->def.key_size);
	next = calloc(1, m->def.key_size);
	val = calloc(1, vsize);
	if (!key || !next || !val)
		goto out;
	printf("map %s:\n", m->name);
	while (bpf_map_get_next_key(m->fd, first ? NULL : key, next) == 0) {
		first = 0;
		memcpy(key, next, m->def.key_size);
		if (bpf_map_lookup_elem(m->fd, key, val) < 0)
			continue;
		printf("  ");
		print_hex(key, m->def.key_size);
		printf(" : ");
		print_hex(val, vsize);
		putchar('\n');
	}
out:
	free(key);
	free(next);
	free(val);
}

static int read_file(const char *path, void **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	ssize_t n;

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

static int run_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "const", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "maxactive", required_argument, NULL, 'M' },
		{ "kern-version", required_argument, NULL, 2 },
		{ "verbose", no_argument, NULL, 'v' },
		{ 0 }
	};
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	char **consts = NULL;
	int nconsts = 0, c, i, ret = 1, need_kp = 0;
	unsigned long maxactive = 128;
	double duration = 0, end;
	void *buf = NULL;
	size_t len = 0;

	tool_init(&t, "run");
	while ((c = getopt_long(argc, argv, "hc:d:M:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); return 0;
		case 'c':
			consts = realloc(consts, (nconsts + 1) * sizeof(*consts));
			if (!consts)
				return tool_error(&t, "out of memory");
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
		case 2: t.kver_override = optarg; break;
		case 'v': t.verbose = 1; break;
		default: fputs(usage, stderr); return 1;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		free(consts);
		return tool_error(&t, "one BPF object file is needed");
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
	if (tool_open(&t, buf, len) < 0)
		goto out_free;
	for (i = 0; i < nconsts; i++) {
		char *eq = strchr(consts[i], '=');
		unsigned long v;

		if (!eq || eq == consts[i] || parse_ulong(eq + 1, &v) < 0) {
			tool_error(&t, "-c wants NAME=NUMBER, not '%s'", consts[i]);
			goto out;
		}
		*eq = 0;
		if (obj_set_const(t.obj, consts[i], v) < 0) {
			tool_error(&t, "no program in %s uses a constant named "
				   "'%s'", argv[optind], consts[i]);
			goto out;
		}
	}
	for (i = 0; i < obj_nprogs(t.obj); i++) {
		struct bb_prog *p = obj_prog_at(t.obj, i);

		if (p->kind != BB_PROG_TRACEPOINT)
			need_kp = 1;
		if (!*p->target) {
			tool_error(&t, "program %s is in section '%s', which "
				   "does not say where to attach: name the "
				   "section kprobe/<function>, "
				   "kretprobe/<function> or "
				   "tracepoint/<category>/<event>",
				   p->name, p->section);
			goto out;
		}
	}
	if (need_kp && tool_need_kprobes(&t) < 0)
		goto out;
	if (tool_load(&t) < 0)
		goto out;
	for (i = 0; i < obj_nprogs(t.obj); i++) {
		struct bb_prog *p = obj_prog_at(t.obj, i);

		if (tool_attach(&t, p->name, NULL, p->kind == BB_PROG_KRETPROBE ?
				(int)maxactive : 0) < 0)
			goto out;
		if (t.verbose)
			fprintf(stderr, "attached %s to %s\n", p->name,
				p->section);
	}
	for (i = 0; i < obj_nmaps(t.obj); i++) {
		struct bb_map *m = obj_map_at(t.obj, i);
		struct bb_err err = { "" };

		if (m->def.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		if (pb) {
			tool_error(&t, "only one perf event array is read; "
				   "map %s is ignored", m->name);
			continue;
		}
		if (perfbuf_open(&pb, m->fd, 64, on_sample, NULL, &err) < 0) {
			tool_error(&t, "%s", err.msg);
			goto out;
		}
	}
	fprintf(stderr, "Running %d program(s) from %s... Hit Ctrl-C to end.\n",
		obj_nprogs(t.obj), argv[optind]);
	end = duration > 0 ? now_mono() + duration : 0;
	while (!bb_stop && (!end || now_mono() < end)) {
		double left = end ? end - now_mono() : 1;

		if (left > 1)
			left = 1;
		if (pb)
			perfbuf_poll(pb, (int)(left * 1000) + 1);
		else
			tool_sleep(left);
		tool_flush();
	}
	if (pb && perfbuf_lost(pb))
		tool_error(&t, "warning: %llu samples lost (the reader fell "
			   "behind)", (unsigned long long)perfbuf_lost(pb));
	for (i = 0; i < obj_nmaps(t.obj); i++)
		dump_map(obj_map_at(t.obj, i));
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
out_free:
	free(buf);
	free(consts);
	return ret;
}

const struct tool tool_run = {
	"run", run_main,
	"load and attach your own BPF object (kprobe/, kretprobe/, tracepoint/)"
};
