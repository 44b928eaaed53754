/* SPDX-License-Identifier: MIT */
/*
 * USDT probes (usdt.c): the .note.stapsdt notes that <sys/sdt.h>
 * (systemtap's, used by glibc, Python, PostgreSQL, Node...) leaves in a
 * program, and the argument operands their notes spell in the assembler
 * syntax of the program's architecture ("-4@%edi 8@-16(%rbp) 4@$5" on
 * x86_64, "-4@x0 8@[x1, 8]" on arm64, "4@r0 4@[fp, #8]" on arm, "8@a0
 * 8@8(sp)" on riscv64). Both come from outside: every offset and length
 * is checked, every operand that is not understood is refused by name.
 */
#ifndef BAREBPF_USDT_H
#define BAREBPF_USDT_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"

/* bcc's and libbpf's limit; sys/sdt.h itself stops at 12 */
#define USDT_MAX_ARGS 12
#define USDT_NAME_MAX 128
#define USDT_ARGS_MAX 512
/* notes read from one file at most (libc has ~100, libjvm ~500) */
#define USDT_MAX_NOTES 65536

/* Where an argument is, at the probe's instruction. */
enum usdt_akind {
	USDT_CONST, /* the number val */
	USDT_REG,   /* the low size bytes of the register at reg_off */
	USDT_MEM,   /* size bytes at the register's value + val (+ the
		       index register's << shift, where idx_off >= 0) */
};

struct usdt_arg {
	enum usdt_akind kind;
	int size;      /* 1, 2, 4 or 8 bytes */
	int is_signed; /* a negative size in the note: "-4@..." */
	int reg_off;   /* USDT_REG, USDT_MEM: in the BPF context (pt_regs) */
	int64_t val;   /* USDT_CONST: the value; USDT_MEM: the displacement */
	int idx_off;   /* USDT_MEM: x86's index register, or -1 */
	int shift;     /* its scale: 1 << shift */
};

/*
 * The operands of spec (a note's argument string) for an ELF machine
 * (EM_X86_64, EM_AARCH64, EM_ARM, EM_RISCV), with the offsets of its
 * registers in that architecture's BPF view of pt_regs: the number of
 * arguments (at most max), or -EINVAL with err naming the operand and
 * why; -EOPNOTSUPP for a machine without a register table.
 */
int usdt_args_parse(const char *spec, int machine, struct usdt_arg *args,
		    int max, struct bb_err *err);

/* One probe site: a note, and where it lies in the file. */
struct usdt_note {
	char provider[USDT_NAME_MAX], name[USDT_NAME_MAX];
	char args[USDT_ARGS_MAX];
	uint64_t pc, base, sema;  /* as the note says (link-time addresses) */
	uint64_t pc_off;          /* the file offset of the probed instruction */
	uint64_t sema_off;        /* of the semaphore; 0: the probe has none */
};

struct usdt_file {
	int machine;              /* e_machine */
	int is32;                 /* ELFCLASS32 */
	int nnotes;
	struct usdt_note *notes;  /* malloc'ed */
	int skipped;              /* notes dropped: damaged, or at an address
				     no PT_LOAD holds */
};

/*
 * The USDT notes of an ELF file (fd, or size bytes at buf): 0 with *f
 * filled (free with usdt_file_free; no notes is not an error), -ENOEXEC
 * (not an ELF program or library), -EBADMSG (its headers do not fit in
 * it), -ENOMEM, or a read's -errno.
 */
int usdt_file_read_fd(int fd, struct usdt_file *f);
int usdt_file_read_buf(const void *buf, size_t size, struct usdt_file *f);
int usdt_file_read(const char *path, struct usdt_file *f);
void usdt_file_free(struct usdt_file *f);

/* The ELF machine of the architecture barebpf was built for. */
int usdt_machine_native(void);
const char *usdt_machine_name(int machine);

#endif
