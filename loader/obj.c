/* SPDX-License-Identifier: MIT */
/*
 * BPF objects: find the programs, maps, license and load-time constants of
 * an object (obj_open), rewrite the programs' private copies of their
 * instructions (obj_relocate), then create the maps and load the programs
 * (obj_load). Everything a Linux 4.15 kernel would refuse for a reason the
 * verifier explains badly (bpf-to-bpf calls, global data, JMP32, too many
 * instructions) is refused here, at open time, with the fix in the message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfread.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* struct bpf_insn's register nibbles are copied as they lie in the file. */
#error "barebpf's relocator assumes a little-endian host"
#endif

#define ACCEPTED_SECTIONS                                                      \
	"kprobe/<function>, kretprobe/<function>, "                            \
	"tracepoint/<category>/<name>, kprobe, kretprobe"
#define FIX_INLINE "mark the function static __always_inline"
#define FIX_HELPERS "mark helper functions static __always_inline"
#define FIX_GLOBAL_DATA                                                        \
	"global data needs Linux 5.2; use a load-time constant (BB_CONST) or " \
	"a map"

enum { RELOC_MAP, RELOC_CONST };

struct obj_reloc {
	uint32_t insn; /* index of the ld_imm64 */
	int kind;
	int idx; /* into obj->maps or obj->consts */
};

struct obj_prog {
	struct bb_prog p;
	struct obj_reloc *relocs;
	size_t nrelocs;
};

struct bb_obj {
	char *name;
	struct obj_prog *progs;
	int nprogs;
	struct bb_map *maps;
	int nmaps;
	struct bb_const *consts;
	int *const_prog; /* the first program that needs each constant */
	const struct bb_const **const_by_name; /* sorted, for obj_set_const */
	int nconsts;
	char license[128];
	char *log;
	int loaded;
	uint32_t kern_version;
	struct bb_prog **copies; /* obj_prog_load_copy */
	int ncopies;
};

/*
 * An object may hold hundreds of thousands of symbols, maps and
 * relocations: everything that pairs them up goes through a sorted index
 * or a table by section, never a scan per item (80,000 maps took seconds).
 */

/* A map's definition in section maps; sorted by offset. */
struct map_span {
	uint64_t off, size;
	int idx; /* into obj->maps */
};

/* An undefined symbol (a load-time constant); sorted by name, then index,
 * so that the symbols of one name share one constant. */
struct undef_sym {
	const char *name;
	uint32_t sym;
};

/* The function symbols of one section. */
struct sec_funcs {
	size_t n;
	const char *names[2];        /* the first two, for messages */
	const struct elf_sym *entry; /* the one at offset 0 */
};

/* State that only lives while obj_open parses. */
struct obj_parse {
	struct bb_obj *obj;
	struct elf_file elf;
	int maps_sec;   /* section index of `maps`, or -1 */
	int *sec_prog;  /* section index -> program index, or -1 */
	struct map_span *spans;     /* obj->nmaps, by offset */
	struct sec_funcs *funcs;    /* by section index */
	struct undef_sym *undefs;   /* by name */
	int *undef_const; /* per undefs entry (the first of its name): the
			   * constant, or -1 until a relocation needs it */
	int *sym_undef;   /* symbol index -> first undefs entry of its name */
	struct bb_err *err;
};

static int str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

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
 * The program kind a section name asks for. Returns 1 for a program
 * section, 0 for any other name, -EINVAL for a malformed tracepoint name.
 */
static int section_kind(const char *name, enum bb_prog_kind *kind,
			uint32_t *type, size_t *target_off)
{
	static const struct {
		const char *bare;
		enum bb_prog_kind kind;
		uint32_t type;
	} kinds[] = {
		{ "kprobe", BB_PROG_KPROBE, BPF_PROG_TYPE_KPROBE },
		{ "kretprobe", BB_PROG_KRETPROBE, BPF_PROG_TYPE_KPROBE },
		{ "tracepoint", BB_PROG_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].bare);
		const char *rest = name + n;

		if (strncmp(name, kinds[i].bare, n) || (*rest && *rest != '/'))
			continue;
		*kind = kinds[i].kind;
		*type = kinds[i].type;
		*target_off = *rest ? n + 1 : n;
		if (kinds[i].kind == BB_PROG_TRACEPOINT) {
			const char *slash;

			slash = *rest ? strchr(rest + 1, '/') : NULL;

			if (!slash || slash == rest + 1 || !slash[1] ||
			    strchr(slash + 1, '/'))
				return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/* A name for symbol i: its own, or its section's for a section symbol. */
static const char *sym_label(const struct elf_file *ef, uint32_t i)
{
	const struct elf_sym *sym = &ef->syms[i];

	if (sym->name[0])
		return sym->name;
	if (sym->type == STT_SECTION && sym->shndx < ef->nsecs)
		return ef->secs[sym->shndx].name;
	return "(unnamed)";
}

/* A named symbol of section shndx at value, for messages; or NULL. */
static const char *sym_at(const struct elf_file *ef, uint16_t shndx,
			  uint64_t value)
{
	size_t i;

	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];

		if (s->shndx == shndx && s->value == value && s->name[0] &&
		    s->type != STT_SECTION && s->type != STT_FILE)
			return s->name;
	}
	return NULL;
}

