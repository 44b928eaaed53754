/* SPDX-License-Identifier: MIT */
/*
 * From functions to what the kernel loads: a program's instructions are
 * its function followed by every function it calls (bpf-to-bpf calls,
 * as libbpf appends them), with the calls' offsets fixed; then maps,
 * constants and global data are relocated as this kernel takes them
 * (struct bb_kcaps): global data as map values from 5.2, and before it,
 * reads of .rodata, .data and .bss inlined as immediates where every use
 * of the address is a load (const volatile settings); bpf_probe_read_
 * {kernel,user} become bpf_probe_read before 5.5. What the kernel cannot
 * take is refused here with the instruction and symbol named.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "elfread.h"

#define FIX_INLINE "mark the function static __always_inline"

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

struct placed {
	int func;
	uint32_t base;
};

static int lbuf_reserve(struct lbuf *b, uint32_t n)
{
	uint32_t cap = b->cap ? b->cap : 64;
	void *p;

	if (b->cnt + n <= b->cap)
		return 0;
	if ((uint64_t)b->cnt + n > BPF_MAXINSNS_BIG + 2)
		return -E2BIG;
	while (cap < b->cnt + n)
		cap *= 2;
	if (!(p = realloc(b->insns, cap * sizeof(*b->insns))))
		return -ENOMEM;
	b->insns = p;
	if (!(p = realloc(b->rel, cap * sizeof(*b->rel))))
		return -ENOMEM;
	b->rel = p;
	if (!(p = realloc(b->from, cap * sizeof(*b->from))))
		return -ENOMEM;
	b->from = p;
	b->cap = cap;
	return 0;
}

static void lbuf_free(struct lbuf *b)
{
	free(b->insns);
	free(b->rel);
	free(b->from);
}

static const struct obj_reloc *find_reloc(const struct obj_code *c,
					  uint32_t insn)
{
	uint32_t lo = 0, hi = c->nrelocs;

	/* the last relocation of insn: the first past it, minus one */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->relocs[mid].insn <= insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && c->relocs[lo - 1].insn == insn ?
	       &c->relocs[lo - 1] : NULL;
}

static int append_func(struct bb_obj *obj, struct lbuf *b, int f)
{
	const struct obj_func *fn = &obj->funcs[f];
	const struct obj_code *c = &obj->code[fn->code];
	uint32_t i;
	int ret = lbuf_reserve(b, fn->cnt);

	if (ret < 0)
		return ret;
	memcpy(b->insns + b->cnt, c->insns + fn->off,
	       fn->cnt * sizeof(*b->insns));
	for (i = 0; i < fn->cnt; i++) {
		b->rel[b->cnt + i] = find_reloc(c, fn->off + i);
		b->from[b->cnt + i] = c;
	}
	b->cnt += fn->cnt;
	return 0;
}

