/* SPDX-License-Identifier: MIT */
/*
 * Counts by stack, printed as bcc's profile.py and offcputime.py do
 * (stackcount.h). Kernel frames are named from /proc/kallsyms (read when
 * printing, only the symbols of the stacks' addresses kept), user
 * frames from the binaries mapped in the process (usyms), "[unknown]"
 * where no symbol holds the address. bcc names frames without offsets.
 *
 * A process's maps are read while it runs (stackcount_poll, each second),
 * which names the frames of any process that lived through one pass. With
 * --build-id the kernel gives each user frame as (build id, file offset)
 * instead: a process gone before any pass is named from a file of that
 * build id, among those the processes seen had mapped (or the debug
 * directory); the frames the kernel could only give as addresses are
 * named through the process's maps, as without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stackcount.h"
#include "flamegraph.h"
#include "output.h"

#define FOLD_MAX 65536

struct entry {
	struct stack_key key;
	uint64_t value;
};

void stackcount_opts_init(struct stackcount_opts *o)
{
	o->kernel = o->user = 1;
}

int stackcount_opt(struct tool_ctx *t, int c, struct stackcount_opts *o,
		   unsigned long *storage)
{
	switch (c) {
	case 'U': o->kernel = 0; return 1;
	case 'K': o->user = 0; return 1;
	case 'd': o->delimited = 1; return 1;
	case 'f': o->folded = 1; return 1;
	case STACKCOUNT_OPT_STORAGE:
		return opt_map_entries(t, "--stack-storage-size", "stacks",
				       optarg, storage) ? -EINVAL : 1;
	case STACKCOUNT_OPT_SVG: o->svg = optarg; return 1;
	case STACKCOUNT_OPT_BUILD_ID: o->build_id = 1; return 1;
	}
	return 0;
}

int stackcount_opts_check(struct tool_ctx *t, const struct stackcount_opts *o)
{
	if (!o->kernel && !o->user)
		return tool_fail(t, -EINVAL, "-U and -K exclude each other");
	if (!o->user && o->build_id)
		return tool_fail(t, -EINVAL, "--build-id names user frames: "
				 "not with -K");
	return 0;
}

const char *stackcount_which(const struct stackcount_opts *o)
{
	return !o->kernel ? "user" : !o->user ? "kernel" : "user + kernel";
}

/*
 * The flame graph's file, opened when the tool starts: a path that cannot
 * be written was found after the whole wait (a 30-minute profile lost).
 * An existing file keeps its contents until the graph replaces them; one
 * we created is removed if the graph is never written (an error, a signal
 * during start). O_NONBLOCK for the open only: a FIFO without a reader
 * fails (ENXIO) instead of blocking before the signal handlers matter.
 */
static int svg_open(struct tool_ctx *t, struct stackcount *sc,
		    const char *path)
{
	int fl = O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, fd;

	fd = open(path, fl | O_CREAT | O_EXCL, 0644);
	sc->svg_made = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, fl);
	if (fd < 0)
		return tool_fail(t, -errno, "--svg %s: %s", path,
				 strerror(errno));
	sc->svg = fdopen(fd, "w");
	if (!sc->svg || fcntl(fd, F_SETFL, O_WRONLY) < 0) {
		int ret = -errno;

		if (sc->svg)
			fclose(sc->svg);
		else
			close(fd);
		sc->svg = NULL;
		if (sc->svg_made)
			unlink(path);
		return tool_fail(t, ret, "--svg %s: %s", path, strerror(-ret));
	}
	sc->svg_path = path;
	return 0;
}

/* Close the file; with drop, remove it if we made it. -errno of the
 * close. */
static int svg_close(struct stackcount *sc, int drop)
{
	int ret;

	if (!sc->svg)
		return 0;
	ret = fclose(sc->svg) ? -errno : 0;
	sc->svg = NULL;
	if (drop && sc->svg_made)
		unlink(sc->svg_path);
	return ret;
}

