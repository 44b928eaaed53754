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
#include <stdio.h>
#include "obj_internal.h"

#define FIX_INLINE "mark the function static __always_inline"

struct placed {
	int func;
	uint32_t base;
};

static void lbuf_free(struct lbuf *b)
{
	free(b->insns);
	free(b->rel);
	free(b->from);
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
		b->rel[b->cnt + i] = obj_find_reloc(c, fn->off + i);
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
static int link_calls(struct bb_obj *obj, struct obj_prog_rec *prog,
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






/* The value of a __kconfig extern this kernel has. */
static int extern_value(struct bb_obj *obj, struct obj_extern *x,
			struct bb_err *err)
{
	if (!strcmp(x->name, "LINUX_KERNEL_VERSION") && obj->caps.kver)
		x->value = obj->caps.kver;
	else if (!strcmp(x->name, "LINUX_HAS_SYSCALL_WRAPPER"))
		x->value = kcaps_syscall_wrapper(&obj->caps);
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
static int apply_relocs(struct bb_obj *obj, struct obj_prog_rec *prog,
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

			/* a copy relocates the same code again: both forms
			 * are written whole */
			insn[0].code = BPF_LD_IMM64_CODE;
			insn[0].src_reg = 0;
			insn[0].imm = (uint32_t)v;
			insn[1] = (struct bpf_insn){ .imm = (uint32_t)(v >> 32) };
			if (obj->const_mov && (uint64_t)(int64_t)(int32_t)v == v) {
				insn[0].code = 0xb7; /* r = imm (64-bit) */
				insn[1].code = 0x05; /* goto +0 */
				insn[1].imm = 0;
			}
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
		ret = obj_inline_data(obj, prog, b, refs, refat, err);
out:
	free(refs);
	free(refat);
	return ret;
}

/* What the kernel's verifier would refuse for lack of a feature. */
static int check_kernel(struct bb_obj *obj, struct obj_prog_rec *prog,
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

int obj_link(struct bb_obj *obj, struct obj_prog_rec *prog, struct bb_err *err)
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
				       "not set: give it with `barebpf run -c "
				       "%s=VALUE`", obj->name, p->name,
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




