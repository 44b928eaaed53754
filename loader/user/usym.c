/* SPDX-License-Identifier: MIT */
/*
 * User-space symbols: which function of which file an address of a
 * process is in, for the user stacks of `trace -U`.
 *
 * address --/proc/PID/maps--> (file, file offset)
 *         --PT_LOAD p_offset/p_vaddr--> link-time address    (elfsyms.c)
 *         --.symtab (else .dynsym)--> function + offset     (elfsyms.c)
 *           (a file stripped of .symtab: its separate debug file's, udebug.c)
 *
 * Going through the file offset treats ET_EXEC and ET_DYN (PIE, shared
 * libraries) alike: a mapping of [start, end) at file offset `off` puts
 * file offset addr - start + off at addr, and the PT_LOAD holding that
 * offset says which link-time address (what st_value holds) it has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "barebpf.h"
#include "user.h"
#include "udebug.h"

/* ---- /proc/PID/maps ---- */

static const char *parse_hex(const char *p, uint64_t *v)
{
	const char *start = p;
	uint64_t x = 0;

	for (;; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (x >> 60)
			return NULL;
		x = x << 4 | d;
	}
	if (p == start)
		return NULL;
	*v = x;
	return p;
}

static const char *parse_dec(const char *p, uint64_t *v)
{
	const char *start = p;
	uint64_t x = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - 9) / 10)
			return NULL;
		x = x * 10 + (*p - '0');
	}
	if (p == start)
		return NULL;
	*v = x;
	return p;
}

/* "start-end perms offset major:minor inode   path" */
int usym_parse_maps_line(const char *line, struct bb_maps_line *m)
{
	const char *p = line;
	uint64_t major, minor;

	memset(m, 0, sizeof(*m));
	if (!(p = parse_hex(p, &m->start)) || *p++ != '-' ||
	    !(p = parse_hex(p, &m->end)) || *p++ != ' ')
		return -EINVAL;
	if (strlen(p) < 5 || p[4] != ' ')
		return -EINVAL;
	m->exec = p[2] == 'x';
	p += 5;
	if (!(p = parse_hex(p, &m->offset)) || *p++ != ' ' ||
	    !(p = parse_hex(p, &major)) || *p++ != ':' ||
	    !(p = parse_hex(p, &minor)) || *p++ != ' ' ||
	    !(p = parse_dec(p, &m->inode)))
		return -EINVAL;
	if (*p && *p != ' ')
		return -EINVAL;
	if (m->end < m->start)
		return -EINVAL;
	m->dev = major << 32 | minor;
	while (*p == ' ' || *p == '\t')
		p++;
	m->path = p; /* may contain blanks; ends with the line */
	return 0;
}

/* ---- processes ---- */

struct ufile {
	uint64_t dev, inode;
	char *path;                /* as /proc/PID/maps shows it */
	const char *base;          /* its last component, for "[libc.so.6]" */
	struct bb_elfsyms *syms;   /* NULL: not (yet) read, or unreadable */
	struct bb_elfsyms *dbg;    /* its separate debug file's, or NULL */
	int tried;
	/* a file of the debug directory: the build id it was looked up by */
	uint8_t bid[BB_BUILD_ID_MAX];
	size_t bidlen;
	struct ufile *next;
};

struct umap {
	uint64_t start, end, offset;
	struct ufile *file;
};

/*
 * Who a pid is: its start time (a reused pid is another process) and its
 * program file (an exec replaces every mapping while the pid and its start
 * time stay).
 */
struct uident {
	unsigned long long start;
	uint64_t exe_dev, exe_ino;
};

struct uproc {
	int pid;
	struct uident id;
	int known;        /* id was read */
	struct umap *maps;
	size_t nmaps;
	double refreshed; /* monotonic seconds of the last read of maps */
	struct uproc *next;
};

/* Processes remembered at most: a long run sees pids come and go. */
#define USYM_MAX_PROCS 1024

struct bb_usyms {
	struct uproc *procs; /* the newest first */
	int nprocs;
	struct ufile *files;
	const char *debug_root; /* NULL: udebug_root's */
};

int usyms_new(struct bb_usyms **up)
{
	*up = calloc(1, sizeof(**up));
	return *up ? 0 : -ENOMEM;
}

void usyms_free(struct bb_usyms *u)
{
	if (!u)
		return;
	while (u->procs) {
		struct uproc *p = u->procs;

		u->procs = p->next;
		free(p->maps);
		free(p);
	}
	while (u->files) {
		struct ufile *f = u->files;

		u->files = f->next;
		elfsyms_free(f->syms);
		elfsyms_free(f->dbg);
		free(f->path);
		free(f);
	}
	free(u);
}

/* One ufile per file: by device and inode when the mapping has them (the
 * same path may name different files in other mount namespaces). */
