/* SPDX-License-Identifier: MIT */
/*
 * BPF objects, the parse: find the code, functions, programs, maps,
 * global data, license and load-time constants of an object (obj_open).
 * Nothing here depends on the running kernel: what it takes is decided at
 * load time (link.c, load.c), so one object opens the same everywhere.
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
#include "elfread.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* struct bpf_insn's register nibbles are copied as they lie in the file. */
#error "barebpf's relocator assumes a little-endian host"
#endif

#define ACCEPTED_SECTIONS                                                      \
	"kprobe/<function>, kretprobe/<function>, ksyscall/<syscall>, "        \
	"kretsyscall/<syscall>, tracepoint/<category>/<name>"
#define RUN_ATTACHES                                                           \
	"barebpf run attaches kprobe, kretprobe, ksyscall and tracepoint "     \
	"programs"

/* An undefined symbol (a load-time constant); sorted by name, then index,
 * so that the symbols of one name share one constant. */
struct undef_sym {
	const char *name;
	uint32_t sym;
};

int obj_str_copy(char *dst, size_t size, const char *src)
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

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* How a kprobe target spells a system call: BB_SYSCALL_*. */
static int syscall_spelling(const char *t)
{
	static const char *const wrap[] = { "__x64_sys_", "__arm64_sys_",
					    "__ia32_sys_" };
	size_t i;

	for (i = 0; i < sizeof(wrap) / sizeof(wrap[0]); i++)
		if (is_prefix(t, wrap[i]) && t[strlen(wrap[i])])
			return BB_SYSCALL_WRAP;
	if ((is_prefix(t, "sys_") || is_prefix(t, "SyS_")) && t[4])
		return BB_SYSCALL_OLD;
	return BB_SYSCALL_NONE;
}

struct sec_kind {
	enum bb_prog_kind kind;
	uint32_t type;
	size_t target_off; /* where the target starts in the name */
	int syscall;
};

/*
 * The program kind a section name asks for. Returns 1 for a program
 * section, 0 for any other name, -EINVAL for a malformed tracepoint name.
 */