static int read_license(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = &op->elf;
	int i = elf_find_sec(ef, "license");
	const struct elf_sec *sec;

	if (i < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: no license section; add "
			       "`char _license[] SEC(\"license\") = \"GPL\";` "
			       "(most tracing helpers are GPL-only)",
			       obj->name);
	sec = &ef->secs[i];
	if (!sec->data || !memchr(sec->data, 0, sec->size))
		return bb_fail(op->err, -EINVAL,
			       "%s: the license section does not hold a "
			       "NUL-terminated string; write it as "
			       "`char _license[] SEC(\"license\") = \"GPL\";`",
			       obj->name);
	if (str_copy(obj->license, sizeof(obj->license),
		     (const char *)sec->data) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: license string longer than %zu bytes",
			       obj->name, sizeof(obj->license) - 1);
	return 0;
}

static int is_map_sym(const struct obj_parse *op, const struct elf_sym *s)
{
	return s->shndx == op->maps_sec && s->name[0] &&
	       s->type != STT_SECTION && s->type != STT_FILE;
}

static int cmp_span(const void *a, const void *b)
{
	const struct map_span *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Two maps at one offset, or overlapping: sorted, neighbours tell. */
static int check_map_spans(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i;

	qsort(op->spans, obj->nmaps, sizeof(*op->spans), cmp_span);
	for (i = 1; i < obj->nmaps; i++) {
		const struct map_span *a = &op->spans[i - 1], *b = &op->spans[i];

		if (a->off == b->off)
			return bb_fail(op->err, -EINVAL,
				       "%s: maps '%s' and '%s' share offset "
				       "%llu in section maps", obj->name,
				       obj->maps[a->idx].name,
				       obj->maps[b->idx].name,
				       (unsigned long long)a->off);
		if (b->off - a->off < a->size)
			return bb_fail(op->err, -EINVAL,
				       "%s: maps '%s' (offset %llu, size %llu) "
				       "and '%s' (offset %llu) overlap in "
				       "section maps; define maps with BB_MAP()",
				       obj->name, obj->maps[a->idx].name,
				       (unsigned long long)a->off,
				       (unsigned long long)a->size,
				       obj->maps[b->idx].name,
				       (unsigned long long)b->off);
	}
	return 0;
}

static int read_maps(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = &op->elf;
	const struct elf_sec *sec;
	size_t i, n = 0;

	op->maps_sec = elf_find_sec(ef, "maps");
	if (op->maps_sec < 0)
		return 0;
	sec = &ef->secs[op->maps_sec];
	if (!sec->data)
		return bb_fail(op->err, -EINVAL,
			       "%s: section maps has no contents (SHT_NOBITS); "
			       "define maps with BB_MAP()", obj->name);
	for (i = 1; i < ef->nsyms; i++)
		n += is_map_sym(op, &ef->syms[i]);
	obj->maps = calloc(n ? n : 1, sizeof(*obj->maps));
	op->spans = calloc(n ? n : 1, sizeof(*op->spans));
	if (!obj->maps || !op->spans)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		struct bb_map *m = &obj->maps[obj->nmaps];
		uint64_t size = s->size ? s->size : sizeof(m->def);

		if (!is_map_sym(op, s))
			continue;
		if (size < sizeof(m->def) ||
		    s->value > sec->size || size > sec->size - s->value)
			return bb_fail(op->err, -EINVAL,
				       "%s: map '%s' (offset %llu, size %llu) "
				       "does not hold a struct bb_map_def "
				       "(%zu bytes) inside section maps (%llu "
				       "bytes); define maps with BB_MAP()",
				       obj->name, s->name,
				       (unsigned long long)s->value,
				       (unsigned long long)s->size,
				       sizeof(m->def),
				       (unsigned long long)sec->size);
		if (str_copy(m->name, sizeof(m->name), s->name) < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: map name '%s' is longer than %zu "
				       "characters", obj->name, s->name,
				       sizeof(m->name) - 1);
		memcpy(&m->def, sec->data + s->value, sizeof(m->def));
		m->fd = -1;
		op->spans[obj->nmaps].off = s->value;
		op->spans[obj->nmaps].size = size;
		op->spans[obj->nmaps].idx = obj->nmaps;
		obj->nmaps++;
	}
	return check_map_spans(op);
}

