/* SPDX-License-Identifier: MIT */
/*
 * Objects of every producer, parsed without root: map definitions of
 * bpf_load (28 bytes), iproute2 (36), gobpf (maps/<name>), libbpf
 * (SEC(".maps") from BTF, cross-checked against the section libelf
 * finds); objects rewritten as clang 6/7 wrote them; syscall and
 * tail-call sections; the BTF reader on damaged input.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bbtest.h"
#include "obj_internal.h"
#include "../tools/oldform.h"

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
	buf = malloc(*len);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static struct bb_obj *open_ok(const char *name, unsigned char **buf)
{
	struct bb_err err = { "" };
	struct bb_obj *obj;
	size_t len;

	*buf = load_file(name, &len);
	ck_assert_msg(obj_open(&obj, *buf, len, name, &err) == 0, "%s: %s",
		      name, err.msg);
	return obj;
}

static void check_def(const struct bb_map *m, uint32_t type, uint32_t k,
		      uint32_t v, uint32_t max)
{
	ck_assert_msg(m != NULL, "no such map");
	ck_assert_uint_eq(m->def.type, type);
	ck_assert_uint_eq(m->def.key_size, k);
	ck_assert_uint_eq(m->def.value_size, v);
	ck_assert_uint_eq(m->def.max_entries, max);
}

START_TEST(test_bpfload_layout)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("maps_bpfload.bpf.o", &buf);
	struct bb_map *outer = obj_map(obj, "outer");

	ck_assert_int_eq(obj_nmaps(obj), 4);
	check_def(obj_map(obj, "inner"), BPF_MAP_TYPE_ARRAY, 4, 8, 4);
	check_def(outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2);
	/* inner_map_idx 0: the first map by offset */
	ck_assert_ptr_eq(obj_map_at(obj, outer->inner), obj_map(obj, "inner"));
	check_def(obj_map(obj, "counts"), BPF_MAP_TYPE_HASH, 4, 8, 64);
	/* kprobe/1: slot 1 of the program array, not a function */
	ck_assert_int_eq(obj_prog(obj, "slot_one")->tail_slot, 1);
	ck_assert_str_eq(obj_prog(obj, "slot_one")->target, "");
	ck_assert_int_eq(obj_prog(obj, "on_read")->tail_slot, -1);
	ck_assert(obj_map(obj, "progs")->usage & BB_MAP_USE_TAILCALL);
	obj_close(obj);
	free(buf);
}
END_TEST

/* samples/bpf's maps of maps: value_size 0 in the object, 4 as bpf_load
 * made it; the inner map by inner_map_idx. */
START_TEST(test_bpfload_map_in_map)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("maps_bpfload_inmap.bpf.o", &buf);

	check_def(obj_map(obj, "a_of_port_a"), BPF_MAP_TYPE_ARRAY_OF_MAPS, 4,
		  4, 2);
	check_def(obj_map(obj, "h_of_port_a"), BPF_MAP_TYPE_HASH_OF_MAPS, 4,
		  4, 2);
	ck_assert_ptr_eq(obj_map_at(obj, obj_map(obj, "a_of_port_a")->inner),
			 obj_map(obj, "port_a"));
	ck_assert_ptr_eq(obj_map_at(obj, obj_map(obj, "h_of_port_a")->inner),
			 obj_map(obj, "port_a"));
	ck_assert_ptr_nonnull(strstr(obj_maps_layout(obj), "bpf_load"));
	obj_close(obj);
	free(buf);
}
END_TEST

/* iproute2's 28-byte bpf_elf_map (before 4.13): its 7th field is
 * pinning, not bpf_load's numa_node. */
