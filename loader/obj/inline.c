/* SPDX-License-Identifier: MIT */
/*
 * Global data on kernels without it (before 5.2), and __kconfig externs
 * everywhere: an abstract interpretation finds, at each instruction, which
 * registers hold which data address, to a fixed point over the program's
 * control flow; every use of such an address must be the base of a load of
 * known size, which becomes an immediate (mov32, mov64, or an ld_imm64 for
 * a 64-bit value past 32 bits, inserted with the jumps across it fixed).
 * Anything else (a store, a call argument, a computed index) is refused
 * with the instruction and the variable named.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj_internal.h"

/* What a register holds, for the inliner: nothing of interest, the
 * address of a data reference (+ addend), or one of several. */
#define V_NONE (-1)
#define V_MIXED (-2)

struct rstate {
	int32_t ref[11];
	int64_t add[11];
};



static int merge(struct rstate *dst, const struct rstate *src, int init)
{
	int r, changed = 0;

	if (!init) {
		*dst = *src;
		return 1;
	}
	for (r = 0; r < 11; r++) {
		if (dst->ref[r] == src->ref[r] &&
		    (dst->ref[r] < 0 || dst->add[r] == src->add[r]))
			continue;
		if (dst->ref[r] == V_MIXED)
			continue;
		if (dst->ref[r] == V_NONE && src->ref[r] == V_NONE)
			continue;
		dst->ref[r] = V_MIXED;
		changed = 1;
	}
	return changed;
}

/* Registers an instruction reads (bit r), other than as a load base. */
static unsigned reads(const struct bpf_insn *in)
{
	uint8_t cl = BPF_CLASS(in->code), op = BPF_OP(in->code);

	switch (cl) {
	case BPF_LDX:
		return 1u << in->src_reg; /* the base: checked apart */
	case BPF_ST:
		return 1u << in->dst_reg;
	case BPF_STX:
		return 1u << in->dst_reg | 1u << in->src_reg;
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MOV)
			return BPF_SRC(in->code) ? 1u << in->src_reg : 0;
		return 1u << in->dst_reg |
		       (BPF_SRC(in->code) ? 1u << in->src_reg : 0);
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL)
			return 0x3e; /* r1-r5 */
		if (op == BPF_EXIT)
			return 1;
		if (op == BPF_JA)
			return 0;
		return 1u << in->dst_reg |
		       (BPF_SRC(in->code) ? 1u << in->src_reg : 0);
	case BPF_LD:
		if (in->code == BPF_LD_IMM64_CODE)
			return 0;
		return 1u << 6 | (BPF_MODE(in->code) == 0x40 ?
				  1u << in->src_reg : 0);
	}
	return 0;
}

static int inline_fail(const struct bb_obj *obj,
		       const struct obj_prog_rec *prog, const struct dref *d,
		       uint32_t at, const char *how, struct bb_err *err)
{
	if (d->ext)
		return bb_fail(err, -EOPNOTSUPP,
			       "%s: program %s (section %s): instruction %u %s "
			       "the extern %s; barebpf can only inline reads "
			       "of it", obj->name, prog->p.name,
			       prog->p.section, at, how, d->what);
	return bb_fail(err, -EOPNOTSUPP,
		       "%s: program %s (section %s): instruction %u %s %s "
		       "(loaded at instruction %u): global data needs Linux "
		       "5.2, and before it barebpf can only turn loads of "
		       "known size into constants; use a load-time constant "
		       "(BB_CONST), a map, or a local variable",
		       obj->name, prog->p.name, prog->p.section, at, how,
		       d->what, d->at);
}

