/* SPDX-License-Identifier: MIT */
/*
 * Where a field of a kernel structure is: the field-offset layer, for the
 * tools that read kernel memory (runqlen's rq.nr_running; the network
 * tools' sock fields). A field is named by a path "struct.member.member"
 * ("task_struct.se.cfs_rq", "sock.__sk_common.skc_dport"); its offset is
 * from the start of the outer struct, members of anonymous structs and
 * unions are found through them as C does, and the path never follows a
 * pointer (a caller that does asks for each struct on the way).
 *
 * The answer comes from, in this order:
 *  1. the BTF file the user gave (--btf FILE: BTFhub's, for a kernel
 *     without its own), else the kernel's own /sys/kernel/btf/vmlinux;
 *  2. where there is no BTF (or it lacks the field), a discovery the
 *     caller registered for that field (fieldoff_register): the caller
 *     makes the kernel do something known and finds the value in memory.
 * BAREBPF_FIELDS=discover skips the BTF (to check a discovery against it);
 * BAREBPF_FIELDS=discover:PATH[,PATH...] for those fields only. A
 * discovery's answer is kept for the rest of the boot (fieldcache.c, in
 * BB_FIELDOFF_CACHE) and taken from there, unless BAREBPF_FIELDS forces
 * it.
 * The BTF is read at the first lookup, once (5.5 MB on 6.18: see
 * fieldoff_find for the cost). A field found nowhere is an error that
 * names it; never a guess.
 */
#ifndef BAREBPF_FIELDOFF_H
#define BAREBPF_FIELDOFF_H

#include <stdint.h>
#include "barebpf.h"
#include "btf.h"

enum bb_field_src {
	BB_FIELD_KERNEL_BTF = 1, /* /sys/kernel/btf/vmlinux */
	BB_FIELD_FILE_BTF,       /* --btf FILE */
	BB_FIELD_DISCOVERED,     /* a registered discovery */
};

struct bb_field {
	uint32_t offset; /* bytes from the start of the outer struct */
	uint32_t size;   /* bytes */
	int is_signed;   /* a signed integer (BTF only; discovered: 0) */
	int src;         /* enum bb_field_src */
	char how[192];   /* where it came from, for -v */
};

/* A discovery: fills out->offset and out->size (and may say how in
 * out->how), or returns -errno with a sentence in err. */
typedef int (*bb_field_discover_fn)(void *ctx, const char *path,
				    struct bb_field *out, struct bb_err *err);

#define BB_FIELDOFF_DISC_MAX 16
#define BB_KERNEL_BTF "/sys/kernel/btf/vmlinux"
#define BB_FIELDOFF_CACHE "/run/barebpf/fieldoff"

struct bb_fieldoff {
	const char *btf_file;  /* --btf FILE, or NULL: the kernel's */
	int discover_only;     /* BAREBPF_FIELDS=discover */
	const char *discover_list; /* BAREBPF_FIELDS=discover:a.b,c.d */
	const char *cache_file; /* BB_FIELDOFF_CACHE; NULL: none */
	/* the BTF, opened at the first lookup */
	int btf_state;         /* 0 not tried, 1 open, -errno none */
	struct bb_err btf_err; /* why there is none */
	char *btf_buf;
	struct bb_btf btf;
	double btf_ms;         /* reading and indexing it took */
	struct {
		const char *path;
		bb_field_discover_fn fn;
		void *ctx;
	} disc[BB_FIELDOFF_DISC_MAX];
	int ndisc;
};

/* btf_file: NULL for the kernel's own. Reads BAREBPF_FIELDS. */
void fieldoff_init(struct bb_fieldoff *f, const char *btf_file);
/* Discover path with fn(ctx, ...) where no BTF answers. */
int fieldoff_register(struct bb_fieldoff *f, const char *path,
		      bb_field_discover_fn fn, void *ctx);
/*
 * The field at path: 0, or -errno with a sentence in err naming it and
 * why (-ENOENT: no such struct or member; -EINVAL: a bitfield, a bad
 * path; the BTF file's own error; no BTF and no discovery: -EOPNOTSUPP).
 * A user's --btf that cannot be read fails every lookup.
 */
int fieldoff_find(struct bb_fieldoff *f, const char *path,
		  struct bb_field *out, struct bb_err *err);
/* 1 if a BTF is there to answer (opening it now), else 0. */
int fieldoff_have_btf(struct bb_fieldoff *f);
void fieldoff_close(struct bb_fieldoff *f);

/* The per-boot cache of discoveries (fieldcache.c): get 0 (out filled,
 * how said) or -errno; put keeps f for path, silently (a cache). */
int fieldcache_get(const char *file, const char *path, struct bb_field *out);
void fieldcache_put(const char *file, const char *path,
		    const struct bb_field *f);
/* Pure: path's "OFFSET SIZE" on a line of boot in text. */
int fieldcache_parse(const char *text, const char *boot, const char *path,
		     uint32_t *off, uint32_t *size);

/* Pure: the field at path in b (its pointers: b->ptr_size bytes). */
int fieldoff_btf(const struct bb_btf *b, const char *path,
		 struct bb_field *out, struct bb_err *err);
/* The size of "long" in b (4 on a 32-bit kernel), 8 if b has none. */
uint32_t fieldoff_btf_long_size(const struct bb_btf *b);

#endif
