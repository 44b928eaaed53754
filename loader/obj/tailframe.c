/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's tail-call frame, on kernels 6.9 and later.
 *
 * Without a JIT (bpf_jit_enable 0, as Debian ships riscv64; or a program
 * the JIT could not take, as 32-bit ARM's atomic adds) a program runs in
 * an interpreter whose stack frame is sized by the program's stack depth,
 * and a tail-called program runs on in its caller's frame. The verifier
 * gave every program that tail-calls the whole 512 bytes; since may_goto
 * (6.9) the end of do_misc_fixups sets the depth back to the program's
 * own, so a caller with a small frame lets its callee write below it,
 * over the kernel stack: saved return addresses, a jump to 0. It crashed
 * armv7 6.12 and riscv64 7.x under breakdown (vm-tests/README.md, "Known
 * problems"). A user's object tail-calls as it likes, so `run` and every
 * tool get the same guard here: such a program, where the kernel
 * interprets it, is loaded again with one instruction first that stores 0
 * at r10 - 512, so that its own depth, and the frame its callees share,
 * is the whole 512 bytes. If the verifier refuses that (a program whose
 * bpf-to-bpf calls take more stack on top), it is refused, with why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "obj_internal.h"

#define TAILFRAME_FROM 0x060900 /* 6.9.0 */
#define BPF_FUNC_tail_call 12
#define FRAME 512

int tailframe_calls_tail(const struct bpf_insn *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (in[i].code == BPF_CALL_CODE && in[i].src_reg == 0 &&
		    in[i].imm == BPF_FUNC_tail_call)
			return 1;
	return 0;
}

/* How deep below r10 the instructions reach: direct r10 accesses, and
 * registers set to r10 plus a constant (how clang passes a stack
 * address to a helper), in their order (an estimate: no control flow). */
int tailframe_depth(const struct bpf_insn *insns, size_t n)
{
	int off[11] = { 0 }, fp[11] = { 0 }, max = 0;
	size_t i;

	fp[10] = 1;
	for (i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		int cls = BPF_CLASS(in->code), d = in->dst_reg, s = in->src_reg;
		int base = -1;

		if (in->code == BPF_LD_IMM64_CODE) {
			if (d < 11)
				fp[d] = 0;
			i++;
			continue;
		}
		if (cls == BPF_ALU64 && BPF_OP(in->code) == BPF_MOV &&
		    BPF_SRC(in->code) == BPF_X && d < 11 && s < 11) {
			fp[d] = fp[s];
			off[d] = off[s];
			continue;
		}
		if (cls == BPF_ALU64 && BPF_OP(in->code) == BPF_ADD &&
		    BPF_SRC(in->code) == BPF_K && d < 11 && fp[d]) {
			off[d] += in->imm;
			if (-off[d] > max)
				max = -off[d];
			continue;
		}
		if (cls == BPF_ST || cls == BPF_STX)
			base = d;
		else if (cls == BPF_LDX)
			base = s;
		if (base >= 0 && base < 11 && fp[base] &&
		    -(off[base] + in->off) > max)
			max = -(off[base] + in->off);
		/* anything else that writes dst ends what we knew of it */
		if ((cls == BPF_ALU64 || cls == BPF_ALU || cls == BPF_LDX) &&
		    d < 11 && d != 10)
			fp[d] = 0;
		if (in->code == BPF_CALL_CODE)
			fp[0] = fp[1] = fp[2] = fp[3] = fp[4] = fp[5] = 0;
	}
	return max;
}

int tailframe_pad(const struct bpf_insn *in, size_t n,
		  struct bpf_insn **out)
{
	struct bpf_insn *p = malloc((n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	memset(p, 0, sizeof(*p));
	p[0].code = BPF_ST | BPF_MEM | BPF_DW;
	p[0].dst_reg = 10;
	p[0].off = -FRAME;
	memcpy(p + 1, in, n * sizeof(*in));
	*out = p;
	return 0;
}

/* 1 if the kernel interprets the program at fd (no JIT image), 0 if not,
 * or if it cannot say (then nothing changes). */
static int interpreted(int fd)
{
	uint64_t v;

	/* jited_prog_len: the u32 at 16 of bpf_prog_info (little-endian) */
	if (bpf_prog_info_u64(fd, 16, &v) < 0)
		return 0;
	return (uint32_t)v == 0;
}

int tailframe_check(struct bb_obj *obj, struct bb_prog *p, int *fd,
		    struct bb_err *err)
{
	struct bpf_insn *padded;
	int nfd, ret;

	if (obj->kern_version < TAILFRAME_FROM ||
	    !tailframe_calls_tail(p->insns, p->insn_cnt) ||
	    tailframe_depth(p->insns, p->insn_cnt) > FRAME - 32 ||
	    !interpreted(*fd))
		return 0;
	ret = tailframe_pad(p->insns, p->insn_cnt, &padded);
	if (ret < 0)
		return bb_fail(err, ret, "%s: out of memory", obj->name);
	nfd = bpf_prog_load(p->prog_type, padded, p->insn_cnt + 1,
			    obj->license, obj->kern_version, p->name,
			    &obj->log, &obj->log_truncated);
	free(padded);
	if (nfd < 0)
		return bb_fail(err, nfd, "%s: program %s (section %s) "
			       "tail-calls, and this kernel (6.9 or later, "
			       "running it without a JIT) would run the "
			       "programs it calls in its %d-byte stack frame, "
			       "where they can overwrite the kernel's stack; "
			       "padding the frame to %d bytes was refused "
			       "(%s: the verifier log says why). Enable the "
			       "JIT (sysctl net.core.bpf_jit_enable=1), or "
			       "give that program a %d-byte frame itself",
			       obj->name, p->name, p->section,
			       (tailframe_depth(p->insns, p->insn_cnt) + 31) &
			       ~31, FRAME, strerror(-nfd), FRAME);
	close(*fd);
	*fd = nfd;
	return 1;
}