/* Insert n slots after instruction at, fixing every jump across. */
static int insert_after(struct lbuf *b, uint32_t at, uint32_t n)
{
	uint32_t j;
	int ret = lbuf_reserve(b, n);

	if (ret < 0)
		return ret;
	for (j = 0; j < b->cnt; j++) {
		struct bpf_insn *in = &b->insns[j];
		int64_t t, nt, nj;
		int pcall = in->code == BPF_CALL_CODE &&
			    in->src_reg == BPF_PSEUDO_CALL;

		if (!bpf_is_jump(in->code) && !pcall)
			continue;
		t = (int64_t)j + 1 + (pcall ? in->imm : in->off);
		nj = j > at ? j + n : j;
		nt = t > at ? t + n : t;
		if (pcall)
			in->imm = nt - nj - 1;
		else
			in->off = nt - nj - 1;
		if (!pcall && (nt - nj - 1 > INT16_MAX ||
			       nt - nj - 1 < INT16_MIN))
			return -E2BIG;
	}
	memmove(b->insns + at + 1 + n, b->insns + at + 1,
		(b->cnt - at - 1) * sizeof(*b->insns));
	memmove(b->rel + at + 1 + n, b->rel + at + 1,
		(b->cnt - at - 1) * sizeof(*b->rel));
	memmove(b->from + at + 1 + n, b->from + at + 1,
		(b->cnt - at - 1) * sizeof(*b->from));
	b->cnt += n;
	return 0;
}

/*
 * The abstract interpretation: which registers hold which data address at
 * each instruction, to a fixed point over the program's control flow
 * (bounded: each register only goes none -> address -> mixed). Then every
 * use of an address must be the base of a load, which becomes an
 * immediate; anything else is refused.
 */
enum { S_HAS = 1, S_VISITED = 2, S_QUEUED = 4 };

/* The successors of instruction at (in), each with the state after it. */
static int step(const struct bpf_insn *in, uint32_t at, int32_t refat,
		struct rstate s, uint32_t *succ, struct rstate *outs)
{
	uint8_t cl = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int nsucc = 0, r;

	if (in->code == BPF_LD_IMM64_CODE) {
		s.ref[in->dst_reg] = refat >= 0 ? refat : V_NONE;
		s.add[in->dst_reg] = 0;
		succ[nsucc] = at + 2;
		outs[nsucc++] = s;
	} else if (cl == BPF_JMP && op == BPF_CALL) {
		if (in->src_reg == BPF_PSEUDO_CALL) {
			/* the callee sees the arguments only */
			outs[nsucc] = s;
			outs[nsucc].ref[0] = V_NONE;
			for (r = 6; r <= 10; r++)
				outs[nsucc].ref[r] = V_NONE;
			succ[nsucc++] = at + 1 + in->imm;
		}
		for (r = 0; r <= 5; r++)
			s.ref[r] = V_NONE;
		succ[nsucc] = at + 1;
		outs[nsucc++] = s;
	} else if (cl == BPF_JMP && op == BPF_EXIT) {
		/* no successor */
	} else if (bpf_is_jump(in->code)) {
		succ[nsucc] = at + 1 + in->off;
		outs[nsucc++] = s;
		if (op != BPF_JA || cl == BPF_JMP32) {
			succ[nsucc] = at + 1;
			outs[nsucc++] = s;
		}
	} else {
		if (cl == BPF_ALU64 && op == BPF_MOV && BPF_SRC(in->code)) {
			s.ref[in->dst_reg] = s.ref[in->src_reg];
			s.add[in->dst_reg] = s.add[in->src_reg];
		} else if (cl == BPF_ALU64 && op == BPF_ADD &&
			   !BPF_SRC(in->code) && s.ref[in->dst_reg] >= 0) {
			s.add[in->dst_reg] += in->imm;
		} else if (cl == BPF_ALU || cl == BPF_ALU64 ||
			   cl == BPF_LDX || cl == BPF_LD) {
			s.ref[in->dst_reg] = V_NONE;
			if (cl == BPF_LD)
				s.ref[0] = V_NONE;
		}
		succ[nsucc] = at + 1;
		outs[nsucc++] = s;
	}
	return nsucc;
}

