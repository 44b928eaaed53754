/* SPDX-License-Identifier: MIT */
/*
 * Object parsing and relocation, without root: programs, maps, constants
 * and the instructions rewritten with fake map fds, checked against the
 * relocations libelf reports; every bad object refused with a message that
 * names the cause and the fix.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bbtest.h"
#include "obj_internal.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"

static unsigned char *load_file(const char *name, size_t *len)
{
	char path[256];
	unsigned char *buf;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), OBJDIR "%s", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	*len = st.st_size;
	buf = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static struct bb_obj *open_ok_len(const char *name, unsigned char **bufp,
				  size_t *lenp)
{
	struct bb_obj *obj = NULL;
	struct bb_err err = { "" };
	size_t len;

	*bufp = load_file(name, &len);
	if (lenp)
		*lenp = len;
	ck_assert_msg(obj_open(&obj, *bufp, len, name, &err) == 0, "%s: %s",
		      name, err.msg);
	ck_assert_ptr_nonnull(obj);
	return obj;
}

static struct bb_obj *open_ok(const char *name, unsigned char **bufp)
{
	return open_ok_len(name, bufp, NULL);
}

static void expect_open_error(const unsigned char *buf, size_t len,
			      const char *const *want)
{
	struct bb_obj *obj = (struct bb_obj *)1;
	struct bb_err err = { "" };
	int ret = obj_open(&obj, buf, len, "x.bpf.o", &err);

	ck_assert_msg(ret < 0, "obj_open succeeded, expected '%s'", want[0]);
	ck_assert_ptr_null(obj);
	ck_assert_msg(strstr(err.msg, "x.bpf.o"), "'%s' lacks the name",
		      err.msg);
	for (; *want; want++)
		ck_assert_msg(strstr(err.msg, *want), "'%s' lacks '%s'",
			      err.msg, *want);
}

/* What Linux 4.15 takes (nothing past it), and 6.x (everything). */
static const struct bb_kcaps caps_415 = { .probed = 1 };
static const struct bb_kcaps caps_new = {
	.probed = 1, .bpf_calls = 1, .jmp32 = 1, .big_progs = 1,
	.global_data = 1, .map_freeze = 1, .rdonly_prog = 1,
	.probe_read_kernel = 1, .syscall_wrapper = 1,
};

static void fake_fds(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = 100 + i;
}

static void unfake_fds(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = -1;
}

/* obj_relocate of buf on a kernel with caps: 0, or err has every want. */
static int relocate_buf(const unsigned char *buf, size_t len,
			const struct bb_kcaps *caps, const char *const *want,
			struct bb_obj **keep)
{
	struct bb_obj *obj = NULL;
	struct bb_err err = { "" };
	const struct bb_const *c;
	int ret, i, n;

	ck_assert_msg(obj_open(&obj, buf, len, "x.bpf.o", &err) == 0, "%s",
		      err.msg);
	n = obj_consts(obj, &c);
	for (i = 0; i < n; i++)
		obj_set_const(obj, c[i].name, 1);
	obj_set_kcaps(obj, caps);
	fake_fds(obj);
	ret = obj_relocate(obj, &err);
	if (want) {
		ck_assert_msg(ret < 0, "obj_relocate succeeded, expected '%s'",
			      want[0]);
		ck_assert_msg(strstr(err.msg, "x.bpf.o"), "'%s' lacks the name",
			      err.msg);
		for (; *want; want++)
			ck_assert_msg(strstr(err.msg, *want), "'%s' lacks '%s'",
				      err.msg, *want);
	} else {
		ck_assert_msg(ret == 0, "%s", err.msg);
	}
	if (keep) {
		*keep = obj;
	} else {
		unfake_fds(obj);
		obj_close(obj);
	}
	return ret;
}

static void expect_relocate_error(const char *file,
				  const struct bb_kcaps *caps,
				  const char *const *want)
{
	size_t len;
	unsigned char *buf = load_file(file, &len);

	relocate_buf(buf, len, caps, want, NULL);
	free(buf);
}

