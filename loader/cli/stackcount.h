/* SPDX-License-Identifier: MIT */
/*
 * Counts by stack (stackcount.c), as bcc's profile and offcputime print
 * them: a hash of struct stack_key (bpf/stackkey.h) -> u64 and its stack
 * map, printed as stacks with their counts (smallest first), folded lines
 * (-f), JSON lines (-j) and a flame graph (--svg, flamegraph.h).
 * stackcount.c reads the maps and names the frames, stackprint.c prints
 * them.
 */
#ifndef BAREBPF_STACKCOUNT_H
#define BAREBPF_STACKCOUNT_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include "tool.h"
#include "../../bpf/stackkey.h"

struct stackcount_opts {
	int kernel, user;  /* the stacks taken (profile's -K/-U) */
	int folded, delimited, json;
	int build_id;      /* --build-id: user stacks by build id */
	const char *svg;   /* the flame graph's file; NULL: none */
	const char *title; /* the flame graph's */
	const char *unit;  /* the counts': "samples", "us" */
	int show_tgid;     /* the comm line names the process (profile's),
			    * not the thread (offcputime's) */
	const char *missed; /* the warning's words: "could not be displayed"
			     * (profile), "lost and could not be displayed" */
};

struct stackcount {
	int counts_fd, stacks_fd;
	int ustacks_fd;    /* user stacks by build id (--build-id); -1: the
			    * user stacks are addresses in stacks_fd */
	struct bb_ksyms *ks;
	struct bb_usyms *us;
	uint32_t *seen;    /* processes whose maps were read */
	int nseen;
	FILE *svg;         /* --svg's file, opened by stackcount_init */
	const char *svg_path;
	int svg_made;      /* created by us: removed if never written */
};

/*
 * The options profile and offcputime share, as bcc's: -U (user stacks
 * only), -K (kernel only), -d, -f, --stack-storage-size N, --svg FILE; and
 * --build-id. stackcount_opts_init first (both stacks); then stackcount_opt
 * on each of the tool's own getopt answers: 1 taken, 0 not one of these,
 * -EINVAL (said); stackcount_opts_check after the loop (-U with -K,
 * --build-id with -K).
 */
enum { STACKCOUNT_OPT_STORAGE = TOOL_OPT_FIRST_OWN, STACKCOUNT_OPT_SVG,
       STACKCOUNT_OPT_BUILD_ID, STACKCOUNT_OPT_FIRST_OWN };
#define STACKCOUNT_SHORTOPTS "UKdf"
#define STACKCOUNT_LONGOPTS                                                    \
	{ "user-stacks-only", no_argument, NULL, 'U' },                        \
	{ "kernel-stacks-only", no_argument, NULL, 'K' },                      \
	{ "delimited", no_argument, NULL, 'd' },                               \
	{ "folded", no_argument, NULL, 'f' },                                  \
	{ "stack-storage-size", required_argument, NULL,                       \
	  STACKCOUNT_OPT_STORAGE },                                            \
	{ "svg", required_argument, NULL, STACKCOUNT_OPT_SVG },                \
	{ "build-id", no_argument, NULL, STACKCOUNT_OPT_BUILD_ID }
void stackcount_opts_init(struct stackcount_opts *o);
int stackcount_opt(struct tool_ctx *t, int c, struct stackcount_opts *o,
		   unsigned long *storage);
int stackcount_opts_check(struct tool_ctx *t, const struct stackcount_opts *o);
/* "user", "kernel" or "user + kernel": the stacks taken, for the first
 * line ("... by user + kernel stack"). */
const char *stackcount_which(const struct stackcount_opts *o);

/* The symbol tables for what o asks; --svg's file opened now, before the
 * wait, not found bad after it. Before the events are attached: their
 * samples start with the duration, not before it. 0 or -errno (said). */
int stackcount_init(struct tool_ctx *t, struct stackcount *sc,
		    const struct stackcount_opts *o);
/* The maps the BPF program counts into, once loaded (ustacks_fd as in
 * struct stackcount). */
void stackcount_maps(struct stackcount *sc, int counts_fd, int stacks_fd,
		     int ustacks_fd);
/* Read the maps of processes new in counts now, while they still run
 * (the tool calls it every second): the binaries that name their stacks,
 * and (--build-id) the files whose build ids name the stacks of processes
 * that lived too short to be seen here. */
void stackcount_poll(struct stackcount *sc);
/* Everything counted, as o says. 0, or -errno (said). */
int stackcount_print(struct tool_ctx *t, struct stackcount *sc,
		     const struct stackcount_opts *o);
void stackcount_free(struct stackcount *sc);
/*
 * A user frame of a build-id stack map: build id (BB_STACK_BUILD_ID_SIZE
 * bytes: a shorter one, an MD5's 16 or lld's 8 of xxhash, padded with
 * zeros, its length not said) and file offset, named as by
 * usyms_find_build_id (its answers).
 */
int stackcount_find_build_id(struct bb_usyms *us, const uint8_t *id,
			     uint64_t foff, struct bb_usym *u);

/* A stack id that stands for a stack not taken (printed "[Missed ...
 * Stack]"): < 0, but not -EFAULT (no user space: no frames). */
static inline int stackcount_stack_err(int id)
{
	return id < 0 && id != -EFAULT;
}

/*
 * bcc's folded line into out (len bytes): comm, the user frames from the
 * root, "-" if delimited and both stacks are there, then the kernel frames
 * from the root each with "_[k]", ';' between, then " count". An id < 0
 * other than -EFAULT (no user space) is "[Missed User Stack]" or
 * "[Missed Kernel Stack]"; want_k/want_u 0 leave that stack out. Pure:
 * frames are given named (names[0] the innermost). Returns the length, or
 * -ENOSPC (out holds what fitted).
 */
int stackcount_fold(char *out, size_t len, const char *comm,
		    int want_u, int uid, const char *const *unames, int un,
		    int want_k, int kid, const char *const *knames, int kn,
		    int delimited, uint64_t count);

/*
 * What merges stacks that print the same (two stack ids, two addresses in
 * one function, one name): each as printed without its count, rendered
 * into f by stackcount_render (bcc's multi-line stack up to its comm line,
 * the JSON object up to its count, the folded line up to its count; the
 * frames named, innermost first); stackcount_merge makes the lines of one
 * text one (their values summed, the others' texts freed, NULL), ordered
 * as bcc's (smallest count first), and returns how many are left;
 * stackcount_put prints one with its count. 0 or -ENOMEM.
 */
struct stackcount_line {
	char *text;
	uint64_t value;
};
int stackcount_render(FILE *f, const struct stackcount_opts *o,
		      const struct stack_key *k, const char *const *knames,
		      int kn, const char *const *unames, int un);
int stackcount_merge(struct stackcount_line *l, int n);
void stackcount_put(FILE *f, const struct stackcount_opts *o,
		    const struct stackcount_line *l);

#endif
