/* SPDX-License-Identifier: MIT */
/*
 * Objects of every producer on this kernel, whose verifier is the judge:
 * each is loaded, its sched_switch program attached while this process
 * sleeps 30 times, and its maps must hold what that workload makes
 * (counts of our own context switches: at least 30). Global data is
 * loaded both as this kernel takes it (maps) and as 4.15 would need it
 * (inlined immediates): the same counts either way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "obj.h"
#include "probe.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"
#define SLEEPS 30

static const char *objects_requires(void)
{
	int fd;

	if (geteuid() != 0)
		return "needs root (bpf() program loads)";
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "probe");
	if (fd < 0)
		return "bpf() unavailable";
	close(fd);
	if (access("/sys/kernel/tracing/events/sched/sched_switch", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/sched/sched_switch",
		   F_OK))
		return "no sched:sched_switch tracepoint in tracefs";
	return NULL;
}

static unsigned char *read_obj(const char *name, size_t *len)
{
	char path[256];
	unsigned char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), OBJDIR "%s", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	ck_assert_int_eq(fread(buf, 1, n, f), n);
	fclose(f);
	*len = n;
	return buf;
}

struct loaded {
	unsigned char *buf;
	struct bb_obj *obj;
	struct bb_err err;
	int ret;
};

/* Open, set consts (our tgid), optionally force capabilities, load. */
static void load(struct loaded *l, const char *file, const char *tgid_const,
		 const struct bb_kcaps *caps)
{
	size_t len;

	memset(&l->err, 0, sizeof(l->err));
	l->buf = read_obj(file, &len);
	ck_assert_msg(obj_open(&l->obj, l->buf, len, file, &l->err) == 0,
		      "%s", l->err.msg);
	if (tgid_const)
		ck_assert_int_eq(obj_set_const(l->obj, tgid_const, getpid()),
				 0);
	if (caps)
		obj_set_kcaps(l->obj, caps);
	bb_raise_memlock(NULL);
	l->ret = obj_load(l->obj, 0, &l->err);
}

/* Attach every program (all on sched_switch) and sleep SLEEPS times. */
static void run_workload(struct loaded *l)
{
	struct bb_session s;
	struct bb_err err = { "" };
	int i;

	ck_assert_msg(l->ret == 0, "%s\n%s", l->err.msg,
		      obj_verifier_log(l->obj));
	session_init(&s);
	for (i = 0; i < obj_nprogs(l->obj); i++) {
		struct bb_prog *p = obj_prog_at(l->obj, i);

		if (p->tail_slot >= 0 || p->kind != BB_PROG_TRACEPOINT)
			continue;
		ck_assert_msg(session_attach(&s, p, NULL, 0, &err) == 0, "%s",
			      err.msg);
	}
	for (i = 0; i < SLEEPS; i++)
		usleep(2000);
	session_detach_all(&s);
}

static void unload(struct loaded *l)
{
	obj_close(l->obj);
	free(l->buf);
}

static uint64_t u64_at(struct bb_obj *obj, const char *map, const void *key)
{
	uint64_t v = 0;
	struct bb_map *m = obj_map(obj, map);

	ck_assert_msg(m != NULL, "no map %s", map);
	ck_assert_msg(bpf_map_lookup_elem(m->fd, key, &v) == 0,
		      "map %s: no such key", map);
	return v;
}

START_TEST(test_gobpf_maps)
{
	struct loaded l;
	uint32_t pid = getpid();

	load(&l, "maps_gobpf.bpf.o", "bb_tgid", NULL);
	run_workload(&l);
	ck_assert_uint_ge(u64_at(l.obj, "gcounts", &pid), SLEEPS);
	unload(&l);
}
END_TEST

#define SHARED_PIN "/sys/fs/bpf/tc/globals/bbtest_shared"

START_TEST(test_iproute2_maps)
{
	struct loaded l;
	uint32_t pid = getpid(), zero = 0;
	uint64_t first;
	static const char *const want[] = { "bbtest_shared", SHARED_PIN,
		"type 2, key 4, value 8", "type 1, key 4, value 8", "rm ",
		NULL };
	const char *const *w;
	int fd;

	unlink(SHARED_PIN);
	load(&l, "maps_iproute2.bpf.o", "bb_tgid", NULL);
	run_workload(&l);
	first = u64_at(l.obj, "bbtest_shared", &pid);
	ck_assert_uint_ge(first, SLEEPS);
	/* slot 1 of the map of maps is `inner` (id 7, inner_idx 1) */
	ck_assert_uint_ge(u64_at(l.obj, "inner", &zero), SLEEPS);
	ck_assert_int_eq(access(SHARED_PIN, F_OK), 0);
	unload(&l);

	/* pinned: a second load reuses it, and the count goes on */
	load(&l, "maps_iproute2.bpf.o", "bb_tgid", NULL);
	ck_assert_int_eq(obj_map(l.obj, "bbtest_shared")->pin_reused, 1);
	run_workload(&l);
	ck_assert_uint_ge(u64_at(l.obj, "bbtest_shared", &pid),
			  first + SLEEPS);
	unload(&l);

	/* another map pinned there: refused, both definitions named */
	unlink(SHARED_PIN);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 16, 0, "other");
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bpf_obj_pin(fd, SHARED_PIN), 0);
	close(fd);
	load(&l, "maps_iproute2.bpf.o", "bb_tgid", NULL);
	ck_assert_int_eq(l.ret, -EEXIST);
	for (w = want; *w; w++)
		ck_assert_msg(strstr(l.err.msg, *w), "'%s' lacks '%s'",
			      l.err.msg, *w);
	unload(&l);
	unlink(SHARED_PIN);
	rmdir("/sys/fs/bpf/tc/globals");
	rmdir("/sys/fs/bpf/tc");
}
END_TEST