static void expect_file_error(const char *file, const char *const *want)
{
	size_t len;
	unsigned char *buf = load_file(file, &len);

	expect_open_error(buf, len, want);
	free(buf);
}

START_TEST(test_tracepoint_object)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("good_tp.bpf.o", &buf);
	const struct bb_const *c;
	struct bb_prog *p;
	struct bb_map *m;

	ck_assert_int_eq(obj_nprogs(obj), 1);
	p = obj_prog_at(obj, 0);
	ck_assert_str_eq(p->name, "tp_switch");
	ck_assert_str_eq(p->section, "tracepoint/sched/sched_switch");
	ck_assert_str_eq(p->target, "sched/sched_switch");
	ck_assert_int_eq(p->kind, BB_PROG_TRACEPOINT);
	ck_assert_uint_eq(p->prog_type, BPF_PROG_TYPE_TRACEPOINT);
	ck_assert_int_eq(p->fd, -1);
	ck_assert_uint_gt(p->insn_cnt, 10);
	ck_assert_ptr_eq(obj_prog(obj, "tp_switch"), p);
	ck_assert_ptr_eq(obj_prog(obj, "tracepoint/sched/sched_switch"), p);
	ck_assert_ptr_null(obj_prog(obj, "nope"));
	ck_assert_ptr_null(obj_prog_at(obj, 1));
	ck_assert_ptr_null(obj_prog_at(obj, -1));

	ck_assert_int_eq(obj_nmaps(obj), 3);
	m = obj_map(obj, "counts");
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->def.type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(m->def.key_size, 4);
	ck_assert_uint_eq(m->def.value_size, 8);
	ck_assert_uint_eq(m->def.max_entries, 1024);
	ck_assert_int_eq(m->fd, -1);
	m = obj_map(obj, "hist");
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->def.type, BPF_MAP_TYPE_ARRAY);
	ck_assert_uint_eq(m->def.max_entries, 64);
	m = obj_map(obj, "events");
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->def.type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	ck_assert_ptr_null(obj_map(obj, "nope"));
	ck_assert_ptr_null(obj_map_at(obj, 3));

	ck_assert_str_eq(obj_license(obj), "GPL");
	ck_assert_int_eq(obj_consts(obj, &c), 3);
	ck_assert_str_eq(c[0].name, "bb_tgid");
	ck_assert_str_eq(c[1].name, "bb_prev_pid_off");
	ck_assert_str_eq(c[2].name, "bb_step");
	ck_assert_int_eq(c[0].set, 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 7), 0);
	ck_assert_int_eq(c[2].set, 1);
	ck_assert_uint_eq(c[2].value, 7);
	ck_assert_int_eq(obj_set_const(obj, "bb_typo", 7), -ENOENT);
	ck_assert_str_eq(obj_verifier_log(obj), "");
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_kprobe_object)
{
	static const struct {
		const char *name, *section, *target;
		enum bb_prog_kind kind;
	} want[] = {
		{ "enter", "kprobe/blk_queue_enter", "blk_queue_enter",
		  BB_PROG_KPROBE },
		{ "enter_ret", "kretprobe/blk_queue_enter", "blk_queue_enter",
		  BB_PROG_KRETPROBE },
		{ "any_entry", "kprobe", "", BB_PROG_KPROBE },
		{ "any_return", "kretprobe", "", BB_PROG_KRETPROBE },
	};
	unsigned char *buf;
	struct bb_obj *obj = open_ok("good_kprobe.bpf.o", &buf);
	const struct bb_const *c;
	int i;

	ck_assert_int_eq(obj_nprogs(obj), 4);
	for (i = 0; i < 4; i++) {
		struct bb_prog *p = obj_prog(obj, want[i].name);

		ck_assert_msg(p != NULL, "no program %s", want[i].name);
		ck_assert_str_eq(p->section, want[i].section);
		ck_assert_str_eq(p->target, want[i].target);
		ck_assert_int_eq(p->kind, want[i].kind);
		ck_assert_uint_eq(p->prog_type, BPF_PROG_TYPE_KPROBE);
	}
	ck_assert_int_eq(obj_nmaps(obj), 2);
	ck_assert_uint_eq(obj_map(obj, "lat")->def.type,
			  BPF_MAP_TYPE_PERCPU_ARRAY);
	/* Two programs use bb_unit_ns: one constant. */
	ck_assert_int_eq(obj_consts(obj, &c), 1);
	ck_assert_str_eq(c[0].name, "bb_unit_ns");
	obj_close(obj);
	free(buf);
}
END_TEST

