/* SPDX-License-Identifier: MIT */
/*
 * USDT probes (see usdt.h): systemtap's <sys/sdt.h> puts a nop where the
 * probe is and a note in .note.stapsdt (owner "stapsdt", type 3) whose
 * description is three addresses (the nop, the link-time address of
 * .stapsdt.base, the semaphore or 0), each 8 bytes in ELF64 and 4 in
 * ELF32, then "provider\0name\0arguments\0". Where prelink moved the
 * file, .stapsdt.base's address says by how much (the note's base is the
 * old one): both the nop and the semaphore move with it.
 *
 * The argument string is parsed by usdt_args.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>
#include "usdt.h"
#include "uelf.h"
#include "arch.h"


#define NT_STAPSDT 3
/* .note.stapsdt of libjvm is ~100 KiB */
#define USDT_MAX_SECTION (16u << 20)

/* ---- the notes ---- */

struct nf {
	struct es_src src;
	Elf64_Ehdr eh;
};

/* Link-time address -> file offset, through the PT_LOAD holding it. */
static int nf_foff(const struct nf *f, uint64_t vaddr, uint64_t *foff)
{
	Elf64_Phdr ph;
	uint32_t i;

	for (i = 0; i < f->eh.e_phnum; i++) {
		if (es_phdr(&f->src, &f->eh, i, &ph) < 0)
			return -EBADMSG;
		if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr - ph.p_vaddr < ph.p_filesz &&
		    es_fits(&f->src, ph.p_offset, ph.p_filesz, 1)) {
			*foff = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* Section i's name, if it is one of the two we want: 1 .note.stapsdt,
 * 2 .stapsdt.base, else 0. */
static int section_kind(const struct nf *f, const Elf64_Shdr *names,
			const Elf64_Shdr *sh)
{
	static const char note[] = ".note.stapsdt", base[] = ".stapsdt.base";
	char buf[sizeof(note)];
	uint64_t left;

	if (sh->sh_name >= names->sh_size)
		return 0;
	left = names->sh_size - sh->sh_name;
	memset(buf, 0, sizeof(buf));
	if (es_read(&f->src, names->sh_offset + sh->sh_name, buf,
		    left < sizeof(buf) ? left : sizeof(buf)) < 0)
		return 0;
	if (sh->sh_type == SHT_NOTE && !memcmp(buf, note, sizeof(note)))
		return 1;
	if (!memcmp(buf, base, sizeof(base)))
		return 2;
	return 0;
}

/* A string of the description [*p, end), NUL-terminated inside it, into
 * dst (at most max with its NUL). */
static int desc_str(const char **p, const char *end, char *dst, size_t max)
{
	const char *z = memchr(*p, 0, end - *p);

	if (!z || (size_t)(z - *p) >= max)
		return -EBADMSG;
	memcpy(dst, *p, z - *p + 1);
	*p = z + 1;
	return 0;
}

/* One note's description (len bytes at d), into n. */
static int parse_desc(const struct nf *f, const char *d, size_t len,
		      int base_known, uint64_t base_addr, struct usdt_note *n)
{
	size_t asz = f->src.is32 ? 4 : 8;
	const char *p = d + 3 * asz, *end = d + len;
	uint64_t a[3] = { 0, 0, 0 };
	int i;

	if (len < 3 * asz + 3)
		return -EBADMSG;
	for (i = 0; i < 3; i++) {
		if (asz == 4) {
			uint32_t v;

			memcpy(&v, d + 4 * i, 4);
			a[i] = v;
		} else {
			memcpy(&a[i], d + 8 * i, 8);
		}
	}
	if (desc_str(&p, end, n->provider, sizeof(n->provider)) < 0 ||
	    desc_str(&p, end, n->name, sizeof(n->name)) < 0 || !n->name[0] ||
	    desc_str(&p, end, n->args, sizeof(n->args)) < 0)
		return -EBADMSG;
	n->pc = a[0];
	n->base = a[1];
	n->sema = a[2];
	/* prelink: the file moved by .stapsdt.base's address - the note's */
	if (base_known && n->base) {
		n->pc += base_addr - n->base;
		if (n->sema)
			n->sema += base_addr - n->base;
	}
	if (nf_foff(f, n->pc, &n->pc_off) < 0)
		return -ENOENT;
	n->sema_off = 0;
	if (n->sema && (nf_foff(f, n->sema, &n->sema_off) < 0 ||
			!n->sema_off))
		return -ENOENT;
	return 0;
}

static int add_note(struct usdt_file *uf, const struct usdt_note *n,
		    int *cap)
{
	struct usdt_note *m;

	if (uf->nnotes == USDT_MAX_NOTES)
		return -E2BIG;
	if (uf->nnotes == *cap) {
		int c = *cap ? *cap * 2 : 16;

		m = realloc(uf->notes, c * sizeof(*m));
		if (!m)
			return -ENOMEM;
		uf->notes = m;
		*cap = c;
	}
	uf->notes[uf->nnotes++] = *n;
	return 0;
}

/* The notes of section sh (4-byte padding, as sys/sdt.h's .balign 4). */
static int read_notes(const struct nf *f, const Elf64_Shdr *sh, int base_known,
		      uint64_t base_addr, struct usdt_file *uf, int *cap)
{
	uint64_t off = 0, len = sh->sh_size;
	struct usdt_note *n;
	char *sec;
	int ret = 0;

	if (!len)
		return 0;
	if (len > USDT_MAX_SECTION || !es_fits(&f->src, sh->sh_offset, len, 1))
		return -EBADMSG;
	sec = malloc(len);
	n = malloc(sizeof(*n));
	if (!sec || !n) {
		free(sec);
		free(n);
		return -ENOMEM;
	}
	ret = es_read(&f->src, sh->sh_offset, sec, len);
	while (!ret && len - off >= 12) {
		uint32_t h[3];
		uint64_t nsz, dsz;

		memcpy(h, sec + off, sizeof(h));
		nsz = ((uint64_t)h[0] + 3) / 4 * 4;
		dsz = ((uint64_t)h[1] + 3) / 4 * 4;
		if (nsz > len - off - 12 || dsz > len - off - 12 - nsz)
			break; /* the rest is damaged */
		if (h[2] == NT_STAPSDT && h[0] == 8 &&
		    !memcmp(sec + off + 12, "stapsdt", 8)) {
			memset(n, 0, sizeof(*n));
			if (parse_desc(f, sec + off + 12 + nsz, h[1],
				       base_known, base_addr, n) < 0)
				uf->skipped++;
			else
				ret = add_note(uf, n, cap);
		}
		off += 12 + nsz + dsz;
	}
	free(n);
	free(sec);
	return ret;
}

static int read_file(struct nf *f, struct usdt_file *uf)
{
	Elf64_Shdr sh, names, notes[8];
	int ret, nnotes = 0, base_known = 0, cap = 0, i;
	uint64_t base_addr = 0;
	uint32_t k;

	memset(uf, 0, sizeof(*uf));
	if (es_ehdr(&f->src, &f->eh) < 0 ||
	    (f->eh.e_type != ET_EXEC && f->eh.e_type != ET_DYN))
		return -ENOEXEC;
	uf->machine = f->eh.e_machine;
	uf->is32 = f->src.is32;
	if (f->eh.e_phentsize != ES_PHSZ(&f->src) ||
	    !es_fits(&f->src, f->eh.e_phoff, f->eh.e_phnum, ES_PHSZ(&f->src)))
		return -EBADMSG;
	if (!f->eh.e_shnum)
		return 0; /* no sections: no notes to find */
	if (f->eh.e_shentsize != ES_SHSZ(&f->src) ||
	    !es_fits(&f->src, f->eh.e_shoff, f->eh.e_shnum, ES_SHSZ(&f->src)) ||
	    f->eh.e_shstrndx >= f->eh.e_shnum ||
	    es_shdr(&f->src, &f->eh, f->eh.e_shstrndx, &names) < 0 ||
	    !es_fits(&f->src, names.sh_offset, names.sh_size, 1))
		return -EBADMSG;
	for (k = 0; k < f->eh.e_shnum; k++) {
		if (es_shdr(&f->src, &f->eh, k, &sh) < 0)
			return -EBADMSG;
		switch (section_kind(f, &names, &sh)) {
		case 1:
			if (nnotes < (int)(sizeof(notes) / sizeof(notes[0])))
				notes[nnotes++] = sh;
			break;
		case 2:
			base_known = 1;
			base_addr = sh.sh_addr;
			break;
		}
	}
	for (i = 0; i < nnotes; i++) {
		ret = read_notes(f, &notes[i], base_known, base_addr, uf, &cap);
		if (ret < 0) {
			usdt_file_free(uf);
			return ret;
		}
	}
	return 0;
}

int usdt_file_read_buf(const void *buf, size_t size, struct usdt_file *uf)
{
	struct nf f;

	memset(&f, 0, sizeof(f));
	f.src.buf = buf;
	f.src.fd = -1;
	f.src.size = size;
	return read_file(&f, uf);
}

int usdt_file_read_fd(int fd, struct usdt_file *uf)
{
	struct stat st;
	struct nf f;

	memset(uf, 0, sizeof(*uf));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	memset(&f, 0, sizeof(f));
	f.src.fd = fd;
	f.src.size = st.st_size;
	return read_file(&f, uf);
}

int usdt_file_read(const char *path, struct usdt_file *uf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int ret;

	memset(uf, 0, sizeof(*uf));
	if (fd < 0)
		return -errno;
	ret = usdt_file_read_fd(fd, uf);
	close(fd);
	return ret;
}

void usdt_file_free(struct usdt_file *uf)
{
	free(uf->notes);
	uf->notes = NULL;
	uf->nnotes = 0;
}

int usdt_machine_native(void)
{
	return bb_arch_native()->machine;
}

const char *usdt_machine_name(int machine)
{
	const struct bb_arch *a = bb_arch_of_machine(machine);

	if (a)
		return a->elf_name;
	return machine == EM_386 ? "i386" : "another architecture";
}