START_TEST(test_bpfload_maps)
{
	struct loaded l;

	/* kprobe programs load without kprobes; the slot program too */
	load(&l, "maps_bpfload.bpf.o", "bb_tgid", NULL);
	ck_assert_msg(l.ret == 0, "%s\n%s", l.err.msg,
		      obj_verifier_log(l.obj));
	ck_assert_int_ge(obj_prog(l.obj, "slot_one")->fd, 0);
	ck_assert_int_eq(obj_prog(l.obj, "slot_one")->tail_slot, 1);
	ck_assert_int_ge(obj_map(l.obj, "outer")->fd, 0);
	unload(&l);
}
END_TEST

/* samples/bpf's maps of maps load, and work through bpf_load's slots
 * (filled here, as its user side did). */
START_TEST(test_bpfload_map_in_map)
{
	struct loaded l;
	uint32_t pid = getpid(), zero = 0, inner;

	load(&l, "maps_bpfload_inmap.bpf.o", "bb_tgid", NULL);
	ck_assert_msg(l.ret == 0, "%s\n%s", l.err.msg,
		      obj_verifier_log(l.obj));
	inner = obj_map(l.obj, "port_a")->fd;
	ck_assert_int_eq(bpf_map_update_elem(obj_map(l.obj,
			 "a_of_port_a")->fd, &zero, &inner, BPF_ANY), 0);
	ck_assert_int_eq(bpf_map_update_elem(obj_map(l.obj,
			 "h_of_port_a")->fd, &pid, &inner, BPF_ANY), 0);
	run_workload(&l);
	/* once through each map of maps per switch */
	ck_assert_uint_ge(u64_at(l.obj, "port_a", &zero), 2 * SLEEPS);
	unload(&l);
}
END_TEST

#define OLD_PIN "/sys/fs/bpf/tc/globals/bbtest_old_counts"

/* iproute2's 28-byte definitions load, pinned where pinning says. */
START_TEST(test_iproute2_old_maps)
{
	struct loaded l;
	uint32_t pid = getpid(), zero = 0;

	unlink(OLD_PIN);
	load(&l, "maps_iproute2_old.bpf.o", "bb_tgid", NULL);
	run_workload(&l);
	ck_assert_uint_ge(u64_at(l.obj, "bbtest_old_counts", &pid), SLEEPS);
	ck_assert_uint_ge(u64_at(l.obj, "scratch", &zero), SLEEPS);
	ck_assert_int_eq(access(OLD_PIN, F_OK), 0);
	unload(&l);
	unlink(OLD_PIN);
	rmdir("/sys/fs/bpf/tc/globals");
	rmdir("/sys/fs/bpf/tc");
}
END_TEST

#define BTF_PIN "/sys/fs/bpf/bbtest_btfpin"

START_TEST(test_btf_maps)
{
	struct loaded l;
	struct { uint32_t tgid, tag; } key = { getpid(), 7 };
	uint32_t zero = 0, id, next;
	int ncpus = bb_ncpus_possible(), stacks = 0;
	uint64_t sum = 0, *pc;

	unlink(BTF_PIN);
	load(&l, "btf_maps.bpf.o", "bb_tgid", NULL);
	run_workload(&l);
	ck_assert_uint_ge(u64_at(l.obj, "counts", &key), SLEEPS);
	pc = calloc(ncpus, 8);
	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(l.obj, "percpu")->fd,
					     &zero, pc), 0);
	for (id = 0; id < (uint32_t)ncpus; id++)
		sum += pc[id];
	free(pc);
	ck_assert_uint_ge(sum, SLEEPS);
	/* .values = { &inner0, &inner1 }: the program counts in slot 1's */
	ck_assert_uint_ge(u64_at(l.obj, "inner1", &zero), SLEEPS);
	ck_assert_uint_eq(u64_at(l.obj, "inner0", &zero), 0);
	ck_assert_uint_ge(u64_at(l.obj, "bbtest_btfpin", &zero), SLEEPS);
	ck_assert_int_eq(access(BTF_PIN, F_OK), 0);
	if (bpf_map_get_next_key(obj_map(l.obj, "stacks")->fd, NULL,
				 &next) == 0)
		stacks = 1;
	ck_assert_int_eq(stacks, 1);
	unload(&l);
	unlink(BTF_PIN);
}
END_TEST

