/* SPDX-License-Identifier: MIT */
/*
 * BPF objects, the parse: find the code, functions, programs, maps,
 * global data and license of an object (obj_open; relocs.c reads the
 * relocations, constants and externs).
 * Nothing here depends on the running kernel: what it takes is decided at
 * load time (relocate.c, load.c), so one object opens the same everywhere.
 *
 * Objects come from many producers: bpf_load (samples/bpf), iproute2,
 * gobpf, libbpf, barebpf's own BB_MAP, and from compilers as old as clang
 * 6, whose function symbols are NOTYPE with size 0 and whose llc wrote
 * e_machine 0. A program section may hold several programs (libbpf), and
 * .text holds the functions programs call (bpf-to-bpf calls).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "obj_internal.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* struct bpf_insn's register nibbles are copied as they lie in the file. */
#error "barebpf's relocator assumes a little-endian host"
#endif




static int is_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int is_data_section(const char *name)
{
	return is_prefix(name, ".data") || is_prefix(name, ".rodata") ||
	       is_prefix(name, ".bss");
}







/*
 * No license section is fine: the kernel loads programs under any license
 * as long as they call no GPL-only helper (load.c says so if one does).
 */
static int read_license(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	int i = elf_find_sec(ef, "license");
	const struct elf_sec *sec;

	if (i < 0)
		return 0;
	sec = &ef->secs[i];
	if (!sec->data || !memchr(sec->data, 0, sec->size))
		return bb_fail(op->err, -EINVAL,
			       "%s: the license section does not hold a "
			       "NUL-terminated string; write it as "
			       "`char _license[] SEC(\"license\") = \"GPL\";`",
			       obj->name);
	if (obj_str_copy(obj->license, sizeof(obj->license),
			 (const char *)sec->data) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: license string longer than %zu bytes",
			       obj->name, sizeof(obj->license) - 1);
	return 0;
}

/*
 * e_machine 0 (EM_NONE, written by old llc) is taken when the body is
 * BPF: every opcode of every code section is one the BPF instruction set
 * has, and every relocation type is one of BPF's.
 */
static int insn_code_known(uint8_t c)
{
	uint8_t op = BPF_OP(c);

	switch (BPF_CLASS(c)) {
	case BPF_LD:
		return c == BPF_LD_IMM64_CODE || c == 0x20 || c == 0x28 ||
		       c == 0x30 || c == 0x40 || c == 0x48 || c == 0x50;
	case BPF_LDX:
		return BPF_MODE(c) == BPF_MEM || BPF_MODE(c) == 0x80;
	case BPF_ST:
	case BPF_STX:
		return BPF_MODE(c) == BPF_MEM || BPF_MODE(c) == 0xc0;
	case BPF_ALU:
	case BPF_ALU64:
		return op <= 0xd0;
	case BPF_JMP:
		return op <= 0xd0;
	case BPF_JMP32:
		return op <= 0xd0 && op != BPF_CALL && op != BPF_EXIT &&
		       op != BPF_JA;
	}
	return 0;
}

static int check_em_none(struct obj_parse *op)
{
	const struct elf_file *ef = op->elf;
	size_t i, j;

	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *s = &ef->secs[i];

		if (s->type == SHT_REL) {
			for (j = 0; j < elf_nrels(s); j++) {
				struct elf_rel r;

				elf_rel_at(s, j, &r);
				if (r.type > 4 && r.type != 10)
					goto refuse;
			}
		}
		if (s->type != SHT_PROGBITS || !(s->flags & SHF_EXECINSTR) ||
		    !s->data)
			continue;
		if (s->size % 8)
			goto refuse;
		for (j = 0; j < s->size; j += 8) {
			if (!insn_code_known(s->data[j]))
				goto refuse;
			if (s->data[j] == BPF_LD_IMM64_CODE)
				j += 8; /* its second half has code 0 */
		}
	}
	return 0;
refuse:
	return bb_fail(op->err, -EINVAL,
		       "%s: ELF machine 0 and a body that is not BPF "
		       "(section %s); compile with `clang -target bpf`",
		       op->obj->name, ef->secs[i].name);
}

