/* SPDX-License-Identifier: MIT */
/*
 * loader/obj: BPF ELF objects, from the bytes of a file to programs and
 * maps in the kernel. elf.c reads ELF (elfread.h) and btf.c the object's
 * own BTF (btf.h), both bounds-checked, never trusting the input; parse.c
 * finds code, functions and global data, progs.c the programs, relocs.c
 * the relocations, constants and externs; obj.c is the public API's
 * accessors (skel.c: the same by the ids of a generated header, skel.h);
 * maps.c and btfmaps.c read map definitions of every producer (bpf_load,
 * iproute2, gobpf, libbpf BTF), adding them with mapdef.c; usage.c tells
 * what the programs do with maps from their helper calls; kcaps.c asks
 * the running kernel what it takes; relocate.c links bpf-to-bpf calls and
 * relocates per those capabilities, inline.c turns global data reads into
 * constants for kernels without global data (both in lbuf.c's buffer);
 * load.c creates maps (pinning, maps of maps), loads programs and fills
 * program arrays, with verifier.c's sentence on a refusal. lz.c decodes
 * the embedded objects (pure, on its own). Calls go one way: no file here
 * calls back into one that calls it. Everything here includes this header
 * (which includes obj.h, the folder's public part); nothing outside
 * loader/obj includes it but the unit tests and fuzz harnesses. The
 * library rules hold: -errno results, messages in struct bb_err, never a
 * print or an exit.
 */
#ifndef BAREBPF_OBJ_INTERNAL_H
#define BAREBPF_OBJ_INTERNAL_H

#include "elfread.h"
#include "btf.h"
#include "obj.h"


enum {
	RELOC_MAP,    /* ld_imm64 of a map: BPF_PSEUDO_MAP_FD */
	RELOC_CONST,  /* ld_imm64 of an undefined symbol: its value */
	RELOC_DATA,   /* ld_imm64 of .rodata/.data/.bss + addend */
	RELOC_EXTERN, /* ld_imm64 of a __kconfig extern: read, never kept */
	RELOC_CALL,   /* bpf-to-bpf call into another section */
};

struct obj_reloc {
	uint32_t insn;  /* index in its code section */
	uint8_t kind;
	int idx;        /* map, constant, data section or extern index;
			 * RELOC_CALL: the target section's code index */
	uint32_t sym;   /* symbol, for messages */
	uint32_t seq;   /* order in the file: of two on one instruction,
			 * the later wins (as a linker would apply them) */
	int64_t addend; /* DATA: byte offset in the section; CALL: target
			 * instruction in the target section */
};

/* A section of code: a program section, or .text (subprograms). */
struct obj_code {
	int shndx;
	const char *name;
	struct bpf_insn *insns; /* an aligned copy */
	uint32_t cnt;
	struct obj_reloc *relocs; /* sorted by insn */
	uint32_t nrelocs;
	int first_func, nfuncs;   /* into obj->funcs, sorted by offset */
};

struct obj_func {
	char name[64];
	int code;           /* into obj->code */
	uint32_t off, cnt;  /* instructions within the section */
	int global;
};

/* .rodata*, .data*, .bss*: an image, and its map on kernels with global
 * data. */
struct obj_data {
	int shndx;
	const char *name;
	unsigned char *image; /* size bytes, zero for .bss */
	uint32_t size;
	int readonly;
	int map;              /* into obj->maps */
};

/* A variable of a data section, settable with obj_set_const. */
struct obj_var {
	const char *name;
	int data;             /* into obj->data */
	uint32_t off, size;
};

/* A __kconfig extern, read by the programs and inlined. */
struct obj_extern {
	char name[64];
	uint32_t size;
	int weak;
	uint64_t value;
	int known;
};

/* The object's record of a program: the public part and the loader's. */
struct obj_prog_rec {
	struct bb_prog p;
	int func; /* the entry function */
	int noload; /* obj_set_noload: left out of obj_load */
};

