/* SPDX-License-Identifier: MIT */
/*
 * perfbuf on the running kernel: tests/bpf/perfbuf_emit.bpf.c sends one
 * sample per getppid() through a perf event array; we make the calls and
 * count what arrives.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"
#include "obj.h"
#include "probe.h"

#define EMIT_OBJ BB_BUILD_DIR "/tests/bpf/perfbuf_emit.bpf.o"
#define N_CALLS 1000

/* as in perfbuf_emit.bpf.c */
struct emit_rec {
	uint32_t tgid;
	uint32_t tid;
	uint64_t seq;
};

struct emit {
	void *buf;
	struct bb_obj *obj;
	struct bb_session s;
	struct bb_perfbuf *pb;
	int mine, bad_size;
	uint64_t seqs[N_CALLS];
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct emit *e = ctx;
	struct emit_rec r;

	/* the kernel pads u32 size + data to 8 bytes: 16 comes as 20 */
	if (size < sizeof(r)) {
		e->bad_size++;
		return;
	}
	memcpy(&r, data, sizeof(r));
	if (r.tgid != (uint32_t)getpid())
		return; /* another process called getppid() */
	if (e->mine < N_CALLS)
		e->seqs[e->mine] = r.seq;
	e->mine++;
}

static void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	ck_assert_msg(f, "%s: %s (make builds it)", path, strerror(errno));
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

/* Load and attach perfbuf_emit, with a ring of pages per CPU. */
static void emit_start(struct emit *e, int pages)
{
	struct bb_err err = { "" };
	struct bb_prog *prog;
	struct bb_map *map;
	size_t len;
	int ret;

	memset(e, 0, sizeof(*e));
	e->buf = read_file(EMIT_OBJ, &len);
	/* needed before 5.11 only; may be refused (no CAP_SYS_RESOURCE) */
	bb_raise_memlock(NULL);
	ret = obj_open(&e->obj, e->buf, len, "perfbuf_emit", &err);
	ck_assert_msg(ret == 0, "obj_open: %s", err.msg);
	ret = obj_load(e->obj, 0, &err);
	ck_assert_msg(ret == 0, "obj_load: %s\n%s", err.msg,
		      obj_verifier_log(e->obj) ? obj_verifier_log(e->obj) : "");
	map = obj_map(e->obj, "events");
	ck_assert_ptr_nonnull(map);

	/* rings first: a sample for an empty slot would just be dropped */
	ret = perfbuf_open(&e->pb, map->fd, pages, on_sample, e, &err);
	ck_assert_msg(ret == 0, "perfbuf_open: %s", err.msg);

	session_init(&e->s);
	prog = obj_prog(e->obj, "emit_getppid");
	ck_assert_ptr_nonnull(prog);
	ret = session_attach(&e->s, prog, NULL, 0, &err);
	ck_assert_msg(ret == 0, "session_attach: %s", err.msg);
}

static void emit_stop(struct emit *e)
{
	session_detach_all(&e->s);
	perfbuf_close(e->pb);
	obj_close(e->obj);
	free(e->buf);
}