static struct ufile *file_get(struct bb_usyms *u, const struct bb_maps_line *m,
			      size_t pathlen)
{
	struct ufile *f;
	const char *slash;

	for (f = u->files; f; f = f->next)
		if (f->dev == m->dev && f->inode == m->inode &&
		    strlen(f->path) == pathlen &&
		    !memcmp(f->path, m->path, pathlen))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strndup(m->path, pathlen);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->dev = m->dev;
	f->inode = m->inode;
	slash = strrchr(f->path, '/');
	f->base = slash ? slash + 1 : f->path;
	f->next = u->files;
	u->files = f;
	return f;
}

/* Executable file mappings of the maps text (what a stack can be in). */
static int maps_parse_text(struct bb_usyms *u, struct uproc *p, char *text)
{
	struct umap *maps = NULL;
	size_t n = 0, cap = 0;
	char *line, *next;

	for (line = text; line && *line; line = next) {
		struct bb_maps_line m;
		size_t pathlen;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (usym_parse_maps_line(line, &m) < 0 || !m.exec ||
		    m.path[0] != '/')
			continue; /* anonymous, [vdso], [stack], JIT code */
		pathlen = strlen(m.path);
		if (n == cap) {
			struct umap *nm;

			cap = cap ? cap * 2 : 32;
			nm = realloc(maps, cap * sizeof(*maps));
			if (!nm) {
				free(maps);
				return -ENOMEM;
			}
			maps = nm;
		}
		maps[n].start = m.start;
		maps[n].end = m.end;
		maps[n].offset = m.offset;
		maps[n].file = file_get(u, &m, pathlen);
		if (!maps[n].file) {
			free(maps);
			return -ENOMEM;
		}
		n++;
	}
	free(p->maps);
	p->maps = maps;
	p->nmaps = n;
	return 0;
}

static int maps_read(struct bb_usyms *u, struct uproc *p)
{
	char path[64], *text;
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/maps", p->pid);
	p->refreshed = bb_now_mono();
	ret = bb_read_file(path, &text);
	if (ret < 0)
		return ret;
	ret = maps_parse_text(u, p, text);
	free(text);
	return ret;
}

static struct uproc *proc_find(struct bb_usyms *u, int pid)
{
	struct uproc *p;