/* One pass over the symbols instead of one per program section. */
static int index_functions(struct obj_parse *op)
{
	const struct elf_file *ef = &op->elf;
	size_t i;

	op->funcs = calloc(ef->nsecs, sizeof(*op->funcs));
	if (!op->funcs)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       op->obj->name);
	for (i = 1; i < ef->nsyms; i++) {
		const struct elf_sym *s = &ef->syms[i];
		struct sec_funcs *f;

		if (s->type != STT_FUNC || s->shndx >= ef->nsecs)
			continue;
		f = &op->funcs[s->shndx];
		if (f->n < 2)
			f->names[f->n] = s->name;
		f->n++;
		if (s->value == 0)
			f->entry = s;
	}
	return 0;
}

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
static int index_undefs(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = &op->elf;
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
	if (!op->undefs || !op->undef_const || !op->sym_undef ||
	    !obj->consts || !obj->const_prog)
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

/* The program's function: the one function symbol of its section. */
static int find_prog_function(struct obj_parse *op, int shndx,
			      struct obj_prog *prog)
{
	const struct sec_funcs *f = &op->funcs[shndx];
	const struct elf_sym *entry = f->entry;
	const char *const *names = f->names;
	size_t nfuncs = f->n;

	if (nfuncs > 1)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s holds %zu functions (%s, %s%s): "
			       "barebpf loads one program per section and "
			       "Linux 4.15 has no bpf-to-bpf calls (4.16); "
			       "put each program in its own section and %s",
			       op->obj->name, prog->p.section, nfuncs,
			       names[0], names[1], nfuncs > 2 ? ", ..." : "",
			       FIX_HELPERS);
	if (!entry)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s has no function symbol at its "
			       "start; was the object stripped?",
			       op->obj->name, prog->p.section);
	if (entry->bind != STB_GLOBAL && entry->bind != STB_WEAK)
		return bb_fail(op->err, -EINVAL,
			       "%s: program '%s' in section %s is static; "
			       "make it a global function", op->obj->name,
			       entry->name, prog->p.section);
	if (str_copy(prog->p.name, sizeof(prog->p.name), entry->name) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: program name '%s' is longer than %zu "
			       "characters", op->obj->name, entry->name,
			       sizeof(prog->p.name) - 1);
	return 0;
}

static int add_prog(struct obj_parse *op, int shndx,
		    enum bb_prog_kind kind, uint32_t type, size_t target_off)
{
	struct bb_obj *obj = op->obj;
	const struct elf_sec *sec = &op->elf.secs[shndx];
	struct obj_prog *prog = &obj->progs[obj->nprogs];
	size_t cnt = sec->size / sizeof(struct bpf_insn);
	int ret;

	prog->p.fd = -1;
	if (str_copy(prog->p.section, sizeof(prog->p.section), sec->name) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section name '%s' is longer than %zu "
			       "characters", obj->name, sec->name,
			       sizeof(prog->p.section) - 1);
	prog->p.kind = kind;
	prog->p.prog_type = type;
	prog->p.target = prog->p.section + target_off;
	if (!sec->data || sec->size % sizeof(struct bpf_insn))
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: size %llu is not a whole "
			       "number of instructions", obj->name, sec->name,
			       (unsigned long long)sec->size);
	if (cnt > BPF_MAXINSNS)
		return bb_fail(op->err, -E2BIG,
			       "%s: section %s has %zu instructions; Linux "
			       "before 5.2 loads at most %d: split the "
			       "program or trim unrolled code", obj->name,
			       sec->name, cnt, BPF_MAXINSNS);
	obj->nprogs++; /* from here on obj_close frees it */
	ret = find_prog_function(op, shndx, prog);
	if (ret < 0)
		return ret;
	prog->p.insns = malloc(sec->size);
	if (!prog->p.insns)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	memcpy(prog->p.insns, sec->data, sec->size);
	prog->p.insn_cnt = cnt;
	op->sec_prog[shndx] = obj->nprogs - 1;
	return 0;
}

static int cmp_key_const(const void *key, const void *elem)
{
	const struct bb_const *const *c = elem;

	return strcmp(key, (*c)->name);
}

