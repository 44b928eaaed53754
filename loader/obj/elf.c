/* SPDX-License-Identifier: MIT */
/*
 * The ELF reader: just enough of ELF64 for relocatable BPF objects, and no
 * libelf (which would drag zlib into a static binary). Fields are decoded
 * byte by byte, so nothing here depends on the buffer's alignment, and every
 * offset, size, index and string is checked before it is used: a truncated
 * or hostile file gives an error, never a crash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "elfread.h"

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define SYM_SIZE  24
#define REL_SIZE  16
#define RELA_SIZE 24


/* Does [off, off + size) lie inside a buffer of len bytes? */
static int in_bounds(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/*
 * A NUL-terminated string at off inside string table sec, or NULL. A
 * string table ends with a NUL (ELF gABI), so any offset inside it starts a
 * terminated string: checked in O(1), where a search for the NUL of each
 * name made many symbols naming one long string quadratic.
 */
static const char *str_at(const struct elf_sec *sec, uint64_t off)
{
	if (!sec->data || off >= sec->size || sec->data[sec->size - 1])
		return NULL;
	return (const char *)sec->data + off;
}

static int check_header(const struct elf_file *ef, struct bb_err *err)
{
	const unsigned char *h = ef->buf;

	if (ef->len < EHDR_SIZE)
		return bb_fail(err, -EINVAL,
			       "%s: %zu bytes is too short for an ELF file",
			       ef->name, ef->len);
	if (memcmp(h, "\177ELF", 4))
		return bb_fail(err, -EINVAL,
			       "%s: not an ELF file (bad magic); expected an "
			       "object from `clang -target bpf -c`", ef->name);
	if (h[4] != ELFCLASS64)
		return bb_fail(err, -EINVAL,
			       "%s: not a 64-bit ELF file (class %u); BPF "
			       "objects are ELF64", ef->name, h[4]);
	if (h[5] == ELFDATA2MSB)
		return bb_fail(err, -EINVAL,
			       "%s: big-endian ELF file; build it with "
			       "`clang -target bpfel` (or -target bpf on a "
			       "little-endian host)", ef->name);
	if (h[5] != ELFDATA2LSB)
		return bb_fail(err, -EINVAL,
			       "%s: unknown ELF data encoding %u", ef->name,
			       h[5]);
	if (h[6] != EV_CURRENT)
		return bb_fail(err, -EINVAL, "%s: unknown ELF version %u",
			       ef->name, h[6]);
	if (bb_le16(h + 16) != ET_REL)
		return bb_fail(err, -EINVAL,
			       "%s: ELF type %u is not a relocatable object "
			       "(ET_REL); compile with `clang -target bpf -c` "
			       "and do not link", ef->name, bb_le16(h + 16));
	/* Old llc wrote EM_NONE; obj.c checks that the body is BPF. */
	if (bb_le16(h + 18) != EM_BPF && bb_le16(h + 18) != EM_NONE)
		return bb_fail(err, -EINVAL,
			       "%s: ELF machine %u is not BPF (%d); compile "
			       "with `clang -target bpf`", ef->name,
			       bb_le16(h + 18), EM_BPF);
	return 0;
}

static int read_sections(struct elf_file *ef, struct bb_err *err)
{
	const unsigned char *h = ef->buf;
	uint64_t shoff = bb_le64(h + 40);
	uint16_t shentsize = bb_le16(h + 58);
	uint16_t shnum = bb_le16(h + 60);
	uint16_t shstrndx = bb_le16(h + 62);
	const struct elf_sec *shstr;
	size_t i;

	if (shoff == 0 || shnum == 0)
		/*
		 * shnum 0 with shoff set means more than 0xff00 sections
		 * (count in section 0): never a BPF object.
		 */
		return bb_fail(err, -EINVAL, "%s: no section headers",
			       ef->name);
	if (shentsize != SHDR_SIZE)
		return bb_fail(err, -EINVAL,
			       "%s: section header size %u, expected %d",
			       ef->name, shentsize, SHDR_SIZE);
	if (!in_bounds(shoff, (uint64_t)shnum * SHDR_SIZE, ef->len))
		return bb_fail(err, -EINVAL,
			       "%s: section headers (offset %llu, %u entries) "
			       "lie past the end of the file (%zu bytes); "
			       "truncated?", ef->name,
			       (unsigned long long)shoff, shnum, ef->len);
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum)
		return bb_fail(err, -EINVAL,
			       "%s: section name table index %u out of range "
			       "(%u sections)", ef->name, shstrndx, shnum);

	ef->secs = calloc(shnum, sizeof(*ef->secs));
	if (!ef->secs)
		return bb_fail(err, -ENOMEM, "%s: out of memory", ef->name);
	ef->nsecs = shnum;
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = ef->buf + shoff + i * SHDR_SIZE;
		struct elf_sec *sec = &ef->secs[i];
		uint64_t off = bb_le64(s + 24);

		sec->type = bb_le32(s + 4);
		sec->flags = bb_le64(s + 8);
		sec->offset = off;
		sec->size = bb_le64(s + 32);
		sec->link = bb_le32(s + 40);
		sec->info = bb_le32(s + 44);
		sec->entsize = bb_le64(s + 56);
		if (sec->type == SHT_NOBITS || sec->type == SHT_NULL)
			continue;
		if (!in_bounds(off, sec->size, ef->len))
			return bb_fail(err, -EINVAL,
				       "%s: section %zu (offset %llu, size "
				       "%llu) lies past the end of the file "
				       "(%zu bytes); truncated?", ef->name, i,
				       (unsigned long long)off,
				       (unsigned long long)sec->size, ef->len);
		sec->data = ef->buf + off;
	}

	shstr = &ef->secs[shstrndx];
	if (shstr->type != SHT_STRTAB)
		return bb_fail(err, -EINVAL,
			       "%s: section name table (section %u) is not a "
			       "string table", ef->name, shstrndx);
	if (!shstr->size || shstr->data[shstr->size - 1])
		return bb_fail(err, -EINVAL,
			       "%s: section name table (section %u) does not "
			       "end with a NUL byte; corrupt object?",
			       ef->name, shstrndx);
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = ef->buf + shoff + i * SHDR_SIZE;

		ef->secs[i].name = str_at(shstr, bb_le32(s));
		if (!ef->secs[i].name)
			return bb_fail(err, -EINVAL,
				       "%s: section %zu: name offset %u is not "
				       "a string in the section name table",
				       ef->name, i, bb_le32(s));
	}
	return 0;
}

