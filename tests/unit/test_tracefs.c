/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"
#include "probe.h"

/* events/block/block_rq_complete/format as Linux 4.15.11 prints it. */
static const char fmt_415[] =
	"name: block_rq_complete\n"
	"ID: 1030\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] cmd;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"%d,%d %s (%s) %llu + %u [%d]\", ((unsigned int) "
	"((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - "
	"1))), REC->rwbs, __get_str(cmd), (unsigned long long)REC->sector, "
	"REC->nr_sector, REC->error\n";

/* The same event on 6.18 (ioprio added, rwbs grew to 10). */
static const char fmt_618[] =
	"name: block_rq_complete\n"
	"ID: 2107\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", REC->error\n";

static const struct bb_tp_field *find(const struct bb_tp_field *f, int n,
				      const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

#define CHECK_FIELD(f, n, nm, off, sz, sg)                                     \
	do {                                                                   \
		const struct bb_tp_field *x = find(f, n, nm);                  \
		ck_assert_msg(x != NULL, "no field %s", nm);                   \
		ck_assert_int_eq(x->offset, off);                              \
		ck_assert_int_eq(x->size, sz);                                 \
		ck_assert_int_eq(x->is_signed, sg);                            \
	} while (0)

START_TEST(test_format_415)
{
	struct bb_tp_field f[16];
	int n = tp_format_parse(fmt_415, f, 16);

	ck_assert_int_eq(n, 10);
	CHECK_FIELD(f, n, "common_type", 0, 2, 0);
	CHECK_FIELD(f, n, "common_pid", 4, 4, 1);
	CHECK_FIELD(f, n, "dev", 8, 4, 0);
	CHECK_FIELD(f, n, "sector", 16, 8, 0);
	CHECK_FIELD(f, n, "nr_sector", 24, 4, 0);
	CHECK_FIELD(f, n, "error", 28, 4, 1);
	CHECK_FIELD(f, n, "rwbs", 32, 8, 1);
	CHECK_FIELD(f, n, "cmd", 40, 4, 1);
	ck_assert_ptr_null(find(f, n, "ioprio"));
}
END_TEST

START_TEST(test_format_618)
{
	struct bb_tp_field f[16];
	int n = tp_format_parse(fmt_618, f, 16);

	ck_assert_int_eq(n, 11);
	CHECK_FIELD(f, n, "dev", 8, 4, 0);
	CHECK_FIELD(f, n, "sector", 16, 8, 0);
	CHECK_FIELD(f, n, "nr_sector", 24, 4, 0);
	CHECK_FIELD(f, n, "error", 28, 4, 1);
	CHECK_FIELD(f, n, "ioprio", 32, 2, 0);
	CHECK_FIELD(f, n, "rwbs", 34, 10, 0);
	CHECK_FIELD(f, n, "cmd", 44, 4, 0);
}
END_TEST

/* The declared type beside the name: what trace reads a field as. */
START_TEST(test_format_types)
{
	static const char text[] =
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:__rel_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:struct foo * foo;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield special:unsigned long   val ;\toffset:8;\tsize:8;\tsigned:0;\n";
	static const char *const want[][2] = {
		{ "common_type", "unsigned short" }, { "__syscall_nr", "int" },
		{ "filename", "const char *" }, { "flags", "int" },
		{ "prev_comm", "char[16]" },
		{ "parent_comm", "__data_loc char[]" },
		{ "name", "__rel_loc char[]" }, { "foo", "struct foo *" },
		{ "val", "unsigned long" },
	};
	struct bb_tp_field f[16];
	int n = tp_format_parse(text, f, 16), i;

	ck_assert_int_eq(n, 9);
	for (i = 0; i < n; i++) {
		ck_assert_str_eq(f[i].name, want[i][0]);
		ck_assert_str_eq(f[i].type, want[i][1]);
	}
}
END_TEST

START_TEST(test_format_count_and_limits)
{
	struct bb_tp_field f[3];

	/* Counting without storage, and storing only what fits. */
	ck_assert_int_eq(tp_format_parse(fmt_618, NULL, 0), 11);
	ck_assert_int_eq(tp_format_parse(fmt_618, f, 3), 11);
	ck_assert_str_eq(f[2].name, "common_preempt_count");
	ck_assert_int_eq(tp_format_parse("", f, 3), 0);
	ck_assert_int_eq(tp_format_parse("name: x\nID: 1\n", f, 3), 0);
	/* A field line without its offset is an error, not a guess. */
	ck_assert_int_eq(tp_format_parse("\tfield:int x;\tsize:4;\n", f, 3),
			 -EINVAL);
	ck_assert_int_eq(tp_format_parse("\tfield:int x\n", f, 3), -EINVAL);
	ck_assert_int_eq(tp_format_parse("\tfield:;\toffset:0;\tsize:4;\n",
					 f, 3), -EINVAL);
	/* No "signed:" (kernels before 2.6.32): unsigned. */
	ck_assert_int_eq(tp_format_parse("\tfield:int x;\toffset:8;\tsize:4;",
					 f, 3), 1);
	ck_assert_str_eq(f[0].name, "x");
	ck_assert_int_eq(f[0].offset, 8);
	ck_assert_int_eq(f[0].is_signed, 0);
}
END_TEST

START_TEST(test_events_line_pid)
{
	char ev[128];

	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf_1234/bb1234_0_blk_mq_freeze_queue "
				 "blk_mq_freeze_queue", ev, sizeof(ev)), 1234);
	ck_assert_str_eq(ev, "barebpf_1234/bb1234_0_blk_mq_freeze_queue");
	/* 4.15 prints "r:", newer kernels "r128:" for maxactive 128. */
	ck_assert_int_eq(kprobe_events_line_pid(
				 "r128:barebpf_77/bb77_3_blk_queue_enter "
				 "blk_queue_enter", ev, sizeof(ev)), 77);
	ck_assert_str_eq(ev, "barebpf_77/bb77_3_blk_queue_enter");
	ck_assert_int_eq(kprobe_events_line_pid(
				 "r:barebpf_9/x do_nanosleep\n", ev,
				 sizeof(ev)), 9);
	ck_assert_str_eq(ev, "barebpf_9/x");
	/* Other tools' probes, and groups that only look like ours. */
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:kprobes/foo vfs_read", ev, sizeof(ev)), 0);
	ck_assert_str_eq(ev, "kprobes/foo");
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf/foo vfs_read", ev, sizeof(ev)), 0);
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf_/foo vfs_read", ev, sizeof(ev)), 0);
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf_12x/foo vfs_read", ev, sizeof(ev)),
			 0);
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:mybarebpf_12/foo vfs_read", ev, sizeof(ev)),
			 0);
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf_0/foo vfs_read", ev, sizeof(ev)), 0);
	ck_assert_int_eq(kprobe_events_line_pid(
				 "p:barebpf_99999999999999/foo f", ev,
				 sizeof(ev)), 0);
	/* Not probe definitions at all. */
	ck_assert_int_eq(kprobe_events_line_pid("", ev, sizeof(ev)), -EINVAL);
	ck_assert_int_eq(kprobe_events_line_pid("# comment", ev, sizeof(ev)),
			 -EINVAL);
	ck_assert_int_eq(kprobe_events_line_pid("p:nogroup f", ev, sizeof(ev)),
			 -EINVAL);
	ck_assert_int_eq(kprobe_events_line_pid("p:g/ f", ev, sizeof(ev)),
			 -EINVAL);
	ck_assert_int_eq(kprobe_events_line_pid("x:g/e f", ev, sizeof(ev)),
			 -EINVAL);
	ck_assert_int_eq(kprobe_events_line_pid("p:barebpf_1/e f", ev, 5),
			 -ENAMETOOLONG);
}
END_TEST