static int cmp_const(const void *a, const void *b)
{
	const struct bb_const *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* The constants by name, for obj_set_const (names are unique). */
static int sort_consts(struct bb_obj *obj)
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

static int find_const(struct bb_obj *obj, const char *name)
{
	const struct bb_const **c;

	if (!obj->nconsts)
		return -1;
	c = bsearch(name, obj->const_by_name, obj->nconsts,
		    sizeof(*obj->const_by_name), cmp_key_const);
	return c ? (int)(*c - obj->consts) : -1;
}

static int reloc_const(struct obj_parse *op, struct obj_prog *prog,
		       uint32_t sym, struct obj_reloc *r)
{
	struct bb_obj *obj = op->obj;
	const char *name = op->elf.syms[sym].name;
	int u = op->sym_undef[sym], i = op->undef_const[u];

	if (i < 0) {
		i = obj->nconsts;
		if (str_copy(obj->consts[i].name, sizeof(obj->consts[i].name),
			     name) < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: constant name '%s' is "
				       "longer than %zu characters", obj->name,
				       prog->p.section, name,
				       sizeof(obj->consts[i].name) - 1);
		obj->const_prog[i] = prog - obj->progs;
		obj->nconsts++;
		op->undef_const[u] = i;
	}
	r->kind = RELOC_CONST;
	r->idx = i;
	return 0;
}

static int cmp_span_off(const void *a, const void *b)
{
	const struct map_span *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

static int reloc_map(struct obj_parse *op, struct obj_prog *prog,
		     const struct elf_rel *rel, struct obj_reloc *r)
{
	struct bb_obj *obj = op->obj;
	const struct elf_sym *sym = &op->elf.syms[rel->sym];
	struct map_span key = { 0 };
	const struct map_span *hit;

	/* Old clang refers to the section symbol plus an addend in imm. */
	key.off = sym->value;
	if (sym->type == STT_SECTION)
		key.off += (uint32_t)prog->p.insns[r->insn].imm;
	hit = obj->nmaps ? bsearch(&key, op->spans, obj->nmaps,
				   sizeof(*op->spans), cmp_span_off) : NULL;
	if (!hit)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation at offset %llu "
			       "refers to offset %llu of section maps, where "
			       "no map symbol is; define maps with BB_MAP()",
			       obj->name, prog->p.section,
			       (unsigned long long)rel->offset,
			       (unsigned long long)key.off);
	r->kind = RELOC_MAP;
	r->idx = hit->idx;
	return 0;
}

/* Check one relocation of prog and record what it needs at load time. */
static int add_reloc(struct obj_parse *op, struct obj_prog *prog,
		     const struct elf_rel *rel)
{
	struct bb_obj *obj = op->obj;
	const struct elf_file *ef = &op->elf;
	const struct elf_sym *sym = &ef->syms[rel->sym];
	const char *label = sym_label(ef, rel->sym);
	const char *sec = prog->p.section;
	struct obj_reloc *r = &prog->relocs[prog->nrelocs];
	struct bpf_insn *insn;

	if (rel->offset % sizeof(*insn) ||
	    rel->offset >= prog->p.insn_cnt * sizeof(*insn))
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation against '%s' at "
			       "offset %llu is not an instruction of the "
			       "section (%zu bytes); corrupt object?",
			       obj->name, sec, label,
			       (unsigned long long)rel->offset,
			       prog->p.insn_cnt * sizeof(*insn));
	r->insn = rel->offset / sizeof(*insn);
	insn = &prog->p.insns[r->insn];
	if (insn->code == BPF_CALL_CODE && insn->src_reg == BPF_PSEUDO_CALL)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s calls BPF function '%s' "
			       "(instruction %u): bpf-to-bpf calls need Linux "
			       "4.16; %s", obj->name, sec, label, r->insn,
			       FIX_INLINE);
	if (insn->code != BPF_LD_IMM64_CODE)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: relocation against '%s' at "
			       "offset %llu is on an instruction with code "
			       "0x%02x, not ld_imm64 (0x18): only maps and "
			       "load-time constants can be referred to; "
			       "corrupt object or unsupported compiler "
			       "output?", obj->name, sec, label,
			       (unsigned long long)rel->offset, insn->code);
	if (r->insn + 1 >= prog->p.insn_cnt)
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s: ld_imm64 against '%s' at "
			       "offset %llu lacks its second half; corrupt "
			       "object?", obj->name, sec, label,
			       (unsigned long long)rel->offset);

	if (op->maps_sec > 0 && sym->shndx == op->maps_sec)
		return reloc_map(op, prog, rel, r);
	if (sym->shndx == SHN_UNDEF && sym->name[0])
		return reloc_const(op, prog, rel->sym, r);
	if (sym->shndx == SHN_COMMON ||
	    (sym->shndx < ef->nsecs &&
	     is_data_section(ef->secs[sym->shndx].name))) {
		const char *where = sym->shndx == SHN_COMMON ?
			"common" : ef->secs[sym->shndx].name;
		const char *var = NULL;

		if (sym->type == STT_SECTION)
			var = sym_at(ef, sym->shndx,
				     sym->value + (uint32_t)insn->imm);
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s uses '%s' in %s (instruction "
			       "%u): %s", obj->name, sec, var ? var : label,
			       where, r->insn, FIX_GLOBAL_DATA);
	}
	return bb_fail(op->err, -EINVAL,
		       "%s: section %s: instruction %u refers to '%s' in "
		       "section %s, which is neither a map (section maps) nor "
		       "a load-time constant (an undefined symbol, see "
		       "BB_CONST)", obj->name, sec, r->insn, label,
		       sym->shndx < ef->nsecs ? ef->secs[sym->shndx].name :
						"(special)");
}