static void call_getppid(int n)
{
	int i;

	/* syscall(): a libc could answer getppid() without entering */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* Poll until want of our samples came or a second passed. */
static void drain(struct emit *e, int want)
{
	int i, ret;

	for (i = 0; i < 10 && e->mine < want; i++) {
		ret = perfbuf_poll(e->pb, 100);
		ck_assert_int_ge(ret, 0);
	}
	/* and once more, for anything beyond what we expected */
	ck_assert_int_ge(perfbuf_poll(e->pb, 0), 0);
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

START_TEST(test_every_sample_arrives)
{
	static struct emit e;
	int i;

	emit_start(&e, 64);
	call_getppid(N_CALLS);
	drain(&e, N_CALLS);
	ck_assert_int_eq(e.bad_size, 0);
	ck_assert_int_eq(e.mine, N_CALLS);
	ck_assert_uint_eq(perfbuf_lost(e.pb), 0);

	/* each sample is its own call, not one delivered twice */
	qsort(e.seqs, N_CALLS, sizeof(e.seqs[0]), cmp_u64);
	for (i = 1; i < N_CALLS; i++)
		ck_assert_uint_gt(e.seqs[i], e.seqs[i - 1]);
	emit_stop(&e);
}
END_TEST

/*
 * Overflow one page: the kernel drops samples, and when the next one fits
 * it first writes a PERF_RECORD_LOST with their count. The process stays
 * on one CPU so that the next sample goes to the ring that overflowed.
 */
START_TEST(test_overflow_counts_lost)
{
	static struct emit e;
	cpu_set_t one;
	uint64_t lost;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);

	emit_start(&e, 1);
	call_getppid(10 * N_CALLS);
	drain(&e, 10 * N_CALLS);
	call_getppid(10);
	drain(&e, 10 * N_CALLS + 10);
	lost = perfbuf_lost(e.pb);
	ck_assert_int_gt(e.mine, 0);
	ck_assert_int_lt(e.mine, 10 * N_CALLS);
	ck_assert_uint_gt(lost, 0);
	/* lost also counts other processes' samples, hence >= */
	ck_assert_uint_ge(e.mine + lost, 10 * N_CALLS + 10);
	emit_stop(&e);
}
END_TEST

static void on_alarm(int sig)
{
	(void)sig;
}

START_TEST(test_poll_signal_returns_zero)
{
	struct bb_perfbuf *pb = NULL;
	struct bb_err err = { "" };
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	struct timeval t0, t1;
	int map_fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: poll() sees EINTR */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);

	/* no program writes to this map: nothing can end the poll but us */
	map_fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 128, 0,
				"pb_quiet");
	ck_assert_int_ge(map_fd, 0);
	ck_assert_msg(perfbuf_open(&pb, map_fd, 8, on_sample, NULL, &err) == 0,
		      "perfbuf_open: %s", err.msg);
	gettimeofday(&t0, NULL);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	ck_assert_int_eq(perfbuf_poll(pb, 5000), 0);
	gettimeofday(&t1, NULL);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 3);
	/* and a quiet poll times out with 0 */
	ck_assert_int_eq(perfbuf_poll(pb, 10), 0);
	ck_assert_uint_eq(perfbuf_lost(pb), 0);
	perfbuf_close(pb);
	close(map_fd);
}
END_TEST

START_TEST(test_open_errors)
{
	struct bb_perfbuf *pb = NULL;
	struct bb_err err = { "" };

	ck_assert_int_eq(perfbuf_open(&pb, -1, 3, on_sample, NULL, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "power of two"));
	ck_assert_int_eq(perfbuf_open(&pb, -1, 8, on_sample, NULL, &err),
			 -EBADF);
	ck_assert_ptr_nonnull(strstr(err.msg, "perf event array"));
}
END_TEST

static const char *requires_root_and_getppid_tp(void)
{
	static char why[sizeof(((struct bb_err *)0)->msg) + 16];
	char tracefs[256], path[512];
	struct bb_err err = { "" };
	struct stat st;
	int mounted, ret;

	if (geteuid() != 0)
		return "needs root (bpf(), perf events, tracefs)";
	mounted = tracefs_find(tracefs, sizeof(tracefs), &err);
	if (mounted < 0) {
		snprintf(why, sizeof(why), "no tracefs: %s", err.msg);
		return why;
	}
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

static Suite *perfbuf_suite(void)
{
	Suite *s = suite_create("perfbuf");
	TCase *tc = tcase_create("kernel");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_every_sample_arrives);
	tcase_add_test(tc, test_overflow_counts_lost);
	tcase_add_test(tc, test_poll_signal_returns_zero);
	tcase_add_test(tc, test_open_errors);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(perfbuf, perfbuf_suite, requires_root_and_getppid_tp)
