/* SPDX-License-Identifier: MIT */
/*
 * User-space symbols without libelf: which function of which file an
 * address of a process is in, for the user stacks of `trace -U`.
 *
 * address --/proc/PID/maps--> (file, file offset)
 *         --PT_LOAD p_offset/p_vaddr--> link-time address
 *         --.symtab (else .dynsym)--> function + offset
 *
 * Going through the file offset treats ET_EXEC and ET_DYN (PIE, shared
 * libraries) alike: a mapping of [start, end) at file offset `off` puts
 * file offset addr - start + off at addr, and the PT_LOAD holding that
 * offset says which link-time address (what st_value holds) it has.
 *
 * The files are whatever a traced process maps, so nothing in them is
 * trusted: every offset, size, count and index is checked against the file
 * size before use (and before anything is allocated for it), and the file
 * is read with pread() rather than mapped (a file truncated under a mapping
 * faults with SIGBUS). Memory stays proportional to the file: names are
 * kept as offsets into the file's own string table, never copied per
 * symbol (many symbols may share one long name).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>
#include "barebpf.h"

/* Bounds on what a sane file has; more is treated as damage. */
#define ES_MAX_PHDRS 4096
#define ES_MAX_SHDRS 65535
#define ES_MAX_STRTAB (256u << 20)
#define ES_MAX_SYMS (16u << 20)
#define ES_CHUNK 512 /* symbols read per pread */

struct es_seg {
	uint64_t offset, filesz, vaddr;
};

struct es_sym {
	uint64_t value, size;
	uint32_t name; /* into strtab */
	uint8_t rank;  /* among aliases at one address: lower wins */
	uint32_t order;
};

struct bb_elfsyms {
	struct es_seg *segs;
	size_t nsegs;
	struct es_sym *syms; /* one per address: aliases merged */
	size_t nsyms;
	size_t nfuncs;       /* function symbols read, aliases included */
	char *strtab;        /* the file's */
	int type; /* ET_EXEC or ET_DYN */
};

/* Where the ELF bytes come from: a buffer (tests) or a file. */
struct es_src {
	const unsigned char *buf;
	int fd;
	uint64_t size;
};