/*
 * Relocate with fake fds and check every relocated instruction against the
 * relocations libelf finds, and that nothing else changed.
 */
static void check_relocated(const char *file)
{
	unsigned char *buf, *copy;
	size_t len, shstrndx, nrel = 0;
	struct bb_obj *obj = open_ok_len(file, &buf, &len);
	const struct bb_const *c;
	struct bb_err err = { "" };
	int i, nconsts;
	Elf *e;
	Elf_Scn *scn = NULL;

	copy = malloc(len);
	memcpy(copy, buf, len);
	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = 100 + i;
	nconsts = obj_consts(obj, &c);
	for (i = 0; i < nconsts; i++)
		ck_assert_int_eq(obj_set_const(obj, c[i].name,
					       0x1122334455667700ULL + i),
				 0);
	ck_assert_msg(obj_relocate(obj, &err) == 0, "%s", err.msg);
	/* twice: relocation is idempotent */
	ck_assert_msg(obj_relocate(obj, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(memcmp(copy, buf, len), 0); /* input untouched */

	ck_assert_int_ne(elf_version(EV_CURRENT), EV_NONE);
	e = elf_memory((char *)buf, len);
	ck_assert_int_eq(elf_getshdrstrndx(e, &shstrndx), 0);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh, tsh, ssh;
		Elf_Scn *target, *symscn;
		Elf_Data *rd, *sd, *td;
		struct bb_prog *p;
		unsigned char *touched;
		size_t j;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_REL)
			continue;
		target = elf_getscn(e, sh.sh_info);
		gelf_getshdr(target, &tsh);
		p = obj_prog(obj, elf_strptr(e, shstrndx, tsh.sh_name));
		if (!p)
			continue;
		td = elf_getdata(target, NULL);
		ck_assert_uint_eq(td->d_size, p->insn_cnt * 8);
		touched = calloc(p->insn_cnt, 1);
		symscn = elf_getscn(e, sh.sh_link);
		gelf_getshdr(symscn, &ssh);
		sd = elf_getdata(symscn, NULL);
		rd = elf_getdata(scn, NULL);
		for (j = 0; j < sh.sh_size / sh.sh_entsize; j++) {
			GElf_Rel r;
			GElf_Sym s;
			const char *sym;
			struct bpf_insn *insn;
			struct bb_map *m;

			gelf_getrel(rd, j, &r);
			gelf_getsym(sd, GELF_R_SYM(r.r_info), &s);
			sym = elf_strptr(e, ssh.sh_link, s.st_name);
			insn = &p->insns[r.r_offset / 8];
			touched[r.r_offset / 8] = 1;
			touched[r.r_offset / 8 + 1] = 1;
			ck_assert_uint_eq(insn->code, 0x18);
			m = obj_map(obj, sym);
			if (m) {
				ck_assert_uint_eq(insn->src_reg, 1);
				ck_assert_int_eq(insn->imm, m->fd);
				ck_assert_int_ge(m->fd, 100);
				ck_assert_int_eq(insn[1].imm, 0);
			} else {
				uint64_t v = 0;
				int k;

				for (k = 0; k < nconsts; k++)
					if (!strcmp(c[k].name, sym))
						v = c[k].value;
				ck_assert_msg(v, "%s: no constant", sym);
				ck_assert_uint_eq(insn->src_reg, 0);
				ck_assert_uint_eq((uint32_t)insn->imm,
						  (uint32_t)v);
				ck_assert_uint_eq((uint32_t)insn[1].imm,
						  v >> 32);
			}
			ck_assert_uint_eq(insn[1].code, 0);
			nrel++;
		}
		for (j = 0; j < p->insn_cnt; j++)
			if (!touched[j])
				ck_assert_int_eq(memcmp(&p->insns[j],
						 (char *)td->d_buf + j * 8, 8),
						 0);
		free(touched);
	}
	ck_assert_uint_gt(nrel, 0);
	elf_end(e);
	obj_close(obj);
	free(copy);
	free(buf);
}

