/* SPDX-License-Identifier: MIT */
/*
 * obj_load on the running kernel, whose verifier is the judge of what the
 * relocator wrote: good objects load and their maps work; a program that
 * only runs correctly if map fds and constants landed in the right
 * instructions is attached to sched:sched_switch and counted; a program
 * the verifier refuses leaves a log and no file descriptors behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"
#include "obj.h"

#define OBJDIR BB_BUILD_DIR "/tests/bpf/"
#define SWITCH_EVENT "events/sched/sched_switch/"

static const char *load_requires(void)
{
	static char why[128];
	int fd;

	if (geteuid() != 0)
		return "needs root (bpf() program loads)";
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "probe");
	if (fd < 0) {
		snprintf(why, sizeof(why), "bpf() unavailable: %s",
			 strerror(-fd));
		return why;
	}
	close(fd);
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
	ck_assert_msg(f != NULL, "%s: %s (make builds it)", path,
		      strerror(errno));
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

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static struct bb_obj *open_obj(const char *name, unsigned char **buf)
{
	struct bb_obj *obj;
	struct bb_err err = { "" };
	size_t len;

	*buf = read_obj(name, &len);
	ck_assert_msg(obj_open(&obj, *buf, len, name, &err) == 0, "%s",
		      err.msg);
	return obj;
}

/* "offset:N;" of a field in a tracefs format file, or -1. */
static int format_offset(const char *path, const char *field)
{
	char line[512], want[80];
	FILE *f = fopen(path, "r");
	int off = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s;", field);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want);

		if (p && (p = strstr(p, "offset:"))) {
			off = atoi(p + 7);
			break;
		}
	}
	fclose(f);
	return off;
}

START_TEST(test_load_tracepoint)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("good_tp.bpf.o", &buf);
	struct bb_err err = { "" };
	struct bb_map *counts, *hist;
	uint32_t key = 42, slot = 5;
	uint64_t val = 1234, out = 0;
	int prog_fd, map_fd;

	bb_raise_memlock(NULL);
	ck_assert_int_eq(obj_set_const(obj, "bb_tgid", 1), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_prev_pid_off", 24), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 1), 0);
	ck_assert_msg(obj_load(obj, 0, &err) == 0, "%s\n%s", err.msg,
		      obj_verifier_log(obj));
	ck_assert_int_ge(obj_prog_at(obj, 0)->fd, 0);
	counts = obj_map(obj, "counts");
	hist = obj_map(obj, "hist");
	ck_assert_int_ge(counts->fd, 0);
	ck_assert_int_ge(hist->fd, 0);
	ck_assert_int_ge(obj_map(obj, "events")->fd, 0);

	ck_assert_int_eq(bpf_map_lookup_elem(counts->fd, &key, &out), -ENOENT);
	ck_assert_int_eq(bpf_map_update_elem(counts->fd, &key, &val, BPF_ANY),
			 0);
	ck_assert_int_eq(bpf_map_lookup_elem(counts->fd, &key, &out), 0);
	ck_assert_uint_eq(out, 1234);
	ck_assert_int_eq(bpf_map_lookup_elem(hist->fd, &slot, &out), 0);
	ck_assert_uint_eq(out, 0);

	/* loading twice would leak the first set of fds */
	ck_assert_int_eq(obj_load(obj, 0, &err), -EBUSY);

	prog_fd = obj_prog_at(obj, 0)->fd;
	map_fd = counts->fd;
	obj_close(obj);
	ck_assert_int_eq(fcntl(prog_fd, F_GETFD), -1);
	ck_assert_int_eq(fcntl(map_fd, F_GETFD), -1);
	free(buf);
}
END_TEST

START_TEST(test_load_kprobe)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("good_kprobe.bpf.o", &buf);
	struct bb_err err = { "" };
	int i;

	ck_assert_int_eq(obj_set_const(obj, "bb_unit_ns", 1000), 0);
	/* 6.18 ignores kern_version; before 5.0 it had to match */
	ck_assert_msg(obj_load(obj, KVER(6, 18, 0), &err) == 0, "%s\n%s",
		      err.msg, obj_verifier_log(obj));
	for (i = 0; i < obj_nprogs(obj); i++)
		ck_assert_int_ge(obj_prog_at(obj, i)->fd, 0);
	obj_close(obj);
	free(buf);
}
END_TEST

