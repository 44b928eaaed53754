/* SPDX-License-Identifier: MIT */
/*
 * A generator of large BPF objects, for the tests that the object reader
 * and relocator do no quadratic work (tests/unit/test_limits.c) and for
 * measuring them (tests/fuzz/mkbigobj.c). Header-only so that both can use
 * it without a library of their own.
 *
 * The object: nmaps map symbols in section maps, map i at offset i * stride
 * (a stride below sizeof(struct bb_map_def) makes the definitions overlap);
 * nprogs programs in sections kprobe/f<i>, each with lds ld_imm64
 * instructions (0: as many as relocations), then r0 = 0, exit; and relocs
 * relocations, relocation k on ld_imm64 k % lds, against what
 * bigobj_target() says: even ones a map, odd ones one of nconsts undefined
 * symbols (load-time constants) named c<i>, each in turn.
 */
#ifndef BAREBPF_BIGOBJ_H
#define BAREBPF_BIGOBJ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bigobj_spec {
	uint32_t nmaps, stride, nprogs, relocs, nconsts, lds;
};

static uint32_t bigobj_lds(const struct bigobj_spec *sp)
{
	return sp->lds ? sp->lds : sp->relocs;
}

/* Relocation k of program p: against map *idx (returns 1) or constant
 * *idx (returns 0). */
static int bigobj_target(const struct bigobj_spec *sp, uint32_t p, uint32_t k,
			 uint32_t *idx)
{
	uint64_t n = ((uint64_t)p * sp->relocs + k) / 2;

	if (k % 2 == 0 || !sp->nconsts) {
		*idx = n % (sp->nmaps ? sp->nmaps : 1);
		return 1;
	}
	*idx = n % sp->nconsts;
	return 0;
}

/* The value map i's definition holds in max_entries, to check lookups. */
#define BIGOBJ_MAX_ENTRIES(i) (1000u + (uint32_t)(i))

struct bigobj_buf {
	unsigned char *p;
	size_t len, cap;
};