int stackcount_init(struct tool_ctx *t, struct stackcount *sc,
		    const struct stackcount_opts *o)
{
	memset(sc, 0, sizeof(*sc));
	sc->counts_fd = sc->stacks_fd = sc->ustacks_fd = -1;
	if (o->user && usyms_new(&sc->us) < 0)
		return tool_fail(t, -ENOMEM, "out of memory");
	return o->svg ? svg_open(t, sc, o->svg) : 0;
}

void stackcount_maps(struct stackcount *sc, int counts_fd, int stacks_fd,
		     int ustacks_fd)
{
	sc->counts_fd = counts_fd;
	sc->stacks_fd = stacks_fd;
	sc->ustacks_fd = ustacks_fd;
}

void stackcount_free(struct stackcount *sc)
{
	svg_close(sc, 1);
	ksyms_free(sc->ks);
	usyms_free(sc->us);
	free(sc->seen);
	memset(sc, 0, sizeof(*sc));
}

static int seen(const struct stackcount *sc, uint32_t tgid)
{
	int i;

	for (i = 0; i < sc->nseen; i++)
		if (sc->seen[i] == tgid)
			return 1;
	return 0;
}

void stackcount_poll(struct stackcount *sc)
{
	struct stack_key k, next;
	void *prev = NULL;

	if (!sc->us)
		return;
	while (bpf_map_get_next_key(sc->counts_fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (k.ustack < 0 || seen(sc, k.tgid))
			continue;
		if (usyms_add_pid(sc->us, k.tgid) == 0) {
			uint32_t *s = realloc(sc->seen, (sc->nseen + 1) *
						       sizeof(*s));

			if (!s)
				return;
			sc->seen = s;
			sc->seen[sc->nseen++] = k.tgid;
		}
	}
}

/* Every entry of counts; -errno. */
static int read_counts(int fd, struct entry **ep)
{
	struct stack_key k, next;
	struct entry *e = NULL, *ne;
	void *prev = NULL;
	int n = 0, cap = 0;

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			ne = realloc(e, cap * sizeof(*e));
			if (!ne) {
				free(e);
				return -ENOMEM;
			}
			e = ne;
		}
		e[n].key = k;
		if (bpf_map_lookup_elem(fd, &k, &e[n].value) == 0)
			n++;
	}
	*ep = e;
	return n;
}

/* Names of a stack's frames, innermost first, into names (of buf). */
struct named {
	uint64_t ips[BB_MAX_STACK];
	struct bb_stack_build_id bids[BB_MAX_STACK]; /* --build-id's */
	const char *names[BB_MAX_STACK];
	char buf[BB_MAX_STACK][256];
	int n;
};

/* The longest first: a 20-byte id that ends in zeros is not cut. */
int stackcount_find_build_id(struct bb_usyms *us, const uint8_t *id,
			     uint64_t foff, struct bb_usym *u)
{
	static const size_t lens[] = { BB_STACK_BUILD_ID_SIZE, 16, 8 };
	size_t i, j;
	int ret = -ENOENT;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (j = lens[i]; j < BB_STACK_BUILD_ID_SIZE && !id[j]; j++)
			;
		if (j < BB_STACK_BUILD_ID_SIZE)
			break; /* not zeros past this length */
		ret = usyms_find_build_id(us, id, lens[i], foff, u);
		if (ret != -ENOENT)
			return ret;
	}
	return ret;
}

/* A user stack of ustacks_fd: frames by build id, or (where the kernel
 * could not read one) by address. */
static int read_build_id_stack(struct stackcount *sc, int id, int pid,
			       struct named *s)
{
	int i;