START_TEST(test_relocate_tracepoint)
{
	check_relocated("good_tp.bpf.o");
}
END_TEST

START_TEST(test_relocate_kprobe)
{
	check_relocated("good_kprobe.bpf.o");
}
END_TEST

START_TEST(test_relocate_values)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("good_kprobe.bpf.o", &buf);
	struct bb_err err = { "" };
	struct bb_prog *p = obj_prog(obj, "any_entry");
	size_t i;
	int seen_map = 0, seen_const = 0;

	obj_map(obj, "start")->fd = 7;
	obj_map(obj, "lat")->fd = 8;
	ck_assert_int_eq(obj_set_const(obj, "bb_unit_ns",
				       0xdeadbeef00000001ULL), 0);
	ck_assert_msg(obj_relocate(obj, &err) == 0, "%s", err.msg);
	for (i = 0; i + 1 < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if (in->code != 0x18)
			continue;
		if (in->src_reg == 1) {
			ck_assert_int_eq(in->imm, 7);
			seen_map++;
		} else {
			ck_assert_int_eq(in->imm, 1);
			ck_assert_uint_eq((uint32_t)in[1].imm, 0xdeadbeef);
			seen_const++;
		}
		i++;
	}
	ck_assert_int_eq(seen_map, 1);
	ck_assert_int_eq(seen_const, 1);
	obj_close(obj);
	free(buf);
}
END_TEST

/* obj_set_const_mov: a constant of 32 signed bits becomes r = imm and a
 * goto +0 (4.9's verifier knows its value); a larger one an ld_imm64, also
 * when relocated again (a copy) after a small one. */
static int count_const_forms(const struct bb_prog *p, int32_t *mov_imm,
			     int *ld)
{
	int movs = 0;
	size_t i;

	*ld = 0;
	for (i = 0; i + 1 < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if (in->code == 0x18 && in->src_reg != 1) {
			(*ld)++;
			i++;
		} else if (in->code == 0x18) {
			i++;
		} else if (in->code == 0xb7 && in[1].code == 0x05 &&
			   in[1].off == 0 && in[1].imm == 0) {
			*mov_imm = in->imm;
			movs++;
			i++;
		}
	}
	return movs;
}