static int src_read(const struct es_src *s, uint64_t off, void *dst,
		    uint64_t len)
{
	unsigned char *d = dst;

	if (off > s->size || len > s->size - off)
		return -EBADMSG;
	if (s->buf) {
		memcpy(d, s->buf + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(s->fd, d, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) /* shrank since fstat */
			return -EBADMSG;
		d += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* n entries of size each from off lie inside the source: checked once, so
 * that off + i * size cannot wrap around afterwards. */
static int table_fits(const struct es_src *s, uint64_t off, uint64_t n,
		      uint64_t size)
{
	return off <= s->size && n <= (s->size - off) / size;
}

void elfsyms_free(struct bb_elfsyms *e)
{
	if (!e)
		return;
	free(e->segs);
	free(e->syms);
	free(e->strtab);
	free(e);
}

static int read_segments(struct bb_elfsyms *e, const struct es_src *s,
			 const Elf64_Ehdr *eh)
{
	Elf64_Phdr ph;
	size_t i;
	int ret;

	if (!eh->e_phnum)
		return 0;
	if (eh->e_phentsize != sizeof(ph) || eh->e_phnum > ES_MAX_PHDRS ||
	    !table_fits(s, eh->e_phoff, eh->e_phnum, sizeof(ph)))
		return -EBADMSG;
	e->segs = calloc(eh->e_phnum, sizeof(*e->segs));
	if (!e->segs)
		return -ENOMEM;
	for (i = 0; i < eh->e_phnum; i++) {
		ret = src_read(s, eh->e_phoff + i * sizeof(ph), &ph, sizeof(ph));
		if (ret < 0)
			return ret;
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (ph.p_offset > UINT64_MAX - ph.p_filesz ||
		    ph.p_vaddr > UINT64_MAX - ph.p_filesz)
			return -EBADMSG;
		e->segs[e->nsegs].offset = ph.p_offset;
		e->segs[e->nsegs].filesz = ph.p_filesz;
		e->segs[e->nsegs].vaddr = ph.p_vaddr;
		e->nsegs++;
	}
	return 0;
}

static int read_shdr(const struct es_src *s, const Elf64_Ehdr *eh,
		     uint32_t i, Elf64_Shdr *sh)
{
	return src_read(s, eh->e_shoff + (uint64_t)i * sizeof(*sh), sh,
			sizeof(*sh));
}

/* The symbol table to use: .symtab, else .dynsym; 0 if neither. */
static int find_symtab(const struct es_src *s, const Elf64_Ehdr *eh,
		       Elf64_Shdr *out)
{
	Elf64_Shdr sh;
	uint32_t i;
	int found = 0, ret;

	for (i = 0; i < eh->e_shnum; i++) {
		ret = read_shdr(s, eh, i, &sh);
		if (ret < 0)
			return ret;
		if (sh.sh_type == SHT_SYMTAB) {
			*out = sh;
			return 1;
		}
		if (sh.sh_type == SHT_DYNSYM && !found) {
			*out = sh;
			found = 1;
		}
	}
	return found;
}

/* Global before weak before local, so that `getppid` beats `__getppid`
 * when both name one address. */
static uint8_t sym_rank(unsigned char info)
{
	switch (ELF64_ST_BIND(info)) {
	case STB_GLOBAL:
		return 0;
	case STB_WEAK:
		return 1;
	default:
		return 2;
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct es_sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Aliases share an address (sorted best first): keep one entry per
 * address, with the best name and the largest size, so that a lookup
 * never walks a run of aliases (a file may have millions at one address).
 */
static void merge_aliases(struct bb_elfsyms *e)
{
	size_t i, out = 0;

	for (i = 0; i < e->nsyms; i++) {
		if (out && e->syms[out - 1].value == e->syms[i].value) {
			if (e->syms[i].size > e->syms[out - 1].size)
				e->syms[out - 1].size = e->syms[i].size;
			continue;
		}
		e->syms[out++] = e->syms[i];
	}
	e->nsyms = out;
}

/*
 * The function symbols of `symtab`, named by offsets into its string
 * table, which is read whole (it is bounded by the file). A name must end
 * inside the table: it does if it starts before the table's last NUL
 * (found once; a search per name made many names sharing one long string
 * quadratic).
 */
static int read_symbols(struct bb_elfsyms *e, const struct es_src *s,
			const Elf64_Ehdr *eh, const Elf64_Shdr *symtab)
{
	Elf64_Sym chunk[ES_CHUNK];
	Elf64_Shdr strsh;
	uint64_t nsyms, i, names_end;
	int ret;

	if (symtab->sh_entsize != sizeof(Elf64_Sym) ||
	    symtab->sh_size % sizeof(Elf64_Sym) ||
	    symtab->sh_link >= eh->e_shnum)
		return -EBADMSG;
	nsyms = symtab->sh_size / sizeof(Elf64_Sym);
	if (nsyms > ES_MAX_SYMS ||
	    !table_fits(s, symtab->sh_offset, nsyms, sizeof(Elf64_Sym)))
		return -EBADMSG;
	ret = read_shdr(s, eh, symtab->sh_link, &strsh);
	if (ret < 0)
		return ret;
	/* the claimed size against the file, before allocating it */
	if (strsh.sh_type != SHT_STRTAB || strsh.sh_size > ES_MAX_STRTAB ||
	    !strsh.sh_size || !table_fits(s, strsh.sh_offset, strsh.sh_size, 1))
		return -EBADMSG;
	e->strtab = malloc(strsh.sh_size);
	if (!e->strtab)
		return -ENOMEM;
	ret = src_read(s, strsh.sh_offset, e->strtab, strsh.sh_size);
	if (ret < 0)
		return ret;
	/* [0, names_end): ends with the table's last NUL (0: none) */
	for (names_end = strsh.sh_size; names_end && e->strtab[names_end - 1];
	     names_end--)
		;
	e->syms = calloc(nsyms ? nsyms : 1, sizeof(*e->syms));
	if (!e->syms)
		return -ENOMEM;
	for (i = 0; i < nsyms; i++) {
		const Elf64_Sym *sym = &chunk[i % ES_CHUNK];

		if (i % ES_CHUNK == 0) {
			uint64_t n = nsyms - i < ES_CHUNK ? nsyms - i : ES_CHUNK;

			ret = src_read(s, symtab->sh_offset + i * sizeof(*sym),
				       chunk, n * sizeof(*sym));
			if (ret < 0)
				return ret;
		}
		if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC &&
		    ELF64_ST_TYPE(sym->st_info) != STT_GNU_IFUNC)
			continue;
		if (sym->st_shndx == SHN_UNDEF || !sym->st_value ||
		    sym->st_name >= names_end || !e->strtab[sym->st_name])
			continue;
		e->syms[e->nsyms].value = sym->st_value;
		e->syms[e->nsyms].size = sym->st_size;
		e->syms[e->nsyms].name = sym->st_name;
		e->syms[e->nsyms].rank = sym_rank(sym->st_info);
		e->syms[e->nsyms].order = (uint32_t)i;
		e->nsyms++;
	}
	e->nfuncs = e->nsyms;
	if (e->nsyms)
		qsort(e->syms, e->nsyms, sizeof(*e->syms), cmp_sym);
	merge_aliases(e);
	return 0;
}

static int parse(struct bb_elfsyms **ep, const struct es_src *s)
{
	struct bb_elfsyms *e;
	Elf64_Ehdr eh;
	Elf64_Shdr symtab;
	int ret;

	*ep = NULL;
	ret = src_read(s, 0, &eh, sizeof(eh));
	if (ret < 0)
		return ret == -EBADMSG ? -ENOEXEC : ret;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return -ENOEXEC;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->type = eh.e_type;
	ret = read_segments(e, s, &eh);
	if (ret < 0)
		goto err;
	/* No section headers (stripped with sstrip, or e_shnum in section 0
	 * when there are more than 65279): no symbols, not an error. */
	if (eh.e_shnum && eh.e_shoff) {
		if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
		    !table_fits(s, eh.e_shoff, eh.e_shnum, sizeof(Elf64_Shdr)))
			ret = -EBADMSG;
		else
			ret = find_symtab(s, &eh, &symtab);
		if (ret > 0)
			ret = read_symbols(e, s, &eh, &symtab);
		if (ret < 0)
			goto err;
	}
	*ep = e;
	return 0;

err:
	elfsyms_free(e);
	return ret;
}

int elfsyms_parse(struct bb_elfsyms **ep, const void *buf, size_t len)
{
	struct es_src s = { buf, -1, len };

	return parse(ep, &s);
}

/*
 * The path comes from a process's maps and may name anything by now: a
 * FIFO put where a dead process's library was would block open() for good
 * (and --duration with it), a device could do worse. So: refuse what is not
 * a regular file before opening it, open without blocking, and check again
 * what was opened.
 */
int elfsyms_load(struct bb_elfsyms **ep, const char *path)
{
	struct es_src s = { NULL, -1, 0 };
	struct stat st;
	int ret;

	*ep = NULL;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	s.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (s.fd < 0)
		return -errno;
	if (fstat(s.fd, &st) < 0) {
		ret = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		ret = -ENOEXEC;
	} else {
		s.size = st.st_size;
		ret = parse(ep, &s);
	}
	close(s.fd);
	return ret;
}

size_t elfsyms_count(const struct bb_elfsyms *e)
{
	return e->nfuncs;
}

int elfsyms_vaddr(const struct bb_elfsyms *e, uint64_t foff, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < e->nsegs; i++) {
		const struct es_seg *g = &e->segs[i];

		if (foff >= g->offset && foff - g->offset < g->filesz) {
			*vaddr = g->vaddr + (foff - g->offset);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * The function containing vaddr: the nearest symbol at or below it, if its
 * size covers vaddr. A symbol of size 0 (hand-written assembly) covers up
 * to the next symbol. A function with a nested symbol inside (a local
 * label with a size) is found by looking back a few addresses. Aliases
 * were merged into one entry with the best name and the largest size.
 */
const char *elfsyms_find(const struct bb_elfsyms *e, uint64_t vaddr,
			 uint64_t *off)
{
	size_t lo = 0, hi = e->nsyms, end;
	int back;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->syms[mid].value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the nearest addresses at or below vaddr, nearest first */
	for (end = lo, back = 0; end > 0 && back < 8; end--, back++) {
		const struct es_sym *sym = &e->syms[end - 1];

		if (vaddr - sym->value < sym->size ||
		    (!sym->size && end == lo)) {
			if (off)
				*off = vaddr - sym->value;
			return e->strtab + sym->name;
		}
	}
	return NULL;
}

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
	int tried;
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
		free(f->path);
		free(f);
	}
	free(u);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
	p->refreshed = mono_now();
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

/*
 * Read a file's symbols once. /proc/PID/map_files/START-END is the mapped
 * file itself, even deleted or in another mount namespace, but only while
 * the process lives; then /proc/PID/root/PATH, then PATH.
 */
static void file_load(struct ufile *f, int pid, const struct umap *m)
{
	char path[4200];

	if (f->tried)
		return;
	f->tried = 1;
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	if (elfsyms_load(&f->syms, path) == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/root%s", pid, f->path);
	if (elfsyms_load(&f->syms, path) == 0)
		return;
	elfsyms_load(&f->syms, f->path);
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
	if (!m && mono_now() - p->refreshed >= 1.0) {
		maps_read(u, p);
		m = map_find(p, addr);
	}
	if (!m)
		return -ENOENT;
	s->module = m->file->base;
	file_load(m->file, pid, m);
	if (!m->file->syms)
		return 0;
	if (elfsyms_vaddr(m->file->syms, addr - m->start + m->offset,
			  &vaddr) < 0)
		return 0;
	s->name = elfsyms_find(m->file->syms, vaddr, &s->off);
	return 0;
}
