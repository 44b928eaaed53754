/* SPDX-License-Identifier: MIT */
/*
 * Attaching on the running kernel: tracefs, a format file, a tracepoint
 * program that counts execs for real, and a kprobe attach that must fail
 * cleanly where the kernel has no kprobe_events (this machine's 6.18).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "barebpf.h"
#include "probe_internal.h" /* perf_tp_attach */
#include "bbtest.h"
#include "kernel.h"

#define COUNT_OBJ BB_BUILD_DIR "/tests/bpf/attach_count.bpf.o"

struct loaded {
	void *buf;
	struct bb_obj *obj;
	int counts_fd;
};

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

/*
 * Load only the tracepoint program: the kprobe ones would be refused on a
 * kernel without kprobes. obj_load loads every program, so on such kernels
 * the kprobe programs still load (BPF_PROG_TYPE_KPROBE exists with
 * BPF_EVENTS), they just cannot be attached.
 */
static void load(struct loaded *l)
{
	struct bb_err err = { "" };
	uint32_t kver;
	char src[64];
	size_t len;
	int ret;

	memset(l, 0, sizeof(*l));
	l->buf = read_file(COUNT_OBJ, &len);
	bb_raise_memlock(NULL);
	ret = kver_detect(NULL, &kver, src, sizeof(src), &err);
	ck_assert_msg(ret == 0, "kver_detect: %s", err.msg);
	ret = obj_open(&l->obj, l->buf, len, "attach_count", &err);
	ck_assert_msg(ret == 0, "obj_open: %s", err.msg);
	ret = obj_load(l->obj, kver, &err);
	ck_assert_msg(ret == 0, "obj_load: %s\n%s", err.msg,
		      obj_verifier_log(l->obj) ? obj_verifier_log(l->obj) : "");
	ck_assert_ptr_nonnull(obj_map(l->obj, "counts"));
	l->counts_fd = obj_map(l->obj, "counts")->fd;
}

static void unload(struct loaded *l)
{
	obj_close(l->obj);
	free(l->buf);
}

static uint64_t count_at(struct loaded *l, uint32_t slot)
{
	uint64_t v = 0;

	ck_assert_int_eq(bpf_map_lookup_elem(l->counts_fd, &slot, &v), 0);
	return v;
}

static void run_true(int n)
{
	int i, status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_int_eq(status, 0);
	}
}

START_TEST(test_tracefs_find)
{
	struct bb_err err = { "" };
	char path[256], events[300];
	struct stat st;
	int ret;

	ret = tracefs_find(path, sizeof(path), &err);
	ck_assert_msg(ret >= 0, "tracefs_find: %s", err.msg);
	snprintf(events, sizeof(events), "%s/events", path);
	ck_assert_int_eq(stat(events, &st), 0);
	ck_assert_int_gt(tracefs_event_id(path, "sched", "sched_process_exec"),
			 0);
	ck_assert_int_eq(tracefs_event_id(path, "sched", "no_such_event"),
			 -ENOENT);
	if (ret > 0) /* a bare VM: leave it as we found it */
		ck_assert_int_eq(tracefs_unmount(ret), 0);
}
END_TEST

START_TEST(test_tp_field)
{
	struct bb_err err = { "" };
	struct bb_tp_field f;
	char path[256];
	int ret, mounted;

	mounted = tracefs_find(path, sizeof(path), &err);
	ck_assert_int_ge(mounted, 0);
	ret = tp_field(path, "block", "block_rq_complete", "dev", &f, &err);
	ck_assert_msg(ret == 0, "tp_field: %s", err.msg);
	ck_assert_str_eq(f.name, "dev");
	ck_assert_int_eq(f.offset, 8);
	ck_assert_int_eq(f.size, 4);
	ret = tp_field(path, "block", "block_rq_complete", "rwbs", &f, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_ge(f.size, 8);

	ret = tp_field(path, "block", "block_rq_complete", "nope", &f, &err);
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "nope"));
	ret = tp_field(path, "block", "no_such_tp", "dev", &f, &err);
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "block:no_such_tp"));
	tracefs_unmount(mounted);
}
END_TEST

