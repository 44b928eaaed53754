/* SPDX-License-Identifier: MIT */
/*
 * Inside the user-space ELF readers (elfsyms.c, elflookup.c), not a
 * library interface: reading an untrusted ELF file of either class, and
 * the image its MiniDebugInfo holds (uelf.c).
 */
#ifndef BAREBPF_UELF_H
#define BAREBPF_UELF_H

#include <stdint.h>
#include <stddef.h>
#include <elf.h>

/* Where the ELF bytes come from: a buffer (tests) or a file. */
struct es_src {
	const unsigned char *buf;
	int fd;
	uint64_t size;
	int is32; /* ELFCLASS32: its headers and symbols are widened */
};

/* The sizes of the file's own structures, by class. */
#define ES_PHSZ(s) ((s)->is32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr))
#define ES_SHSZ(s) ((s)->is32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr))
#define ES_SYMSZ(s) ((s)->is32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym))

/* len bytes at off: -EBADMSG if they are not all in the source */
int es_read(const struct es_src *s, uint64_t off, void *dst, uint64_t len);
/* n entries of size each from off lie inside the source: checked once, so
 * that off + i * size cannot wrap around afterwards. */
int es_fits(const struct es_src *s, uint64_t off, uint64_t n, uint64_t size);
/* The ELF header, of either class, as an Elf64_Ehdr; sets s->is32.
 * -ENOEXEC: not an ELF little-endian file of a known class. */
int es_ehdr(struct es_src *s, Elf64_Ehdr *eh);
/* Program header i, section header i, as their Elf64 forms. */
int es_phdr(const struct es_src *s, const Elf64_Ehdr *eh, size_t i,
	    Elf64_Phdr *ph);
int es_shdr(const struct es_src *s, const Elf64_Ehdr *eh, uint32_t i,
	    Elf64_Shdr *sh);
/* Symbol i of a chunk read raw from the file, as an Elf64_Sym. */
void es_symbol(const struct es_src *s, const void *raw, size_t i,
	    Elf64_Sym *sym);
/* The GNU build id among the notes at [off, off + len) (a PT_NOTE of
 * alignment align): its length, copied to id (at most max), or 0. */
size_t es_build_id(const struct es_src *s, uint64_t off, uint64_t len,
		   unsigned align, uint8_t *id, size_t max);
/* Is section sh of s a PROGBITS named name (at most 31 bytes)? 1 or 0. */
int es_is_named(const struct es_src *s, const Elf64_Ehdr *eh,
		const Elf64_Shdr *sh, const char *name);
/* Is section sh of s named .gnu_debugdata (MiniDebugInfo)? 1 or 0. */
int es_is_debugdata(const struct es_src *s, const Elf64_Ehdr *eh,
		    const Elf64_Shdr *sh);
/* The ELF image that MiniDebugInfo section sh of s holds, decoded: a
 * buffer source *in (free in->buf after), its header *eh, its section
 * headers inside it. -EBADMSG: damaged or too large; -ENOMEM. */
int es_minidebug(const struct es_src *s, const Elf64_Shdr *sh,
		 struct es_src *in, Elf64_Ehdr *eh);

#endif
