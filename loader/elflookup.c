/* SPDX-License-Identifier: MIT */
/*
 * By name: the file offset of a function, for uprobes.
 *
 * Apart from elfsyms.c on purpose: a lookup by name needs every alias
 * (glibc's `malloc` shares its address with `__libc_malloc`, and elfsyms.c
 * keeps one name per address), and it reads ELF32 as well as ELF64 (32-bit
 * ARM binaries). The symbol's address becomes a file offset through the
 * PT_LOAD that holds it, as bcc does (bcc_elf_foreach_sym, then addr -
 * p_vaddr + p_offset): that is what the kernel's uprobe takes. As in
 * elfsyms.c, nothing in the file is trusted: every offset and count is
 * checked against its size before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include "barebpf.h"

#define ES_MAX_STRTAB (256u << 20)
#define ES_CHUNK 512 /* symbols read per pread */

struct es_src {
	int fd;
	uint64_t size;
};

static int src_read(const struct es_src *s, uint64_t off, void *dst,
		    uint64_t len)
{
	unsigned char *d = dst;

	if (off > s->size || len > s->size - off)
		return -EBADMSG;
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

/* n entries of size each from off lie inside the file */
static int table_fits(const struct es_src *s, uint64_t off, uint64_t n,
		      uint64_t size)
{
	return off <= s->size && n <= (s->size - off) / size;
}

struct el_file {
	struct es_src src;
	int is64, machine;
	uint64_t phoff, shoff;
	uint32_t phnum, shnum, phent, shent;
};

static uint64_t el_word(const unsigned char *p, int is64)
{
	uint64_t v = 0;
	int i, n = is64 ? 8 : 4;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t el_u32(const unsigned char *p)
{
	return (uint32_t)el_word(p, 0);
}

static uint16_t el_u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int el_open(struct el_file *f)
{
	unsigned char h[64];
	int ret = src_read(&f->src, 0, h, 52), ph;

	if (ret < 0 || memcmp(h, ELFMAG, SELFMAG) || h[EI_DATA] != ELFDATA2LSB)
		return -ENOEXEC;
	f->is64 = h[EI_CLASS] == ELFCLASS64;
	if (!f->is64 && h[EI_CLASS] != ELFCLASS32)
		return -ENOEXEC;
	if (f->is64 && src_read(&f->src, 0, h, 64) < 0)
		return -ENOEXEC;
	f->machine = el_u16(h + 18);
	if (el_u16(h + 16) != ET_EXEC && el_u16(h + 16) != ET_DYN)
		return -ENOEXEC;
	/* e_phoff, e_shoff, then 4 bytes of flags and e_ehsize */
	f->phoff = el_word(h + (f->is64 ? 32 : 28), f->is64);
	f->shoff = el_word(h + (f->is64 ? 40 : 32), f->is64);
	ph = f->is64 ? 54 : 42; /* e_phentsize, e_phnum, e_shentsize, ... */
	f->phent = el_u16(h + ph);
	f->phnum = el_u16(h + ph + 2);
	f->shent = el_u16(h + ph + 4);
	f->shnum = el_u16(h + ph + 6);
	if (f->phent != (f->is64 ? 56u : 32u) ||
	    !table_fits(&f->src, f->phoff, f->phnum, f->phent))
		return -EBADMSG;
	if (f->shnum && (f->shent != (f->is64 ? 64u : 40u) ||
			 !table_fits(&f->src, f->shoff, f->shnum, f->shent)))
		return -EBADMSG;
	return 0;
}

/* Link-time address -> file offset, through the PT_LOAD holding it. */
static int el_foff(const struct el_file *f, uint64_t vaddr, uint64_t *foff)
{
	unsigned char p[56];
	uint32_t i;

	for (i = 0; i < f->phnum; i++) {
		uint64_t off, va, filesz;

		if (src_read(&f->src, f->phoff + (uint64_t)i * f->phent, p,
			     f->phent) < 0)
			return -EBADMSG;
		if (el_u32(p) != PT_LOAD)
			continue;
		if (f->is64) {
			off = el_word(p + 8, 1);
			va = el_word(p + 16, 1);
			filesz = el_word(p + 32, 1);
		} else {
			off = el_u32(p + 4);
			va = el_u32(p + 8);
			filesz = el_u32(p + 16);
		}
		/* a segment past the file's end holds nothing to probe */
		if (vaddr >= va && vaddr - va < filesz &&
		    table_fits(&f->src, off, filesz, 1)) {
			*foff = vaddr - va + off;
			return 0;
		}
	}
	return -ENOENT;
}

struct el_shdr {
	uint32_t type, link;
	uint64_t offset, size, entsize;
};

static int el_shdr(const struct el_file *f, uint32_t i, struct el_shdr *sh)
{
	unsigned char b[64];
	int w = f->is64 ? 8 : 4;

	if (i >= f->shnum ||
	    src_read(&f->src, f->shoff + (uint64_t)i * f->shent, b, f->shent))
		return -EBADMSG;
	/* name, type, flags, addr, offset, size, link, info, align, entsize */
	sh->type = el_u32(b + 4);
	sh->offset = el_word(b + 8 + 2 * w, f->is64);
	sh->size = el_word(b + 8 + 3 * w, f->is64);
	sh->link = el_u32(b + 8 + 4 * w);
	sh->entsize = el_word(b + 16 + 4 * w + w, f->is64);
	return 0;
}

/* Each function symbol of one table that matches glob: fn(name, foff). */
static int el_table(const struct el_file *f, const struct el_shdr *tab,
		    const char *glob, elfsyms_name_fn fn, void *ctx, int *stop,
		    int *thumb)
{
	uint64_t esz = f->is64 ? 24 : 16, n, i;
	struct el_shdr str;
	unsigned char chunk[ES_CHUNK * 24];
	char *names;
	int ret, found = 0;

	if (tab->entsize != esz || !table_fits(&f->src, tab->offset,
					       n = tab->size / esz, esz))
		return -EBADMSG;
	if (el_shdr(f, tab->link, &str) < 0 || str.type != SHT_STRTAB ||
	    !str.size || str.size > ES_MAX_STRTAB ||
	    !table_fits(&f->src, str.offset, str.size, 1))
		return -EBADMSG;
	names = malloc(str.size + 1);
	if (!names)
		return -ENOMEM;
	ret = src_read(&f->src, str.offset, names, str.size);
	names[str.size] = 0;
	for (i = 0; !ret && i < n; i++) {
		uint64_t value, foff;
		uint32_t name;
		unsigned type, shndx;

		const unsigned char *sym = chunk + (i % ES_CHUNK) * esz;

		if (i % ES_CHUNK == 0) {
			uint64_t k = n - i < ES_CHUNK ? n - i : ES_CHUNK;

			ret = src_read(&f->src, tab->offset + i * esz, chunk,
				       k * esz);
			if (ret < 0)
				break;
		}
		name = el_u32(sym);
		value = f->is64 ? el_word(sym + 8, 1) : el_u32(sym + 4);
		type = (f->is64 ? sym[4] : sym[12]) & 0xf;
		shndx = el_u16(sym + (f->is64 ? 6 : 14));
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    shndx == SHN_UNDEF || !value || name >= str.size ||
		    !names[name] || fnmatch(glob, names + name, 0))
			continue;
		/* Thumb functions have bit 0 set: 32-bit ARM kernels put
		 * an ARM breakpoint in and decode ARM instructions only
		 * ("Thumb not yet support", arch/arm/probes/uprobes/core.c),
		 * and accept a 4-aligned Thumb function as if it were ARM
		 * code: never offered */
		if (f->machine == EM_ARM && (value & 1)) {
			(*thumb)++;
			continue;
		}
		if (el_foff(f, value, &foff) < 0)
			continue;
		found++;
		ret = fn(ctx, names + name, foff);
	}
	free(names);
	*stop = ret > 0;
	return ret < 0 ? ret : found;
}

int elfsyms_lookup_fd(int fd, const char *glob, elfsyms_name_fn fn,
		      void *ctx)
{
	struct el_file f = { { fd, 0 }, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct el_shdr sh;
	struct stat st;
	int ret, total = 0, pass, stop = 0, thumb = 0;
	uint32_t i;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	f.src.size = st.st_size;
	ret = el_open(&f);
	if (ret < 0)
		return ret;
	/* .symtab first; .dynsym only if .symtab found nothing (a stripped
	 * file), so that a name is not reported twice */
	for (pass = 0; pass < 2 && !total; pass++)
		for (i = 0; i < f.shnum && !stop; i++) {
			if (el_shdr(&f, i, &sh) < 0)
				return -EBADMSG;
			if (sh.type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			ret = el_table(&f, &sh, glob, fn, ctx, &stop,
				       &thumb);
			if (ret < 0)
				return ret;
			total += ret;
		}
	return !total && thumb ? -EOPNOTSUPP : total;
}

int elfsyms_lookup(const char *path, const char *glob, elfsyms_name_fn fn,
		   void *ctx)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = elfsyms_lookup_fd(fd, glob, fn, ctx);
	close(fd);
	return ret;
}