static int section_kind(const char *name, struct sec_kind *k)
{
	static const struct {
		const char *bare;
		enum bb_prog_kind kind;
		uint32_t type;
		int syscall;
	} kinds[] = {
		{ "kprobe", BB_PROG_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		{ "kretprobe", BB_PROG_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		{ "ksyscall", BB_PROG_KPROBE, BPF_PROG_TYPE_KPROBE,
		  BB_SYSCALL_NEW },
		{ "kretsyscall", BB_PROG_KRETPROBE, BPF_PROG_TYPE_KPROBE,
		  BB_SYSCALL_NEW },
		{ "tracepoint", BB_PROG_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT,
		  0 },
		{ "tp", BB_PROG_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].bare);
		const char *rest = name + n;

		if (strncmp(name, kinds[i].bare, n) || (*rest && *rest != '/'))
			continue;
		k->kind = kinds[i].kind;
		k->type = kinds[i].type;
		k->target_off = *rest ? n + 1 : n;
		k->syscall = kinds[i].syscall;
		if (k->kind == BB_PROG_TRACEPOINT) {
			const char *slash;

			slash = *rest ? strchr(rest + 1, '/') : NULL;
			if (!slash || slash == rest + 1 || !slash[1] ||
			    strchr(slash + 1, '/'))
				return -EINVAL;
		} else if (!k->syscall && *rest) {
			k->syscall = syscall_spelling(rest + 1);
		}
		if (k->syscall == BB_SYSCALL_NEW && !*rest)
			return -EINVAL;
		return 1;
	}
	return 0;
}

/*
 * What other loaders put in a section: for the message that says what
 * kind of program barebpf run does not run. Longest prefixes first.
 */
static const char *other_kind(const char *name)
{
	static const struct {
		const char *prefix, *kind;
	} kinds[] = {
		{ "kprobe.multi", "a multi-kprobe (5.18)" },
		{ "kretprobe.multi", "a multi-kretprobe (5.18)" },
		{ "uprobe.multi", "a multi-uprobe (6.6)" },
		{ "uretprobe", "a uretprobe" },
		{ "uprobe", "a uprobe" },
		{ "usdt", "a USDT" },
		{ "raw_tracepoint", "a raw tracepoint" },
		{ "raw_tp", "a raw tracepoint" },
		{ "tp_btf", "a BTF tracepoint" },
		{ "fentry", "an fentry" },
		{ "fexit", "an fexit" },
		{ "fmod_ret", "an fmod_ret" },
		{ "lsm", "an LSM" },
		{ "iter", "an iterator" },
		{ "struct_ops", "a struct_ops" },
		{ "perf_event", "a perf event" },
		{ "socket", "a socket filter" },
		{ "sockops", "a sockops" },
		{ "sk_skb", "an sk_skb" },
		{ "sk_msg", "an sk_msg" },
		{ "sk_lookup", "an sk_lookup" },
		{ "sk_reuseport", "an sk_reuseport" },
		{ "xdp", "an XDP" },
		{ "cgroup", "a cgroup" },
		{ "classifier", "a tc classifier" },
		{ "action", "a tc action" },
		{ "tc", "a tc" },
		{ "lwt_", "a lightweight tunnel" },
		{ "flow_dissector", "a flow dissector" },
		{ "netfilter", "a netfilter" },
		{ "syscall", "a BPF_PROG_TYPE_SYSCALL" },
		{ "freplace", "an freplace" },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (is_prefix(name, kinds[i].prefix))
			return kinds[i].kind;
	return NULL;
}

const char *obj_sym_label(const struct elf_file *ef, uint32_t i)
{
	const struct elf_sym *sym = &ef->syms[i];

	if (sym->name[0])
		return sym->name;
	if (sym->type == STT_SECTION && sym->shndx < ef->nsecs)
		return ef->secs[sym->shndx].name;
	return "(unnamed)";
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

				elf_rel(s, j, &r);
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

/* ---- constants (undefined symbols) ---- */

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
		btf_member(&obj->btf, &sec, i, &m);
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

/* ---- relocations of code ---- */

static int find_span(const struct obj_parse *op, int shndx, uint64_t off)
{
	int lo = 0, hi = op->nspans - 1;

	/* spans are sorted by (section, offset) in mapdef.c */
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

static int read_relocs(struct obj_parse *op)
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

			elf_rel(sec, j, &rel);
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

/* ---- programs ---- */

static int add_prog(struct obj_parse *op, const struct obj_code *c,
		    int func, const struct sec_kind *k)
{
	struct bb_obj *obj = op->obj;
	struct obj_prog *prog = &obj->progs[obj->nprogs];
	const char *target;

	prog->p.fd = -1;
	prog->p.tail_slot = -1;
	prog->func = func;
	if (obj_str_copy(prog->p.section, sizeof(prog->p.section),
			 c->name) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section name '%.64s...' is longer than "
			       "%zu characters", obj->name, c->name,
			       sizeof(prog->p.section) - 1);
	memcpy(prog->p.name, obj->funcs[func].name, sizeof(prog->p.name));
	/* the function alone until obj_relocate links what it calls */
	prog->p.insn_cnt = obj->funcs[func].cnt;
	prog->p.insns = malloc(prog->p.insn_cnt * sizeof(*prog->p.insns));
	if (!prog->p.insns)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	memcpy(prog->p.insns, c->insns + obj->funcs[func].off,
	       prog->p.insn_cnt * sizeof(*prog->p.insns));
	obj->nprogs++; /* from here on obj_close frees it */
	prog->p.kind = k->kind;
	prog->p.prog_type = k->type;
	prog->p.syscall = k->syscall;
	target = prog->p.section + k->target_off;
	prog->p.target = target;
	/* bpf_load: kprobe/<N> is slot N of the program array, for tail
	 * calls; no function is named by digits alone */
	if (k->kind != BB_PROG_TRACEPOINT && !k->syscall &&
	    all_digits(target)) {
		unsigned long slot = strtoul(target, NULL, 10);

		if (strlen(target) > 9)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: tail-call slot %s is "
				       "too large", obj->name, c->name,
				       target);
		prog->p.tail_slot = slot;
		prog->p.target = "";
	}
	return 0;
}

/* A code section that is not .text and not a program section. */
static int refuse_code_section(struct obj_parse *op, const struct obj_code *c)
{
	const struct bb_obj *obj = op->obj;
	const char *fn = c->nfuncs ? obj->funcs[c->first_func].name : NULL;
	const char *kind = other_kind(c->name);

	if (kind)
		return bb_fail(op->err, -EOPNOTSUPP,
			       "%s: section %s is %s program; " RUN_ATTACHES
			       " (%s)", obj->name, c->name, kind,
			       ACCEPTED_SECTIONS);
	return bb_fail(op->err, -EINVAL,
		       "%s: section %s holds code%s%s%s but is not a program "
		       "section (accepted: " ACCEPTED_SECTIONS "; helper "
		       "functions go in .text, i.e. without SEC())",
		       obj->name, c->name, fn ? " (function '" : "",
		       fn ? fn : "", fn ? "')" : "");
}

static int read_progs(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i, j, ret;

	obj->progs = calloc(obj->nfuncs ? obj->nfuncs : 1,
			    sizeof(*obj->progs));
	if (!obj->progs)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 0; i < obj->ncode; i++) {
		const struct obj_code *c = &obj->code[i];
		struct sec_kind k;
		int nglobal = 0;

		if (!strcmp(c->name, ".text"))
			continue;
		ret = section_kind(c->name, &k);
		if (ret < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: a tracepoint section "
				       "is named tracepoint/<category>/<name> "
				       "as in tracefs events/, a syscall one "
				       "ksyscall/<name>", obj->name, c->name);
		if (ret == 0)
			return refuse_code_section(op, c);
		for (j = c->first_func; j < c->first_func + c->nfuncs; j++) {
			if (!obj->funcs[j].global)
				continue;
			nglobal++;
			ret = add_prog(op, c, j, &k);
			if (ret < 0)
				return ret;
		}
		if (nglobal)
			continue;
		if (c->nfuncs)
			return bb_fail(op->err, -EINVAL,
				       "%s: program '%s' in section %s is "
				       "static; make it a global function",
				       obj->name, obj->funcs[c->first_func].name,
				       c->name);
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s has no function symbol; was "
			       "the object stripped?", obj->name, c->name);
	}
	if (!obj->nprogs)
		return bb_fail(op->err, -ENOENT,
			       "%s: no programs; put each one in a section "
			       "named " ACCEPTED_SECTIONS, obj->name);
	/* each constant is reported with the first program in its section */
	for (i = 0; i < obj->nconsts; i++) {
		int code = -1 - obj->const_prog[i];

		obj->const_prog[i] = 0;
		for (j = 0; j < obj->nprogs; j++)
			if (obj->funcs[obj->progs[j].func].code == code) {
				obj->const_prog[i] = j;
				break;
			}
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
	    (ret = index_undefs(&op)) < 0 || (ret = read_relocs(&op)) < 0 ||
	    (ret = read_progs(&op)) < 0 || (ret = mapdef_read_inits(&op)) < 0)
		goto err_close_obj;
	if (sort_consts(obj) < 0) {
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

int obj_set_const(struct bb_obj *obj, const char *name, uint64_t value)
{
	int i = find_const(obj, name);

	if (i >= 0) {
		obj->consts[i].value = value;
		obj->consts[i].set = 1;
		return 0;
	}
	/* `const volatile` settings of libbpf-style objects */
	for (i = 0; i < obj->nvars; i++) {
		struct obj_var *v = &obj->vars[i];
		unsigned char *p = obj->data[v->data].image + v->off;
		uint32_t k;

		if (strcmp(v->name, name))
			continue;
		if (!v->size || v->size > 8 ||
		    (v->size < 8 && value >> (8 * v->size)))
			return -ERANGE;
		for (k = 0; k < v->size; k++)
			p[k] = value >> (8 * k);
		return 0;
	}
	return -ENOENT;
}

int obj_consts(struct bb_obj *obj, const struct bb_const **consts)
{
	*consts = obj->consts;
	return obj->nconsts;
}

void obj_set_kcaps(struct bb_obj *obj, const struct bb_kcaps *c)
{
	obj->caps = *c;
	obj->caps.probed = 1;
}

const struct bb_kcaps *obj_kcaps(const struct bb_obj *obj)
{
	return &obj->caps;
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

int obj_uses_printk(const struct bb_obj *obj)
{
	return obj->printk;
}

const char *obj_notes(const struct bb_obj *obj)
{
	return obj->notes ? obj->notes : "";
}

const struct bb_btf *obj_btf(const struct bb_obj *obj)
{
	return obj->has_btf ? &obj->btf : NULL;
}

void obj_close_fds(struct bb_obj *obj);

void obj_close(struct bb_obj *obj)
{
	int i;

	if (!obj)
		return;
	obj_close_fds(obj);
	for (i = 0; obj->progs && i < obj->nprogs; i++)
		free(obj->progs[i].p.insns);
	for (i = 0; obj->code && i < obj->ncode; i++) {
		free(obj->code[i].insns);
		free(obj->code[i].relocs);
	}
	for (i = 0; obj->data && i < obj->ndata; i++)
		free(obj->data[i].image);
	free(obj->code);
	free(obj->funcs);
	free(obj->progs);
	free(obj->maps);
	free(obj->data);
	free(obj->vars);
	free(obj->externs);
	free(obj->consts);
	free(obj->const_prog);
	free(obj->const_by_name);
	free(obj->inits);
	free(obj->log);
	free(obj->notes);
	free(obj->name);
	btf_close(&obj->btf);
	elf_close(&obj->elf);
	free(obj);
}