	memset(s->bids, 0, sizeof(s->bids));
	if (bpf_map_lookup_elem(sc->ustacks_fd, &id, s->bids) < 0)
		return 0;
	for (i = 0; i < BB_MAX_STACK; i++) {
		const struct bb_stack_build_id *f = &s->bids[i];
		struct bb_usym u = { 0 };

		if (f->status == BB_STACK_BUILD_ID_VALID)
			stackcount_find_build_id(sc->us, f->build_id,
						 f->offset, &u);
		else if (f->status == BB_STACK_BUILD_ID_IP)
			usyms_find(sc->us, pid, f->ip, &u);
		else
			break; /* EMPTY: the end */
		snprintf(s->buf[i], sizeof(s->buf[i]), "%s",
			 u.name ? u.name : "[unknown]");
		s->names[i] = s->buf[i];
	}
	return i;
}

static void name_stack(struct stackcount *sc, int id, int pid, int kernel,
		       struct named *s)
{
	int i;

	if (!kernel && sc->ustacks_fd >= 0) {
		s->n = id >= 0 ? read_build_id_stack(sc, id, pid, s) : 0;
		return;
	}
	s->n = id >= 0 ? stack_read(sc->stacks_fd, id, s->ips, BB_MAX_STACK)
		       : 0;
	if (s->n < 0)
		s->n = 0;
	for (i = 0; i < s->n; i++) {
		const char *nm = NULL;

		if (kernel) {
			const struct bb_ksym *k =
				sc->ks ? ksyms_find(sc->ks, s->ips[i], NULL)
				       : NULL;
			nm = k ? k->name : NULL;
		} else {
			struct bb_usym u = { 0 };

			if (usyms_find(sc->us, pid, s->ips[i], &u) == 0)
				nm = u.name;
		}
		snprintf(s->buf[i], sizeof(s->buf[i]), "%s",
			 nm ? nm : "[unknown]");
		s->names[i] = s->buf[i];
	}
}

/* The graph over what the file held; a failed write is said as it failed
 * (ENOSPC, EDQUOT), not as EIO, and leaves no half graph we made. */
static int write_svg(struct tool_ctx *t, const struct fg *g,
		     struct stackcount *sc, const struct stackcount_opts *o)
{
	struct stat st;
	int ret, fd = fileno(sc->svg), close_ret;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0)
		ret = -errno;
	else {
		errno = 0;
		ret = fg_svg(g, sc->svg, o->title, o->unit);
		if (ret == -EIO && errno)
			ret = -errno;
	}
	close_ret = svg_close(sc, 0);
	if (!ret)
		ret = close_ret;
	if (ret < 0) {
		if (sc->svg_made)
			unlink(sc->svg_path);
		return tool_fail(t, ret, "--svg %s: %s", o->svg, strerror(-ret));
	}
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/*
 * The kernel's symbols, read now that the stacks are printed (not at
 * start: 100 ms and 10 MB for the whole of /proc/kallsyms), and only
 * those of the addresses in the kernel stacks counted (ksyms_load_for).
 */
static int kernel_syms(struct tool_ctx *t, struct stackcount *sc,
		       const struct entry *e, int n)
{
	struct bb_err err = { "" };
	uint64_t *a = NULL, *na;
	int *ids = malloc((n ? n : 1) * sizeof(*ids)), i, m = 0, d, ret;
	size_t len = 0;

	for (i = 0; ids && i < n; i++)
		if (e[i].key.kstack >= 0)
			ids[m++] = e[i].key.kstack;
	qsort(ids, m, sizeof(*ids), by_id);
	for (i = 0; ids && i < m; i++) {
		if (i && ids[i] == ids[i - 1])
			continue;
		na = realloc(a, (len + BB_MAX_STACK) * sizeof(*a));
		if (!na)
			break;
		a = na;
		d = stack_read(sc->stacks_fd, ids[i], a + len, BB_MAX_STACK);
		len += d > 0 ? d : 0;
	}
	ret = ids && i == m ? ksyms_load_for(&sc->ks, NULL, a, len, &err)
			    : bb_fail(&err, -ENOMEM, "out of memory");
	free(ids);
	free(a);
	if (ret < 0)
		tool_error(t, "kernel frames stay unnamed: %s", err.msg);
	return ret;
}

/* Each entry as printed, count apart, into l[i] (stackcount_render), and
 * into the graph; the missed stacks said. */