/* Run prog_fd on trace event id while we sleep 20 times (20 switches). */
static void attach_and_sleep(int id, int prog_fd)
{
	struct perf_event_attr attr;
	int pfd, i;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ck_assert_msg(pfd >= 0, "perf_event_open: %s", strerror(-pfd));
	ck_assert_int_eq(sys_ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd), 0);
	ck_assert_int_eq(sys_ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (i = 0; i < 20; i++)
		usleep(1000);
	sys_ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
	close(pfd);
}

/*
 * The tracepoint program counts context switches of one process (bb_tgid)
 * by prev_pid, read at an offset that is a constant: attach it and sleep,
 * and our own pid must be counted, under the right map.
 */
START_TEST(test_attached_counts)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("good_tp.bpf.o", &buf);
	struct bb_err err = { "" };
	uint32_t pid = getpid(), slot;
	uint64_t n = 0, total = 0, v;
	char tfs[256], path[400];
	int id, off, mounted;

	/* wherever tracefs is, mounted for the test if it is nowhere */
	mounted = tracefs_find(tfs, sizeof(tfs), NULL);
	ck_assert_int_ge(mounted, 0);
	id = tracefs_event_id(tfs, "sched", "sched_switch");
	ck_assert_msg(id > 0, "no sched:sched_switch in %s: %d", tfs, id);
	snprintf(path, sizeof(path), "%s/" SWITCH_EVENT "format", tfs);
	off = format_offset(path, "prev_pid");
	ck_assert_int_gt(off, 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_tgid", pid), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_prev_pid_off", off), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 1), 0);
	ck_assert_msg(obj_load(obj, 0, &err) == 0, "%s\n%s", err.msg,
		      obj_verifier_log(obj));

	attach_and_sleep(id, obj_prog_at(obj, 0)->fd);

	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(obj, "counts")->fd, &pid,
					     &n), 0);
	ck_assert_msg(n >= 20, "%llu switches counted", (unsigned long long)n);
	for (slot = 0; slot < 64; slot++)
		if (bpf_map_lookup_elem(obj_map(obj, "hist")->fd, &slot,
					&v) == 0)
			total += v;
	ck_assert_uint_ge(total, n);
	if (mounted > 0)
		tracefs_unmount(mounted);
	obj_close(obj);
	free(buf);
}
END_TEST

/*
 * A copy of a loaded program with other constants (obj_prog_load_copy):
 * it shares the object's maps and counts with its own step, and it closes
 * with the object.
 */
START_TEST(test_copy_with_other_constants)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("good_tp.bpf.o", &buf);
	struct bb_err err = { "" };
	struct bb_prog *copy;
	uint32_t pid = getpid();
	uint64_t n = 0;
	char tfs[256], path[400];
	int id, off, mounted, before = count_fds();

	ck_assert_int_eq(obj_prog_load_copy(obj, "tp_switch",
					    BB_PROG_TRACEPOINT, &copy, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "load the object"), "%s", err.msg);
	mounted = tracefs_find(tfs, sizeof(tfs), NULL);
	ck_assert_int_ge(mounted, 0);
	id = tracefs_event_id(tfs, "sched", "sched_switch");
	ck_assert_msg(id > 0, "no sched:sched_switch in %s: %d", tfs, id);
	snprintf(path, sizeof(path), "%s/" SWITCH_EVENT "format", tfs);
	off = format_offset(path, "prev_pid");
	ck_assert_int_gt(off, 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_tgid", pid), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_prev_pid_off", off), 0);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 1), 0);
	ck_assert_int_eq(obj_load(obj, 0, &err), 0);
	ck_assert_int_eq(obj_prog_load_copy(obj, "nope", BB_PROG_TRACEPOINT,
					    &copy, &err), -ENOENT);
	ck_assert_int_eq(obj_set_const(obj, "bb_step", 1000), 0);
	ck_assert_msg(obj_prog_load_copy(obj, "tp_switch", BB_PROG_TRACEPOINT,
					 &copy, &err) == 0, "%s", err.msg);
	ck_assert_int_ge(copy->fd, 0);
	ck_assert_int_ne(copy->fd, obj_prog_at(obj, 0)->fd);
	ck_assert_ptr_null(copy->insns);
	ck_assert_str_eq(copy->name, "tp_switch");

	attach_and_sleep(id, copy->fd);
	/* the first switch inserts 1, each later one adds the copy's 1000 */
	ck_assert_int_eq(bpf_map_lookup_elem(obj_map(obj, "counts")->fd, &pid,
					     &n), 0);
	ck_assert_msg(n % 1000 == 1 && n >= 1 + 19 * 1000, "counted %llu",
		      (unsigned long long)n);
	if (mounted > 0)
		tracefs_unmount(mounted);
	obj_close(obj);
	free(buf);
	ck_assert_int_eq(count_fds(), before);
}
END_TEST