/* ---- code sections and their functions ---- */

static int add_code(struct obj_parse *op, int shndx)
{
	struct bb_obj *obj = op->obj;
	const struct elf_sec *sec = &op->elf->secs[shndx];
	struct obj_code *c = &obj->code[obj->ncode];

	if (!sec->data || sec->size % sizeof(struct bpf_insn))
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: size %llu is not a whole "
			       "number of instructions", obj->name, sec->name,
			       (unsigned long long)sec->size);
	if (sec->size / sizeof(struct bpf_insn) > BPF_MAXINSNS_BIG)
		return bb_fail(op->err, -E2BIG,
			       "%s: section %s has %llu instructions; no "
			       "kernel loads more than %d", obj->name,
			       sec->name, (unsigned long long)sec->size / 8,
			       BPF_MAXINSNS_BIG);
	c->shndx = shndx;
	c->name = sec->name;
	c->cnt = sec->size / sizeof(struct bpf_insn);
	c->insns = malloc(sec->size);
	if (!c->insns)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	memcpy(c->insns, sec->data, sec->size);
	op->sec_code[shndx] = obj->ncode++;
	return 0;
}

/*
 * A function symbol: STT_FUNC, or for clang 6 and 7 a global STT_NOTYPE
 * of size 0 (their local NOTYPE symbols in code are branch labels,
 * LBB0_1 and the like, never functions).
 */
static int is_func_sym(const struct elf_sym *s)
{
	if (!s->name[0])
		return 0;
	if (s->type == STT_FUNC)
		return 1;
	return s->type == STT_NOTYPE &&
	       (s->bind == STB_GLOBAL || s->bind == STB_WEAK);
}

static int cmp_func(const void *a, const void *b)
{
	const struct obj_func *x = a, *y = b;

	if (x->code != y->code)
		return x->code - y->code;
	return (x->off > y->off) - (x->off < y->off);
}

/*
 * Every function of every code section, sorted by section and offset.
 * A function ends where its size says; one of size 0 (old clang) where
 * the next function starts, or at the end of the section.
 */
static int read_functions(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i, n = 0;
	int k;

	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];

		n += s->shndx < ef->nsecs && op->sec_code[s->shndx] >= 0 &&
		     is_func_sym(s);
	}
	obj->funcs = calloc(n ? n : 1, sizeof(*obj->funcs));
	if (!obj->funcs)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		struct obj_func *f = &obj->funcs[obj->nfuncs];
		const struct obj_code *c;

		if (s->shndx >= ef->nsecs || op->sec_code[s->shndx] < 0 ||
		    !is_func_sym(s))
			continue;
		c = &obj->code[op->sec_code[s->shndx]];
		if (s->value % 8 || s->value / 8 >= c->cnt ||
		    s->size % 8 || s->size / 8 > c->cnt - s->value / 8)
			return bb_fail(op->err, -EINVAL,
				       "%s: function '%s' (offset %llu, size "
				       "%llu) is not whole instructions inside "
				       "section %s; corrupt object?",
				       obj->name, s->name,
				       (unsigned long long)s->value,
				       (unsigned long long)s->size, c->name);
		if (obj_str_copy(f->name, sizeof(f->name), s->name) < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: function name '%.64s...' is longer "
				       "than %zu characters", obj->name,
				       s->name, sizeof(f->name) - 1);
		f->code = op->sec_code[s->shndx];
		f->off = s->value / 8;
		f->cnt = s->size / 8;
		f->global = s->bind != STB_LOCAL;
		obj->nfuncs++;
	}
	qsort(obj->funcs, obj->nfuncs, sizeof(*obj->funcs), cmp_func);
	for (k = 0; k < obj->nfuncs; k++) {
		struct obj_func *f = &obj->funcs[k];
		struct obj_code *c = &obj->code[f->code];
		const struct obj_func *next = k + 1 < obj->nfuncs &&
			obj->funcs[k + 1].code == f->code ?
			&obj->funcs[k + 1] : NULL;
		uint32_t end = next ? next->off : c->cnt;

		if (next && next->off == f->off)
			return bb_fail(op->err, -EINVAL,
				       "%s: functions '%s' and '%s' start at "
				       "the same instruction %u of section %s",
				       obj->name, f->name, next->name, f->off,
				       c->name);
		if (!c->nfuncs)
			c->first_func = k;
		c->nfuncs++;
		if (!f->cnt || f->cnt > end - f->off)
			f->cnt = end - f->off;
	}
	return 0;
}










