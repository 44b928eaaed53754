/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checked reader of 64-bit little-endian relocatable BPF objects
 * (ET_REL, EM_BPF) held in memory. elf_open() validates everything it hands
 * out afterwards: every section lies inside the buffer, every name is a
 * NUL-terminated string inside its string table, every symbol's section
 * index and every relocation's symbol index is in range. The accessors
 * below therefore cannot fail.
 *
 * Internal to loader/obj (and its unit tests); tools use obj.h.
 */
#ifndef BAREBPF_ELFREAD_H
#define BAREBPF_ELFREAD_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"

/*
 * Constants (SHT_*, STT_*, SHN_*, EM_BPF) come from the libc's <elf.h>
 * (glibc and musl both have one); this header is not named elf.h because
 * -Iloader would then hide that one from every file, libelf's included.
 */
#include <elf.h>
#ifndef EM_BPF
#define EM_BPF 247
#endif

struct elf_sec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t entsize;
	const unsigned char *data; /* size bytes of the buffer; NULL: NOBITS */
	uint64_t offset;           /* file offset (for cross-checks) */
};

struct elf_sym {
	const char *name; /* "" if none (section symbols have none) */
	uint64_t value;
	uint64_t size;
	uint16_t shndx;   /* < nsecs, or SHN_UNDEF, or >= SHN_LORESERVE */
	uint8_t bind;
	uint8_t type;
};

struct elf_rel {
	uint64_t offset;
	uint32_t sym;     /* < nsyms */
	uint32_t type;
};

struct elf_file {
	const char *name; /* for messages */
	uint16_t machine; /* EM_BPF, or EM_NONE from old llc */
	const unsigned char *buf;
	size_t len;
	struct elf_sec *secs;
	size_t nsecs;
	struct elf_sym *syms; /* decoded .symtab; syms[0] is the null symbol */
	size_t nsyms;
	size_t symtab;        /* section index of .symtab, 0 if none */
};

/* Parse and validate; on failure err says what is wrong and where. */
int elf_open(struct elf_file *ef, const void *buf, size_t len,
	     const char *name, struct bb_err *err);
void elf_close(struct elf_file *ef);

/* Relocations of a SHT_REL section (validated by elf_open). */
size_t elf_nrels(const struct elf_sec *sec);
void elf_rel_at(const struct elf_sec *sec, size_t i, struct elf_rel *rel);

/* Section index by name, or -1. */
int elf_find_sec(const struct elf_file *ef, const char *name);

#endif