struct bb_obj {
	char *name;
	struct elf_file elf;  /* kept open: names and data point into it */
	struct bb_btf btf;
	int has_btf;
	struct obj_code *code;
	int ncode;
	struct obj_func *funcs;
	int nfuncs;
	struct obj_prog_rec *progs;
	int nprogs;
	struct bb_map *maps;
	int nmaps;
	struct obj_data *data;
	int ndata;
	struct obj_var *vars;
	int nvars;
	struct obj_extern *externs;
	int nexterns;
	struct bb_const *consts;
	int *const_prog; /* the first program that needs each constant */
	const struct bb_const **const_by_name; /* sorted, for obj_set_const */
	int nconsts;
	/* map-in-map and program array contents from the object (BTF
	 * .values, kprobe/<N>): applied after the load */
	struct obj_init *inits;
	int ninits;
	char license[128];
	int printk;
	struct bb_kcaps caps;
	char *log;
	int log_truncated;
	char hint[400]; /* bpf_verifier_explain's sentence, for err */
	char *notes;
	char maps_layout[200]; /* how section maps was read, if it was a
				* guess (obj_maps_layout) */
	int loaded;
	int bpffs_mounted;
	int lazy_hash; /* obj_set_lazy_hash */
	int str_fallback; /* obj_set_str_fallback */
	int str_rewrite;  /* and this kernel lacks bpf_probe_read_str */
	int const_mov; /* obj_set_const_mov */
	uint32_t kern_version;
	struct bb_prog **copies; /* obj_prog_load_copy */
	int ncopies;
	const struct bb_skel *skel; /* obj_skel_bind */
};

/* One slot of a map of maps or program array the object fills. */
struct obj_init {
	int map;     /* outer map or program array */
	uint32_t slot;
	int is_prog; /* idx is a program, else a map */
	int idx;
};

/* State that only lives while obj_open parses. */
struct obj_parse {
	struct bb_obj *obj;
	struct elf_file *elf;
	int maps_sec;     /* section index of `maps`, or -1 */
	int btf_maps_sec; /* section index of `.maps`, or -1 */
	int *sec_code;    /* section index -> code index, or -1 */
	int *sec_data;    /* section index -> data index, or -1 */
	int *sec_map;     /* maps/<name> section -> map index, or -1 */
	struct map_span *spans;   /* nspans, by section and offset */
	int nspans;
	struct map_extra *mapx;   /* per map */
	struct undef_sym *undefs; /* by name */
	int *undef_const; /* per undefs entry (the first of its name): the
			   * constant, or -1 until a relocation needs it */
	int *sym_undef;   /* symbol index -> first undefs entry of its name */
	struct bb_err *err;
};

/* A map's definition in section maps or .maps; sorted by section and
 * offset. */
struct map_span {
	uint64_t off, size;
	int shndx;
	int idx; /* into obj->maps */
};

/* What a definition says beyond struct bb_map: for the slots to fill. */
struct map_extra {
	uint32_t id, inner_id, inner_idx; /* iproute2's bpf_elf_map */
	int iproute2;
	uint32_t values_off; /* BTF: byte offset of `values` in the def */
	int has_values;
};

/* maps.c: every map definition of the object, into obj->maps. */
int mapdef_read(struct obj_parse *op);
/* maps.c: the slots the object fills (needs the programs). */
int mapdef_read_inits(struct obj_parse *op);
/* obj.c: name for symbol i (its section's for a section symbol). */
const char *obj_sym_label(const struct elf_file *ef, uint32_t i);
int obj_str_copy(char *dst, size_t size, const char *src);
/* relocate.c: the program's final instructions (p.insns) from its functions. */
int obj_link(struct bb_obj *obj, struct obj_prog_rec *prog, struct bb_err *err);
/* usage.c: which helper calls use which maps (usage, sample sizes). */
void obj_scan_helpers(struct bb_obj *obj);
/* mapload.c: create the maps (or reuse pinned ones), before relocating;
 * after the programs load, fill the slots the object fills, pin the maps
 * created (*pinned: how many), and keep or unmount a bpffs it mounted. */