static int render_all(struct tool_ctx *t, struct stackcount *sc,
		      const struct stackcount_opts *o, const struct entry *e,
		      int n, struct fg *g, struct stackcount_line *l)
{
	struct named *ks = malloc(sizeof(*ks)), *us = malloc(sizeof(*us));
	char *line = malloc(FOLD_MAX);
	int i, missed = 0, collided = 0, ret = 0;

	if (!ks || !us || !line) {
		ret = tool_fail(t, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		const struct stack_key *k = &e[i].key;
		char comm[sizeof(k->comm) + 1];
		size_t len;
		FILE *f;

		memcpy(comm, k->comm, sizeof(k->comm));
		comm[sizeof(k->comm)] = 0;
		name_stack(sc, o->kernel ? k->kstack : -1, 0, 1, ks);
		name_stack(sc, o->user ? k->ustack : -1, k->tgid, 0, us);
		/* as bcc counts them: each stack missed */
		missed += o->kernel && stackcount_stack_err(k->kstack);
		missed += o->user && stackcount_stack_err(k->ustack);
		collided |= (o->kernel && k->kstack == -EEXIST) ||
			    (o->user && k->ustack == -EEXIST);
		if (g && stackcount_fold(line, FOLD_MAX, comm, o->user,
					 k->ustack, us->names, us->n,
					 o->kernel, k->kstack, ks->names,
					 ks->n, o->delimited, e[i].value) < 0)
			snprintf(line, FOLD_MAX, "[stack too long] %llu",
				 (unsigned long long)e[i].value);
		l[i].value = e[i].value;
		f = open_memstream(&l[i].text, &len);
		if (!f || (g && fg_add_folded(g, line) < 0))
			ret = -ENOMEM;
		if (f && (stackcount_render(f, o, k, ks->names, ks->n,
					    us->names, us->n) < 0 ||
			  fclose(f)))
			ret = -ENOMEM;
	}
	if (ret)
		tool_fail(t, ret, "out of memory");
	else if (missed)
		fprintf(stderr, "WARNING: %d stack traces %s.%s\n", missed,
			o->missed, collided ? " Consider increasing "
			"--stack-storage-size." : "");
out:
	free(ks);
	free(us);
	free(line);
	return ret;
}

/* Stacks that print the same print once, with the sum of their counts:
 * the kernel keeps a stack id per distinct list of addresses, and two
 * addresses in one function are one name. */
static int print_all(struct tool_ctx *t, struct stackcount *sc,
		     const struct stackcount_opts *o, const struct entry *e,
		     int n, struct fg *g)
{
	struct stackcount_line *l = calloc(n ? n : 1, sizeof(*l));
	int i, ret;

	if (!l)
		return tool_fail(t, -ENOMEM, "out of memory");
	ret = render_all(t, sc, o, e, n, g, l);
	if (!ret)
		n = stackcount_merge(l, n);
	for (i = 0; i < n; i++) {
		if (!ret)
			stackcount_put(stdout, o, &l[i]);
		free(l[i].text);
	}
	free(l);
	return ret;
}

int stackcount_print(struct tool_ctx *t, struct stackcount *sc,
		     const struct stackcount_opts *o)
{
	struct entry *e = NULL;
	struct fg *g = NULL;
	int n, ret;

	stackcount_poll(sc);
	if (!o->folded && !o->json)
		putchar('\n'); /* bcc's, after the wait */
	n = read_counts(sc->counts_fd, &e);
	if (n < 0)
		return tool_fail(t, n, "out of memory");
	if (o->svg && fg_new(&g) < 0) {
		free(e);
		return tool_fail(t, -ENOMEM, "out of memory");
	}
	if (o->kernel && !sc->ks)
		kernel_syms(t, sc, e, n);
	ret = print_all(t, sc, o, e, n, g);
	if (ret == 0 && g && sc->svg)
		ret = write_svg(t, g, sc, o);
	fg_free(g);
	free(e);
	fflush(stdout);
	return ret;
}
