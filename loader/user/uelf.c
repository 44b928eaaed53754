/* SPDX-License-Identifier: MIT */
/*
 * Reading the ELF files of user-space programs (elfsyms.c, elflookup.c):
 * from a buffer or with pread() (a file truncated under a mapping would
 * fault with SIGBUS), every read checked against the size; either class, ELF64
 * or ELF32 (the programs on a 32-bit ARM board), little endian. An ELF32
 * header, program header, section header or symbol is widened to its
 * Elf64 form as it is read, so that they read one form.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include "usyms.h"
#include "uelf.h"

/* MiniDebugInfo: its compressed section, and the ELF it holds */
#define ES_MAX_DEBUGDATA (16u << 20)
#define ES_MAX_MINIDEBUG (64u << 20)

int es_read(const struct es_src *s, uint64_t off, void *dst,
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

int es_fits(const struct es_src *s, uint64_t off, uint64_t n,
		      uint64_t size)
{
	return off <= s->size && n <= (s->size - off) / size;
}

int es_ehdr(struct es_src *s, Elf64_Ehdr *eh)
{
	Elf32_Ehdr e32;
	int ret;

	ret = es_read(s, 0, eh->e_ident, EI_NIDENT);
	if (ret < 0)
		return ret;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return -ENOEXEC;
	if (eh->e_ident[EI_CLASS] == ELFCLASS64)
		return es_read(s, 0, eh, sizeof(*eh));
	if (eh->e_ident[EI_CLASS] != ELFCLASS32)
		return -ENOEXEC;
	s->is32 = 1;
	ret = es_read(s, 0, &e32, sizeof(e32));
	if (ret < 0)
		return ret;
	eh->e_type = e32.e_type;
	eh->e_machine = e32.e_machine;
	eh->e_version = e32.e_version;
	eh->e_entry = e32.e_entry;
	eh->e_phoff = e32.e_phoff;
	eh->e_shoff = e32.e_shoff;
	eh->e_flags = e32.e_flags;
	eh->e_ehsize = e32.e_ehsize;
	eh->e_phentsize = e32.e_phentsize;
	eh->e_phnum = e32.e_phnum;
	eh->e_shentsize = e32.e_shentsize;
	eh->e_shnum = e32.e_shnum;
	eh->e_shstrndx = e32.e_shstrndx;
	return 0;
}

int es_phdr(const struct es_src *s, const Elf64_Ehdr *eh, size_t i,
		     Elf64_Phdr *ph)
{
	Elf32_Phdr p32;
	int ret;

	if (!s->is32)
		return es_read(s, eh->e_phoff + i * sizeof(*ph), ph,
				sizeof(*ph));
	ret = es_read(s, eh->e_phoff + i * sizeof(p32), &p32, sizeof(p32));
	if (ret < 0)
		return ret;
	ph->p_type = p32.p_type;
	ph->p_flags = p32.p_flags;
	ph->p_offset = p32.p_offset;
	ph->p_vaddr = p32.p_vaddr;
	ph->p_paddr = p32.p_paddr;
	ph->p_filesz = p32.p_filesz;
	ph->p_memsz = p32.p_memsz;
	ph->p_align = p32.p_align;
	return 0;
}

int es_shdr(const struct es_src *s, const Elf64_Ehdr *eh,
		     uint32_t i, Elf64_Shdr *sh)
{
	Elf32_Shdr s32;
	int ret;

	if (!s->is32)
		return es_read(s, eh->e_shoff + (uint64_t)i * sizeof(*sh), sh,
				sizeof(*sh));
	ret = es_read(s, eh->e_shoff + (uint64_t)i * sizeof(s32), &s32,
		       sizeof(s32));
	if (ret < 0)
		return ret;
	sh->sh_name = s32.sh_name;
	sh->sh_type = s32.sh_type;
	sh->sh_flags = s32.sh_flags;
	sh->sh_addr = s32.sh_addr;
	sh->sh_offset = s32.sh_offset;
	sh->sh_size = s32.sh_size;
	sh->sh_link = s32.sh_link;
	sh->sh_info = s32.sh_info;
	sh->sh_addralign = s32.sh_addralign;
	sh->sh_entsize = s32.sh_entsize;
	return 0;
}

void es_symbol(const struct es_src *s, const void *raw, size_t i,
		   Elf64_Sym *sym)
{
	Elf32_Sym s32;

	if (!s->is32) {
		memcpy(sym, (const Elf64_Sym *)raw + i, sizeof(*sym));
		return;
	}
	memcpy(&s32, (const Elf32_Sym *)raw + i, sizeof(s32));
	sym->st_name = s32.st_name;
	sym->st_info = s32.st_info;
	sym->st_other = s32.st_other;
	sym->st_shndx = s32.st_shndx;
	sym->st_value = s32.st_value;
	sym->st_size = s32.st_size;
}

/*
 * The GNU build id (NT_GNU_BUILD_ID, owner "GNU") among the notes at
 * [off, off + len): its length, copied to id (at most max bytes; a longer
 * one counts as none), or 0. Notes are padded to 4 bytes, or to 8 in a
 * segment aligned to 8 (.note.gnu.property).
 */
size_t es_build_id(const struct es_src *s, uint64_t off, uint64_t len,
		   unsigned align, uint8_t *id, size_t max)
{
	uint64_t pad = align == 8 ? 8 : 4;

	while (len >= 12) {
		uint32_t h[3];
		uint64_t nsz, dsz;
		char owner[4];

		if (es_read(s, off, h, sizeof(h)) < 0)
			return 0;
		nsz = ((uint64_t)h[0] + pad - 1) / pad * pad;
		dsz = ((uint64_t)h[1] + pad - 1) / pad * pad;
		if (nsz > len - 12 || dsz > len - 12 - nsz)
			return 0;
		if (h[2] == NT_GNU_BUILD_ID && h[0] == 4 && h[1] &&
		    h[1] <= max &&
		    es_read(s, off + 12, owner, 4) == 0 &&
		    !memcmp(owner, "GNU", 4) &&
		    es_read(s, off + 12 + nsz, id, h[1]) == 0)
			return h[1];
		off += 12 + nsz + dsz;
		len -= 12 + nsz + dsz;
	}
	return 0;
}

/* Is section sh a PROGBITS named name? Read from the section names
 * (e_shstrndx), within them. */
int es_is_named(const struct es_src *s, const Elf64_Ehdr *eh,
		const Elf64_Shdr *sh, const char *name)
{
	char buf[32];
	size_t len = strlen(name) + 1;
	Elf64_Shdr names;

	if (sh->sh_type != SHT_PROGBITS || len > sizeof(buf) ||
	    eh->e_shstrndx >= eh->e_shnum ||
	    es_shdr(s, eh, eh->e_shstrndx, &names) < 0 ||
	    names.sh_size < len || sh->sh_name > names.sh_size - len ||
	    es_read(s, names.sh_offset + sh->sh_name, buf, len) < 0)
		return 0;
	return !memcmp(buf, name, len);
}

int es_is_debugdata(const struct es_src *s, const Elf64_Ehdr *eh,
		    const Elf64_Shdr *sh)
{
	return es_is_named(s, eh, sh, ".gnu_debugdata");
}

/*
 * MiniDebugInfo: .gnu_debugdata, an xz-compressed ELF (xz.c) whose .symtab
 * holds the functions stripping took out of .symtab. Bounded before it is
 * read and as it is decoded; the image's header is read and its section
 * headers checked to lie inside it, so that es_shdr can read any of them.
 */
int es_minidebug(const struct es_src *s, const Elf64_Shdr *sh,
		 struct es_src *in, Elf64_Ehdr *eh)
{
	uint8_t *packed, *elf;
	size_t len;
	int ret;

	memset(in, 0, sizeof(*in));
	in->fd = -1;
	if (!sh->sh_size || sh->sh_size > ES_MAX_DEBUGDATA ||
	    !es_fits(s, sh->sh_offset, sh->sh_size, 1))
		return -EBADMSG;
	packed = malloc(sh->sh_size);
	if (!packed)
		return -ENOMEM;
	ret = es_read(s, sh->sh_offset, packed, sh->sh_size);
	if (ret == 0)
		ret = xz_decode(packed, sh->sh_size, ES_MAX_MINIDEBUG, &elf,
				&len);
	free(packed);
	if (ret < 0)
		return ret;
	in->buf = elf;
	in->size = len;
	ret = es_ehdr(in, eh);
	if (ret == 0 && (!eh->e_shnum || eh->e_shentsize != ES_SHSZ(in) ||
			 !es_fits(in, eh->e_shoff, eh->e_shnum, ES_SHSZ(in))))
		ret = -EBADMSG;
	if (ret < 0) {
		free(elf);
		in->buf = NULL;
	}
	return ret;
}