START_TEST(test_tracepoint_counts_execs)
{
	struct bb_err err = { "" };
	struct bb_session s;
	struct loaded l;
	uint64_t before, during, after;
	int ret;

	load(&l);
	session_init(&s);
	ret = session_attach(&s, obj_prog(l.obj, "count_exec"), NULL, 0, &err);
	ck_assert_msg(ret == 0, "session_attach: %s", err.msg);
	ck_assert_ptr_nonnull(s.links);
	ck_assert_int_ge(s.links->pfd, 0);
	ck_assert_str_eq(s.links->event, ""); /* nothing added to tracefs */

	before = count_at(&l, 0);
	run_true(5);
	during = count_at(&l, 0);
	/* Other processes may exec too: at least ours. */
	ck_assert_msg(during >= before + 5, "before %llu, after 5 execs %llu",
		      (unsigned long long)before, (unsigned long long)during);

	session_detach_all(&s);
	ck_assert_ptr_null(s.links);
	during = count_at(&l, 0);
	run_true(3);
	after = count_at(&l, 0);
	/* Detached: our execs no longer count (others' neither). */
	ck_assert_uint_eq(after, during);
	session_detach_all(&s); /* idempotent */
	unload(&l);
}
END_TEST

START_TEST(test_tracepoint_errors)
{
	struct bb_err err = { "" };
	struct bb_session s;
	struct bb_prog *p;
	struct loaded l;
	int ret;

	load(&l);
	session_init(&s);
	p = obj_prog(l.obj, "count_exec");
	ck_assert_int_eq(session_attach(&s, p, NULL, 0, &err), 0);
	/* The same program on the same event twice: the kernel says no. */
	ret = session_attach(&s, p, NULL, 0, &err);
	ck_assert_int_eq(ret, -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "sched:sched_process_exec"));
	ck_assert_ptr_null(s.links->next); /* the failed one left nothing */

	ret = session_attach(&s, p, "block/no_such_tp", 0, &err);
	ck_assert_int_eq(ret, -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "block:no_such_tp"));
	ret = session_attach(&s, p, "no_slash", 0, &err);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "category/name"));
	ck_assert_ptr_null(s.links->next);
	/* A kprobe program on a tracepoint: SET_BPF refuses the type. */
	ret = tracefs_event_id(s.tracefs, "sched", "sched_process_exit");
	ck_assert_int_gt(ret, 0);
	ck_assert_int_eq(perf_tp_attach(ret, obj_prog(l.obj,
						      "count_kprobe")->fd),
			 -EINVAL);

	session_detach_all(&s);
	unload(&l);
}
END_TEST

/* This machine's kernel has no kprobes: a clear refusal, nothing left. */
START_TEST(test_kprobe_unavailable)
{
	struct bb_err err = { "" };
	struct bb_session s;
	struct loaded l;
	char dir[400];
	struct stat st;
	char **names;
	int ret;

	load(&l);
	session_init(&s);
	ck_assert_int_eq(session_tracefs(&s, &err), 0);
	if (kprobes_available(s.tracefs)) {
		session_detach_all(&s);
		unload(&l);
		bbtest_skip("this kernel has kprobes: the refusal is for kernels "
			    "without (the VM tests attach kprobes)");
	}
	ret = session_attach(&s, obj_prog(l.obj, "count_kprobe"), NULL, 0,
			     &err);
	ck_assert_int_eq(ret, -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err.msg, "CONFIG_KPROBE_EVENTS"));
	ck_assert_ptr_nonnull(strstr(err.msg, "do_nanosleep"));
	ret = session_attach(&s, obj_prog(l.obj, "count_kretprobe"), NULL, 128,
			     &err);
	ck_assert_int_eq(ret, -EOPNOTSUPP);
	ck_assert_ptr_null(s.links);
	snprintf(dir, sizeof(dir), "%s/events/%s", s.tracefs, s.group);
	ck_assert_int_ne(stat(dir, &st), 0);
	ck_assert_int_eq(kprobes_remove_stale(s.tracefs, &err), 0);
	ck_assert_int_eq(session_kretprobe_misses(&s), 0);

	/* Function listing still works (ftrace is there). */
	ret = kprobe_match(s.tracefs, "vfs_rea?", &names, &err);
	ck_assert_msg(ret >= 1, "kprobe_match: %d %s", ret, err.msg);
	ck_assert_str_eq(names[0], "vfs_read");
	bb_free_strv(names, ret);

	session_detach_all(&s);
	unload(&l);
}
END_TEST

