/* SPDX-License-Identifier: MIT */
/*
 * bcc trace's probe language, the parts people use, without LLVM:
 *
 *   p::FUNC [(FILTER)] ["FORMAT"[, VALUE]...]     also FUNC, p:FUNC
 *   r::FUNC [(FILTER)] ["FORMAT"[, VALUE]...]
 *   t:CATEGORY:EVENT [(FILTER)] ["FORMAT"[, VALUE]...]
 *   p:LIB:FUNC, r:LIB:FUNC, LIB:FUNC ...             a uprobe: LIB is a
 *                      path (with '/') or a library's short name (c)
 *   u:LIB:PROBE, u:LIB:PROVIDER:PROBE ...            a USDT probe, its
 *                      arguments arg1..arg12
 *
 * trace_spec_parse reads the text (pure); trace_spec_compile turns a spec
 * into the load-time constants of bpf/trace.bpf.c (see bpf/trace.h), given
 * the tracepoint's fields and the architecture's registers;
 * trace_format prints an event's message. Messages name the token at
 * fault and say what would work.
 */
#ifndef BAREBPF_TRACE_SPEC_H
#define BAREBPF_TRACE_SPEC_H

#include <stdint.h>
#include <stdio.h>
#include "barebpf.h"
#include "kernel.h"
#include "user.h"
#include "../../../bpf/trace.h"
#include "arch.h"

#define TRACE_MAX_ARGS TRACE_NSLOTS /* values in one format */
#define TRACE_FMT_MAX 256
#define TRACE_NAME_MAX 128
/* bcc trace -Z: bytes read of each string */
#define TRACE_STR_DEFAULT 80

enum trace_ptype { TRACE_ENTRY, TRACE_RETURN, TRACE_TP };

enum trace_vkind {
	TV_ARG,    /* arg1..arg6; a USDT probe's arg1..arg12 */
	TV_RETVAL, /* retval */
	TV_FIELD,  /* args->NAME */
	TV_PID,    /* $pid: the thread */
	TV_TGID,   /* $tgid: the process */
	TV_UID,
	TV_GID,
	TV_CPU,
};

struct trace_value {
	enum trace_vkind kind;
	int argn;                    /* TV_ARG */
	int user;                    /* argN@user: a user-space pointer */
	char field[64];              /* TV_FIELD */
	int cast_size, cast_signed;  /* (int)...: 0 if not cast */
	char text[64];               /* as written, for messages */
	/* VALUE->member.member: a field of the kernel struct strct the
	 * value points to (sk->sk_state, ((struct sock *)retval)->...);
	 * its place is filled in by the tool (trace_field_place) */
	int deref;
	char strct[48], path[96];
	uint32_t doff, dsize;        /* 0 dsize: not placed yet */
	int dsgn;
};

/* A parameter of a probe's signature: p::FUNC(struct sock *sk, int n) */
struct trace_param {
	char name[32];
	char strct[48];              /* "sock" for struct sock *, else "" */
};

enum trace_cmp { TC_EQ, TC_NE, TC_LT, TC_LE, TC_GT, TC_GE, TC_STRCMP };

struct trace_term {
	enum trace_cmp cmp;
	int neg;                     /* under a '!' */
	struct trace_value v;
	uint64_t mask;               /* v & mask (~0: none) */
	uint64_t k;                  /* the number, two's complement */
	/* the C types of k and mask, compared as C compares (after
	 * promotion and the usual conversions): 4 bytes an int, 8 a long
	 * as in BPF's C; k_size 0 is an int, mask_size 0 no mask */
	int k_size, k_sgn, mask_size, mask_sgn;
	char str[TRACE_STRCMP_MAX + 1]; /* TC_STRCMP */
};

/* One conversion of the format: %[-0][width][h|l|ll]type */
struct trace_conv {
	char type;       /* d u x X c s K U p (i is d) */
	int size;        /* 2, 4, 8: of d u x X */
	char spec[16];   /* for snprintf: "%-5" (flags and width only) */
	int start, end;  /* [start, end) in fmt */
};

