/* SPDX-License-Identifier: MIT */
/*
 * What the tools' BPF programs cost per event rests on (make bench, the
 * "ns per run" rows): the programs as this kernel holds them after its
 * verifier (BPF_OBJ_GET_INFO_BY_FD: xlated instructions, map flags).
 *
 *  - A start map, updated and deleted from on every request, has its
 *    elements preallocated: on 6.1+ the tools' other hash maps are not
 *    (obj_set_lazy_hash), and bpf_mem_alloc's elements cost more per
 *    update and delete (obj.h). At most 4,096 entries: 10,240 cost
 *    more memory and, measured, time (bpf/biolatency.bpf.c).
 *  - Where the block tracepoints have dev and sector where the programs
 *    expect them (every 64-bit kernel), they read them from ctx, without
 *    bpf_probe_read: a helper call per field.
 * The same for biosnoop, whose start map is biolatency's with two stamps.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "bpf_abi.h"
#include "mods.h"
#include "tool.h"
#include "util.h"
#include "../../bpf/biolatency.h"
#include "../../bpf/biosnoop.h"

#define PROG_INFO_XLATED_LEN 20   /* offsetof(struct bpf_prog_info, ...) */
#define PROG_INFO_XLATED_INSNS 32

/* The program's instructions after the verifier; malloc'ed, count in *n. */
static struct bpf_insn *xlated(int fd, size_t *n)
{
	uint64_t info[32] = { 0 };
	struct {
		uint32_t bpf_fd, info_len;
		uint64_t info;
	} a = { 0 };
	uint32_t len;
	struct bpf_insn *insns;

	a.bpf_fd = fd;
	a.info_len = sizeof(info);
	a.info = (uintptr_t)info;
	ck_assert_int_eq(sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)), 0);
	memcpy(&len, (char *)info + PROG_INFO_XLATED_LEN, sizeof(len));
	ck_assert_uint_gt(len, 0);
	insns = calloc(1, len);
	ck_assert_ptr_nonnull(insns);
	memset(info, 0, sizeof(info));
	memcpy((char *)info + PROG_INFO_XLATED_LEN, &len, sizeof(len));
	info[PROG_INFO_XLATED_INSNS / 8] = (uintptr_t)insns;
	a.info_len = sizeof(info);
	ck_assert_int_eq(sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)), 0);
	*n = len / sizeof(*insns);
	return insns;
}

/*
 * How a call of bpf_probe_read looks in this kernel's xlated programs:
 * the imm of the call (the helper's address, relative), read from a
 * program of our own that makes one. 0 where the kernel hides addresses
 * (kptr_restrict): then every call looks alike.
 */
static int32_t probe_read_imm(void)
{
	const struct bpf_insn prog[] = {
		BB_INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0), /* r1 = fp */
		BB_INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
		BB_INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 8),
		BB_INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0),
		BB_INSN(BPF_CALL_CODE, 0, 0, 0, 4), /* bpf_probe_read */
		BB_INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		BB_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpf_insn *x;
	size_t n, i;
	int32_t imm = 0;
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, prog,
			       sizeof(prog) / sizeof(prog[0]), "GPL", 0,
			       "bb_ref", NULL, NULL);

	ck_assert_msg(fd >= 0, "a program calling bpf_probe_read: %s",
		      strerror(-fd));
	x = xlated(fd, &n);
	for (i = 0; i < n; i++)
		if (x[i].code == BPF_CALL_CODE)
			imm = x[i].imm;
	free(x);
	close(fd);
	return imm;
}

/* Calls of helper `imm` in program `name` of t's object. */
static int calls_of(struct tool_ctx *t, const char *name, int32_t imm)
{
	const struct bb_prog *p = obj_prog(t->obj, name);
	struct bpf_insn *x;
	size_t n, i;
	int c = 0;

	ck_assert_msg(p && p->fd >= 0, "no program %s", name);
	x = xlated(p->fd, &n);
	for (i = 0; i < n; i++)
		c += x[i].code == BPF_CALL_CODE && x[i].imm == imm;
	free(x);
	return c;
}

/* Is field of block/event where a program reads it from ctx? */
static int tp_at(const char *event, const char *field, int off, int size)
{
	struct bb_tp_field f;
	char tfs[256];

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), NULL), 0);
	ck_assert_int_eq(tp_field(tfs, "block", event, field, &f, NULL), 0);
	return f.offset == off && f.size == size;
}