/* ---- global data ---- */

static int read_data(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i, n = 0;

	op->sec_data = malloc(ef->nsecs * sizeof(*op->sec_data));
	if (!op->sec_data)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 0; i < ef->nsecs; i++) {
		const struct elf_sec *s = &ef->secs[i];

		op->sec_data[i] = -1;
		n += i && is_data_section(s->name) && (s->flags & SHF_ALLOC);
	}
	obj->data = calloc(n ? n : 1, sizeof(*obj->data));
	obj->vars = calloc(ef->nsyms ? ef->nsyms : 1, sizeof(*obj->vars));
	if (!obj->data || !obj->vars)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *s = &ef->secs[i];
		struct obj_data *d = &obj->data[obj->ndata];

		if (!is_data_section(s->name) || !(s->flags & SHF_ALLOC))
			continue;
		/* KMALLOC_MAX_SIZE (4 MiB with 4 KiB pages): the largest
		 * array map value; NOBITS sizes are not bounded by the file */
		if (s->size > (4u << 20))
			return bb_fail(op->err, -E2BIG,
				       "%s: section %s of %llu bytes is too "
				       "big for a map value (4 MiB)", obj->name,
				       s->name, (unsigned long long)s->size);
		d->shndx = i;
		d->name = s->name;
		d->size = s->size;
		d->readonly = is_prefix(s->name, ".rodata");
		d->map = -1;
		d->image = calloc(d->size ? d->size : 1, 1);
		if (!d->image)
			return bb_fail(op->err, -ENOMEM, "%s: out of memory",
				       obj->name);
		if (s->data && s->type != SHT_NOBITS)
			memcpy(d->image, s->data, d->size);
		op->sec_data[i] = obj->ndata++;
	}
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		struct obj_var *v = &obj->vars[obj->nvars];
		int d;

		if (s->shndx >= ef->nsecs || s->type != STT_OBJECT ||
		    !s->name[0] || (d = op->sec_data[s->shndx]) < 0)
			continue;
		if (s->value > obj->data[d].size ||
		    s->size > obj->data[d].size - s->value)
			return bb_fail(op->err, -EINVAL,
				       "%s: variable '%s' (offset %llu, size "
				       "%llu) lies outside section %s",
				       obj->name, s->name,
				       (unsigned long long)s->value,
				       (unsigned long long)s->size,
				       obj->data[d].name);
		v->name = s->name;
		v->data = d;
		v->off = s->value;
		v->size = s->size;
		obj->nvars++;
	}
	return 0;
}










/* ---- the whole ---- */

static int obj_alloc(struct bb_obj **objp, const char *name)
{
	struct bb_obj *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return -ENOMEM;
	*objp = obj;
	obj->name = strdup(name);
	if (!obj->name)
		return -ENOMEM;
	return 0;
}

static void parse_free(struct obj_parse *op)
{
	free(op->sec_code);
	free(op->sec_data);
	free(op->sec_map);
	free(op->spans);
	free(op->mapx);
	free(op->undefs);
	free(op->undef_const);
	free(op->sym_undef);
}

static int read_btf(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i = elf_find_sec(op->elf, ".BTF");
	const struct elf_sec *s;

	if (i < 0)
		return 0;
	s = &op->elf->secs[i];
	if (btf_open(&obj->btf, s->data, s->data ? s->size : 0, obj->name,
		     op->err) < 0)
		return -EINVAL;
	obj->has_btf = 1;
	return 0;
}

/*
 * CO-RE relocations (BPF_CORE_READ, vmlinux.h) need the running kernel's
 * BTF to find struct fields: say so plainly instead of loading offsets
 * that were only right on the compiling machine.
 */