START_TEST(test_relocate_const_mov)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("good_kprobe.bpf.o", &buf);
	struct bb_err err = { "" };
	struct bb_prog *p = obj_prog(obj, "any_entry");
	int32_t imm = 0;
	int ld;

	obj_map(obj, "start")->fd = 7;
	obj_map(obj, "lat")->fd = 8;
	obj_set_const_mov(obj);
	ck_assert_int_eq(obj_set_const(obj, "bb_unit_ns", (uint64_t)-5), 0);
	ck_assert_msg(obj_relocate(obj, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(count_const_forms(p, &imm, &ld), 1);
	ck_assert_int_eq(imm, -5);
	ck_assert_int_eq(ld, 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_unit_ns", 1ULL << 31), 0);
	ck_assert_msg(obj_relocate(obj, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(count_const_forms(p, &imm, &ld), 0);
	ck_assert_int_eq(ld, 1);
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_unset_constant)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("good_tp.bpf.o", &buf);
	struct bb_err err = { "" };
	int i;

	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = 100 + i;
	ck_assert_int_eq(obj_set_const(obj, "bb_tgid", 0), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 1), 0);
	ck_assert_int_eq(obj_relocate(obj, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "'bb_prev_pid_off'") &&
			      strstr(err.msg, "tracepoint/sched/sched_switch"),
		      "%s", err.msg);
	/* obj_load refuses before creating anything, so no root needed */
	for (i = 0; i < obj_nmaps(obj); i++)
		obj_map_at(obj, i)->fd = -1;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(obj_load(obj, 0, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "'bb_prev_pid_off'"), "%s", err.msg);
	ck_assert_int_eq(obj_map(obj, "counts")->fd, -1);
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_bad_global)
{
	static const char *const want[] = { "global data needs Linux 5.2",
		"'counter' in .bss", "BB_CONST", "stores or writes",
		"tracepoint/sched/sched_switch", NULL };
	unsigned char *buf;
	struct bb_obj *obj;
	struct bb_prog *p;
	const struct bb_map *bss;
	size_t len, i;
	int seen = 0;

	expect_relocate_error("bad_global.bpf.o", &caps_415, want);
	/* from 5.2: a map value, .bss being an array map */
	buf = load_file("bad_global.bpf.o", &len);
	relocate_buf(buf, len, &caps_new, NULL, &obj);
	bss = obj_map(obj, ".bss");
	ck_assert_ptr_nonnull(bss);
	ck_assert_uint_eq(bss->def.type, BPF_MAP_TYPE_ARRAY);
	ck_assert_uint_eq(bss->def.max_entries, 1);
	ck_assert_uint_ge(bss->def.value_size, 4);
	p = obj_prog_at(obj, 0);
	for (i = 0; i < p->insn_cnt; i++)
		if (p->insns[i].code == 0x18 && p->insns[i].src_reg == 2) {
			ck_assert_int_eq(p->insns[i].imm, bss->fd);
			seen++;
		}
	ck_assert_int_eq(seen, 1);
	unfake_fds(obj);
	obj_close(obj);
	free(buf);
}
END_TEST

/* bpf_probe_read_{kernel,user}[_str] (5.5) become bpf_probe_read[_str]
 * on a kernel without them, and stay as written on one with them. */
static void count_calls(const struct bb_kcaps *caps, const int *ids,
			int *counts, int n)
{
	unsigned char *buf;
	struct bb_obj *obj;
	struct bb_prog *p;
	size_t len, i;
	int k;

	buf = load_file("probe_read_new.bpf.o", &len);
	relocate_buf(buf, len, caps, NULL, &obj);
	p = obj_prog_at(obj, 0);
	memset(counts, 0, n * sizeof(*counts));
	for (i = 0; i < p->insn_cnt; i++)
		for (k = 0; k < n; k++)
			if (p->insns[i].code == 0x85 && !p->insns[i].src_reg &&
			    p->insns[i].imm == ids[k])
				counts[k]++;
	unfake_fds(obj);
	obj_close(obj);
	free(buf);
}

START_TEST(test_probe_read_rewrite)
{
	/* bpf_probe_read, _str, _user, _kernel, _user_str, _kernel_str */
	static const int ids[] = { 4, 45, 112, 113, 114, 115 };
	int c[6];

	count_calls(&caps_415, ids, c, 6);
	ck_assert_int_eq(c[0], 2);
	ck_assert_int_eq(c[1], 2);
	ck_assert_int_eq(c[2] + c[3] + c[4] + c[5], 0);
	count_calls(&caps_new, ids, c, 6);
	ck_assert_int_eq(c[0] + c[1], 0);
	ck_assert_int_eq(c[2], 1);
	ck_assert_int_eq(c[3], 1);
	ck_assert_int_eq(c[4], 1);
	ck_assert_int_eq(c[5], 1);
}
END_TEST

START_TEST(test_bad_rodata)
{
	static const char *const want[] = { "global data needs Linux 5.2",
		"'table' in .rodata", "computes with the address", NULL };

	expect_relocate_error("bad_rodata.bpf.o", &caps_415, want);
	expect_relocate_error("bad_rodata.bpf.o", &caps_new, NULL);
}
END_TEST

START_TEST(test_bad_call)
{
	static const char *const want[] = { "kprobe/vfs_read", "'scale'",
		"4.16", "static __always_inline", NULL };
	unsigned char *buf;
	struct bb_obj *obj;
	struct bb_prog *p;
	size_t len, i;
	int calls = 0;

	expect_relocate_error("bad_call.bpf.o", &caps_415, want);
	/* from 4.16: scale is appended to on_read and the call aims at it */
	buf = load_file("bad_call.bpf.o", &len);
	relocate_buf(buf, len, &caps_new, NULL, &obj);
	p = obj_prog(obj, "on_read");
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		size_t t;

		if (in->code != 0x85 || in->src_reg != 1)
			continue;
		calls++;
		t = i + 1 + in->imm;
		ck_assert_uint_lt(t, p->insn_cnt);
		/* scale: r0 = r1 * 3 + 1 ... exit, after on_read's exit */
		ck_assert_uint_eq(p->insns[t - 1].code, 0x95);
		ck_assert_uint_gt(t, i);
	}
	ck_assert_int_eq(calls, 1);
	ck_assert_uint_eq(p->insns[p->insn_cnt - 1].code, 0x95);
	unfake_fds(obj);
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_bad_twofn)
{
	static const char *const want[] = { "kprobe/vfs_write", "'twice'",
		"4.16", NULL };
	unsigned char *buf;
	struct bb_obj *obj;
	struct bb_err err;
	size_t len;

	/* two global functions in a section are two programs (libbpf) */
	buf = load_file("bad_twofn.bpf.o", &len);
	ck_assert_int_eq(obj_open(&obj, buf, len, "x.bpf.o", &err), 0);
	ck_assert_int_eq(obj_nprogs(obj), 2);
	ck_assert_str_eq(obj_prog(obj, "twice")->section, "kprobe/vfs_write");
	obj_close(obj);
	free(buf);
	expect_relocate_error("bad_twofn.bpf.o", &caps_415, want);
	expect_relocate_error("bad_twofn.bpf.o", &caps_new, NULL);
}
END_TEST

START_TEST(test_no_license)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("bad_nolicense.bpf.o", &buf);

	/* taken: the kernel loads non-GPL programs without GPL-only calls */
	ck_assert_str_eq(obj_license(obj), "");
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_bad_section)
{
	static const char *const want[] = { "section xdp is an XDP program",
		"barebpf run attaches kprobe, kretprobe, ksyscall, uprobe, "
		"tracepoint and perf_event programs", NULL };

	expect_file_error("bad_section.bpf.o", want);
}
END_TEST

