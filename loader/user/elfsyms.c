/* SPDX-License-Identifier: MIT */
/*
 * The function symbols of one user-space ELF file, without libelf: file
 * offset -> link-time address (PT_LOAD) -> function + offset (.symtab,
 * else .dynsym). usym.c finds the file and offset of an address.
 *
 * Both classes, ELF64 and ELF32 (the programs on a 32-bit ARM board), read
 * through uelf.c, which widens every ELF32 structure to its Elf64 form.
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
#include "uelf.h"
#include "user.h"

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
	char *strtab;        /* the file's (.dynstr then MiniDebugInfo's) */
	size_t strsize;
	int type; /* ET_EXEC or ET_DYN */
	uint8_t build_id[BB_BUILD_ID_MAX];
	size_t build_id_len; /* 0: none */
	int symtab;          /* the names came from a .symtab */
	char debuglink[256]; /* .gnu_debuglink's file name; "": none */
	uint32_t debuglink_crc;
};

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
	if (eh->e_phentsize != ES_PHSZ(s) || eh->e_phnum > ES_MAX_PHDRS ||
	    !es_fits(s, eh->e_phoff, eh->e_phnum, ES_PHSZ(s)))
		return -EBADMSG;
	e->segs = calloc(eh->e_phnum, sizeof(*e->segs));
	if (!e->segs)
		return -ENOMEM;
	for (i = 0; i < eh->e_phnum; i++) {
		ret = es_phdr(s, eh, i, &ph);
		if (ret < 0)
			return ret;
		if (ph.p_type == PT_NOTE && !e->build_id_len)
			e->build_id_len = es_build_id(s, ph.p_offset, ph.p_filesz,
						      ph.p_align, e->build_id,
						      sizeof(e->build_id));
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

/* The tables a file has: the first of each kind (sh_type 0: none). */
struct es_tables {
	Elf64_Shdr symtab, dynsym, debugdata, debuglink;
};

static int find_tables(const struct es_src *s, const Elf64_Ehdr *eh,
		       struct es_tables *t)
{
	Elf64_Shdr sh;
	uint32_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < eh->e_shnum; i++) {
		ret = es_shdr(s, eh, i, &sh);
		if (ret < 0)
			return ret;
		if (sh.sh_type == SHT_SYMTAB && !t->symtab.sh_type)
			t->symtab = sh;
		if (sh.sh_type == SHT_DYNSYM && !t->dynsym.sh_type)
			t->dynsym = sh;
		if (!t->debugdata.sh_type && es_is_debugdata(s, eh, &sh))
			t->debugdata = sh;
		if (!t->debuglink.sh_type &&
		    es_is_named(s, eh, &sh, ".gnu_debuglink"))
			t->debuglink = sh;
	}
	return 0;
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
 * The function symbols of `symtab`, added to those read (sorted later),
 * named by offsets into its string table, which is read whole (it is
 * bounded by the file) after those read. A name must end inside the
 * table: it does if it starts before the table's last NUL (found once; a
 * search per name made many names sharing one long string quadratic).
 */
static int read_symbols(struct bb_elfsyms *e, const struct es_src *s,
			const Elf64_Ehdr *eh, const Elf64_Shdr *symtab)
{
	Elf64_Sym chunk[ES_CHUNK], symbuf; /* room for either class */
	const Elf64_Sym *sym = &symbuf;
	const uint64_t symsz = ES_SYMSZ(s);
	Elf64_Shdr strsh;
	uint64_t nsyms, i, names_end, base = e->strsize;
	struct es_sym *syms;
	char *str;
	int ret;

	if (symtab->sh_entsize != symsz || symtab->sh_size % symsz ||
	    symtab->sh_link >= eh->e_shnum)
		return -EBADMSG;
	nsyms = symtab->sh_size / symsz;
	if (nsyms > ES_MAX_SYMS ||
	    !es_fits(s, symtab->sh_offset, nsyms, symsz))
		return -EBADMSG;
	ret = es_shdr(s, eh, symtab->sh_link, &strsh);
	if (ret < 0)
		return ret;
	/* the claimed size against the file, before allocating it */
	if (strsh.sh_type != SHT_STRTAB ||
	    strsh.sh_size > ES_MAX_STRTAB - base || !strsh.sh_size ||
	    !es_fits(s, strsh.sh_offset, strsh.sh_size, 1))
		return -EBADMSG;
	str = realloc(e->strtab, base + strsh.sh_size);
	if (!str)
		return -ENOMEM;
	e->strtab = str;
	str += base;
	ret = es_read(s, strsh.sh_offset, str, strsh.sh_size);
	if (ret < 0)
		return ret;
	e->strsize = base + strsh.sh_size;
	/* [0, names_end): ends with the table's last NUL (0: none) */
	for (names_end = strsh.sh_size; names_end && str[names_end - 1];
	     names_end--)
		;
	syms = realloc(e->syms, (e->nsyms + nsyms + 1) * sizeof(*e->syms));
	if (!syms)
		return -ENOMEM;
	e->syms = syms;
	for (i = 0; i < nsyms; i++) {
		if (i % ES_CHUNK == 0) {
			uint64_t n = nsyms - i < ES_CHUNK ? nsyms - i : ES_CHUNK;

			ret = es_read(s, symtab->sh_offset + i * symsz,
				       chunk, n * symsz);
			if (ret < 0)
				return ret;
		}
		es_symbol(s, chunk, i % ES_CHUNK, &symbuf);
		if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC &&
		    ELF64_ST_TYPE(sym->st_info) != STT_GNU_IFUNC)
			continue;
		if (sym->st_shndx == SHN_UNDEF || !sym->st_value ||
		    sym->st_name >= names_end || !str[sym->st_name])
			continue;
		/* ARM: bit 0 of a function's address says Thumb code, it is
		 * not part of where the function starts */
		e->syms[e->nsyms].value = eh->e_machine == EM_ARM ?
			sym->st_value & ~1ULL : sym->st_value;
		e->syms[e->nsyms].size = sym->st_size;
		e->syms[e->nsyms].name = (uint32_t)(base + sym->st_name);
		e->syms[e->nsyms].rank = sym_rank(sym->st_info);
		e->syms[e->nsyms].order = (uint32_t)i;
		e->nsyms++;
	}
	return 0;
}

