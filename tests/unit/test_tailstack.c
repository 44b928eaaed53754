/* SPDX-License-Identifier: MIT */
/*
 * Tail calls and the interpreter's stack: a tail-called program runs in
 * its caller's frame, which the interpreter sizes by the caller's stack
 * depth rounded up to 32 bytes (6.9+ no longer raises it to 512 for a
 * program that tail-calls: breakdown's 4-byte slots crashed armv7 6.12 and
 * riscv64 7.x, vm-tests/README.md, "Known problems"). For every tail call
 * of the embedded programs, the caller's frame must hold the callee's.
 */
#include <stdio.h>
#include <stdlib.h>
#include "barebpf.h"
#include "bbtest.h"
#include "obj.h"

/* How deep below r10 a program reaches: direct r10 accesses, and
 * registers set to r10 plus a constant (how clang passes a stack
 * address to a helper). */
static int depth_of(const struct bb_prog *p)
{
	int off[11] = { 0 }, fp[11] = { 0 }, max = 0;
	size_t i;

	fp[10] = 1;
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
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

static struct bb_obj *open_built(const char *name, unsigned char **buf)
{
	char path[256];
	struct bb_err err = { "" };
	struct bb_obj *obj = NULL;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), BB_BUILD_DIR "/bpf/%s.bpf.o", name);
	f = fopen(path, "rb");
	ck_assert_msg(f, "%s", path);
	*buf = malloc(1 << 20);
	ck_assert(*buf);
	len = fread(*buf, 1, 1 << 20, f);
	fclose(f);
	ck_assert_msg(obj_open(&obj, *buf, len, name, &err) == 0, "%s", err.msg);
	return obj;
}

/* caller's frame (rounded up to 32, as the interpreter picks it) >= callee's
 * depth */
static void check_pair(struct bb_obj *obj, const char *caller,
		       const char *callee)
{
	struct bb_prog *a = obj_prog(obj, caller), *b = obj_prog(obj, callee);
	int da, db;

	ck_assert_msg(a && b, "no program %s or %s", caller, callee);
	da = depth_of(a);
	db = depth_of(b);
	ck_assert_msg((da + 31) / 32 * 32 >= db,
		      "%s (%d bytes of stack: a %d-byte frame in the "
		      "interpreter) tail-calls %s, which reaches %d bytes down",
		      caller, da, (da + 31) / 32 * 32, callee, db);
}

START_TEST(test_breakdown_slots)
{
	unsigned char *buf;
	struct bb_obj *obj = open_built("breakdown", &buf);
	char e[16], r[16];
	int n;

	ck_assert_int_ge(depth_of(obj_prog(obj, "bd_entry")), 256);
	for (n = 0; n < 8; n++) {
		snprintf(e, sizeof(e), "bd_e%d", n);
		snprintf(r, sizeof(r), "bd_r%d", n);
		check_pair(obj, e, "bd_entry");
		check_pair(obj, e, "bd_return");
		check_pair(obj, r, "bd_entry");
		check_pair(obj, r, "bd_return");
	}
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_execsnoop_chain)
{
	unsigned char *buf;
	struct bb_obj *obj = open_built("execsnoop", &buf);

	check_pair(obj, "tp_enter", "tp_args");
	check_pair(obj, "tp_args", "tp_args");
	check_pair(obj, "kp_execve", "kp_args");
	check_pair(obj, "kp_execveat", "kp_args");
	check_pair(obj, "kp_args", "kp_args");
	check_pair(obj, "tp_enter_old", "tp_args_old");
	check_pair(obj, "tp_args_old", "tp_args_old");
	check_pair(obj, "kp_execve_old", "kp_args_old");
	check_pair(obj, "kp_execveat_old", "kp_args_old");
	check_pair(obj, "kp_args_old", "kp_args_old");
	obj_close(obj);
	free(buf);
}
END_TEST

static Suite *tailstack_suite(void)
{
	Suite *s = suite_create("tailstack");
	TCase *tc = tcase_create("frames");

	tcase_add_test(tc, test_breakdown_slots);
	tcase_add_test(tc, test_execsnoop_chain);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tailstack, tailstack_suite, NULL)