/* The relocation section of each program, if any: .rel.text, .rel.BTF,
 * ... are not ours to apply. */
static struct obj_prog *rel_prog(struct obj_parse *op,
				 const struct elf_sec *sec)
{
	if (sec->type != SHT_REL || op->sec_prog[sec->info] < 0)
		return NULL;
	return &op->obj->progs[op->sec_prog[sec->info]];
}

static int read_relocs(struct obj_parse *op)
{
	const struct elf_file *ef = &op->elf;
	struct obj_prog *prog;
	size_t i, j;
	int ret;

	/* Counted first: several sections may relocate one program. */
	for (i = 1; i < ef->nsecs; i++)
		if ((prog = rel_prog(op, &ef->secs[i])))
			prog->nrelocs += elf_nrels(&ef->secs[i]);
	for (i = 0; i < (size_t)op->obj->nprogs; i++) {
		prog = &op->obj->progs[i];
		if (prog->nrelocs)
			prog->relocs = calloc(prog->nrelocs,
					      sizeof(*prog->relocs));
		if (prog->nrelocs && !prog->relocs)
			return bb_fail(op->err, -ENOMEM, "%s: out of memory",
				       op->obj->name);
		prog->nrelocs = 0;
	}
	for (i = 1; i < ef->nsecs; i++) {
		const struct elf_sec *sec = &ef->secs[i];
		size_t n = elf_nrels(sec);

		prog = rel_prog(op, sec);
		if (!prog)
			continue;
		for (j = 0; j < n; j++) {
			struct elf_rel rel;

			elf_rel(sec, j, &rel);
			ret = add_reloc(op, prog, &rel);
			if (ret < 0)
				return ret;
			prog->nrelocs++;
		}
	}
	return 0;
}

/* What relocations cannot show: calls without one, JMP32, torn ld_imm64. */
static int check_insns(struct obj_parse *op, const struct obj_prog *prog)
{
	const struct bpf_insn *insns = prog->p.insns;
	size_t i;

	for (i = 0; i < prog->p.insn_cnt; i++) {
		if (insns[i].code == BPF_LD_IMM64_CODE) {
			if (i + 1 == prog->p.insn_cnt)
				return bb_fail(op->err, -EINVAL,
					       "%s: section %s ends in the "
					       "middle of an ld_imm64 "
					       "instruction; corrupt object?",
					       op->obj->name, prog->p.section);
			i++;
			continue;
		}
		if (insns[i].code == BPF_CALL_CODE &&
		    insns[i].src_reg == BPF_PSEUDO_CALL)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: instruction %zu calls "
				       "the BPF function at instruction %lld: "
				       "bpf-to-bpf calls need Linux 4.16; %s",
				       op->obj->name, prog->p.section, i,
				       (long long)i + 1 + insns[i].imm,
				       FIX_INLINE);
		if (BPF_CLASS(insns[i].code) == BPF_JMP32)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: instruction %zu (code "
				       "0x%02x) is a JMP32 instruction, which "
				       "needs Linux 5.1; compile with "
				       "-mcpu=v2", op->obj->name,
				       prog->p.section, i, insns[i].code);
	}
	return 0;
}

/* A section with code that is not a program: name it and its functions. */
static int refuse_code_section(struct obj_parse *op, int shndx)
{
	const struct elf_file *ef = &op->elf;
	const char *fn = op->funcs[shndx].names[0];

	return bb_fail(op->err, -EINVAL,
		       "%s: section %s holds code%s%s%s but is not a program "
		       "section (accepted: " ACCEPTED_SECTIONS "); put "
		       "programs in those sections with SEC() and %s",
		       op->obj->name, ef->secs[shndx].name,
		       fn ? " (function '" : "", fn ? fn : "", fn ? "')" : "",
		       FIX_HELPERS);
}

