/* SPDX-License-Identifier: MIT */
/*
 * By name: the file offset of a function, for uprobes.
 *
 * Apart from elfsyms.c on purpose: a lookup by name needs every alias
 * (glibc's `malloc` shares its address with `__libc_malloc`, and elfsyms.c
 * keeps one name per address); ELF32 as well as ELF64 (32-bit ARM
 * binaries). The symbol's address becomes a file offset through the
 * PT_LOAD that holds it, as bcc does (bcc_elf_foreach_sym, then addr -
 * p_vaddr + p_offset): that is what the kernel's uprobe takes. A stripped
 * file's MiniDebugInfo is searched too, with its .dynsym. As in
 * elfsyms.c, nothing in the file is trusted: every offset and count is
 * checked against its size before use; the file is read through uelf.c,
 * as elfsyms.c reads it.
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
#include "uelf.h"
#include "user.h"

#define ES_MAX_STRTAB (256u << 20)
#define ES_CHUNK 512 /* symbols read per pread */

/* The file searched: its source and its header (uelf.c). */
struct el_file {
	struct es_src src;
	Elf64_Ehdr eh;
};

static int el_open(struct el_file *f)
{
	Elf64_Ehdr *eh = &f->eh;

	if (es_ehdr(&f->src, eh) < 0)
		return -ENOEXEC;
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return -ENOEXEC;
	if (eh->e_phentsize != ES_PHSZ(&f->src) ||
	    !es_fits(&f->src, eh->e_phoff, eh->e_phnum, ES_PHSZ(&f->src)))
		return -EBADMSG;
	if (eh->e_shnum && (eh->e_shentsize != ES_SHSZ(&f->src) ||
			    !es_fits(&f->src, eh->e_shoff, eh->e_shnum,
				     ES_SHSZ(&f->src))))
		return -EBADMSG;
	return 0;
}

/* Link-time address -> file offset, through the PT_LOAD holding it. */
static int el_foff(const struct el_file *f, uint64_t vaddr, uint64_t *foff)
{
	Elf64_Phdr ph;
	uint32_t i;

	for (i = 0; i < f->eh.e_phnum; i++) {
		if (es_phdr(&f->src, &f->eh, i, &ph) < 0)
			return -EBADMSG;
		if (ph.p_type != PT_LOAD)
			continue;
		/* a segment past the file's end holds nothing to probe */
		if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz &&
		    es_fits(&f->src, ph.p_offset, ph.p_filesz, 1)) {
			*foff = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* Section header i of f, which has it. */
static int el_shdr(const struct el_file *f, uint32_t i, Elf64_Shdr *sh)
{
	if (i >= f->eh.e_shnum || es_shdr(&f->src, &f->eh, i, sh) < 0)
		return -EBADMSG;
	return 0;
}

/* Each function symbol of one table of t that matches glob: fn(name,
 * foff), the offset in f, the file probed (t is f, or the ELF image that
 * f's MiniDebugInfo holds). */
static int el_table(const struct el_file *f, const struct el_file *t,
		    const Elf64_Shdr *tab, const char *glob,
		    elfsyms_name_fn fn, void *ctx, int *stop, int *thumb)
{
	const struct es_src *s = &t->src;
	uint64_t esz = ES_SYMSZ(s), n, i;
	Elf64_Shdr str;
	Elf64_Sym chunk[ES_CHUNK], sym; /* room for either class */
	char *names;
	int ret, found = 0;

	if (tab->sh_entsize != esz ||
	    !es_fits(s, tab->sh_offset, n = tab->sh_size / esz, esz))
		return -EBADMSG;
	if (el_shdr(t, tab->sh_link, &str) < 0 || str.sh_type != SHT_STRTAB ||
	    !str.sh_size || str.sh_size > ES_MAX_STRTAB ||
	    !es_fits(s, str.sh_offset, str.sh_size, 1))
		return -EBADMSG;
	names = malloc(str.sh_size + 1);
	if (!names)
		return -ENOMEM;
	ret = es_read(s, str.sh_offset, names, str.sh_size);
	names[str.sh_size] = 0;
	for (i = 0; !ret && i < n; i++) {
		uint64_t foff;
		unsigned type;

		if (i % ES_CHUNK == 0) {
			uint64_t k = n - i < ES_CHUNK ? n - i : ES_CHUNK;

			ret = es_read(s, tab->sh_offset + i * esz, chunk,
				      k * esz);
			if (ret < 0)
				break;
		}
		es_symbol(s, chunk, i % ES_CHUNK, &sym);
		type = ELF64_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value ||
		    sym.st_name >= str.sh_size || !names[sym.st_name] ||
		    fnmatch(glob, names + sym.st_name, 0))
			continue;
		/* Thumb functions have bit 0 set: 32-bit ARM kernels put
		 * an ARM breakpoint in and decode ARM instructions only
		 * ("Thumb not yet support", arch/arm/probes/uprobes/core.c),
		 * and accept a 4-aligned Thumb function as if it were ARM
		 * code: never offered */
		if (f->eh.e_machine == EM_ARM && (sym.st_value & 1)) {
			(*thumb)++;
			continue;
		}
		if (el_foff(f, sym.st_value, &foff) < 0)
			continue;
		found++;
		ret = fn(ctx, names + sym.st_name, foff);
	}
	free(names);
	*stop = ret > 0;
	return ret < 0 ? ret : found;
}

/*
 * MiniDebugInfo (Fedora's stripped programs): the .symtab of the image
 * .gnu_debugdata holds names the functions .dynsym lacks (static ones,
 * main), at the addresses of f itself; searched with .dynsym, as bcc does.
 * A section that does not decode adds nothing, as in elfsyms.c: only
 * -ENOMEM and the callback's error count.
 */
static int el_minidebug(const struct el_file *f, const Elf64_Shdr *dd,
			const char *glob, elfsyms_name_fn fn, void *ctx,
			int *thumb)
{
	struct el_file in;
	Elf64_Shdr sh;
	int ret, total = 0, stop = 0;
	uint32_t i;

	ret = es_minidebug(&f->src, dd, &in.src, &in.eh);
	if (ret < 0)
		return ret == -ENOMEM ? ret : 0;
	for (i = 0; i < in.eh.e_shnum && !stop; i++) {
		if (el_shdr(&in, i, &sh) < 0 || sh.sh_type != SHT_SYMTAB)
			continue;
		ret = el_table(f, &in, &sh, glob, fn, ctx, &stop, thumb);
		if (ret < 0 && ret != -EBADMSG) {
			total = ret;
			break;
		}
		total += ret > 0 ? ret : 0;
	}
	free((void *)in.src.buf);
	return total;
}

int elfsyms_lookup_fd(int fd, const char *glob, elfsyms_name_fn fn,
		      void *ctx)
{
	struct el_file f = { { NULL, fd, 0, 0 }, { { 0 } } };
	Elf64_Shdr sh, debugdata = { 0 };
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
		for (i = 0; i < f.eh.e_shnum && !stop; i++) {
			if (el_shdr(&f, i, &sh) < 0)
				return -EBADMSG;
			if (pass && !debugdata.sh_type &&
			    es_is_debugdata(&f.src, &f.eh, &sh))
				debugdata = sh;
			if (sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			ret = el_table(&f, &f, &sh, glob, fn, ctx, &stop,
				       &thumb);
			if (ret < 0)
				return ret;
			total += ret;
		}
	if (debugdata.sh_type && !stop) {
		ret = el_minidebug(&f, &debugdata, glob, fn, ctx, &thumb);
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