START_TEST(test_profile_line)
{
	unsigned long hits = 9, misses = 9;
	char ev[64];

	ck_assert_int_eq(kprobe_profile_line(
				 "  bb1234_1_blk_mq_freeze_queue"
				 "                           17               3",
				 ev, sizeof(ev), &hits, &misses), 0);
	ck_assert_str_eq(ev, "bb1234_1_blk_mq_freeze_queue");
	ck_assert_uint_eq(hits, 17);
	ck_assert_uint_eq(misses, 3);
	ck_assert_int_eq(kprobe_profile_line("  ev1   0   0\n", ev, sizeof(ev),
					     &hits, &misses), 0);
	ck_assert_uint_eq(hits, 0);
	ck_assert_int_eq(kprobe_profile_line("", ev, sizeof(ev), &hits,
					     &misses), -EINVAL);
	ck_assert_int_eq(kprobe_profile_line("  ev1  12", ev, sizeof(ev),
					     &hits, &misses), -EINVAL);
}
END_TEST

static const char aff[] =
	"blk_queue_enter\n"
	"blk_mq_freeze_queue\n"
	"blk_mq_freeze_queue_wait\n"
	"blk_mq_freeze_queue_wait_timeout\n"
	"nvme_queue_rq [nvme]\n"
	"blk_mq_freeze_queue_wait\n"  /* a static of the same name, twice */
	"__ftrace_invalid_address___64\n"
	"blk_freeze_queue_start\n"
	"vfs_read";                   /* no final newline */