START_TEST(test_bad_big)
{
	static const char *const want[] = { "kprobe/vfs_read", "4102",
		"4096", NULL };

	expect_relocate_error("bad_big.bpf.o", &caps_415, want);
	expect_relocate_error("bad_big.bpf.o", &caps_new, NULL);
}
END_TEST

/* A copy of good_tp.bpf.o and where its program and relocations are. */
struct patchable {
	unsigned char *buf;
	size_t len;
	unsigned char *insns; /* the program section's bytes in buf */
	size_t insn_cnt;
	unsigned char *rels; /* its relocation section's bytes in buf */
	size_t nrels;
};

static void patchable_open(struct patchable *pt)
{
	struct elf_file ef;
	struct bb_err err;
	size_t i;

	pt->buf = load_file("good_tp.bpf.o", &pt->len);
	ck_assert_int_eq(elf_open(&ef, pt->buf, pt->len, "t", &err), 0);
	for (i = 1; i < ef.nsecs; i++) {
		const struct elf_sec *s = &ef.secs[i];

		if (!strcmp(s->name, "tracepoint/sched/sched_switch")) {
			pt->insns = pt->buf + s->offset;
			pt->insn_cnt = s->size / 8;
		}
		if (s->type == SHT_REL &&
		    !strcmp(ef.secs[s->info].name,
			    "tracepoint/sched/sched_switch")) {
			pt->rels = pt->buf + s->offset;
			pt->nrels = elf_nrels(s);
		}
	}
	ck_assert_ptr_nonnull(pt->insns);
	ck_assert_ptr_nonnull(pt->rels);
	elf_close(&ef);
}

