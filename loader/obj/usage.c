/* SPDX-License-Identifier: MIT */
/*
 * What the programs do with their maps, told by their helper calls: which
 * perf event array is an output ring (bpf_perf_event_output, and the one
 * size every call site sends) or a counter array (bpf_perf_event_read),
 * which stack map holds user or kernel stacks, whether bpf_trace_printk
 * is called. For barebpf run's output; nothing is refused here.
 */
#include <stdlib.h>
#include "obj_internal.h"

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
		if (bpf_is_jump(in->code) || BPF_OP(in->code) == BPF_EXIT)
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
	r = obj_find_reloc(c, i);
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
