/* SPDX-License-Identifier: MIT */
/*
 * The function symbols of one user-space ELF file, without libelf: file
 * offset -> link-time address (PT_LOAD) -> function + offset (.symtab,
 * else .dynsym). usym.c finds the file and offset of an address.
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
