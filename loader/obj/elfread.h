/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checked reader of 64-bit little-endian relocatable BPF objects
 * (ET_REL, EM_BPF) held in memory. elf_open() validates everything it hands
 * out afterwards: every section lies inside the buffer, every name is a
 * NUL-terminated string inside its string table, every symbol's section
 * index and every relocation's symbol index is in range. The accessors
 * below therefore cannot fail.
 *
 * Internal to the loader (and its unit tests); tools use barebpf.h.
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
void elf_rel(const struct elf_sec *sec, size_t i, struct elf_rel *rel);

/* Section index by name, or -1. */
int elf_find_sec(const struct elf_file *ef, const char *name);

/* ---- the object side's internals (obj.c, mapdef.c, link.c, load.c) ---- */
#include "btf.h"

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

struct obj_prog {
	struct bb_prog p;
	int func; /* the entry function */
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
	struct obj_prog *progs;
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
	char *notes;
	int loaded;
	int bpffs_mounted;
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

/* mapdef.c: every map definition of the object, into obj->maps. */
int mapdef_read(struct obj_parse *op);
/* mapdef.c: the slots .rel.maps fills (needs the programs). */
int mapdef_read_inits(struct obj_parse *op);
/* obj.c: name for symbol i (its section's for a section symbol). */
const char *obj_sym_label(const struct elf_file *ef, uint32_t i);
int obj_str_copy(char *dst, size_t size, const char *src);
/* link.c: the program's final instructions (p.insns) from its functions. */
int obj_link(struct bb_obj *obj, struct obj_prog *prog, struct bb_err *err);
/* link.c: which helper calls use which maps (usage, sample sizes). */
void obj_scan_helpers(struct bb_obj *obj);
/* load.c: append a note for the user. */
void obj_note(struct bb_obj *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* kcaps.c: the kernel function of a syscall probe; -ENOENT if none. */
int kcaps_syscall_func(const char *sys, int kind, const struct bb_kcaps *c,
		       char *out, size_t len, int *unwrapped);

/*
 * Relocate the programs' private copies of their instructions with the
 * current map fds and constant values, per the kernel's capabilities
 * (obj_set_kcaps): bpf-to-bpf calls linked, global data as map values or
 * inlined. Exposed so that unit tests can check the rewritten
 * instructions with fake fds, without root.
 */
int obj_relocate(struct bb_obj *obj, struct bb_err *err);

#endif