static int read_progs(struct obj_parse *op)
{
	const struct elf_file *ef = &op->elf;
	int i, other_code = 0, ret;

	for (i = 1; i < (int)ef->nsecs; i++) {
		const struct elf_sec *sec = &ef->secs[i];
		enum bb_prog_kind kind;
		uint32_t type;
		size_t target_off;

		if (sec->type != SHT_PROGBITS ||
		    !(sec->flags & SHF_EXECINSTR) || !sec->size)
			continue;
		ret = section_kind(sec->name, &kind, &type, &target_off);
		if (ret < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: a tracepoint section "
				       "is named tracepoint/<category>/<name>, "
				       "as in tracefs events/",
				       op->obj->name, sec->name);
		if (ret == 0) {
			/* Reported last: a call into it explains more. */
			if (!other_code)
				other_code = i;
			continue;
		}
		ret = add_prog(op, i, kind, type, target_off);
		if (ret < 0)
			return ret;
	}
	ret = read_relocs(op);
	if (ret < 0)
		return ret;
	for (i = 0; i < op->obj->nprogs; i++) {
		ret = check_insns(op, &op->obj->progs[i]);
		if (ret < 0)
			return ret;
	}
	if (other_code)
		return refuse_code_section(op, other_code);
	if (!op->obj->nprogs)
		return bb_fail(op->err, -ENOENT,
			       "%s: no programs; put each one in a section "
			       "named " ACCEPTED_SECTIONS, op->obj->name);
	return 0;
}

/* Maps and constants are sized by read_maps and index_undefs. */
static int obj_alloc(struct bb_obj **objp, const char *name,
		     const struct elf_file *ef)
{
	struct bb_obj *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return -ENOMEM;
	*objp = obj;
	obj->name = strdup(name);
	obj->progs = calloc(ef->nsecs, sizeof(*obj->progs));
	if (!obj->name || !obj->progs)
		return -ENOMEM;
	return 0;
}

static void parse_free(struct obj_parse *op)
{
	free(op->sec_prog);
	free(op->spans);
	free(op->funcs);
	free(op->undefs);
	free(op->undef_const);
	free(op->sym_undef);
	elf_close(&op->elf);
}

int obj_open(struct bb_obj **objp, const void *buf, size_t len,
	     const char *name, struct bb_err *err)
{
	struct obj_parse op = { .maps_sec = -1, .err = err };
	size_t i;
	int ret;

	*objp = NULL;
	if (!name)
		name = "BPF object";
	ret = elf_open(&op.elf, buf, len, name, err);
	if (ret < 0)
		return ret;
	ret = obj_alloc(&op.obj, name, &op.elf);
	op.sec_prog = malloc(op.elf.nsecs * sizeof(*op.sec_prog));
	if (ret < 0 || !op.sec_prog) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", name);
		goto err_close_obj;
	}
	for (i = 0; i < op.elf.nsecs; i++)
		op.sec_prog[i] = -1;
	if (!op.elf.symtab) {
		ret = bb_fail(err, -EINVAL,
			      "%s: no symbol table (stripped?); barebpf names "
			      "programs, maps and constants by their symbols",
			      name);
		goto err_close_obj;
	}
	ret = read_license(&op);
	if (ret < 0)
		goto err_close_obj;
	ret = read_maps(&op);
	if (ret < 0)
		goto err_close_obj;
	ret = index_functions(&op);
	if (ret < 0)
		goto err_close_obj;
	ret = index_undefs(&op);
	if (ret < 0)
		goto err_close_obj;
	ret = read_progs(&op);
	if (ret < 0)
		goto err_close_obj;
	if (sort_consts(op.obj) < 0) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", name);
		goto err_close_obj;
	}
	parse_free(&op);
	*objp = op.obj;
	return 0;

err_close_obj:
	obj_close(op.obj);
	parse_free(&op);
	return ret;
}

int obj_set_const(struct bb_obj *obj, const char *name, uint64_t value)
{
	int i = find_const(obj, name);

	/* A name no program uses is most likely a typo: say so. */
	if (i < 0)
		return -ENOENT;
	obj->consts[i].value = value;
	obj->consts[i].set = 1;
	return 0;
}

int obj_consts(struct bb_obj *obj, const struct bb_const **consts)
{
	*consts = obj->consts;
	return obj->nconsts;
}

static int check_consts_set(const struct bb_obj *obj, struct bb_err *err)
{
	int i;

	for (i = 0; i < obj->nconsts; i++) {
		const struct bb_prog *p = &obj->progs[obj->const_prog[i]].p;

		if (!obj->consts[i].set)
			return bb_fail(err, -EINVAL,
				       "%s: program %s (section %s) needs the "
				       "load-time constant '%s', which was "
				       "not set (obj_set_const, or `barebpf "
				       "run -c %s=VALUE`)", obj->name, p->name,
				       p->section, obj->consts[i].name,
				       obj->consts[i].name);
	}
	return 0;
}