/* Index of the first instruction with this code, skipping ld_imm64 tails. */
static size_t find_code(const struct patchable *pt, uint8_t code)
{
	size_t i;

	for (i = 0; i < pt->insn_cnt; i++) {
		if (pt->insns[i * 8] == code)
			return i;
		if (pt->insns[i * 8] == 0x18)
			i++;
	}
	ck_abort_msg("no instruction with code 0x%02x", code);
	return 0;
}

static void set_rel_offset(struct patchable *pt, size_t i, uint64_t off)
{
	int k;

	for (k = 0; k < 8; k++)
		pt->rels[i * 16 + k] = off >> (8 * k);
}

START_TEST(test_bad_jmp32)
{
	static const char *const want[] = { "JMP32", "5.1", "-mcpu=v2",
		"tracepoint/sched/sched_switch", NULL };
	struct patchable pt;

	patchable_open(&pt);
	/* JMP | JEQ | K (0x15) -> JMP32 | JEQ | K (0x16) */
	pt.insns[find_code(&pt, 0x15) * 8] = 0x16;
	relocate_buf(pt.buf, pt.len, &caps_415, want, NULL);
	relocate_buf(pt.buf, pt.len, &caps_new, NULL, NULL);
	free(pt.buf);
}
END_TEST

START_TEST(test_bad_pseudo_call)
{
	static const char *const want[] = { "bpf-to-bpf", "4.16",
		"static __always_inline", NULL };
	static const char *const nofunc[] = { "where no function starts",
		NULL };
	struct patchable pt;

	patchable_open(&pt);
	/* a helper call (no relocation) turned into a BPF function call */
	pt.insns[find_code(&pt, 0x85) * 8 + 1] = 0x10;
	relocate_buf(pt.buf, pt.len, &caps_415, want, NULL);
	relocate_buf(pt.buf, pt.len, &caps_new, nofunc, NULL);
	free(pt.buf);
}
END_TEST

START_TEST(test_bad_reloc_offset)
{
	static const char *const past[] = { "offset 65536",
		"not an instruction", "bb_tgid", NULL };
	static const char *const odd[] = { "offset 52", "not an instruction",
		NULL };
	static const char *const huge[] = { "not an instruction", NULL };
	struct patchable pt;

	patchable_open(&pt);
	set_rel_offset(&pt, 0, 65536);
	expect_open_error(pt.buf, pt.len, past);
	set_rel_offset(&pt, 0, 52);
	expect_open_error(pt.buf, pt.len, odd);
	set_rel_offset(&pt, 0, UINT64_MAX - 7);
	expect_open_error(pt.buf, pt.len, huge);
	set_rel_offset(&pt, 0, pt.insn_cnt * 8);
	expect_open_error(pt.buf, pt.len, huge);
	free(pt.buf);
}
END_TEST

START_TEST(test_bad_reloc_insn)
{
	static const char *const want[] = { "code 0x85", "not ld_imm64",
		"tracepoint/sched/sched_switch", NULL };
	static const char *const tail[] = { "second half", NULL };
	struct patchable pt;
	size_t call;

	patchable_open(&pt);
	call = find_code(&pt, 0x85);
	set_rel_offset(&pt, 0, call * 8);
	expect_open_error(pt.buf, pt.len, want);
	/* an ld_imm64 as the last instruction has no second half */
	set_rel_offset(&pt, 0, (pt.insn_cnt - 1) * 8);
	pt.insns[(pt.insn_cnt - 1) * 8] = 0x18;
	expect_open_error(pt.buf, pt.len, tail);
	free(pt.buf);
}
END_TEST