static void assert_prealloc(struct tool_ctx *t, const char *map)
{
	struct bb_map *m = obj_map(t->obj, map);
	struct bb_map_info info;

	ck_assert_msg(m && m->fd >= 0, "no map %s", map);
	ck_assert_int_eq(bpf_map_get_info(m->fd, &info), 0);
	ck_assert_msg(!(info.map_flags & BPF_F_NO_PREALLOC),
		      "%s: map %s is not preallocated (flags 0x%x)",
		      t->name, map, info.map_flags);
	/* biolatency.bpf.c: 10,240 entries cost 45 % more per issue */
	ck_assert_uint_le(info.max_entries, 4096);
}

START_TEST(test_biolatency_start_cost)
{
	struct biolat_settings s = { 0 };
	struct tool_ctx t;
	int32_t pr;

	tool_init(&t, "biolatency");
	ck_assert_int_eq(biolat_start(&t, &s), 0);
	assert_prealloc(&t, "start");
	if (!tp_at("block_rq_issue", "dev", BIOLAT_TP_DEV, 4) ||
	    !tp_at("block_rq_issue", "sector", BIOLAT_TP_SECTOR, 8) ||
	    !tp_at("block_rq_complete", "dev", BIOLAT_TP_DEV, 4) ||
	    !tp_at("block_rq_complete", "sector", BIOLAT_TP_SECTOR, 8)) {
		tool_cleanup(&t);
		bbtest_skip("dev and sector are elsewhere on this kernel: "
			    "read with bpf_probe_read");
	}
	pr = probe_read_imm();
	if (!pr) {
		tool_cleanup(&t);
		bbtest_skip("this kernel hides helper addresses in xlated "
			    "programs (kptr_restrict)");
	}
	ck_assert_int_eq(calls_of(&t, "rq_issue", pr), 0);
	/* only rwbs, which -F and the exporter's operations need, is read
	 * with a call; without them the verifier left that branch out */
	ck_assert_int_eq(calls_of(&t, "rq_complete", pr), 0);
	tool_cleanup(&t);
}
END_TEST

static void no_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	(void)ctx, (void)cpu, (void)data, (void)size;
}

START_TEST(test_biosnoop_start_cost)
{
	struct biosnoop_settings s = { 0 };
	struct bb_perfbuf *pb = NULL;
	struct blkdisks disks = { 0 }; /* blkdisks_scan frees what it held */
	struct tool_ctx t;
	const char *ev[] = { "block_getrq", "block_bio_frontmerge",
			     "block_rq_issue", "block_rq_complete" };
	int32_t pr;
	int i, at = 1;

	ck_assert_int_ge(blkdisks_scan(&disks), 0); /* how many */
	tool_init(&t, "biosnoop");
	s.disks = &disks;
	s.pages = 8;
	s.on_event = no_event;
	ck_assert_int_eq(biosnoop_start(&t, &s, &pb), 0);
	assert_prealloc(&t, "start");
	for (i = 0; i < 4; i++)
		at = at && tp_at(ev[i], "dev", BIOSNOOP_TP_DEV, 4) &&
		     tp_at(ev[i], "sector", BIOSNOOP_TP_SECTOR, 8) &&
		     (i == 0 || i == 2 ||
		      tp_at(ev[i], "nr_sector", BIOSNOOP_TP_NR_SECTOR, 4));
	pr = at ? probe_read_imm() : 0;
	if (at && pr) {
		ck_assert_int_eq(calls_of(&t, "who_getrq", pr), 0);
		ck_assert_int_eq(calls_of(&t, "who_frontmerge", pr), 0);
		ck_assert_int_eq(calls_of(&t, "rq_issue", pr), 0);
		/* rwbs: at 32 or 34 as kernels go, a call */
		ck_assert_int_eq(calls_of(&t, "rq_complete", pr), 1);
	}
	perfbuf_close(pb);
	tool_cleanup(&t);
	blkdisks_free(&disks);
	if (!at)
		bbtest_skip("the fields are elsewhere on this kernel: read "
			    "with bpf_probe_read");
	if (!pr)
		bbtest_skip("this kernel hides helper addresses in xlated "
			    "programs (kptr_restrict)");
}
END_TEST

static Suite *progcost_suite(void)
{
	Suite *s = suite_create("progcost");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_biolatency_start_cost);
	tcase_add_test(tc, test_biosnoop_start_cost);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(progcost, progcost_suite, need_root_and_tools)