START_TEST(test_iproute2_old_layout)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("maps_iproute2_old.bpf.o", &buf);
	struct bb_map *m = obj_map(obj, "bbtest_old_counts");

	check_def(m, BPF_MAP_TYPE_HASH, 4, 8, 1024);
	ck_assert_str_eq(m->pin, "/sys/fs/bpf/tc/globals/bbtest_old_counts");
	ck_assert_uint_eq(m->numa_node, 0);
	ck_assert_str_eq(obj_map(obj, "scratch")->pin, "");
	ck_assert_ptr_nonnull(strstr(obj_maps_layout(obj), "iproute2"));
	obj_close(obj);
	free(buf);

	/* bpf_load's own stay bpf_load's, with nothing pinned */
	obj = open_ok("maps_bpfload.bpf.o", &buf);
	ck_assert_ptr_nonnull(strstr(obj_maps_layout(obj), "bpf_load"));
	ck_assert_str_eq(obj_map(obj, "counts")->pin, "");
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_iproute2_layout)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("maps_iproute2.bpf.o", &buf);

	ck_assert_int_eq(obj_nmaps(obj), 3);
	check_def(obj_map(obj, "bbtest_shared"), BPF_MAP_TYPE_HASH, 4, 8, 16);
	ck_assert_str_eq(obj_map(obj, "bbtest_shared")->pin,
			 "/sys/fs/bpf/tc/globals/bbtest_shared");
	ck_assert_str_eq(obj_map(obj, "inner")->pin, "");
	/* inner_id 7 = inner's id */
	ck_assert_ptr_eq(obj_map_at(obj, obj_map(obj, "outer")->inner),
			 obj_map(obj, "inner"));
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_gobpf_layout)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("maps_gobpf.bpf.o", &buf);
	struct bb_map *m = obj_map(obj, "gcounts");

	ck_assert_int_eq(obj_nmaps(obj), 1);
	check_def(m, BPF_MAP_TYPE_HASH, 4, 8, 16);
	ck_assert_int_eq(m->origin, BB_MAP_SECTION);
	obj_close(obj);
	free(buf);
}
END_TEST

/* Overwrite every copy of the string `from` in buf with `to` (no longer). */
static int patch_str(unsigned char *buf, size_t len, const char *from,
		     const char *to)
{
	size_t n = strlen(from) + 1, i;
	int hits = 0;

	ck_assert_uint_le(strlen(to), strlen(from));
	for (i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, from, n)) {
			memset(buf + i, 0, n);
			memcpy(buf + i, to, strlen(to));
			hits++;
		}
	return hits;
}

/* Find the n-word little-endian pattern in buf: its offset, or -1. */
static long find_words(const unsigned char *buf, size_t len,
		       const uint32_t *w, size_t n)
{
	size_t i;

	for (i = 0; i + 4 * n <= len; i += 4)
		if (!memcmp(buf + i, w, 4 * n))
			return (long)i;
	return -1;
}

static void expect_open_error(unsigned char *buf, size_t len,
			      const char *const *want)
{
	struct bb_err err = { "" };
	struct bb_obj *obj = NULL;
	int i;

	ck_assert_int_lt(obj_open(&obj, buf, len, "x.bpf.o", &err), 0);
	ck_assert_ptr_null(obj);
	for (i = 0; want[i]; i++)
		ck_assert_msg(strstr(err.msg, want[i]), "'%s' lacks '%s'",
			      err.msg, want[i]);
}

/* iproute2's PIN_OBJECT_NS (1) and an unknown pinning: refused, named */
START_TEST(test_iproute2_pin_refused)
{
	static const uint32_t def[] = { BPF_MAP_TYPE_HASH, 4, 8, 16, 0, 0, 2 };
	static const char *const obj_ns[] = {
		"x.bpf.o: map bbtest_shared asks for pinning 1 (iproute2's "
		"bpf_elf_map)", "set that or PIN_NONE (0)",
		"PIN_OBJECT_NS needs iproute2's hash of the object", NULL };
	static const char *const other[] = {
		"map bbtest_shared asks for pinning 9", NULL };
	unsigned char *buf;
	size_t len;
	long off;

	buf = load_file("maps_iproute2.bpf.o", &len);
	off = find_words(buf, len, def, 7);
	ck_assert_int_ge(off, 0);
	buf[off + 24] = 1;
	expect_open_error(buf, len, obj_ns);
	buf[off + 24] = 9;
	expect_open_error(buf, len, other);
	free(buf);
}
END_TEST

/* gobpf's PIN_CUSTOM_NS (3): pinned under /sys/fs/bpf/<namespace>/;
 * a namespace that would leave bpffs is refused */