struct trace_spec {
	enum trace_ptype type;
	char func[TRACE_NAME_MAX];   /* p:, r: a function or a glob */
	char lib[256];               /* a uprobe's LIB; "" for the kernel */
	int usdt;                    /* u: (type TRACE_ENTRY), func its name */
	char provider[USDT_NAME_MAX]; /* u:LIB:PROVIDER:PROBE, or "" */
	/* a USDT probe's arguments, where its note puts them: filled in
	 * by the tool from the file before trace_spec_compile */
	int nuargs;
	struct usdt_arg uargs[USDT_MAX_ARGS];
	char cat[64], event[64];     /* t: */
	int nparams;
	struct trace_param params[6];
	int nterms, filter_or;
	struct trace_term terms[TRACE_NTERMS];
	int has_fmt;
	char fmt[TRACE_FMT_MAX];
	int nconv;
	struct trace_conv conv[TRACE_MAX_ARGS];
	struct trace_value args[TRACE_MAX_ARGS];
};

/* 0, or -EINVAL with err saying what is wrong with which token. */
int trace_spec_parse(const char *text, struct trace_spec *sp,
		     struct bb_err *err);
/* An integer type by name ("unsigned long", "u32", "pid_t"): 1 with its
 * size and sign, or 0. */
int trace_int_type(const char *words, int *size, int *is_signed);
/* The FUNC column: the function, or the tracepoint's event. */
const char *trace_spec_display(const struct trace_spec *sp);
int trace_spec_is_glob(const struct trace_spec *sp);

/*
 * Where an architecture's kprobe context (struct pt_regs, see
 * bpf/bb_helpers.h) keeps arguments and the return value.
 */

/* One slot's or condition's constants (names in bpf/trace.h). */
struct trace_slot_c {
	uint64_t base, off, size, ext1, ext2, str, stroff, strsize, strbase,
		zero, disp, idx, shift, dref;
};
struct trace_term_c {
	uint64_t op, neg, slot, mask, k, stroff, valoff, slen,
		w[TRACE_STRCMP_WORDS];
};

/* A compiled probe: its program's constants, and how to read a record. */
struct trace_prog {
	int nslots;
	struct trace_slot_c slots[TRACE_NSLOTS];
	struct trace_term_c terms[TRACE_NTERMS];
	uint64_t filter_or, is_kprobe, regs_off, rec_size, want_cpu;
	int arg_slot[TRACE_MAX_ARGS]; /* the slot of each printed value */
};

/*
 * fields/nfields: the tracepoint's format (t: probes; else NULL, 0).
 * strsize: bytes read of a %s (bcc's -Z).
 */
int trace_spec_compile(const struct trace_spec *sp,
		       const struct bb_arch *arch,
		       const struct bb_tp_field *fields, int nfields,
		       int strsize, struct trace_prog *pr, struct bb_err *err);
/* Each constant of a compiled probe: set(ctx, name, value). */
void trace_prog_consts(const struct trace_prog *pr, uint32_t probe_id,
		       void (*set)(void *ctx, const char *name, uint64_t v),
		       void *ctx);

/*
 * The message of event e (size bytes received) of a probe: its format
 * with the values. ks and us (may be NULL) symbolize %K and %U. Control
 * characters of strings are escaped (\n, \x01): one event, one line.
 */
void trace_format(FILE *f, const struct trace_spec *sp,
		  const struct trace_prog *pr, const struct trace_event *e,
		  uint32_t size, const struct bb_ksyms *ks,
		  struct bb_usyms *us);
/* The values as a JSON array: numbers, strings for %s %c %K %U. */
void trace_json_args(FILE *f, const struct trace_spec *sp,
		     const struct trace_prog *pr, const struct trace_event *e,
		     uint32_t size, const struct bb_ksyms *ks,
		     struct bb_usyms *us);

#endif