/* The probe of a helper: 4.11's probe_read_str is there, 30000 is not. */
START_TEST(test_helper_available)
{
	ck_assert_int_eq(bpf_helper_available(BPF_PROG_TYPE_TRACEPOINT, 45), 1);
	ck_assert_int_eq(bpf_helper_available(BPF_PROG_TYPE_TRACEPOINT, 30000),
			 0);
}
END_TEST

START_TEST(test_verifier_refuses)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("bad_verifier.bpf.o", &buf);
	struct bb_err err = { "" };
	const char *log;
	int before = count_fds(), ret;

	ret = obj_load(obj, 0, &err);
	ck_assert_msg(ret == -EACCES || ret == -EINVAL, "obj_load: %d", ret);
	ck_assert_msg(strstr(err.msg, "oob_read"), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "tracepoint/sched/sched_switch"), "%s",
		      err.msg);
	ck_assert_msg(strstr(err.msg, "verifier log"), "%s", err.msg);
	log = obj_verifier_log(obj);
	ck_assert_msg(strlen(log) > 0, "empty verifier log");
	ck_assert_msg(strstr(log, "stack") || strstr(log, "invalid"), "%s",
		      log);
	/* no half-loaded state: the map it created is closed again */
	ck_assert_int_eq(obj_map(obj, "unused")->fd, -1);
	ck_assert_int_eq(count_fds(), before);
	obj_close(obj);
	free(buf);
}
END_TEST

/* A program the verifier gives up on (E2BIG): its log, and why in words. */
START_TEST(test_verifier_gives_up)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("bad_explode.bpf.o", &buf);
	struct bb_err err = { "" };
	const char *log;
	int before = count_fds(), ret;

	ret = obj_load(obj, 0, &err);
	ck_assert_msg(ret == -E2BIG, "obj_load: %d: %s", ret, err.msg);
	ck_assert_msg(strstr(err.msg, "the verifier gave up after "), "%s",
		      err.msg);
	log = obj_verifier_log(obj);
	ck_assert_msg(strcasestr(log, "processed "), "%s", log);
	ck_assert_int_eq(count_fds(), before);
	obj_close(obj);
	free(buf);
}
END_TEST

START_TEST(test_unset_constant_creates_nothing)
{
	unsigned char *buf;
	struct bb_obj *obj = open_obj("good_tp.bpf.o", &buf);
	struct bb_err err = { "" };
	int before = count_fds();

	ck_assert_int_eq(obj_set_const(obj, "bb_tgid", 0), 0);
	ck_assert_int_eq(obj_load(obj, 0, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "bb_prev_pid_off"), "%s", err.msg);
	ck_assert_int_eq(count_fds(), before);
	obj_close(obj);
	free(buf);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("kernel");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_load_tracepoint);
	tcase_add_test(tc, test_load_kprobe);
	tcase_add_test(tc, test_attached_counts);
	tcase_add_test(tc, test_copy_with_other_constants);
	tcase_add_test(tc, test_helper_available);
	tcase_add_test(tc, test_verifier_refuses);
	tcase_add_test(tc, test_verifier_gives_up);
	tcase_add_test(tc, test_unset_constant_creates_nothing);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(load, load_suite, load_requires)