START_TEST(test_match_text)
{
	char **names = NULL;
	int n;

	n = kprobe_match_text(aff, "blk_mq_freeze_queue*", &names);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(names[0], "blk_mq_freeze_queue");
	ck_assert_str_eq(names[1], "blk_mq_freeze_queue_wait");
	ck_assert_str_eq(names[2], "blk_mq_freeze_queue_wait_timeout");
	bb_free_strv(names, n);

	n = kprobe_match_text(aff, "nvme_*", &names);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(names[0], "nvme_queue_rq"); /* module suffix gone */
	bb_free_strv(names, n);

	n = kprobe_match_text(aff, "vfs_read", &names);
	ck_assert_int_eq(n, 1);
	bb_free_strv(names, n);

	n = kprobe_match_text(aff, "*freeze*start", &names);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(names[0], "blk_freeze_queue_start");
	bb_free_strv(names, n);

	ck_assert_int_eq(kprobe_match_text(aff, "__ftrace*", &names), 0);
	ck_assert_ptr_null(names);
	ck_assert_int_eq(kprobe_match_text(aff, "submit_bio_noacct", &names),
			 0);
	ck_assert_int_eq(kprobe_match_text("", "*", &names), 0);
}
END_TEST

/* Groups carry the pid namespace: pid 1 in two containers differs. */
START_TEST(test_events_line_owner_ns)
{
	unsigned long ns;
	char ev[128];

	ck_assert_int_eq(kprobe_events_line_owner(
				 "p:barebpf_1_4026532198/bb1xf00000e6_0_vfs_read "
				 "vfs_read", ev, sizeof(ev), &ns), 1);
	ck_assert_uint_eq(ns, 4026532198UL);
	ck_assert_str_eq(ev, "barebpf_1_4026532198/bb1xf00000e6_0_vfs_read");
	/* the older form without a namespace: ns 0 (ours, by pid) */
	ck_assert_int_eq(kprobe_events_line_owner(
				 "r:barebpf_77/x f", ev, sizeof(ev), &ns), 77);
	ck_assert_uint_eq(ns, 0);
	/* malformed namespace parts are not ours */
	ck_assert_int_eq(kprobe_events_line_owner(
				 "p:barebpf_1_/x f", ev, sizeof(ev), &ns), 0);
	ck_assert_int_eq(kprobe_events_line_owner(
				 "p:barebpf_1_12a/x f", ev, sizeof(ev), &ns), 0);
	ck_assert_int_eq(kprobe_events_line_owner(
				 "p:barebpf_1_99999999999/x f", ev, sizeof(ev),
				 &ns), 0);
	ck_assert_int_eq(kprobe_events_line_owner(
				 "p:barebpf__5/x f", ev, sizeof(ev), &ns), 0);
}
END_TEST

/* The same functions as /proc/kallsyms lists them, with data symbols. */
static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff812a0000 t blk_queue_enter\n"
	"ffffffff812a0100 D blk_mq_freeze_queue_data\n"
	"ffffffff812a0200 T blk_mq_freeze_queue\n"
	"ffffffff812a0300 d percpu_ref_kill_and_confirm\n" /* data: not it */
	"ffffffff814a0000 T percpu_ref_kill_and_confirm\n"
	"ffffffffc0001000 t nvme_queue_rq\t[nvme]\n"
	"0000000000000000 T vfs_read"; /* kptr_restrict: no address */