static void bigobj_put(struct bigobj_buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		while (b->len + n > b->cap)
			b->cap = b->cap ? b->cap * 2 : 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void bigobj_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static size_t bigobj_str(struct bigobj_buf *b, const char *s)
{
	size_t off = b->len;

	bigobj_put(b, s, strlen(s) + 1);
	return off;
}

static void bigobj_align(struct bigobj_buf *b, size_t a)
{
	static const unsigned char zero[8];

	while (b->len % a)
		bigobj_put(b, zero, 1);
}

struct bigobj_shdr {
	uint32_t name, type, link, info;
	uint64_t flags, off, size, entsize;
};

static void bigobj_sym(struct bigobj_buf *b, uint32_t name, int bind, int type,
		       uint16_t shndx, uint64_t value, uint64_t size)
{
	unsigned char s[24] = { 0 };

	bigobj_le(s, name, 4);
	s[4] = (unsigned char)(bind << 4 | type);
	bigobj_le(s + 6, shndx, 2);
	bigobj_le(s + 8, value, 8);
	bigobj_le(s + 16, size, 8);
	bigobj_put(b, s, sizeof(s));
}

/* The object, malloc'ed; *len gets its size. */
static unsigned char *bigobj_build(const struct bigobj_spec *sp, size_t *len)
{
	struct bigobj_buf out = { 0 }, strtab = { 0 }, shstr = { 0 };
	struct bigobj_shdr *sh;
	uint32_t nsecs = 6 + 2 * sp->nprogs, i, k;
	/* sections: 0 null, 1 .strtab, 2 .shstrtab, 3 maps, 4 license,
	 * 5 .symtab, then kprobe/f<i> at 6 + 2i and its .rel at 7 + 2i */
	const uint32_t s_str = 1, s_shstr = 2, s_maps = 3, s_lic = 4, s_sym = 5;
	uint32_t sym_map0 = 1, sym_func0 = 1 + sp->nmaps,
		 sym_const0 = sym_func0 + sp->nprogs;
	unsigned char ehdr[64] = { 0 }, *defs;
	size_t maps_size;
	char name[64];

	sh = calloc(nsecs, sizeof(*sh));
	if (!sh)
		abort();
	bigobj_put(&out, ehdr, sizeof(ehdr));

	bigobj_str(&shstr, "");
	sh[s_str].name = bigobj_str(&shstr, ".strtab");
	sh[s_shstr].name = bigobj_str(&shstr, ".shstrtab");
	sh[s_maps].name = bigobj_str(&shstr, "maps");
	sh[s_lic].name = bigobj_str(&shstr, "license");
	sh[s_sym].name = bigobj_str(&shstr, ".symtab");
	for (i = 0; i < sp->nprogs; i++) {
		snprintf(name, sizeof(name), "kprobe/f%u", i);
		sh[6 + 2 * i].name = bigobj_str(&shstr, name);
		snprintf(name, sizeof(name), ".relkprobe/f%u", i);
		sh[7 + 2 * i].name = bigobj_str(&shstr, name);
	}

	/* maps: definitions 20 bytes long, stride apart */
	maps_size = sp->nmaps ? (size_t)(sp->nmaps - 1) * sp->stride + 20 : 0;
	defs = calloc(1, maps_size + 20);
	if (!defs)
		abort();
	for (i = 0; i < sp->nmaps; i++) {
		unsigned char *d = defs + (size_t)i * sp->stride;

		bigobj_le(d, 1 /* BPF_MAP_TYPE_HASH */, 4);
		bigobj_le(d + 4, 4, 4);
		bigobj_le(d + 8, 8, 4);
		bigobj_le(d + 12, BIGOBJ_MAX_ENTRIES(i), 4);
	}
	sh[s_maps].type = 1 /* SHT_PROGBITS */;
	sh[s_maps].flags = 3 /* SHF_WRITE | SHF_ALLOC */;
	sh[s_maps].off = out.len;
	sh[s_maps].size = maps_size;
	bigobj_put(&out, defs, maps_size);
	free(defs);

	sh[s_lic].type = 1;
	sh[s_lic].flags = 3;
	sh[s_lic].off = out.len;
	sh[s_lic].size = 4;
	bigobj_put(&out, "GPL", 4);

	for (i = 0; i < sp->nprogs; i++) {
		struct bigobj_shdr *ps = &sh[6 + 2 * i], *rs = &sh[7 + 2 * i];
		unsigned char insn[8];

		bigobj_align(&out, 8);
		ps->type = 1;
		ps->flags = 6 /* SHF_ALLOC | SHF_EXECINSTR */;
		ps->off = out.len;
		for (k = 0; k < bigobj_lds(sp); k++) {
			memset(insn, 0, sizeof(insn));
			insn[0] = 0x18; /* ld_imm64 r1 */
			insn[1] = 1;
			bigobj_put(&out, insn, 8);
			memset(insn, 0, sizeof(insn));
			bigobj_put(&out, insn, 8);
		}
		memset(insn, 0, sizeof(insn));
		insn[0] = 0xb7; /* r0 = 0 */
		bigobj_put(&out, insn, 8);
		insn[0] = 0x95; /* exit */
		bigobj_put(&out, insn, 8);
		ps->size = out.len - ps->off;
		ps->entsize = 8;

		rs->type = 9 /* SHT_REL */;
		rs->off = out.len;
		rs->link = s_sym;
		rs->info = 6 + 2 * i;
		rs->entsize = 16;
		for (k = 0; k < sp->relocs; k++) {
			unsigned char r[16];
			uint32_t idx;
			uint64_t sym;

			if (bigobj_target(sp, i, k, &idx))
				sym = sym_map0 + idx;
			else
				sym = sym_const0 + idx;
			bigobj_le(r, (uint64_t)(k % bigobj_lds(sp)) * 16, 8);
			bigobj_le(r + 8, sym << 32 | 1 /* R_BPF_64_64 */, 8);
			bigobj_put(&out, r, 16);
		}
		rs->size = out.len - rs->off;
	}

	/* symbols: null, maps m<i>, functions f<i>, constants c<i> */
	{
		struct bigobj_buf syms = { 0 };

		bigobj_str(&strtab, "");
		bigobj_sym(&syms, 0, 0, 0, 0, 0, 0);
		for (i = 0; i < sp->nmaps; i++) {
			snprintf(name, sizeof(name), "m%u", i);
			bigobj_sym(&syms, bigobj_str(&strtab, name), 1, 1,
				   s_maps, (uint64_t)i * sp->stride, 20);
		}
		for (i = 0; i < sp->nprogs; i++) {
			snprintf(name, sizeof(name), "f%u", i);
			bigobj_sym(&syms, bigobj_str(&strtab, name), 1, 2,
				   6 + 2 * i, 0, bigobj_lds(sp) * 16 + 16);
		}
		for (i = 0; i < sp->nconsts; i++) {
			snprintf(name, sizeof(name), "c%u", i);
			bigobj_sym(&syms, bigobj_str(&strtab, name), 1, 0, 0,
				   0, 0);
		}
		bigobj_align(&out, 8);
		sh[s_sym].type = 2 /* SHT_SYMTAB */;
		sh[s_sym].off = out.len;
		sh[s_sym].size = syms.len;
		sh[s_sym].link = s_str;
		sh[s_sym].info = 1;
		sh[s_sym].entsize = 24;
		bigobj_put(&out, syms.p, syms.len);
		free(syms.p);
	}
	sh[s_str].type = 3 /* SHT_STRTAB */;
	sh[s_str].off = out.len;
	sh[s_str].size = strtab.len;
	bigobj_put(&out, strtab.p, strtab.len);
	sh[s_shstr].type = 3;
	sh[s_shstr].off = out.len;
	sh[s_shstr].size = shstr.len;
	bigobj_put(&out, shstr.p, shstr.len);
	free(strtab.p);
	free(shstr.p);

	bigobj_align(&out, 8);
	{
		size_t shoff = out.len;

		for (i = 0; i < nsecs; i++) {
			unsigned char s[64] = { 0 };

			bigobj_le(s, sh[i].name, 4);
			bigobj_le(s + 4, sh[i].type, 4);
			bigobj_le(s + 8, sh[i].flags, 8);
			bigobj_le(s + 24, sh[i].off, 8);
			bigobj_le(s + 32, sh[i].size, 8);
			bigobj_le(s + 40, sh[i].link, 4);
			bigobj_le(s + 44, sh[i].info, 4);
			bigobj_le(s + 48, 8, 8);
			bigobj_le(s + 56, sh[i].entsize, 8);
			bigobj_put(&out, s, sizeof(s));
		}
		memcpy(out.p, "\177ELF", 4);
		out.p[4] = 2; /* ELFCLASS64 */
		out.p[5] = 1; /* ELFDATA2LSB */
		out.p[6] = 1; /* EV_CURRENT */
		bigobj_le(out.p + 16, 1 /* ET_REL */, 2);
		bigobj_le(out.p + 18, 247 /* EM_BPF */, 2);
		bigobj_le(out.p + 20, 1, 4);
		bigobj_le(out.p + 40, shoff, 8);
		bigobj_le(out.p + 52, 64, 2);
		bigobj_le(out.p + 58, 64, 2);
		bigobj_le(out.p + 60, nsecs, 2);
		bigobj_le(out.p + 62, s_shstr, 2);
	}
	free(sh);
	*len = out.len;
	return out.p;
}

#endif