int obj_create_maps(struct bb_obj *obj, struct bb_err *err);
int obj_fill_inits(struct bb_obj *obj, struct bb_err *err);
int obj_pin_maps(struct bb_obj *obj, int *pinned, struct bb_err *err);
void obj_bpffs_release(struct bb_obj *obj, int pinned);
/* load.c: close every map and program fd. */
void obj_close_fds(struct bb_obj *obj);
/* load.c: append a note for the user. */
void obj_note(struct bb_obj *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* kcaps.c: the kernel function of a syscall probe; -ENOENT if none. */
int kcaps_syscall_func(const char *sys, int kind, const struct bb_kcaps *c,
		       char *out, size_t len, int *unwrapped);

/* An undefined symbol (a load-time constant); sorted by name, then index,
 * so that the symbols of one name share one constant. */
struct undef_sym {
	const char *name;
	uint32_t sym;
};

/* ---- parse.c, relocs.c, progs.c ---- */
int obj_index_undefs(struct obj_parse *op);
int obj_read_relocs(struct obj_parse *op);
int obj_read_progs(struct obj_parse *op);
int obj_sort_consts(struct bb_obj *obj);

/* ---- maps.c, btfmaps.c, mapdef.c ---- */
#define BPFFS "/sys/fs/bpf"
int mapdef_grow(struct obj_parse *op, size_t n);
struct bb_map *mapdef_new(struct obj_parse *op, const char *name,
			  enum bb_map_origin origin);
void mapdef_add_span(struct obj_parse *op, int shndx, uint64_t off,
		     uint64_t size);
int mapdef_set_pin(struct obj_parse *op, struct bb_map *m, const char *dir);
int mapdef_add_init(struct obj_parse *op, int map, uint32_t slot,
		    int is_prog, int idx);
int mapdef_read_btf(struct obj_parse *op);
int mapdef_btf_values(struct obj_parse *op);
static inline int mapdef_is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* ---- relocate.c, inline.c, usage.c ---- */
/* helper ids */
#define H_PROBE_READ 4
#define H_TRACE_PRINTK 6
#define H_TAIL_CALL 12
#define H_PERF_EVENT_READ 22
#define H_PERF_EVENT_OUTPUT 25
#define H_GET_STACKID 27
#define H_PROBE_READ_STR 45
#define H_PERF_EVENT_READ_VALUE 55
#define H_PROBE_READ_USER 112
#define H_PROBE_READ_KERNEL 113
#define H_PROBE_READ_USER_STR 114
#define H_PROBE_READ_KERNEL_STR 115
#define H_TRACE_VPRINTK 177

/* A program being linked: instructions and, per instruction, the
 * relocation that applies to it (or NULL). */
struct lbuf {
	struct bpf_insn *insns;
	const struct obj_reloc **rel;
	const struct obj_code **from; /* the section each came from */
	uint32_t cnt, cap;
};

/* A read of global data or an extern that inline.c turns into constants. */
struct dref {
	const unsigned char *img; /* the bytes to read */
	uint32_t size;
	uint32_t base;  /* offset of the ld_imm64's address in img */
	const char *what;
	char buf[140];
	int ext;        /* a __kconfig extern, not global data */
	uint32_t at;    /* the ld_imm64 */
};

static inline int bpf_is_jump(uint8_t code)
{
	uint8_t cl = BPF_CLASS(code), op = BPF_OP(code);

	return (cl == BPF_JMP || cl == BPF_JMP32) && op != BPF_CALL &&
	       op != BPF_EXIT;
}

int lbuf_reserve(struct lbuf *b, uint32_t n);
/* The last relocation of instruction insn of c, or NULL. */
const struct obj_reloc *obj_find_reloc(const struct obj_code *c,
				       uint32_t insn);
/* Reads of refs (refat: per instruction, the dref its ld_imm64 loads, or
 * -1) become immediates, or err says which use cannot. */
int obj_inline_data(struct bb_obj *obj, struct obj_prog_rec *prog,
		    struct lbuf *b, struct dref *refs, int32_t *refat,
		    struct bb_err *err);

/*
 * Relocate the programs' private copies of their instructions with the
 * current map fds and constant values, per the kernel's capabilities
 * (obj_set_kcaps): bpf-to-bpf calls linked, global data as map values or
 * inlined. Exposed so that unit tests can check the rewritten
 * instructions with fake fds, without root.
 */
int obj_relocate(struct bb_obj *obj, struct bb_err *err);

/*
 * tailframe.c: a program that tail-calls, which a 6.9+ kernel interprets,
 * loaded again (*fd replaced) with its frame padded to 512 bytes, or
 * refused with why; 1 if padded, 0 where nothing needs doing (its pure
 * parts: obj.h).
 */
int tailframe_check(struct bb_obj *obj, struct bb_prog *p, int *fd,
		    struct bb_err *err);

#endif