static int read_symbols(struct elf_file *ef, struct bb_err *err)
{
	const struct elf_sec *sec = NULL, *strtab;
	size_t i;

	for (i = 1; i < ef->nsecs; i++) {
		if (ef->secs[i].type != SHT_SYMTAB)
			continue;
		if (sec)
			return bb_fail(err, -EINVAL,
				       "%s: more than one symbol table",
				       ef->name);
		sec = &ef->secs[i];
		ef->symtab = i;
	}
	if (!sec)
		return 0; /* obj.c says why it needs one, if it does */
	if (sec->entsize != SYM_SIZE || sec->size % SYM_SIZE)
		return bb_fail(err, -EINVAL,
			       "%s: symbol table %s: entry size %llu, size "
			       "%llu (expected entries of %d bytes)", ef->name,
			       sec->name, (unsigned long long)sec->entsize,
			       (unsigned long long)sec->size, SYM_SIZE);
	if (sec->link == 0 || sec->link >= ef->nsecs ||
	    ef->secs[sec->link].type != SHT_STRTAB)
		return bb_fail(err, -EINVAL,
			       "%s: symbol table %s: sh_link %u is not a "
			       "string table", ef->name, sec->name, sec->link);
	strtab = &ef->secs[sec->link];
	if (!strtab->data || !strtab->size ||
	    strtab->data[strtab->size - 1])
		return bb_fail(err, -EINVAL,
			       "%s: string table %s does not end with a NUL "
			       "byte; corrupt object?", ef->name, strtab->name);

	ef->nsyms = sec->size / SYM_SIZE;
	ef->syms = calloc(ef->nsyms ? ef->nsyms : 1, sizeof(*ef->syms));
	if (!ef->syms)
		return bb_fail(err, -ENOMEM, "%s: out of memory", ef->name);
	for (i = 0; i < ef->nsyms; i++) {
		const unsigned char *s = sec->data + i * SYM_SIZE;
		struct elf_sym *sym = &ef->syms[i];

		sym->name = str_at(strtab, bb_le32(s));
		if (!sym->name)
			return bb_fail(err, -EINVAL,
				       "%s: symbol %zu: name offset %u is not "
				       "a string in %s", ef->name, i, bb_le32(s),
				       strtab->name);
		sym->bind = s[4] >> 4;
		sym->type = s[4] & 0xf;
		sym->shndx = bb_le16(s + 6);
		sym->value = bb_le64(s + 8);
		sym->size = bb_le64(s + 16);
		if (sym->shndx == SHN_XINDEX ||
		    (sym->shndx >= ef->nsecs && sym->shndx < SHN_LORESERVE))
			return bb_fail(err, -EINVAL,
				       "%s: symbol '%s': section index %u out "
				       "of range (%zu sections)", ef->name,
				       sym->name, sym->shndx, ef->nsecs);
	}
	return 0;
}