START_TEST(test_gobpf_custom_ns)
{
	static const uint32_t def[] = { BPF_MAP_TYPE_HASH, 4, 8, 16, 0, 0 };
	static const char *const dotdot[] = {
		"map gcounts asks for pinning 3 (gobpf's bpf_map_def)", NULL };
	struct bb_err err = { "" };
	struct bb_obj *obj;
	unsigned char *buf;
	size_t len;
	long off;

	buf = load_file("maps_gobpf.bpf.o", &len);
	off = find_words(buf, len, def, 6);
	ck_assert_int_ge(off, 0);
	buf[off + 20] = 3;
	memcpy(buf + off + 24, "myns", 5);
	ck_assert_msg(obj_open(&obj, buf, len, "x.bpf.o", &err) == 0, "%s",
		      err.msg);
	ck_assert_str_eq(obj_map(obj, "gcounts")->pin,
			 "/sys/fs/bpf/myns/gcounts");
	obj_close(obj);
	memcpy(buf + off + 24, "..", 3);
	expect_open_error(buf, len, dotdot);
	memcpy(buf + off + 24, "a/b", 4);
	expect_open_error(buf, len, dotdot);
	free(buf);
}
END_TEST

/* Sections of kinds run does not run: the kind named, what run attaches */
static const struct {
	const char *section, *kind;
} other_kinds[] = {
	{ "socket", "a socket filter" },
	{ "socket/1", "a socket filter" },
	{ "uprobe.multi/bin:f*", "a multi-uprobe (6.6)" },
	{ "uretprobe.s/bin:func", "a uretprobe" },
	{ "usdt/bin:prov:name", "a USDT" },
	{ "cgroup/skb", "a cgroup" },
	{ "cgroup_skb/ingress", "a cgroup" },
	{ "perf_event/cycles", "a perf event" }, /* perf_event has no target */
	{ "xdp", "an XDP" },
	{ "classifier", "a tc classifier" },
	{ "raw_tracepoint/sched_switch", "a raw tracepoint" },
	{ "fentry/vfs_read", "an fentry" },
	{ "lsm/file_open", "an LSM" },
};

START_TEST(test_other_kinds)
{
	char kind[96];
	const char *want[3] = { kind,
		"barebpf run attaches kprobe, kretprobe, ksyscall, uprobe, "
		"tracepoint and perf_event programs", NULL };
	unsigned char *buf;
	size_t len;

	buf = load_file("bad_kind.bpf.o", &len);
	ck_assert_int_ge(patch_str(buf, len,
				   "zz_placeholder_section_name_for_the_kind_tests",
				   other_kinds[_i].section), 1);
	snprintf(kind, sizeof(kind), "x.bpf.o: section %s is %s program",
		 other_kinds[_i].section, other_kinds[_i].kind);
	expect_open_error(buf, len, want);
	free(buf);
}
END_TEST

/* A perf event array read with bpf_perf_event_read is a counter array,
 * one written with bpf_perf_event_output an output ring */
/* bb_perf_event (the embedded profile's own section) and perf_event
 * (libbpf's and samples/bpf's): a perf_event program without a target
 * (profile and run attach it to sampling events); with a target
 * bb_perf_event is no program section (perf_event/x: test_other_kinds). */
START_TEST(test_bb_perf_event)
{
	static const char *const bad[] = {
		"section bb_perf_event/x holds code", NULL };
	static const char *const names[] = { "bb_perf_event", "perf_event" };
	struct bb_err err = { "" };
	struct bb_obj *obj = NULL;
	struct bb_prog *p;
	unsigned char *buf;
	size_t len, i;

	for (i = 0; i < 2; i++) {
		buf = load_file("bad_kind.bpf.o", &len);
		ck_assert_int_ge(patch_str(buf, len, "zz_placeholder_section_"
					   "name_for_the_kind_tests",
					   names[i]), 1);
		ck_assert_msg(obj_open(&obj, buf, len, "x.bpf.o", &err) == 0,
			      "%s: %s", names[i], err.msg);
		ck_assert_int_eq(obj_nprogs(obj), 1);
		p = obj_prog_at(obj, 0);
		ck_assert_int_eq(p->kind, BB_PROG_PERF_EVENT);
		ck_assert_uint_eq(p->prog_type, BPF_PROG_TYPE_PERF_EVENT);
		ck_assert_str_eq(p->target, "");
		obj_close(obj);
		free(buf);
	}
	buf = load_file("bad_kind.bpf.o", &len);
	ck_assert_int_ge(patch_str(buf, len,
				   "zz_placeholder_section_name_for_the_kind_tests",
				   "bb_perf_event/x"), 1);
	expect_open_error(buf, len, bad);
	free(buf);
}
END_TEST