/* st[i]: the registers' data addresses before instruction i, to a fixed
 * point from instruction 0 (work: room for b->cnt + 1 indexes). */
static void track(const struct lbuf *b, const int32_t *refat,
		  struct rstate *st, unsigned char *seen, uint32_t *work)
{
	uint32_t nwork = 0;
	int r;

	for (r = 0; r < 11; r++)
		st[0].ref[r] = V_NONE;
	seen[0] = S_HAS | S_QUEUED;
	work[nwork++] = 0;
	while (nwork) {
		uint32_t at = work[--nwork], succ[3];
		struct rstate outs[3];
		int nsucc, k;

		seen[at] = (seen[at] & ~S_QUEUED) | S_VISITED;
		nsucc = step(&b->insns[at], at, refat[at], st[at], succ, outs);
		for (k = 0; k < nsucc; k++) {
			uint32_t t = succ[k];

			if (t >= b->cnt)
				continue; /* the verifier says why */
			if (!merge(&st[t], &outs[k], seen[t] & S_HAS) &&
			    (seen[t] & S_VISITED))
				continue;
			seen[t] |= S_HAS;
			if (!(seen[t] & S_QUEUED)) {
				seen[t] |= S_QUEUED;
				work[nwork++] = t;
			}
		}
	}
}

static int check_regs(const struct bb_obj *obj, const struct obj_prog_rec *prog,
		      const struct lbuf *b, struct bb_err *err)
{
	uint32_t i;

	for (i = 0; i < b->cnt; i++)
		if (b->insns[i].dst_reg > 10 || b->insns[i].src_reg > 10)
			return bb_fail(err, -EINVAL,
				       "%s: program %s: instruction %u names "
				       "register %u; BPF has r0-r10", obj->name,
				       prog->p.name, i,
				       b->insns[i].dst_reg > 10 ?
				       b->insns[i].dst_reg : b->insns[i].src_reg);
	return 0;
}

/* The address loads themselves: now a dead 0. */
static void clear_loads(struct lbuf *b, const int32_t *refat)
{
	uint32_t i;

	for (i = 0; i < b->cnt; i++) {
		struct bpf_insn *in = &b->insns[i];

		if (in->code != BPF_LD_IMM64_CODE)
			continue;
		if (refat[i] >= 0) {
			in[0].src_reg = 0;
			in[0].imm = 0;
			in[1].imm = 0;
			b->rel[i] = NULL;
		}
		i++;
	}
}

/* A use of register r's address that is allowed: a load through it, a
 * copy, an offset added. */
static int use_allowed(const struct bpf_insn *in, int r, int ref)
{
	if (BPF_CLASS(in->code) == BPF_LDX && r == in->src_reg && ref >= 0)
		return 1;
	if (BPF_CLASS(in->code) == BPF_ALU64 && BPF_OP(in->code) == BPF_MOV &&
	    ref >= 0)
		return 1;
	return BPF_CLASS(in->code) == BPF_ALU64 &&
	       BPF_OP(in->code) == BPF_ADD && !BPF_SRC(in->code);
}

static const char *misuse(const struct bpf_insn *in, int ref)
{
	if (ref == V_MIXED)
		return "uses, on some paths only,";
	if (BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) == BPF_CALL)
		return "passes to a function the address of";
	if (BPF_CLASS(in->code) == BPF_STX)
		return "stores or writes through the address of";
	return "computes with the address of";
}

/* Load i, through d at byte add of it, becomes the value it reads. */
static int inline_load(const struct bb_obj *obj,
		       const struct obj_prog_rec *prog, struct lbuf *b,
		       uint32_t i, const struct dref *d, int64_t add,
		       struct bb_err *err)
{
	struct bpf_insn *in = &b->insns[i];
	int64_t off = (int64_t)d->base + add + in->off;
	uint32_t sz = BPF_SIZE(in->code) == BPF_B ? 1 :
		      BPF_SIZE(in->code) == BPF_H ? 2 :
		      BPF_SIZE(in->code) == BPF_W ? 4 : 8;
	uint64_t v = 0;
	uint32_t k;
	int ret;