/*
 * MiniDebugInfo: .gnu_debugdata, an xz-compressed ELF (xz.c) whose .symtab
 * holds the functions stripping took out of .symtab (the others are in
 * .dynsym, read already). Its symbols are added to those; a section that
 * does not decode, or holds no usable table, adds none (the .dynsym names
 * stay), and a table that fails halfway is taken back whole.
 */
static int read_minidebug(struct bb_elfsyms *e, const struct es_src *s,
			  const Elf64_Shdr *sh)
{
	struct es_src in;
	struct es_tables t;
	Elf64_Ehdr eh;
	size_t nsyms = e->nsyms;
	int ret;

	ret = es_minidebug(s, sh, &in, &eh);
	if (ret < 0)
		return ret;
	ret = find_tables(&in, &eh, &t);
	if (ret == 0 && t.symtab.sh_type)
		ret = read_symbols(e, &in, &eh, &t.symtab);
	if (ret < 0)
		e->nsyms = nsyms;
	free((void *)in.buf);
	return ret;
}

/*
 * .gnu_debuglink: the name of the file that holds what stripping took out
 * (NUL-terminated), padded to 4 bytes, then that file's CRC32. A name
 * with a '/', or one that does not fit, is no link (usym.c puts it in a
 * directory).
 */
static void read_debuglink(struct bb_elfsyms *e, const struct es_src *s,
			   const Elf64_Shdr *sh)
{
	char buf[sizeof(e->debuglink) + 8];
	uint64_t len = sh->sh_size < sizeof(buf) ? sh->sh_size : sizeof(buf);
	size_t n;

	if (len < 6 || es_read(s, sh->sh_offset, buf, len) < 0)
		return;
	n = strnlen(buf, len);
	if (!n || n >= sizeof(e->debuglink) || memchr(buf, '/', n) ||
	    ((n + 4) & ~3ULL) + 4 > len)
		return;
	memcpy(e->debuglink, buf, n + 1);
	n = (n + 4) & ~3ULL;
	e->debuglink_crc = (uint32_t)(uint8_t)buf[n] |
			   (uint32_t)(uint8_t)buf[n + 1] << 8 |
			   (uint32_t)(uint8_t)buf[n + 2] << 16 |
			   (uint32_t)(uint8_t)buf[n + 3] << 24;
}

/* .symtab; else .dynsym and MiniDebugInfo's .symtab, together. */
static int read_tables(struct bb_elfsyms *e, const struct es_src *s,
		       const Elf64_Ehdr *eh)
{
	struct es_tables t;
	int ret;

	ret = find_tables(s, eh, &t);
	if (ret == 0 && t.debuglink.sh_type)
		read_debuglink(e, s, &t.debuglink);
	if (ret == 0 && t.symtab.sh_type) {
		ret = read_symbols(e, s, eh, &t.symtab);
		e->symtab = 1;
	} else if (ret == 0) {
		if (t.dynsym.sh_type)
			ret = read_symbols(e, s, eh, &t.dynsym);
		if (ret == 0 && t.debugdata.sh_type &&
		    read_minidebug(e, s, &t.debugdata) == -ENOMEM)
			ret = -ENOMEM;
	}
	if (ret < 0)
		return ret;
	e->nfuncs = e->nsyms;
	if (e->nsyms)
		qsort(e->syms, e->nsyms, sizeof(*e->syms), cmp_sym);
	merge_aliases(e);
	return 0;
}

static int parse(struct bb_elfsyms **ep, struct es_src *s)
{
	struct bb_elfsyms *e;
	Elf64_Ehdr eh;
	int ret;

	*ep = NULL;
	ret = es_ehdr(s, &eh);
	if (ret < 0)
		return ret == -EBADMSG ? -ENOEXEC : ret;
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
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
		if (eh.e_shentsize != ES_SHSZ(s) ||
		    !es_fits(s, eh.e_shoff, eh.e_shnum, ES_SHSZ(s)))
			ret = -EBADMSG;
		else
			ret = read_tables(e, s, &eh);
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
	struct es_src s = { buf, -1, len, 0 };

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
	struct es_src s = { NULL, -1, 0, 0 };
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

size_t elfsyms_build_id(const struct bb_elfsyms *e, const uint8_t **id)
{
	*id = e->build_id;
	return e->build_id_len;
}

int elfsyms_has_symtab(const struct bb_elfsyms *e)
{
	return e->symtab;
}

const char *elfsyms_debuglink(const struct bb_elfsyms *e, uint32_t *crc)
{
	*crc = e->debuglink_crc;
	return e->debuglink[0] ? e->debuglink : NULL;
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
