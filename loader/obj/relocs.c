/* SPDX-License-Identifier: MIT */
/*
 * The relocations of an object's code, checked and recorded for the
 * linker (relocate.c): maps (section maps, maps/<name>, .maps), load-time
 * constants (undefined symbols, see BB_CONST), __kconfig externs, global
 * data, bpf-to-bpf calls into other sections. Symbols and constants are
 * paired through sorted indexes: objects with hundreds of thousands of
 * them must not take quadratic time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj_internal.h"

/*
 * Names are compared up to the longest a constant may have (bb_const.name
 * holds 63 characters; a longer one is refused where it is used): whole
 * names could be long strings shared by many symbols, and comparing those
 * would make the sort quadratic in the string table's size.
 */
#define CONST_NAME_MAX sizeof(((struct bb_const *)0)->name)

static int cmp_undef(const void *a, const void *b)
{
	const struct undef_sym *x = a, *y = b;
	int c = x->name == y->name ? 0 :
		strncmp(x->name, y->name, CONST_NAME_MAX);

	if (c)
		return c;
	return (x->sym > y->sym) - (x->sym < y->sym);
}

/*
 * The undefined symbols sorted by name, so that a relocation finds the
 * constant of its symbol's name in O(1): every symbol points at the first
 * entry of its name, which holds the constant once one is made.
 */
int obj_index_undefs(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i, n = 0, cap;

	for (i = 1; i < ef->nsyms; i++)
		n += ef->syms[i].shndx == SHN_UNDEF && ef->syms[i].name[0];
	cap = n ? n : 1;
	op->undefs = calloc(cap, sizeof(*op->undefs));
	op->undef_const = calloc(cap, sizeof(*op->undef_const));
	op->sym_undef = calloc(ef->nsyms ? ef->nsyms : 1,
			       sizeof(*op->sym_undef));
	obj->consts = calloc(cap, sizeof(*obj->consts));
	obj->const_prog = calloc(cap, sizeof(*obj->const_prog));
	obj->externs = calloc(cap, sizeof(*obj->externs));
	if (!op->undefs || !op->undef_const || !op->sym_undef ||
	    !obj->consts || !obj->const_prog || !obj->externs)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 1, n = 0; i < ef->nsyms; i++) {
		op->sym_undef[i] = -1;
		if (ef->syms[i].shndx != SHN_UNDEF || !ef->syms[i].name[0])
			continue;
		op->undefs[n].name = ef->syms[i].name;
		op->undefs[n].sym = i;
		n++;
	}
	qsort(op->undefs, n, sizeof(*op->undefs), cmp_undef);
	for (i = 0; i < n; i++) {
		int first = i;

		if (i && !strncmp(op->undefs[i - 1].name, op->undefs[i].name,
				  CONST_NAME_MAX))
			first = op->sym_undef[op->undefs[i - 1].sym];
		op->sym_undef[op->undefs[i].sym] = first;
		op->undef_const[i] = -1;
	}
	return 0;
}

