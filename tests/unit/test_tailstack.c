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
	da = tailframe_depth(a->insns, a->insn_cnt);
	db = tailframe_depth(b->insns, b->insn_cnt);
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

	ck_assert_int_ge(tailframe_depth(obj_prog(obj, "bd_entry")->insns,
					 obj_prog(obj, "bd_entry")->insn_cnt), 256);
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

/* The guard of loader/obj/tailframe.c: what it finds and what it makes. */
START_TEST(test_pad)
{
	struct bpf_insn prog[4] = { { 0 } }, *padded = NULL;

	prog[0].code = BPF_ALU64 | BPF_MOV | BPF_X; /* r2 = r10 */
	prog[0].dst_reg = 2;
	prog[0].src_reg = 10;
	prog[1].code = BPF_ALU64 | BPF_ADD | BPF_K; /* r2 += -40 */
	prog[1].dst_reg = 2;
	prog[1].imm = -40;
	prog[2].code = BPF_CALL_CODE;
	prog[2].imm = 1; /* map_lookup_elem */
	prog[3].code = BPF_JMP | BPF_EXIT;
	ck_assert_int_eq(tailframe_calls_tail(prog, 4), 0);
	ck_assert_int_eq(tailframe_depth(prog, 4), 40);
	prog[2].imm = 12; /* tail_call */
	ck_assert_int_eq(tailframe_calls_tail(prog, 4), 1);
	prog[2].src_reg = 1; /* a bpf-to-bpf call with imm 12: not one */
	ck_assert_int_eq(tailframe_calls_tail(prog, 4), 0);
	prog[2].src_reg = 0;
	ck_assert_int_eq(tailframe_pad(prog, 4, &padded), 0);
	ck_assert_int_eq(padded[0].code, BPF_ST | BPF_MEM | BPF_DW);
	ck_assert_int_eq(padded[0].dst_reg, 10);
	ck_assert_int_eq(padded[0].off, -512);
	ck_assert_int_eq(padded[0].imm, 0);
	ck_assert_mem_eq(padded + 1, prog, sizeof(prog));
	ck_assert_int_eq(tailframe_depth(padded, 5), 512);
	ck_assert_int_eq(tailframe_calls_tail(padded, 5), 1);
	free(padded);
}
END_TEST

static Suite *tailstack_suite(void)
{
	Suite *s = suite_create("tailstack");
	TCase *tc = tcase_create("frames");

	tcase_add_test(tc, test_breakdown_slots);
	tcase_add_test(tc, test_execsnoop_chain);
	tcase_add_test(tc, test_pad);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tailstack, tailstack_suite, NULL)
