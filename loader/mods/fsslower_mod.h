/* SPDX-License-Identifier: MIT */
/* fsslower.c and fsslower_disc.c, the module's two halves. */
#ifndef BAREBPF_FSSLOWER_MOD_H
#define BAREBPF_FSSLOWER_MOD_H

#include "mods.h"
#include "fieldoff.h"

/* the fields bpf/fsslower.bpf.c reads (their paths: fss_field_paths) */
enum { FSS_F_FILP, FSS_F_POS, FSS_F_DENTRY, FSS_F_NAME, FSS_F_FOP,
       FSS_NFIELDS };
extern const char *const fss_field_paths[FSS_NFIELDS];

/* the discovery's context: the functions to probe, what it found */
struct fss_disc_ctx {
	struct tool_ctx *t;
	const char *fs;              /* "ext4" */
	const char *read_fn, *open_fn;
	uint64_t fop_addr;           /* 0: f_op not needed */
	int state;                   /* 0 not run, 1 found, -errno failed */
	struct bb_err err;
	struct bb_field f[FSS_NFIELDS];
};

/* The discovery of path (a bb_field_discover_fn on a fss_disc_ctx). */
int fss_discover(void *ctx, const char *path, struct bb_field *out,
		 struct bb_err *err);

/* Pure: the offsets (aligned to step) of the n-byte words of win
 * (len bytes) equal to v, into out (at most max); how many there are. */
int fss_find_word(const unsigned char *win, size_t len, int size, int step,
		  uint64_t v, uint32_t *out, int max);

#endif