/*
 * Looking a few names up on this kernel: from kallsyms, lib/ functions
 * (which ftrace does not list) are there; a name that does not exist is
 * not; both sources agree on a block-layer function.
 */
START_TEST(test_funcs_find)
{
	const char *names[] = { "vfs_read", "percpu_ref_kill_and_confirm",
				"no_such_function_xyz", "blk_mq_start_request" };
	struct bb_err err = { "" };
	char found[4], tfs[256];
	int ret;

	ck_assert_int_ge(tracefs_find(tfs, sizeof(tfs), &err), 0);
	ret = kprobe_funcs_find(tfs, BB_FUNCS_KALLSYMS, names, 4, 4, found,
				&err);
	ck_assert_msg(ret == 3, "%d: %s", ret, err.msg);
	ck_assert(found[0] && found[1] && !found[2] && found[3]);
	ret = kprobe_funcs_find(tfs, BB_FUNCS_FTRACE, names, 4, 1, found,
				&err);
	ck_assert_msg(ret >= 1 && found[0], "%d: %s", ret, err.msg);
	ck_assert(!found[2]);
	ret = kprobe_funcs_find(tfs, BB_FUNCS_FTRACE, names + 2, 2, 2, found,
				&err);
	ck_assert_msg(ret == 1 && !found[0] && found[1], "%d: %s", ret,
		      err.msg);
}
END_TEST

/*
 * The mount path, in a private mount namespace of this (forked) test so
 * the machine's own tracefs mount is not disturbed: with tracefs gone the
 * session mounts it, and session_detach_all unmounts it again.
 */
START_TEST(test_tracefs_mount)
{
	struct bb_err err = { "" };
	struct bb_session s;
	struct stat st;

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	umount2("/sys/kernel/debug/tracing", MNT_DETACH);
	umount2("/sys/kernel/debug", MNT_DETACH);
	umount2("/sys/kernel/tracing", MNT_DETACH);
	ck_assert_int_ne(stat("/sys/kernel/tracing/events", &st), 0);

	session_init(&s);
	ck_assert_msg(session_tracefs(&s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s.mounted, BB_MOUNTED_TRACEFS);
	ck_assert_str_eq(s.tracefs, "/sys/kernel/tracing");
	ck_assert_int_eq(stat("/sys/kernel/tracing/events", &st), 0);
	session_detach_all(&s);
	ck_assert_int_eq(s.mounted, 0);
	ck_assert_int_ne(stat("/sys/kernel/tracing/events", &st), 0);
	session_detach_all(&s);
}
END_TEST

static const char *need_root(void)
{
	struct stat st;

	if (geteuid() != 0)
		return "needs root (bpf(), perf_event_open, tracefs)";
	if (stat(COUNT_OBJ, &st) != 0)
		return "no " COUNT_OBJ " (make builds it)";
	return NULL;
}

static Suite *attach_suite(void)
{
	Suite *s = suite_create("attach");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_tracefs_find);
	tcase_add_test(tc, test_tp_field);
	tcase_add_test(tc, test_tracepoint_counts_execs);
	tcase_add_test(tc, test_tracepoint_errors);
	tcase_add_test(tc, test_kprobe_unavailable);
	tcase_add_test(tc, test_funcs_find);
	tcase_add_test(tc, test_tracefs_mount);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(attach, attach_suite, need_root)