/* As 4.15 takes global data: not at all, so reads become immediates. */
static const struct bb_kcaps caps_no_global = {
	.probed = 1, .bpf_calls = 1, .jmp32 = 1, .big_progs = 1,
	.probe_read_kernel = 0, .kver = 0x040f0b,
};

static void check_rodata(const struct bb_kcaps *caps)
{
	struct loaded l;
	uint32_t k;

	load(&l, "btf_rodata.bpf.o", "target_tgid", caps);
	if (l.ret == 0)
		obj_set_const(l.obj, "tag", 9); /* too late: no effect */
	run_workload(&l);
	k = 0;
	ck_assert_uint_eq(u64_at(l.obj, "out", &k), 0x123456789abcdefULL);
	k = 1;
	ck_assert_uint_eq(u64_at(l.obj, "out", &k), 5);
	k = 2;
	ck_assert_uint_eq(u64_at(l.obj, "out", &k),
			  caps ? caps->kver : obj_kcaps(l.obj)->kver);
	k = 3;
	ck_assert_uint_eq(u64_at(l.obj, "out", &k), (uint32_t)getpid());
	unload(&l);
}

START_TEST(test_rodata_as_maps)
{
	check_rodata(NULL);
}
END_TEST

START_TEST(test_rodata_inlined)
{
	check_rodata(&caps_no_global);
}
END_TEST

START_TEST(test_bss)
{
	struct loaded l;
	uint64_t v[2];
	uint32_t zero = 0;
	static const char *const want[] = { "global data needs Linux 5.2",
		"stores or writes through the address of", NULL };
	const char *const *w;

	load(&l, "btf_bss.bpf.o", "target_tgid", NULL);
	run_workload(&l);
	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(l.obj, ".bss")->fd,
					     &zero, v), 0);
	ck_assert_uint_ge(v[0], SLEEPS);
	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(l.obj, ".data")->fd,
					     &zero, v), 0);
	ck_assert_uint_ge(v[0], 40 + SLEEPS);
	unload(&l);
	load(&l, "btf_bss.bpf.o", "target_tgid", &caps_no_global);
	ck_assert_int_eq(l.ret, -EOPNOTSUPP);
	for (w = want; *w; w++)
		ck_assert_msg(strstr(l.err.msg, *w), "'%s' lacks '%s'",
			      l.err.msg, *w);
	unload(&l);
}
END_TEST

START_TEST(test_calls)
{
	struct loaded l;
	uint32_t k0 = 0, k1 = 1;
	uint64_t a, b;

	load(&l, "calls.bpf.o", "bb_tgid", NULL);
	run_workload(&l);
	a = u64_at(l.obj, "hits", &k0);
	b = u64_at(l.obj, "hits", &k1);
	ck_assert_uint_ge(a, SLEEPS);
	/* `second` bumps twice per switch through two levels of calls */
	ck_assert_uint_ge(b, 2 * SLEEPS);
	ck_assert_uint_eq(b % 2, 0);
	unload(&l);
}
END_TEST

START_TEST(test_no_license_gpl_helper)
{
	struct loaded l;

	load(&l, "nolicense_gpl.bpf.o", NULL, NULL);
	ck_assert_int_lt(l.ret, 0);
	ck_assert_msg(strstr(l.err.msg, "GPL-only helper") &&
		      strstr(l.err.msg, "no license section"), "%s",
		      l.err.msg);
	unload(&l);
}
END_TEST

/* The kernel takes a program without a license that calls no GPL-only
 * helper: barebpf loads such an object instead of refusing it. */
START_TEST(test_no_license_loads)
{
	struct loaded l;

	load(&l, "nolicense_ok.bpf.o", NULL, NULL);
	ck_assert_msg(l.ret == 0, "%s", l.err.msg);
	unload(&l);
}
END_TEST

static Suite *objects_suite(void)
{
	Suite *s = suite_create("objects");
	TCase *tc = tcase_create("kernel");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_gobpf_maps);
	tcase_add_test(tc, test_iproute2_maps);
	tcase_add_test(tc, test_bpfload_maps);
	tcase_add_test(tc, test_bpfload_map_in_map);
	tcase_add_test(tc, test_iproute2_old_maps);
	tcase_add_test(tc, test_btf_maps);
	tcase_add_test(tc, test_rodata_as_maps);
	tcase_add_test(tc, test_rodata_inlined);
	tcase_add_test(tc, test_bss);
	tcase_add_test(tc, test_calls);
	tcase_add_test(tc, test_no_license_gpl_helper);
	tcase_add_test(tc, test_no_license_loads);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(objects, objects_suite, objects_requires)