static int check_core(struct obj_parse *op)
{
	int i = elf_find_sec(op->elf, ".BTF.ext");
	const struct elf_sec *s;
	const unsigned char *d;
	uint32_t hdr_len, core_len;

	if (i < 0)
		return 0;
	s = &op->elf->secs[i];
	d = s->data;
	/* btf_ext_header: magic, version, flags, hdr_len, func_info_off,
	 * func_info_len, line_info_off, line_info_len, core_relo_off,
	 * core_relo_len (the last two since 5.x's longer header) */
	if (!d || s->size < 32)
		return 0;
	hdr_len = d[4] | d[5] << 8 | d[6] << 16 | (uint32_t)d[7] << 24;
	if (hdr_len < 32 || s->size < 32)
		return 0;
	core_len = d[28] | d[29] << 8 | d[30] << 16 | (uint32_t)d[31] << 24;
	if (core_len > 8)
		return bb_fail(op->err, -EOPNOTSUPP,
			       "%s: the object uses CO-RE relocations "
			       "(BPF_CORE_READ, preserve_access_index, "
			       "vmlinux.h), which need the kernel's own BTF; "
			       "barebpf does not use kernel BTF: read fields "
			       "with bpf_probe_read at offsets of this kernel",
			       op->obj->name);
	return 0;
}

int obj_open(struct bb_obj **objp, const void *buf, size_t len,
	     const char *name, struct bb_err *err)
{
	struct obj_parse op = { .maps_sec = -1, .btf_maps_sec = -1,
				.err = err };
	struct bb_obj *obj = NULL;
	size_t i;
	int ret;

	*objp = NULL;
	if (!name)
		name = "BPF object";
	if (obj_alloc(&obj, name) < 0) {
		obj_close(obj);
		return bb_fail(err, -ENOMEM, "%s: out of memory", name);
	}
	op.obj = obj;
	op.elf = &obj->elf;
	ret = elf_open(&obj->elf, buf, len, name, err);
	if (ret < 0) {
		obj_close(obj);
		return ret;
	}
	op.sec_code = malloc(obj->elf.nsecs * sizeof(*op.sec_code));
	obj->code = calloc(obj->elf.nsecs, sizeof(*obj->code));
	if (!op.sec_code || !obj->code) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", name);
		goto err_close_obj;
	}
	for (i = 0; i < obj->elf.nsecs; i++)
		op.sec_code[i] = -1;
	if (!obj->elf.symtab) {
		ret = bb_fail(err, -EINVAL,
			      "%s: no symbol table (stripped?); barebpf names "
			      "programs, maps and constants by their symbols",
			      name);
		goto err_close_obj;
	}
	if (obj->elf.machine == EM_NONE && (ret = check_em_none(&op)) < 0)
		goto err_close_obj;
	for (i = 1; i < obj->elf.nsecs; i++) {
		const struct elf_sec *s = &obj->elf.secs[i];

		if (s->type != SHT_PROGBITS || !(s->flags & SHF_EXECINSTR) ||
		    !s->size)
			continue;
		ret = add_code(&op, i);
		if (ret < 0)
			goto err_close_obj;
	}
	if ((ret = read_license(&op)) < 0 || (ret = read_btf(&op)) < 0 ||
	    (ret = check_core(&op)) < 0 || (ret = read_data(&op)) < 0 ||
	    (ret = mapdef_read(&op)) < 0 || (ret = read_functions(&op)) < 0 ||
	    (ret = obj_index_undefs(&op)) < 0 ||
	    (ret = obj_read_relocs(&op)) < 0 ||
	    (ret = obj_read_progs(&op)) < 0 || (ret = mapdef_read_inits(&op)) < 0)
		goto err_close_obj;
	if (obj_sort_consts(obj) < 0) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", name);
		goto err_close_obj;
	}
	obj_scan_helpers(obj);
	parse_free(&op);
	*objp = obj;
	return 0;

err_close_obj:
	obj_close(obj);
	parse_free(&op);
	return ret;
}
















