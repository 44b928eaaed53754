/* SPDX-License-Identifier: MIT */
/*
 * Histogram counts under concurrency, on the running kernel: threads on
 * every CPU hammer tests/bpf/hist_race.bpf.c through getppid(), and every
 * call must be counted exactly: in a slot (bb_hist_add creates slots
 * without losing a racing increment), or as a drop when the map is full;
 * and read as deltas while the calls run (dhist_collect, which no longer
 * deletes), the sum of what each read gained is every call.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "dhist.h"
#include "kernel.h"
#include "obj.h"
#include "probe.h"

#define RACE_OBJ BB_BUILD_DIR "/tests/bpf/hist_race.bpf.o"
#define THREADS 8
#define CALLS 40000 /* each */

struct race {
	void *buf;
	struct bb_obj *obj;
	struct bb_session s;
};

static void *read_obj(size_t *len)
{
	FILE *f = fopen(RACE_OBJ, "rb");
	void *buf;
	long n;

	ck_assert_msg(f, "%s: %s (make builds it)", RACE_OBJ, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, n, f), n);
	fclose(f);
	*len = n;
	return buf;
}

static void race_start(struct race *r)
{
	struct bb_err err = { "" };
	size_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	r->buf = read_obj(&len);
	bb_raise_memlock(NULL);
	ret = obj_open(&r->obj, r->buf, len, "hist_race", &err);
	ck_assert_msg(ret == 0, "obj_open: %s", err.msg);
	obj_set_const(r->obj, "bb_tgid", getpid());
	ret = obj_load(r->obj, 0, &err);
	ck_assert_msg(ret == 0, "obj_load: %s\n%s", err.msg,
		      obj_verifier_log(r->obj));
	session_init(&r->s);
	ret = session_attach(&r->s, obj_prog(r->obj, "hammer"), NULL, 0, &err);
	ck_assert_msg(ret == 0, "session_attach: %s", err.msg);
}

static void race_stop(struct race *r)
{
	session_detach_all(&r->s);
	obj_close(r->obj);
	free(r->buf);
}

static int finished; /* threads done */

static void *hammer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Sum of every u64 value of a hash map; *nkeys gets the key count. */
static uint64_t map_sum(int fd, int *nkeys)
{
	uint32_t key[2], next[2];
	void *prev = NULL;
	uint64_t v, sum = 0;

	*nkeys = 0;
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		if (bpf_map_lookup_elem(fd, next, &v) == 0)
			sum += v;
		memcpy(key, next, sizeof(key));
		prev = key;
		(*nkeys)++;
	}
	return sum;
}

static uint64_t array0(struct bb_obj *obj, const char *name)
{
	uint32_t k = 0;
	uint64_t v = 0;

	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(obj, name)->fd, &k, &v),
			 0);
	return v;
}

/* dhist_collect's deltas, summed over every histogram and slot. */
static uint64_t collect_sum(struct dhist_prev *prev, int fd)
{
	struct dhist *h;
	uint64_t sum = 0;
	int n, i, j;

	ck_assert_int_eq(dhist_collect(prev, fd, 8, &h, &n), 0);
	for (i = 0; i < n; i++)
		for (j = 0; j < DHIST_SLOTS; j++)
			sum += h[i].slots[j];
	free(h);
	return sum;
}

START_TEST(test_concurrent_increments_exact)
{
	const uint64_t total = (uint64_t)THREADS * CALLS;
	struct dhist_prev prev = { 0 };
	pthread_t th[THREADS];
	uint64_t big, old, small, dh = 0;
	struct race r;
	int i, nbig, nold, nsmall, ndh, reads = 0;

	race_start(&r);
	finished = 0;
	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, hammer, NULL), 0);
	/* read the deltas while they run, as an interval tool does */
	for (;;) {
		int done = __atomic_load_n(&finished, __ATOMIC_ACQUIRE);

		dh += collect_sum(&prev, obj_map(r.obj, "dh")->fd);
		reads++;
		if (done == THREADS)
			break;
		usleep(2000);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	dh += collect_sum(&prev, obj_map(r.obj, "dh")->fd);
	dhist_prev_free(&prev);

	big = map_sum(obj_map(r.obj, "big")->fd, &nbig);
	old = map_sum(obj_map(r.obj, "old")->fd, &nold);
	small = map_sum(obj_map(r.obj, "small")->fd, &nsmall);
	map_sum(obj_map(r.obj, "dh")->fd, &ndh);
	printf("hist: %llu calls on %ld CPUs, %d slots made: bb_hist_add "
	       "counted %llu, the old way %llu (%llu lost); 4-slot map: %llu "
	       "counted + %llu dropped; %d delta reads of 64 slots summed "
	       "%llu\n", (unsigned long long)total,
	       sysconf(_SC_NPROCESSORS_ONLN), nbig, (unsigned long long)big,
	       (unsigned long long)old, (unsigned long long)(total - old),
	       (unsigned long long)small,
	       (unsigned long long)array0(r.obj, "drops_small"), reads,
	       (unsigned long long)dh);
	fflush(stdout);
	ck_assert_msg(nbig > 100, "only %d slots: no creation to race", nbig);
	ck_assert_uint_eq(big, total);
	ck_assert_uint_eq(array0(r.obj, "drops"), 0);
	ck_assert_int_eq(nsmall, 4);
	ck_assert_uint_gt(array0(r.obj, "drops_small"), 0);
	ck_assert_uint_eq(small + array0(r.obj, "drops_small"), total);
	ck_assert_msg(reads > 2, "%d reads", reads);
	ck_assert_uint_eq(dh, total);
	race_stop(&r);
}
END_TEST

static const char *requires_root_and_getppid_tp(void)
{
	char tracefs[256], path[300];
	struct stat st;
	int mounted, ret;

	if (geteuid() != 0)
		return "needs root (bpf(), perf_event_open)";
	mounted = tracefs_find(tracefs, sizeof(tracefs), NULL);
	if (mounted < 0)
		return "no tracefs";
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid",
		 tracefs);
	ret = stat(path, &st);
	if (mounted > 0)
		tracefs_unmount(mounted);
	if (ret < 0)
		return "no syscalls/sys_enter_getppid tracepoint "
		       "(CONFIG_FTRACE_SYSCALLS)";
	return NULL;
}

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist_race");
	TCase *tc = tcase_create("kernel");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_concurrent_increments_exact);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(hist_race, hist_suite, requires_root_and_getppid_tp)