START_TEST(test_bad_tracepoint_name)
{
	static const char *const want[] = { "tracepoint/<category>/<name>",
		NULL };
	struct patchable pt;
	unsigned char *p;

	patchable_open(&pt);
	/* tracepoint/sched/sched_switch -> tracepoint/sched_sched_switch */
	p = memmem(pt.buf, pt.len, "tracepoint/sched/", 17);
	ck_assert_ptr_nonnull(p);
	while ((p = memmem(pt.buf, pt.len, "tracepoint/sched/", 17)))
		p[16] = '_';
	expect_open_error(pt.buf, pt.len, want);
	free(pt.buf);
}
END_TEST

/* obj_open on damaged objects: an error or success, never a crash. */
START_TEST(test_obj_damaged)
{
	static const char *const files[] = { "good_tp.bpf.o",
		"good_kprobe.bpf.o" };
	size_t len, n, pos;
	unsigned char *orig = load_file(files[_i], &len);
	int ok = 0;

	for (n = 0; n <= len; n++) {
		unsigned char *b = malloc(n ? n : 1);
		struct bb_obj *obj;
		struct bb_err err;

		memcpy(b, orig, n);
		if (obj_open(&obj, b, n, "t.o", &err) == 0) {
			ok++;
			obj_close(obj);
		}
		free(b);
	}
	ck_assert_int_eq(ok, 1);
	for (pos = 0; pos < len; pos++) {
		static const unsigned char vals[] = { 0x00, 0x01, 0x7f, 0x80,
						      0xff };
		size_t k;

		for (k = 0; k < sizeof(vals); k++) {
			unsigned char *b = malloc(len);
			struct bb_obj *obj;
			struct bb_err err;

			memcpy(b, orig, len);
			b[pos] ^= vals[k] ? vals[k] : b[pos];
			if (obj_open(&obj, b, len, "t.o", &err) == 0) {
				struct bb_err rerr;
				int i;

				for (i = 0; i < obj_nmaps(obj); i++)
					obj_map_at(obj, i)->fd = 3;
				obj_relocate(obj, &rerr);
				obj_close(obj);
			}
			free(b);
		}
	}
	free(orig);
}
END_TEST

static Suite *obj_suite(void)
{
	Suite *s = suite_create("obj");
	TCase *tc = tcase_create("parse");
	TCase *bad = tcase_create("refuse");
	TCase *fz = tcase_create("damaged");

	tcase_add_test(tc, test_tracepoint_object);
	tcase_add_test(tc, test_kprobe_object);
	tcase_add_test(tc, test_relocate_tracepoint);
	tcase_add_test(tc, test_relocate_kprobe);
	tcase_add_test(tc, test_relocate_values);
	tcase_add_test(tc, test_relocate_const_mov);
	tcase_add_test(tc, test_unset_constant);
	suite_add_tcase(s, tc);
	tcase_add_test(bad, test_bad_global);
	tcase_add_test(bad, test_bad_rodata);
	tcase_add_test(bad, test_probe_read_rewrite);
	tcase_add_test(bad, test_bad_call);
	tcase_add_test(bad, test_bad_twofn);
	tcase_add_test(tc, test_no_license);
	tcase_add_test(bad, test_bad_section);
	tcase_add_test(bad, test_bad_big);
	tcase_add_test(bad, test_bad_jmp32);
	tcase_add_test(bad, test_bad_pseudo_call);
	tcase_add_test(bad, test_bad_reloc_offset);
	tcase_add_test(bad, test_bad_reloc_insn);
	tcase_add_test(bad, test_bad_tracepoint_name);
	suite_add_tcase(s, bad);
	tcase_set_timeout(fz, 120);
	tcase_add_loop_test(fz, test_obj_damaged, 0, 2);
	suite_add_tcase(s, fz);
	return s;
}

BBTEST_SUITE(obj, obj_suite, NULL)