int obj_relocate(struct bb_obj *obj, struct bb_err *err)
{
	int i, ret;
	size_t j;

	ret = check_consts_set(obj, err);
	if (ret < 0)
		return ret;
	for (i = 0; i < obj->nprogs; i++) {
		struct obj_prog *prog = &obj->progs[i];

		for (j = 0; j < prog->nrelocs; j++) {
			const struct obj_reloc *r = &prog->relocs[j];
			struct bpf_insn *insn = &prog->p.insns[r->insn];

			if (r->kind == RELOC_MAP) {
				const struct bb_map *m = &obj->maps[r->idx];

				if (m->fd < 0)
					return bb_fail(err, -EBADF,
						       "%s: map %s has not "
						       "been created",
						       obj->name, m->name);
				insn[0].src_reg = BPF_PSEUDO_MAP_FD;
				insn[0].imm = m->fd;
				insn[1].imm = 0;
			} else {
				uint64_t v = obj->consts[r->idx].value;

				insn[0].src_reg = 0;
				insn[0].imm = (uint32_t)v;
				insn[1].imm = (uint32_t)(v >> 32);
			}
		}
	}
	return 0;
}

static const char *map_create_hint(int ret)
{
	switch (ret) {
	case -EPERM:
		return "; run as root (CAP_SYS_ADMIN), and raise "
		       "RLIMIT_MEMLOCK: kernels before 5.11 charge maps to it";
	case -ENOMEM:
		return "; kernels before 5.11 charge maps to RLIMIT_MEMLOCK: "
		       "raise it, or use fewer entries";
	case -EINVAL:
		return "; this kernel refuses the definition: a map type it "
		       "lacks, or sizes that type does not allow";
	default:
		return "";
	}
}

static int create_maps(struct bb_obj *obj, struct bb_err *err)
{
	int i, fd;

	for (i = 0; i < obj->nmaps; i++) {
		struct bb_map *m = &obj->maps[i];

		fd = bpf_map_create(m->def.type, m->def.key_size,
				    m->def.value_size, m->def.max_entries,
				    m->def.map_flags, m->name);
		if (fd < 0)
			return bb_fail(err, fd,
				       "%s: cannot create map %s (type %u, key "
				       "%u, value %u, %u entries, flags 0x%x): "
				       "%s%s", obj->name, m->name, m->def.type,
				       m->def.key_size, m->def.value_size,
				       m->def.max_entries, m->def.map_flags,
				       strerror(-fd), map_create_hint(fd));
		m->fd = fd;
	}
	return 0;
}

static const char *prog_load_hint(const struct bb_obj *obj,
				  const struct bb_prog *p, int ret)
{
	if (obj->log && obj->log[0])
		return "; the verifier log says why";
	if (ret == -EPERM)
		return "; run as root (CAP_SYS_ADMIN), and raise "
		       "RLIMIT_MEMLOCK: kernels before 5.11 charge programs "
		       "to it";
	if (ret == -EINVAL && p->prog_type == BPF_PROG_TYPE_KPROBE)
		return "; before Linux 5.0, kprobe programs need kern_version "
		       "to equal the running kernel's LINUX_VERSION_CODE";
	return "";
}

static void close_fds(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj->ncopies; i++) {
		if (obj->copies[i]->fd >= 0)
			close(obj->copies[i]->fd);
		obj->copies[i]->fd = -1;
	}
	for (i = 0; i < obj->nprogs; i++) {
		if (obj->progs[i].p.fd >= 0)
			close(obj->progs[i].p.fd);
		obj->progs[i].p.fd = -1;
	}
	for (i = 0; i < obj->nmaps; i++) {
		if (obj->maps[i].fd >= 0)
			close(obj->maps[i].fd);
		obj->maps[i].fd = -1;
	}
}

int obj_load(struct bb_obj *obj, uint32_t kern_version, struct bb_err *err)
{
	int i, fd, ret;

	if (obj->loaded)
		return bb_fail(err, -EBUSY, "%s: already loaded", obj->name);
	free(obj->log);
	obj->log = NULL;
	/* Before creating anything: a missing constant is the likely error. */
	ret = check_consts_set(obj, err);
	if (ret < 0)
		return ret;
	ret = create_maps(obj, err);
	if (ret < 0)
		goto err_close_fds;
	ret = obj_relocate(obj, err);
	if (ret < 0)
		goto err_close_fds;
	for (i = 0; i < obj->nprogs; i++) {
		struct bb_prog *p = &obj->progs[i].p;

		fd = bpf_prog_load(p->prog_type, p->insns, p->insn_cnt,
				   obj->license, kern_version, p->name,
				   &obj->log);
		if (fd < 0) {
			ret = bb_fail(err, fd,
				      "%s: the kernel refused program %s "
				      "(section %s, %zu instructions): %s%s",
				      obj->name, p->name, p->section,
				      p->insn_cnt, strerror(-fd),
				      prog_load_hint(obj, p, fd));
			goto err_close_fds;
		}
		p->fd = fd;
	}
	obj->loaded = 1;
	obj->kern_version = kern_version;
	return 0;

err_close_fds:
	close_fds(obj);
	return ret;
}