static int check_rel_section(const struct elf_file *ef,
			     const struct elf_sec *sec, struct bb_err *err)
{
	size_t i, n;

	if (sec->entsize != REL_SIZE || sec->size % REL_SIZE)
		return bb_fail(err, -EINVAL,
			       "%s: relocation section %s: entry size %llu, "
			       "size %llu (expected entries of %d bytes)",
			       ef->name, sec->name,
			       (unsigned long long)sec->entsize,
			       (unsigned long long)sec->size, REL_SIZE);
	if (!ef->symtab || sec->link != ef->symtab)
		return bb_fail(err, -EINVAL,
			       "%s: relocation section %s: sh_link %u is not "
			       "the symbol table", ef->name, sec->name,
			       sec->link);
	if (sec->info == 0 || sec->info >= ef->nsecs)
		return bb_fail(err, -EINVAL,
			       "%s: relocation section %s: sh_info %u is not "
			       "a section (%zu sections)", ef->name, sec->name,
			       sec->info, ef->nsecs);
	n = elf_nrels(sec);
	for (i = 0; i < n; i++) {
		struct elf_rel rel;

		elf_rel_at(sec, i, &rel);
		if (rel.sym >= ef->nsyms)
			return bb_fail(err, -EINVAL,
				       "%s: relocation section %s, entry %zu: "
				       "symbol index %u out of range (%zu "
				       "symbols)", ef->name, sec->name, i,
				       rel.sym, ef->nsyms);
	}
	return 0;
}

static int check_relocations(const struct elf_file *ef, struct bb_err *err)
{
	size_t i;
	int ret;

	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *sec = &ef->secs[i];

		if (sec->type == SHT_RELA)
			/* LLVM's BPF backend has only ever written SHT_REL. */
			return bb_fail(err, -EINVAL,
				       "%s: section %s has relocations with "
				       "addends (SHT_RELA), which barebpf "
				       "does not handle; build the object "
				       "with `clang -target bpf -c`",
				       ef->name, sec->name);
		if (sec->type != SHT_REL)
			continue;
		ret = check_rel_section(ef, sec, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int elf_open(struct elf_file *ef, const void *buf, size_t len,
	     const char *name, struct bb_err *err)
{
	int ret;

	memset(ef, 0, sizeof(*ef));
	ef->name = name ? name : "BPF object";
	ef->buf = buf;
	ef->len = buf ? len : 0;
	ret = check_header(ef, err);
	if (ret < 0)
		return ret;
	ef->machine = bb_le16((const unsigned char *)buf + 18);
	ret = read_sections(ef, err);
	if (ret < 0)
		goto err_free;
	ret = read_symbols(ef, err);
	if (ret < 0)
		goto err_free;
	ret = check_relocations(ef, err);
	if (ret < 0)
		goto err_free;
	return 0;

err_free:
	elf_close(ef);
	return ret;
}

void elf_close(struct elf_file *ef)
{
	free(ef->secs);
	free(ef->syms);
	ef->secs = NULL;
	ef->syms = NULL;
	ef->nsecs = 0;
	ef->nsyms = 0;
}

size_t elf_nrels(const struct elf_sec *sec)
{
	return sec->data ? sec->size / REL_SIZE : 0;
}

void elf_rel_at(const struct elf_sec *sec, size_t i, struct elf_rel *rel)
{
	const unsigned char *r = sec->data + i * REL_SIZE;
	uint64_t info = bb_le64(r + 8);

	rel->offset = bb_le64(r);
	rel->sym = info >> 32;
	rel->type = (uint32_t)info;
}

int elf_find_sec(const struct elf_file *ef, const char *name)
{
	size_t i;

	for (i = 1; i < ef->nsecs; i++)
		if (!strcmp(ef->secs[i].name, name))
			return i;
	return -1;
}