START_TEST(test_counter_array_usage)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("counters.bpf.o", &buf);

	ck_assert_uint_eq(obj_map(obj, "counters")->usage &
				  (BB_MAP_USE_COUNTERS | BB_MAP_USE_OUTPUT),
			  BB_MAP_USE_COUNTERS);
	ck_assert_uint_eq(obj_map(obj, "events")->usage &
				  (BB_MAP_USE_COUNTERS | BB_MAP_USE_OUTPUT),
			  BB_MAP_USE_OUTPUT);
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_btf_layout)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("btf_maps.bpf.o", &buf);
	struct bb_map *outer = obj_map(obj, "outer");
	const struct bb_btf *b = obj_btf(obj);
	struct btf_t t;

	ck_assert_ptr_nonnull(b);
	check_def(obj_map(obj, "counts"), BPF_MAP_TYPE_HASH, 8, 8, 128);
	check_def(obj_map(obj, "percpu"), BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1);
	check_def(obj_map(obj, "inner0"), BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	check_def(outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2);
	ck_assert_uint_eq(outer->inner_def.type, BPF_MAP_TYPE_ARRAY);
	ck_assert_uint_eq(outer->inner_def.value_size, 8);
	check_def(obj_map(obj, "stacks"), BPF_MAP_TYPE_STACK_TRACE, 4,
		  127 * 8, 64);
	ck_assert(obj_map(obj, "stacks")->usage & BB_MAP_USE_KSTACK);
	ck_assert_str_eq(obj_map(obj, "bbtest_btfpin")->pin,
			 "/sys/fs/bpf/bbtest_btfpin");
	/* the key's BTF type is struct key_t */
	ck_assert_int_eq(btf_skip_mods(b, obj_map(obj, "counts")->btf_key, &t),
			 0);
	ck_assert_int_eq(t.kind, BTF_KIND_STRUCT);
	ck_assert_str_eq(t.name, "key_t");
	obj_close(obj);
	free(buf);
}
END_TEST

/* The .BTF section our reader takes is the one libelf finds. */
START_TEST(test_btf_libelf)
{
	size_t len, shstrndx;
	unsigned char *buf = load_file("btf_maps.bpf.o", &len);
	struct bb_btf b;
	struct bb_err err;
	Elf *e;
	Elf_Scn *scn = NULL;
	int found = 0;

	ck_assert_int_ne(elf_version(EV_CURRENT), EV_NONE);
	e = elf_memory((char *)buf, len);
	ck_assert_int_eq(elf_getshdrstrndx(e, &shstrndx), 0);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		uint32_t id, n = 0;
		struct btf_t t;

		gelf_getshdr(scn, &sh);
		if (strcmp(elf_strptr(e, shstrndx, sh.sh_name), ".BTF"))
			continue;
		ck_assert_int_eq(btf_open(&b, buf + sh.sh_offset, sh.sh_size,
					  "t", &err), 0);
		for (id = 1; id <= b.ntypes; id++)
			n += btf_type(&b, id, &t) == 0;
		ck_assert_uint_eq(n, b.ntypes);
		ck_assert_uint_gt(b.ntypes, 10);
		ck_assert_int_eq(btf_find_datasec(&b, ".maps", &t), 0);
		ck_assert_uint_eq(t.vlen, 7);
		ck_assert_int_eq(btf_type(&b, b.ntypes + 1, &t), -ENOENT);
		btf_close(&b);
		found = 1;
	}
	ck_assert_int_eq(found, 1);
	elf_end(e);
	free(buf);
}
END_TEST

/* Every truncation and many byte flips of .BTF: an error or success,
 * never a crash (run under the sanitizers by make fuzz, FUZZ=btf). */