static int cmp_const(const void *a, const void *b)
{
	const struct bb_const *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* The constants by name, for obj_set_const (names are unique). */
int obj_sort_consts(struct bb_obj *obj)
{
	int i;

	obj->const_by_name = calloc(obj->nconsts ? obj->nconsts : 1,
				    sizeof(*obj->const_by_name));
	if (!obj->const_by_name)
		return -ENOMEM;
	for (i = 0; i < obj->nconsts; i++)
		obj->const_by_name[i] = &obj->consts[i];
	qsort(obj->const_by_name, obj->nconsts, sizeof(*obj->const_by_name),
	      cmp_const);
	return 0;
}

/* A __kconfig extern in the object's BTF (DATASEC .kconfig)? */
static int kconfig_size(const struct bb_obj *obj, const char *name,
			uint32_t *size)
{
	struct btf_t sec, var;
	struct btf_member m;
	uint16_t i;

	if (!obj->has_btf ||
	    btf_find_datasec(&obj->btf, ".kconfig", &sec) < 0)
		return 0;
	for (i = 0; i < sec.vlen; i++) {
		btf_member_at(&obj->btf, &sec, i, &m);
		if (btf_type(&obj->btf, m.type, &var) < 0 ||
		    var.kind != BTF_KIND_VAR || strcmp(var.name, name))
			continue;
		if (btf_size(&obj->btf, var.size_type, size) < 0)
			*size = m.size;
		return 1;
	}
	return 0;
}

static int reloc_undef(struct obj_parse *op, int code_idx, uint32_t sym,
		       struct obj_reloc *r)
{
	struct bb_obj *obj = op->obj;
	const struct elf_sym *s = &op->elf->syms[sym];
	int u = op->sym_undef[sym], i = op->undef_const[u];
	uint32_t size = 0;

	if (i >= 0) {
		r->kind = i >= 0x40000000 ? RELOC_EXTERN : RELOC_CONST;
		r->idx = i & 0x3fffffff;
		return 0;
	}
	if (kconfig_size(obj, s->name, &size)) {
		struct obj_extern *x = &obj->externs[obj->nexterns];

		if (obj_str_copy(x->name, sizeof(x->name), s->name) < 0 ||
		    !size || size > 8)
			return bb_fail(op->err, -EINVAL,
				       "%s: extern '%.64s' (__kconfig) is not "
				       "a number of 1 to 8 bytes", obj->name,
				       s->name);
		x->size = size;
		x->weak = s->bind == STB_WEAK;
		op->undef_const[u] = 0x40000000 | obj->nexterns;
		r->kind = RELOC_EXTERN;
		r->idx = obj->nexterns++;
		return 0;
	}
	i = obj->nconsts;
	if (obj_str_copy(obj->consts[i].name, sizeof(obj->consts[i].name),
			 s->name) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: constant name '%s' is longer "
			       "than %zu characters", obj->name,
			       obj->code[code_idx].name, s->name,
			       sizeof(obj->consts[i].name) - 1);
	obj->const_prog[i] = -1 - code_idx; /* made a program by read_progs */
	obj->nconsts++;
	op->undef_const[u] = i;
	r->kind = RELOC_CONST;
	r->idx = i;
	return 0;
}

static int find_span(const struct obj_parse *op, int shndx, uint64_t off)
{
	int lo = 0, hi = op->nspans - 1;

	/* spans are sorted by (section, offset) in maps.c */
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct map_span *s = &op->spans[mid];

		if (s->shndx == shndx && s->off == off)
			return s->idx;
		if (s->shndx < shndx || (s->shndx == shndx && s->off < off))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The map a symbol in a maps section (plus the ld_imm64's addend) is. */
static int reloc_map(struct obj_parse *op, const struct obj_code *c,
		     const struct elf_rel *rel, struct obj_reloc *r)
{
	struct bb_obj *obj = op->obj;
	const struct elf_sym *sym = &op->elf->syms[rel->sym];
	uint64_t off = sym->value;
	int idx;

	if (op->sec_map && op->sec_map[sym->shndx] >= 0) {
		r->kind = RELOC_MAP;
		r->idx = op->sec_map[sym->shndx];
		return 0;
	}
	/* Old clang refers to the section symbol plus an addend in imm. */
	if (sym->type == STT_SECTION)
		off += (uint32_t)c->insns[r->insn].imm;
	idx = find_span(op, sym->shndx, off);
	if (idx < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation at offset %llu "
			       "refers to offset %llu of section %s, where "
			       "no map symbol is", obj->name, c->name,
			       (unsigned long long)rel->offset,
			       (unsigned long long)off,
			       op->elf->secs[sym->shndx].name);
	r->kind = RELOC_MAP;
	r->idx = idx;
	return 0;
}

static int is_map_section(const struct obj_parse *op, int shndx)
{
	return shndx == op->maps_sec || shndx == op->btf_maps_sec ||
	       (op->sec_map && op->sec_map[shndx] >= 0);
}

/* Check one relocation of code section c and record what it needs. */
static int add_reloc(struct obj_parse *op, struct obj_code *c,
		     const struct elf_rel *rel)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	const struct elf_sym *sym = &ef->syms[rel->sym];
	const char *label = obj_sym_label(ef, rel->sym);
	struct obj_reloc *r = &c->relocs[c->nrelocs];
	struct bpf_insn *insn;

	if (rel->offset % sizeof(*insn) ||
	    rel->offset >= (uint64_t)c->cnt * sizeof(*insn))
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation against '%s' at "
			       "offset %llu is not an instruction of the "
			       "section (%llu bytes); corrupt object?",
			       obj->name, c->name, label,
			       (unsigned long long)rel->offset,
			       (unsigned long long)c->cnt * sizeof(*insn));
	r->insn = rel->offset / sizeof(*insn);
	r->sym = rel->sym;
	insn = &c->insns[r->insn];
	if (insn->code == BPF_CALL_CODE && insn->src_reg == BPF_PSEUDO_CALL) {
		int tc = sym->shndx < ef->nsecs ? op->sec_code[sym->shndx] : -1;

		if (tc < 0 || sym->value % 8)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: instruction %u calls "
				       "'%s', which is not a function in a "
				       "code section", obj->name, c->name,
				       r->insn, label);
		r->kind = RELOC_CALL;
		r->idx = tc;
		r->addend = (int64_t)(sym->value / 8) + insn->imm + 1;
		return 0;
	}
	if (insn->code != BPF_LD_IMM64_CODE)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation against '%s' at "
			       "offset %llu is on an instruction with code "
			       "0x%02x, not ld_imm64 (0x18): only maps, "
			       "global data, functions and load-time constants "
			       "can be referred to; corrupt object or "
			       "unsupported compiler output?", obj->name,
			       c->name, label, (unsigned long long)rel->offset,
			       insn->code);
	if (r->insn + 1 >= c->cnt)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: ld_imm64 against '%s' at "
			       "offset %llu lacks its second half; corrupt "
			       "object?", obj->name, c->name, label,
			       (unsigned long long)rel->offset);
	if (sym->shndx == op->btf_maps_sec && !obj->has_btf)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s refers to '%s' in section "
			       ".maps, a BTF-defined map, but the object has "
			       "no .BTF section to read it from: compile with "
			       "clang -g", obj->name, c->name, label);
	if (sym->shndx < ef->nsecs && is_map_section(op, sym->shndx))
		return reloc_map(op, c, rel, r);
	if (sym->shndx == SHN_UNDEF && sym->name[0])
		return reloc_undef(op, c - obj->code, rel->sym, r);
	if (sym->shndx < ef->nsecs && op->sec_data[sym->shndx] >= 0) {
		r->kind = RELOC_DATA;
		r->idx = op->sec_data[sym->shndx];
		r->addend = (int64_t)sym->value + insn->imm;
		if (r->addend < 0 ||
		    (uint64_t)r->addend > obj->data[r->idx].size)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: instruction %u refers "
				       "to offset %lld of %s (%u bytes)",
				       obj->name, c->name, r->insn,
				       (long long)r->addend,
				       obj->data[r->idx].name,
				       obj->data[r->idx].size);
		return 0;
	}
	if (sym->shndx == SHN_COMMON)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s uses '%s', a common symbol: "
			       "compile with -fno-common, or initialize it",
			       obj->name, c->name, label);
	if (sym->shndx < ef->nsecs && op->sec_code[sym->shndx] >= 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s takes the address of function "
			       "'%s' (instruction %u): callbacks (bpf_loop, "
			       "bpf_for_each_map_elem, 5.13+) are not "
			       "supported by barebpf", obj->name, c->name,
			       label, r->insn);
	return bb_fail(op->err, -EINVAL,
		       "%s: section %s: instruction %u refers to '%s' in "
		       "section %s, which is neither a map, global data nor "
		       "a load-time constant (an undefined symbol, see "
		       "BB_CONST)", obj->name, c->name, r->insn, label,
		       sym->shndx < ef->nsecs ? ef->secs[sym->shndx].name :
						"(special)");
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct obj_reloc *x = a, *y = b;

	if (x->insn != y->insn)
		return (x->insn > y->insn) - (x->insn < y->insn);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int obj_read_relocs(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = op->elf;
	size_t i, j;
	int k, ret;

	/* Counted first: several sections may relocate one code section. */
	for (i = 1; i < ef->nsecs; i++)
		if (ef->secs[i].type == SHT_REL &&
		    op->sec_code[ef->secs[i].info] >= 0)
			obj->code[op->sec_code[ef->secs[i].info]].nrelocs +=
				elf_nrels(&ef->secs[i]);
	for (k = 0; k < obj->ncode; k++) {
		struct obj_code *c = &obj->code[k];

		if (c->nrelocs)
			c->relocs = calloc(c->nrelocs, sizeof(*c->relocs));
		if (c->nrelocs && !c->relocs)
			return bb_fail(op->err, -ENOMEM, "%s: out of memory",
				       obj->name);
		c->nrelocs = 0;
	}
	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *sec = &ef->secs[i];
		struct obj_code *c;

		if (sec->type != SHT_REL || op->sec_code[sec->info] < 0)
			continue;
		c = &obj->code[op->sec_code[sec->info]];
		for (j = 0; j < elf_nrels(sec); j++) {
			struct elf_rel rel;

			elf_rel_at(sec, j, &rel);
			c->relocs[c->nrelocs].seq = c->nrelocs;
			ret = add_reloc(op, c, &rel);
			if (ret < 0)
				return ret;
			c->nrelocs++;
		}
	}
	for (k = 0; k < obj->ncode; k++) {
		struct obj_code *c = &obj->code[k];

		if (c->nrelocs)
			qsort(c->relocs, c->nrelocs, sizeof(*c->relocs),
			      cmp_reloc);
	}
	return 0;
}