/* The function of code section c that starts at instruction t, or -1. */
static int func_at(const struct bb_obj *obj, int c, int64_t t)
{
	const struct obj_code *code = &obj->code[c];
	int lo = code->first_func, hi = code->first_func + code->nfuncs - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (obj->funcs[mid].off == t)
			return mid;
		if (obj->funcs[mid].off < t)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The entry function, then each function a placed one calls, once. */
static int link_calls(struct bb_obj *obj, struct obj_prog *prog,
		      struct lbuf *b, struct bb_err *err)
{
	struct placed *pl = NULL;
	int npl = 0, q, ret;
	const char *sec = prog->p.section;

	pl = malloc(sizeof(*pl) * (obj->nfuncs + 1));
	if (!pl)
		return bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
	pl[npl].func = prog->func;
	pl[npl++].base = 0;
	ret = append_func(obj, b, prog->func);
	for (q = 0; ret >= 0 && q < npl; q++) {
		const struct obj_func *fn = &obj->funcs[pl[q].func];
		uint32_t i;

		for (i = 0; i < fn->cnt; i++) {
			uint32_t at = pl[q].base + i;
			struct bpf_insn *in = &b->insns[at];
			const struct obj_reloc *r = b->rel[at];
			int tc, g, k;
			int64_t t;

			if (in->code != BPF_CALL_CODE ||
			    in->src_reg != BPF_PSEUDO_CALL)
				continue;
			if (r && r->kind == RELOC_CALL) {
				tc = r->idx;
				t = r->addend;
			} else {
				tc = fn->code;
				t = (int64_t)fn->off + i + 1 + in->imm;
			}
			g = func_at(obj, tc, t);
			if (!obj->caps.bpf_calls) {
				ret = bb_fail(err, -EOPNOTSUPP,
					      "%s: program %s (section %s) "
					      "calls BPF function '%s' "
					      "(instruction %u of %s): "
					      "bpf-to-bpf calls need Linux 4.16 "
					      "and this kernel has none; %s",
					      obj->name, prog->p.name, sec,
					      g >= 0 ? obj->funcs[g].name : "?",
					      fn->off + i, fn->name, FIX_INLINE);
				goto out;
			}
			if (g < 0) {
				ret = bb_fail(err, -EINVAL,
					      "%s: section %s: instruction %u "
					      "of '%s' calls instruction %lld of "
					      "section %s, where no function "
					      "starts", obj->name, sec,
					      fn->off + i, fn->name,
					      (long long)t, obj->code[tc].name);
				goto out;
			}
			for (k = 0; k < npl && pl[k].func != g; k++)
				;
			if (k == npl) {
				pl[npl].func = g;
				pl[npl++].base = b->cnt;
				ret = append_func(obj, b, g);
				if (ret < 0)
					break;
				in = &b->insns[at]; /* moved by realloc */
			}
			in->imm = (int32_t)pl[k].base - (int32_t)at - 1;
		}
	}
	if (ret == -E2BIG)
		ret = bb_fail(err, ret, "%s: program %s with its functions "
			      "has more than %d instructions", obj->name,
			      prog->p.name, BPF_MAXINSNS_BIG);
	else if (ret == -ENOMEM)
		ret = bb_fail(err, ret, "%s: out of memory", obj->name);
out:
	free(pl);
	return ret;
}

/* ---- inlining of global data reads (kernels before 5.2) ---- */

/* What a register holds, for the inliner: nothing of interest, the
 * address of a data reference (+ addend), or one of several. */
#define V_NONE (-1)
#define V_MIXED (-2)

struct rstate {
	int32_t ref[11];
	int64_t add[11];
};

struct dref {
	const unsigned char *img; /* the bytes to read */
	uint32_t size;
	uint32_t base;  /* offset of the ld_imm64's address in img */
	const char *what;
	char buf[140];
	int ext;        /* a __kconfig extern, not global data */
	uint32_t at;    /* the ld_imm64 */
};

static int is_jump(uint8_t code)
{
	uint8_t cl = BPF_CLASS(code), op = BPF_OP(code);

	return (cl == BPF_JMP || cl == BPF_JMP32) && op != BPF_CALL &&
	       op != BPF_EXIT;
}

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

static int inline_fail(const struct bb_obj *obj, const struct obj_prog *prog,
		       const struct dref *d, uint32_t at, const char *how,
		       struct bb_err *err)
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

		if (!is_jump(in->code) && !pcall)
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
static int inline_data(struct bb_obj *obj, struct obj_prog *prog,
		       struct lbuf *b, struct dref *refs, int32_t *refat,
		       struct bb_err *err)
{
	enum { S_HAS = 1, S_VISITED = 2, S_QUEUED = 4 };
	struct rstate *st = calloc(b->cnt, sizeof(*st));
	unsigned char *seen = calloc(b->cnt, 1);
	uint32_t *work = malloc(sizeof(*work) * (b->cnt + 1));
	uint32_t nwork = 0, i;
	int r, ret = 0;

	if (!st || !seen || !work) {
		ret = bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
		goto out;
	}
	for (i = 0; i < b->cnt; i++)
		if (b->insns[i].dst_reg > 10 || b->insns[i].src_reg > 10) {
			ret = bb_fail(err, -EINVAL,
				      "%s: program %s: instruction %u names "
				      "register %u; BPF has r0-r10", obj->name,
				      prog->p.name, i,
				      b->insns[i].dst_reg > 10 ?
				      b->insns[i].dst_reg : b->insns[i].src_reg);
			goto out;
		}
	for (r = 0; r < 11; r++)
		st[0].ref[r] = V_NONE;
	seen[0] = S_HAS | S_QUEUED;
	work[nwork++] = 0;
	while (nwork) {
		uint32_t at = work[--nwork], succ[3];
		struct bpf_insn *in = &b->insns[at];
		struct rstate s = st[at], outs[3];
		uint8_t cl = BPF_CLASS(in->code), op = BPF_OP(in->code);
		int nsucc = 0, k;

		seen[at] = (seen[at] & ~S_QUEUED) | S_VISITED;
		if (in->code == BPF_LD_IMM64_CODE) {
			s.ref[in->dst_reg] = refat[at] >= 0 ? refat[at] : V_NONE;
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
		} else if (is_jump(in->code)) {
			succ[nsucc] = at + 1 + in->off;
			outs[nsucc++] = s;
			if (op != BPF_JA || cl == BPF_JMP32) {
				succ[nsucc] = at + 1;
				outs[nsucc++] = s;
			}
		} else {
			if (cl == BPF_ALU64 && op == BPF_MOV &&
			    BPF_SRC(in->code)) {
				s.ref[in->dst_reg] = s.ref[in->src_reg];
				s.add[in->dst_reg] = s.add[in->src_reg];
			} else if (cl == BPF_ALU64 && op == BPF_ADD &&
				   !BPF_SRC(in->code) &&
				   s.ref[in->dst_reg] >= 0) {
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
	/* the address loads themselves: now a dead 0 */
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
	/* checks and rewrites, from the end so that inserted slots do not
	 * move what is still to do */
	for (i = b->cnt; i-- > 0;) {
		struct bpf_insn *in = &b->insns[i];
		const struct rstate *s = &st[i];
		unsigned rd;

		if (!(seen[i] & S_VISITED))
			continue;
		if (i && b->insns[i - 1].code == BPF_LD_IMM64_CODE &&
		    (seen[i - 1] & S_VISITED))
			continue; /* second half of an ld_imm64 */
		rd = reads(in);
		for (r = 0; r < 11; r++) {
			if (!(rd & 1u << r) || s->ref[r] == V_NONE)
				continue;
			if (BPF_CLASS(in->code) == BPF_LDX &&
			    r == in->src_reg && s->ref[r] >= 0)
				continue;
			if (BPF_CLASS(in->code) == BPF_ALU64 &&
			    BPF_OP(in->code) == BPF_MOV && s->ref[r] >= 0)
				continue;
			if (BPF_CLASS(in->code) == BPF_ALU64 &&
			    BPF_OP(in->code) == BPF_ADD && !BPF_SRC(in->code))
				continue;
			ret = inline_fail(obj, prog,
					  &refs[s->ref[r] >= 0 ? s->ref[r] : 0],
					  i, s->ref[r] == V_MIXED ?
					  "uses, on some paths only," :
					  BPF_CLASS(in->code) == BPF_JMP &&
					  BPF_OP(in->code) == BPF_CALL ?
					  "passes to a function the address of" :
					  BPF_CLASS(in->code) == BPF_STX ?
					  "stores or writes through the address "
					  "of" : "computes with the address of",
					  err);
			goto out;
		}
		if (BPF_CLASS(in->code) == BPF_LDX && s->ref[in->src_reg] >= 0) {
			const struct dref *d = &refs[s->ref[in->src_reg]];
			int64_t off = (int64_t)d->base + s->add[in->src_reg] +
				      in->off;
			uint32_t sz = BPF_SIZE(in->code) == BPF_B ? 1 :
				      BPF_SIZE(in->code) == BPF_H ? 2 :
				      BPF_SIZE(in->code) == BPF_W ? 4 : 8;
			uint64_t v = 0;
			uint32_t k;

			if (BPF_MODE(in->code) != BPF_MEM || off < 0 ||
			    off + sz > d->size) {
				ret = inline_fail(obj, prog, d, i,
						  "reads outside", err);
				goto out;
			}
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
				if (ret < 0) {
					ret = bb_fail(err, ret, "%s: program "
						      "%s: no room to inline "
						      "%s", obj->name,
						      prog->p.name, d->what);
					goto out;
				}
				in = &b->insns[i];
				memset(in, 0, 2 * sizeof(*in));
				in[0].code = BPF_LD_IMM64_CODE;
				in[0].dst_reg = dst;
				in[0].imm = (int32_t)(uint32_t)v;
				in[1].imm = (int32_t)(uint32_t)(v >> 32);
				b->rel[i + 1] = NULL;
			}
			b->rel[i] = NULL;
		}
	}
out:
	free(st);
	free(seen);
	free(work);
	return ret;
}

/* The value of a __kconfig extern this kernel has. */
static int extern_value(struct bb_obj *obj, struct obj_extern *x,
			struct bb_err *err)
{
	if (!strcmp(x->name, "LINUX_KERNEL_VERSION") && obj->caps.kver)
		x->value = obj->caps.kver;
	else if (!strcmp(x->name, "LINUX_HAS_SYSCALL_WRAPPER"))
		x->value = obj->caps.syscall_wrapper;
	else if (!x->weak)
		return bb_fail(err, -EOPNOTSUPP,
			       "%s: extern '%s' (__kconfig): barebpf knows "
			       "LINUX_KERNEL_VERSION and "
			       "LINUX_HAS_SYSCALL_WRAPPER only; declare it "
			       "__weak to read 0", obj->name, x->name);
	else
		x->value = 0;
	x->known = 1;
	return 0;
}

/* Apply the relocations; data and externs the kernel cannot take are
 * marked for inline_data. */
static int apply_relocs(struct bb_obj *obj, struct obj_prog *prog,
			struct lbuf *b, struct bb_err *err)
{
	struct dref *refs = NULL;
	int32_t *refat = NULL;
	int nrefs = 0, ret = 0;
	uint32_t i;

	for (i = 0; i < b->cnt; i++) {
		const struct obj_reloc *r = b->rel[i];
		struct bpf_insn *insn = &b->insns[i];

		if (!r || r->kind == RELOC_CALL)
			continue;
		if (r->kind == RELOC_MAP) {
			const struct bb_map *m = &obj->maps[r->idx];

			if (m->fd < 0)
				return bb_fail(err, -EBADF,
					       "%s: map %s has not been created",
					       obj->name, m->name);
			insn[0].src_reg = BPF_PSEUDO_MAP_FD;
			insn[0].imm = m->fd;
			insn[1].imm = 0;
		} else if (r->kind == RELOC_CONST) {
			uint64_t v = obj->consts[r->idx].value;

			insn[0].src_reg = 0;
			insn[0].imm = (uint32_t)v;
			insn[1].imm = (uint32_t)(v >> 32);
		} else if (r->kind == RELOC_DATA && obj->caps.global_data) {
			const struct obj_data *d = &obj->data[r->idx];
			int fd = d->map >= 0 ? obj->maps[d->map].fd : -1;

			if (fd < 0)
				return bb_fail(err, -EBADF,
					       "%s: the map of %s has not been "
					       "created", obj->name, d->name);
			insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
			insn[0].imm = fd;
			insn[1].imm = (int32_t)r->addend;
		} else {
			if (!refs) {
				uint32_t k;

				refs = calloc(b->cnt, sizeof(*refs));
				refat = malloc(b->cnt * sizeof(*refat));
				if (!refs || !refat) {
					ret = bb_fail(err, -ENOMEM,
						      "%s: out of memory",
						      obj->name);
					goto out;
				}
				for (k = 0; k < b->cnt; k++)
					refat[k] = -1;
			}
			refat[i] = nrefs;
			refs[nrefs].at = i;
			if (r->kind == RELOC_DATA) {
				const struct obj_data *d = &obj->data[r->idx];
				const char *var = NULL;
				int k;

				for (k = 0; k < obj->nvars; k++)
					if (obj->vars[k].data == r->idx &&
					    obj->vars[k].off <= r->addend &&
					    r->addend < obj->vars[k].off +
					    (int64_t)(obj->vars[k].size ?
						      obj->vars[k].size : 1))
						var = obj->vars[k].name;
				refs[nrefs].img = d->image;
				refs[nrefs].size = d->size;
				refs[nrefs].base = r->addend;
				snprintf(refs[nrefs].buf,
					 sizeof(refs[nrefs].buf),
					 "'%.64s' in %.64s", var ? var : "?",
					 d->name);
				refs[nrefs].what = refs[nrefs].buf;
			} else {
				struct obj_extern *x = &obj->externs[r->idx];

				if (!x->known &&
				    (ret = extern_value(obj, x, err)) < 0)
					goto out;
				refs[nrefs].ext = 1;
				refs[nrefs].img = (const unsigned char *)
					&x->value;
				refs[nrefs].size = x->size;
				refs[nrefs].base = 0;
				snprintf(refs[nrefs].buf,
					 sizeof(refs[nrefs].buf), "'%s'",
					 x->name);
				refs[nrefs].what = refs[nrefs].buf;
			}
			nrefs++;
		}
	}
	if (nrefs)
		ret = inline_data(obj, prog, b, refs, refat, err);
out:
	free(refs);
	free(refat);
	return ret;
}

/* What the kernel's verifier would refuse for lack of a feature. */
static int check_kernel(struct bb_obj *obj, struct obj_prog *prog,
			struct lbuf *b, struct bb_err *err)
{
	uint32_t i, max = obj->caps.big_progs ? BPF_MAXINSNS_BIG :
						BPF_MAXINSNS;

	if (b->cnt > max)
		return bb_fail(err, -E2BIG,
			       "%s: program %s (section %s) has %u "
			       "instructions%s; %s", obj->name, prog->p.name,
			       prog->p.section, b->cnt,
			       b->cnt > obj->funcs[prog->func].cnt ?
			       " with the functions it calls" : "",
			       obj->caps.big_progs ?
			       "no kernel loads more than 1,000,000" :
			       "Linux before 5.2 (and this kernel) loads at "
			       "most 4096: split the program or trim "
			       "unrolled code");
	for (i = 0; i < b->cnt; i++) {
		struct bpf_insn *in = &b->insns[i];

		if (in->code == BPF_LD_IMM64_CODE) {
			if (i + 1 == b->cnt)
				return bb_fail(err, -EINVAL,
					       "%s: section %s ends in the "
					       "middle of an ld_imm64 "
					       "instruction; corrupt object?",
					       obj->name, b->from[i]->name);
			i++;
			continue;
		}
		if (BPF_CLASS(in->code) == BPF_JMP32 && !obj->caps.jmp32)
			return bb_fail(err, -EOPNOTSUPP,
				       "%s: program %s (section %s): "
				       "instruction %u (code 0x%02x) is a JMP32 "
				       "instruction, which needs Linux 5.1 and "
				       "this kernel lacks; compile with "
				       "-mcpu=v2", obj->name, prog->p.name,
				       prog->p.section, i, in->code);
		if (in->code != BPF_CALL_CODE || in->src_reg)
			continue;
		/* bpf_probe_read_{kernel,user}[_str] are 5.5; before, the
		 * one bpf_probe_read reads both (x86_64, arm64) */
		if (!obj->caps.probe_read_kernel) {
			if (in->imm == H_PROBE_READ_KERNEL ||
			    in->imm == H_PROBE_READ_USER)
				in->imm = H_PROBE_READ;
			else if (in->imm == H_PROBE_READ_KERNEL_STR ||
				 in->imm == H_PROBE_READ_USER_STR)
				in->imm = H_PROBE_READ_STR;
		}
	}
	return 0;
}

int obj_link(struct bb_obj *obj, struct obj_prog *prog, struct bb_err *err)
{
	struct lbuf b = { 0 };
	int ret;

	ret = link_calls(obj, prog, &b, err);
	if (ret >= 0)
		ret = apply_relocs(obj, prog, &b, err);
	if (ret >= 0)
		ret = check_kernel(obj, prog, &b, err);
	if (ret < 0) {
		lbuf_free(&b);
		return ret;
	}
	free(prog->p.insns);
	prog->p.insns = b.insns;
	prog->p.insn_cnt = b.cnt;
	free(b.rel);
	free(b.from);
	return 0;
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

	ret = check_consts_set(obj, err);
	if (ret < 0)
		return ret;
	for (i = 0; i < obj->nprogs; i++) {
		ret = obj_link(obj, &obj->progs[i], err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- what the programs do with maps, from their helper calls ---- */

/*
 * The map (or the constant) register reg holds at instruction at of code
 * section c, from the last write to it before: enough for the patterns
 * compilers emit next to a call (a backward scan within the function,
 * stopped at a jump target we cannot see, or at 64 instructions).
 */
static int last_write(const struct obj_code *c, uint32_t from, uint32_t at,
		      int reg, const struct bpf_insn **w)
{
	uint32_t i, n = 0;

	for (i = at; i-- > from && n < 64; n++) {
		const struct bpf_insn *in = &c->insns[i];

		if (i > from && c->insns[i - 1].code == BPF_LD_IMM64_CODE) {
			if (c->insns[i - 1].dst_reg == reg) {
				*w = &c->insns[i - 1];
				return i - 1;
			}
			i--;
			continue;
		}
		if (is_jump(in->code) || BPF_OP(in->code) == BPF_EXIT)
			return -1;
		if (BPF_CLASS(in->code) == BPF_JMP &&
		    BPF_OP(in->code) == BPF_CALL) {
			if (reg <= 5)
				return -1;
			continue;
		}
		if ((BPF_CLASS(in->code) == BPF_ALU64 ||
		     BPF_CLASS(in->code) == BPF_ALU ||
		     BPF_CLASS(in->code) == BPF_LDX) && in->dst_reg == reg) {
			*w = in;
			return i;
		}
	}
	return -1;
}

static int map_in_reg(const struct bb_obj *obj, const struct obj_code *c,
		      uint32_t from, uint32_t at, int reg)
{
	const struct bpf_insn *w;
	const struct obj_reloc *r;
	int i = last_write(c, from, at, reg, &w);

	if (i < 0 || w->code != BPF_LD_IMM64_CODE)
		return -1;
	r = find_reloc(c, i);
	(void)obj;
	return r && r->kind == RELOC_MAP ? r->idx : -1;
}

static int const_in_reg(const struct obj_code *c, uint32_t from, uint32_t at,
			int reg, int64_t *v)
{
	const struct bpf_insn *w;
	int i = last_write(c, from, at, reg, &w);

	if (i < 0 || (w->code != (BPF_ALU64 | BPF_MOV | BPF_K) &&
		      w->code != (BPF_ALU | BPF_MOV | BPF_K)))
		return -1;
	*v = w->imm;
	return 0;
}

void obj_scan_helpers(struct bb_obj *obj)
{
	int f, m;
	unsigned char *mixed = calloc(obj->nmaps ? obj->nmaps : 1, 1);

	for (f = 0; f < obj->nfuncs; f++) {
		const struct obj_func *fn = &obj->funcs[f];
		const struct obj_code *c = &obj->code[fn->code];
		uint32_t i;

		for (i = fn->off; i < fn->off + fn->cnt; i++) {
			const struct bpf_insn *in = &c->insns[i];
			int64_t v;

			if (in->code == BPF_LD_IMM64_CODE) {
				i++;
				continue;
			}
			if (in->code != BPF_CALL_CODE || in->src_reg)
				continue;
			switch (in->imm) {
			case H_TRACE_PRINTK:
			case H_TRACE_VPRINTK:
				obj->printk = 1;
				break;
			case H_PERF_EVENT_OUTPUT:
				m = map_in_reg(obj, c, fn->off, i, 2);
				if (m < 0)
					break;
				obj->maps[m].usage |= BB_MAP_USE_OUTPUT;
				if (const_in_reg(c, fn->off, i, 5, &v) < 0 ||
				    v <= 0 || (obj->maps[m].sample_size &&
					       obj->maps[m].sample_size != v))
					mixed[m] = 1;
				else
					obj->maps[m].sample_size = v;
				break;
			case H_PERF_EVENT_READ:
			case H_PERF_EVENT_READ_VALUE:
				m = map_in_reg(obj, c, fn->off, i, 1);
				if (m >= 0)
					obj->maps[m].usage |=
						BB_MAP_USE_COUNTERS;
				break;
			case H_GET_STACKID:
				m = map_in_reg(obj, c, fn->off, i, 2);
				if (m < 0)
					break;
				if (const_in_reg(c, fn->off, i, 3, &v) == 0 &&
				    (v & (1 << 8)))
					obj->maps[m].usage |= BB_MAP_USE_USTACK;
				else
					obj->maps[m].usage |= BB_MAP_USE_KSTACK;
				break;
			case H_TAIL_CALL:
				m = map_in_reg(obj, c, fn->off, i, 2);
				if (m >= 0)
					obj->maps[m].usage |=
						BB_MAP_USE_TAILCALL;
				break;
			}
		}
	}
	for (m = 0; mixed && m < obj->nmaps; m++)
		if (mixed[m])
			obj->maps[m].sample_size = 0;
	free(mixed);
}