START_TEST(test_btf_damaged)
{
	size_t len;
	unsigned char *buf = load_file("btf_maps.bpf.o", &len);
	struct elf_file ef;
	struct bb_err err;
	const struct elf_sec *s;
	size_t n, pos;
	int i;

	ck_assert_int_eq(elf_open(&ef, buf, len, "t", &err), 0);
	i = elf_find_sec(&ef, ".BTF");
	ck_assert_int_gt(i, 0);
	s = &ef.secs[i];
	for (n = 0; n <= s->size; n++) {
		unsigned char *c = malloc(n ? n : 1);
		struct bb_btf b;

		memcpy(c, s->data, n);
		if (btf_open(&b, c, n, "t", &err) == 0) {
			struct btf_t t;
			uint32_t id, sz;

			for (id = 0; id <= b.ntypes + 1; id++)
				btf_size(&b, id, &sz);
			btf_find_datasec(&b, ".maps", &t);
			btf_close(&b);
		}
		free(c);
	}
	for (pos = 0; pos < s->size; pos++) {
		unsigned char *c = malloc(s->size);
		struct bb_btf b;

		memcpy(c, s->data, s->size);
		c[pos] ^= 0xff;
		if (btf_open(&b, c, s->size, "t", &err) == 0) {
			uint32_t id, sz;

			for (id = 0; id <= b.ntypes + 1; id++)
				btf_size(&b, id, &sz);
			btf_close(&b);
		}
		free(c);
	}
	/* and through obj_open, which reads .maps from it */
	for (pos = s->offset; pos < s->offset + s->size; pos += 3) {
		unsigned char *c = malloc(len);
		struct bb_obj *obj;

		memcpy(c, buf, len);
		c[pos] ^= 0x5a;
		if (obj_open(&obj, c, len, "t", &err) == 0)
			obj_close(obj);
		free(c);
	}
	elf_close(&ef);
	free(buf);
}
END_TEST

/* clang 6/7: NOTYPE size-0 function symbols, e_machine 0. */
START_TEST(test_old_compiler)
{
	static const char *const files[] = { "good_kprobe.bpf.o",
		"calls.bpf.o", "maps_bpfload.bpf.o" };
	size_t len, i;
	unsigned char *buf = load_file(files[_i], &len);
	unsigned char *old = malloc(len);
	struct bb_obj *a, *b;
	struct bb_err err = { "" };
	int n;

	memcpy(old, buf, len);
	ck_assert_int_gt(oldform_rewrite(old, len, 1), 0);
	ck_assert_int_eq(obj_open(&a, buf, len, "new.o", &err), 0);
	ck_assert_msg(obj_open(&b, old, len, "old.o", &err) == 0, "%s",
		      err.msg);
	n = obj_nprogs(a);
	ck_assert_int_eq(obj_nprogs(b), n);
	for (i = 0; i < (size_t)n; i++) {
		struct bb_prog *p = obj_prog_at(a, i);
		struct bb_prog *q = obj_prog(b, p->name);

		ck_assert_msg(q != NULL, "no %s in the old form", p->name);
		ck_assert_str_eq(q->section, p->section);
		/* each program runs to the next symbol or the section end */
		ck_assert_uint_eq(q->insn_cnt, p->insn_cnt);
		ck_assert_int_eq(memcmp(q->insns, p->insns,
					p->insn_cnt * 8), 0);
	}
	obj_close(a);
	obj_close(b);
	free(old);
	free(buf);
}
END_TEST

START_TEST(test_em_none_not_bpf)
{
	size_t len, i;
	unsigned char *buf = load_file("good_kprobe.bpf.o", &len);
	struct elf_file ef;
	struct bb_obj *obj = (struct bb_obj *)1;
	struct bb_err err = { "" };

	ck_assert_int_ge(oldform_rewrite(buf, len, 1), 0);
	ck_assert_int_eq(elf_open(&ef, buf, len, "t", &err), 0);
	for (i = 1; i < ef.nsecs; i++)
		if (ef.secs[i].flags & SHF_EXECINSTR && ef.secs[i].size) {
			buf[ef.secs[i].offset] = 0xff; /* no such opcode */
			break;
		}
	elf_close(&ef);
	ck_assert_int_lt(obj_open(&obj, buf, len, "x.o", &err), 0);
	ck_assert_msg(strstr(err.msg, "ELF machine 0") &&
		      strstr(err.msg, "not BPF"), "%s", err.msg);
	free(buf);
}
END_TEST