START_TEST(test_funcs_text)
{
	const char *want[] = { "blk_mq_freeze_queue", "submit_bio_noacct",
			       "nvme_queue_rq", "blk_mq_freeze_queue_wait",
			       "blk_mq_freeze" };
	const char *ks[] = { "percpu_ref_kill_and_confirm", "vfs_read",
			     "blk_mq_freeze_queue_data", "nvme_queue_rq" };
	char found[5];

	/* every name, exact: no prefix, no module suffix in the way */
	ck_assert_int_eq(kprobe_funcs_text(aff, 0, want, 5, 5, found), 3);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 0);
	ck_assert_int_eq(found[2], 1);
	ck_assert_int_eq(found[3], 1);
	ck_assert_int_eq(found[4], 0);
	/* need 1: the pass ends at the first name, before nvme_queue_rq */
	ck_assert_int_eq(kprobe_funcs_text(aff, 0, want, 5, 1, found), 1);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[2], 0);
	/* need 0: to the end */
	ck_assert_int_eq(kprobe_funcs_text(aff, 0, want, 5, 0, found), 3);
	/* kallsyms: text symbols only, with or without addresses */
	ck_assert_int_eq(kprobe_funcs_text(kallsyms_text, 1, ks, 4, 4, found),
			 3);
	ck_assert_int_eq(found[0], 1);
	ck_assert_int_eq(found[1], 1);
	ck_assert_int_eq(found[2], 0);
	ck_assert_int_eq(found[3], 1);
	ck_assert_int_eq(kprobe_funcs_text("", 1, ks, 4, 4, found), 0);
	ck_assert_int_eq(kprobe_funcs_text("garbage\n\n x \n", 1, ks, 4, 4,
					   found), 0);
}
END_TEST

/* /sys/bus/event_source/devices/kprobe/format/retprobe */
START_TEST(test_pmu_format_bit)
{
	ck_assert_int_eq(kprobe_pmu_format_bit("config:0\n"), 0);
	ck_assert_int_eq(kprobe_pmu_format_bit("config:63"), 63);
	ck_assert_int_eq(kprobe_pmu_format_bit("config:64"), -EINVAL);
	ck_assert_int_eq(kprobe_pmu_format_bit("config:"), -EINVAL);
	ck_assert_int_eq(kprobe_pmu_format_bit("config:52-63"), -EINVAL);
	ck_assert_int_eq(kprobe_pmu_format_bit("config1:0"), -EINVAL);
	ck_assert_int_eq(kprobe_pmu_format_bit(""), -EINVAL);
}
END_TEST

/* bb_read_fd: whole contents, NUL-ended, for sizes around its first
 * 4 KiB stack buffer (a pipe, read like a pseudo file: no size known) */
START_TEST(test_read_fd_sizes)
{
	static const int sizes[] = { 0, 1, 1247, 4094, 4095, 4096, 10000 };
	static char want[10000];
	size_t k;
	int i;

	for (i = 0; i < (int)sizeof(want); i++)
		want[i] = 'a' + i % 23;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int p[2], len;
		char *buf;

		ck_assert_int_eq(pipe(p), 0);
		ck_assert_int_eq(write(p[1], want, sizes[k]), sizes[k]);
		close(p[1]);
		len = bb_read_fd(p[0], &buf);
		close(p[0]);
		ck_assert_int_eq(len, sizes[k]);
		ck_assert_ptr_nonnull(buf);
		ck_assert_int_eq(buf[len], 0);
		ck_assert_msg(!memcmp(buf, want, len), "%d bytes: contents differ",
			      sizes[k]);
		free(buf);
	}
}
END_TEST

static Suite *tracefs_suite(void)
{
	Suite *s = suite_create("tracefs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_format_415);
	tcase_add_test(tc, test_format_618);
	tcase_add_test(tc, test_format_types);
	tcase_add_test(tc, test_format_count_and_limits);
	tcase_add_test(tc, test_events_line_pid);
	tcase_add_test(tc, test_events_line_owner_ns);
	tcase_add_test(tc, test_profile_line);
	tcase_add_test(tc, test_match_text);
	tcase_add_test(tc, test_funcs_text);
	tcase_add_test(tc, test_pmu_format_bit);
	tcase_add_test(tc, test_read_fd_sizes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tracefs, tracefs_suite, NULL)