/* The program type of a kind: what the kernel checks the code against. */
static uint32_t kind_prog_type(enum bb_prog_kind kind)
{
	return kind == BB_PROG_TRACEPOINT ? BPF_PROG_TYPE_TRACEPOINT
					  : BPF_PROG_TYPE_KPROBE;
}

int obj_prog_load_copy(struct bb_obj *obj, const char *name,
		       enum bb_prog_kind kind, struct bb_prog **copyp,
		       struct bb_err *err)
{
	struct obj_prog *src = NULL;
	struct bb_prog *c, **cc;
	size_t j;
	int i, fd;

	*copyp = NULL;
	if (!obj->loaded)
		return bb_fail(err, -EINVAL, "%s: load the object before "
			       "copying program %s", obj->name, name);
	for (i = 0; i < obj->nprogs && !src; i++)
		if (!strcmp(obj->progs[i].p.name, name))
			src = &obj->progs[i];
	if (!src)
		return bb_fail(err, -ENOENT, "%s: no program %s", obj->name,
			       name);
	cc = realloc(obj->copies, (obj->ncopies + 1) * sizeof(*cc));
	if (!cc)
		return bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
	obj->copies = cc;
	c = malloc(sizeof(*c));
	if (c)
		*c = src->p;
	if (!c || !(c->insns = malloc(c->insn_cnt * sizeof(*c->insns)))) {
		free(c);
		return bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
	}
	/* the maps are relocated already (obj_load): only the constants */
	memcpy(c->insns, src->p.insns, c->insn_cnt * sizeof(*c->insns));
	for (j = 0; j < src->nrelocs; j++) {
		const struct obj_reloc *r = &src->relocs[j];
		uint64_t v = obj->consts[r->idx].value;

		if (r->kind != RELOC_CONST)
			continue;
		c->insns[r->insn].imm = (uint32_t)v;
		c->insns[r->insn + 1].imm = (uint32_t)(v >> 32);
	}
	c->kind = kind;
	c->prog_type = kind_prog_type(kind);
	free(obj->log);
	obj->log = NULL;
	fd = bpf_prog_load(c->prog_type, c->insns, c->insn_cnt, obj->license,
			   obj->kern_version, c->name, &obj->log);
	free(c->insns);
	c->insns = NULL;
	if (fd < 0) {
		free(c);
		return bb_fail(err, fd, "%s: the kernel refused a copy of "
			       "program %s (%zu instructions): %s%s",
			       obj->name, name, src->p.insn_cnt, strerror(-fd),
			       prog_load_hint(obj, &src->p, fd));
	}
	c->fd = fd;
	obj->copies[obj->ncopies++] = c;
	*copyp = c;
	return 0;
}

const char *obj_verifier_log(const struct bb_obj *obj)
{
	return obj && obj->log ? obj->log : "";
}

int obj_nprogs(const struct bb_obj *obj)
{
	return obj->nprogs;
}

struct bb_prog *obj_prog_at(struct bb_obj *obj, int i)
{
	return i >= 0 && i < obj->nprogs ? &obj->progs[i].p : NULL;
}

struct bb_prog *obj_prog(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i].p.name, name))
			return &obj->progs[i].p;
	for (i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i].p.section, name))
			return &obj->progs[i].p;
	return NULL;
}

int obj_nmaps(const struct bb_obj *obj)
{
	return obj->nmaps;
}

struct bb_map *obj_map_at(struct bb_obj *obj, int i)
{
	return i >= 0 && i < obj->nmaps ? &obj->maps[i] : NULL;
}

struct bb_map *obj_map(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nmaps; i++)
		if (!strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

const char *obj_license(const struct bb_obj *obj)
{
	return obj->license;
}

void obj_close(struct bb_obj *obj)
{
	int i;

	if (!obj)
		return;
	close_fds(obj);
	for (i = 0; obj->progs && i < obj->nprogs; i++) {
		free(obj->progs[i].p.insns);
		free(obj->progs[i].relocs);
	}
	for (i = 0; i < obj->ncopies; i++)
		free(obj->copies[i]);
	free(obj->copies);
	free(obj->progs);
	free(obj->maps);
	free(obj->consts);
	free(obj->const_prog);
	free(obj->const_by_name);
	free(obj->log);
	free(obj->name);
	free(obj);
}