START_TEST(test_syscall_sections)
{
	unsigned char *buf;
	struct bb_obj *obj = open_ok("syscalls.bpf.o", &buf);
	struct bb_prog *p;

	p = obj_prog(obj, "old_spelling");
	ck_assert_int_eq(p->kind, BB_PROG_KPROBE);
	ck_assert_int_eq(p->syscall, BB_SYSCALL_OLD);
	ck_assert_str_eq(p->target, "sys_kill");
	p = obj_prog(obj, "new_spelling");
	ck_assert_int_eq(p->kind, BB_PROG_KPROBE);
	ck_assert_int_eq(p->syscall, BB_SYSCALL_NEW);
	ck_assert_str_eq(p->target, "kill");
	p = obj_prog(obj, "ret_spelling");
	ck_assert_int_eq(p->kind, BB_PROG_KRETPROBE);
	ck_assert_int_eq(p->syscall, BB_SYSCALL_NEW);
	obj_close(obj);
	free(buf);
}
END_TEST

/* libbpf's uprobe/PATH:FUNC sections: run attaches them */
START_TEST(test_uprobe_sections)
{
	static const struct {
		const char *section, *target;
		enum bb_prog_kind kind;
	} cases[] = {
		{ "uprobe//bin/true:main", "/bin/true:main", BB_PROG_UPROBE },
		{ "uretprobe/libc.so.6:malloc", "libc.so.6:malloc",
		  BB_PROG_URETPROBE },
		{ "uprobe//bin/x:f+0x10", "/bin/x:f+0x10", BB_PROG_UPROBE },
	};
	struct bb_err err = { "" };
	struct bb_obj *obj;
	unsigned char *buf;
	size_t len, i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf = load_file("bad_kind.bpf.o", &len);
		ck_assert_int_ge(patch_str(buf, len, "zz_placeholder_section_"
					   "name_for_the_kind_tests",
					   cases[i].section), 1);
		ck_assert_msg(obj_open(&obj, buf, len, "x.o", &err) == 0,
			      "%s: %s", cases[i].section, err.msg);
		ck_assert_int_eq(obj_prog_at(obj, 0)->kind, cases[i].kind);
		ck_assert_str_eq(obj_prog_at(obj, 0)->target, cases[i].target);
		obj_close(obj);
		free(buf);
	}
	/* no file:function */
	buf = load_file("bad_kind.bpf.o", &len);
	patch_str(buf, len, "zz_placeholder_section_name_for_the_kind_tests",
		  "uprobe/main");
	ck_assert_int_lt(obj_open(&obj, buf, len, "x.o", &err), 0);
	ck_assert_msg(strstr(err.msg, "uprobe/<path>:<function>"), "%s",
		      err.msg);
	free(buf);
}
END_TEST

static Suite *objkinds_suite(void)
{
	Suite *s = suite_create("objkinds");
	TCase *tc = tcase_create("parse");
	TCase *fz = tcase_create("damaged");

	tcase_add_test(tc, test_bpfload_layout);
	tcase_add_test(tc, test_uprobe_sections);
	tcase_add_test(tc, test_iproute2_layout);
	tcase_add_test(tc, test_bpfload_map_in_map);
	tcase_add_test(tc, test_iproute2_old_layout);
	tcase_add_test(tc, test_gobpf_layout);
	tcase_add_test(tc, test_iproute2_pin_refused);
	tcase_add_test(tc, test_counter_array_usage);
	tcase_add_test(tc, test_gobpf_custom_ns);
	tcase_add_test(tc, test_bb_perf_event);
	tcase_add_loop_test(tc, test_other_kinds, 0,
			    sizeof(other_kinds) / sizeof(other_kinds[0]));
	tcase_add_test(tc, test_btf_layout);
	tcase_add_test(tc, test_btf_libelf);
	tcase_add_loop_test(tc, test_old_compiler, 0, 3);
	tcase_add_test(tc, test_em_none_not_bpf);
	tcase_add_test(tc, test_syscall_sections);
	suite_add_tcase(s, tc);
	tcase_set_timeout(fz, 120);
	tcase_add_test(fz, test_btf_damaged);
	suite_add_tcase(s, fz);
	return s;
}

BBTEST_SUITE(objkinds, objkinds_suite, NULL)