	for (p = u->procs; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

int usym_parse_stat_start(const char *stat, unsigned long long *start)
{
	/* "pid (comm) state ppid ..." : comm may hold blanks and ")" */
	const char *p = strrchr(stat, ')');
	char *end;
	int field;

	if (!p)
		return -EINVAL;
	p++;
	/* after ")": field 3 (state) ... field 22 (starttime) */
	for (field = 3; field < 22; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -EINVAL;
		while (*p && *p != ' ')
			p++;
	}
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	*start = strtoull(p, &end, 10);
	return 0;
}

/* -ESRCH (or another -errno) once the process is gone */
static int ident_read(int pid, struct uident *id)
{
	char path[64], buf[1024];
	struct stat st;
	int ret;

	memset(id, 0, sizeof(*id));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	ret = bb_read_small(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	ret = usym_parse_stat_start(buf, &id->start);
	if (ret < 0)
		return ret;
	/* a kernel thread, or not ours to see: the start time alone */
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if (stat(path, &st) == 0) {
		id->exe_dev = st.st_dev;
		id->exe_ino = st.st_ino;
	}
	return 0;
}

/* An exiting process (a zombie) has no program file any more: only two
 * known program files can differ. */
static int ident_same(const struct uident *a, const struct uident *b)
{
	if (a->start != b->start)
		return 0;
	return !a->exe_ino || !b->exe_ino ||
	       (a->exe_dev == b->exe_dev && a->exe_ino == b->exe_ino);
}

static void proc_drop_oldest(struct bb_usyms *u)
{
	struct uproc **pp = &u->procs;

	while (*pp && (*pp)->next)
		pp = &(*pp)->next;
	if (*pp) {
		free((*pp)->maps);
		free(*pp);
		*pp = NULL;
		u->nprocs--;
	}
}

static void proc_forget(struct uproc *p)
{
	free(p->maps);
	p->maps = NULL;
	p->nmaps = 0;
}

int usyms_add_pid(struct bb_usyms *u, int pid)
{
	struct uproc *p = proc_find(u, pid);
	struct uident id;
	int ret;

	if (pid <= 0)
		return -EINVAL;
	ret = ident_read(pid, &id);
	if (p) {
		/* gone: keep what we knew, its stacks may still come in */
		if (ret < 0 || (p->known && ident_same(&id, &p->id)))
			return 0;
		/* another process with this pid, or another program: the
		 * maps we have are not its */
		proc_forget(p);
	} else {
		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->pid = pid;
		/* remembered even if it fails: the process is gone, do not
		 * retry */
		p->next = u->procs;
		u->procs = p;
		if (++u->nprocs > USYM_MAX_PROCS)
			proc_drop_oldest(u);
	}
	p->id = id;
	p->known = ret == 0;
	return maps_read(u, p);
}

/* A file stripped of its .symtab: the separate debug file's, if any. */
static void file_debug(struct bb_usyms *u, struct ufile *f, int pid)
{
	if (f->syms && !elfsyms_has_symtab(f->syms))
		f->dbg = udebug_load(f->syms, f->path, pid,
				     udebug_root(u->debug_root));
}

/*
 * Read a file's symbols once. /proc/PID/map_files/START-END is the mapped
 * file itself, even deleted or in another mount namespace, but only while
 * the process lives; then /proc/PID/root/PATH, then PATH.
 */
static void file_load(struct bb_usyms *u, struct ufile *f, int pid,
		      const struct umap *m)
{
	char path[4200];

	if (f->tried)
		return;
	f->tried = 1;
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	if (elfsyms_load(&f->syms, path) < 0) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, f->path);
		if (elfsyms_load(&f->syms, path) < 0)
			elfsyms_load(&f->syms, f->path);
	}
	file_debug(u, f, pid);
}

/* The function at vaddr of f: from its debug file, else from it. */
static const char *file_find(const struct ufile *f, uint64_t vaddr,
			     uint64_t *off)
{
	const char *name = f->dbg ? elfsyms_find(f->dbg, vaddr, off) : NULL;

	return name ? name : elfsyms_find(f->syms, vaddr, off);
}

static const struct umap *map_find(const struct uproc *p, uint64_t addr)
{
	size_t i;

	for (i = 0; i < p->nmaps; i++)
		if (addr >= p->maps[i].start && addr < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}

int usyms_find(struct bb_usyms *u, int pid, uint64_t addr, struct bb_usym *s)
{
	struct uproc *p;
	const struct umap *m;
	uint64_t vaddr;
	int ret;

	memset(s, 0, sizeof(*s));
	/* known: as it was when usyms_add_pid last looked (once per event),
	 * not checked again per frame */
	p = proc_find(u, pid);
	if (!p) {
		ret = usyms_add_pid(u, pid);
		p = proc_find(u, pid);
	}
	if (!p)
		return ret < 0 ? ret : -ENOENT;
	m = map_find(p, addr);
	/* mapped since we read the maps (dlopen)? read them again, at most
	 * once a second: JIT code is never in a file and always misses */
	if (!m && bb_now_mono() - p->refreshed >= 1.0) {
		maps_read(u, p);
		m = map_find(p, addr);
	}
	if (!m)
		return -ENOENT;
	s->module = m->file->base;
	file_load(u, m->file, pid, m);
	if (!m->file->syms)
		return 0;
	if (elfsyms_vaddr(m->file->syms, addr - m->start + m->offset,
			  &vaddr) < 0)
		return 0;
	s->name = file_find(m->file, vaddr, &s->off);
	return 0;
}

/* ---- by build id (no pid, no maps) ---- */

void usyms_set_debug_root(struct bb_usyms *u, const char *dir)
{
	u->debug_root = dir;
}

static int bid_is(const struct bb_elfsyms *e, const uint8_t *id, size_t len)
{
	const uint8_t *have;

	return e && elfsyms_build_id(e, &have) == len && !memcmp(have, id, len);
}

/* DEBUG_ROOT/.build-id/xx/rest.debug, read once per build id (a file that
 * is not there, or has another id, is remembered without symbols). */
static struct ufile *debug_file(struct bb_usyms *u, const uint8_t *id,
				size_t len)
{
	char path[4200];
	struct ufile *f;

	for (f = u->files; f; f = f->next)
		if (f->bidlen == len && !memcmp(f->bid, id, len))
			return f;
	udebug_bid_path(udebug_root(u->debug_root), id, len, path,
			sizeof(path));
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->base = strrchr(f->path, '/') + 1;
	memcpy(f->bid, id, len);
	f->bidlen = len;
	f->tried = 1;
	if (elfsyms_load(&f->syms, path) == 0 && !bid_is(f->syms, id, len)) {
		elfsyms_free(f->syms);
		f->syms = NULL;
	}
	f->next = u->files;
	u->files = f;
	return f;
}

int usyms_find_build_id(struct bb_usyms *u, const uint8_t *id, size_t len,
			uint64_t foff, struct bb_usym *s)
{
	struct ufile *f;
	uint64_t vaddr;

	memset(s, 0, sizeof(*s));
	if (!len || len > BB_BUILD_ID_MAX)
		return -EINVAL;
	/* the files of the processes seen, read now if they were not: by
	 * their paths, as no process is there to open them through */
	for (f = u->files; f; f = f->next) {
		if (!f->tried && !f->bidlen) {
			f->tried = 1;
			elfsyms_load(&f->syms, f->path);
			file_debug(u, f, 0);
		}
		if (!f->bidlen && bid_is(f->syms, id, len))
			break;
	}
	if (!f)
		f = debug_file(u, id, len);
	if (!f)
		return -ENOMEM;
	if (!f->syms)
		return -ENOENT;
	s->module = f->base;
	if (elfsyms_vaddr(f->syms, foff, &vaddr) == 0)
		s->name = file_find(f, vaddr, &s->off);
	return 0;
}