	if (BPF_MODE(in->code) != BPF_MEM || off < 0 || off + sz > d->size)
		return inline_fail(obj, prog, d, i, "reads outside", err);
	for (k = 0; k < sz; k++)
		v |= (uint64_t)d->img[off + k] << (8 * k);
	if (sz < 8) { /* mov32 zero-extends, as the load */
		in->code = BPF_ALU | BPF_MOV | BPF_K;
		in->src_reg = 0;
		in->off = 0;
		in->imm = (int32_t)(uint32_t)v;
	} else if ((int64_t)v == (int32_t)v) {
		in->code = BPF_ALU64 | BPF_MOV | BPF_K;
		in->src_reg = 0;
		in->off = 0;
		in->imm = (int32_t)v;
	} else {
		uint8_t dst = in->dst_reg;

		ret = insert_after(b, i, 1);
		if (ret < 0)
			return bb_fail(err, ret, "%s: program %s: no room to "
				       "inline %s", obj->name, prog->p.name,
				       d->what);
		in = &b->insns[i];
		memset(in, 0, 2 * sizeof(*in));
		in[0].code = BPF_LD_IMM64_CODE;
		in[0].dst_reg = dst;
		in[0].imm = (int32_t)(uint32_t)v;
		in[1].imm = (int32_t)(uint32_t)(v >> 32);
		b->rel[i + 1] = NULL;
	}
	b->rel[i] = NULL;
	return 0;
}

/* Checks and rewrites, from the end so that inserted slots do not move
 * what is still to do. */
static int rewrite(const struct bb_obj *obj, const struct obj_prog_rec *prog,
		   struct lbuf *b, const struct dref *refs,
		   const struct rstate *st, const unsigned char *seen,
		   struct bb_err *err)
{
	uint32_t i;
	int r, ret;

	for (i = b->cnt; i-- > 0;) {
		const struct bpf_insn *in = &b->insns[i];
		const struct rstate *s = &st[i];
		unsigned rd;

		if (!(seen[i] & S_VISITED))
			continue;
		if (i && b->insns[i - 1].code == BPF_LD_IMM64_CODE &&
		    (seen[i - 1] & S_VISITED))
			continue; /* second half of an ld_imm64 */
		rd = reads(in);
		for (r = 0; r < 11; r++)
			if ((rd & 1u << r) && s->ref[r] != V_NONE &&
			    !use_allowed(in, r, s->ref[r]))
				return inline_fail(obj, prog,
						   &refs[s->ref[r] >= 0 ?
							 s->ref[r] : 0],
						   i, misuse(in, s->ref[r]),
						   err);
		if (BPF_CLASS(in->code) == BPF_LDX &&
		    s->ref[in->src_reg] >= 0) {
			ret = inline_load(obj, prog, b, i,
					  &refs[s->ref[in->src_reg]],
					  s->add[in->src_reg], err);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int obj_inline_data(struct bb_obj *obj, struct obj_prog_rec *prog,
		    struct lbuf *b, struct dref *refs, int32_t *refat,
		    struct bb_err *err)
{
	struct rstate *st = calloc(b->cnt, sizeof(*st));
	unsigned char *seen = calloc(b->cnt, 1);
	uint32_t *work = malloc(sizeof(*work) * (b->cnt + 1));
	int ret;

	if (!st || !seen || !work) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
		goto out;
	}
	ret = check_regs(obj, prog, b, err);
	if (ret < 0)
		goto out;
	track(b, refat, st, seen, work);
	clear_loads(b, refat);
	ret = rewrite(obj, prog, b, refs, st, seen, err);
out:
	free(st);
	free(seen);
	free(work);
	return ret;
}
