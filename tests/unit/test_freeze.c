/* SPDX-License-Identifier: MIT */
/*
 * freeze and qenter, the parts without a kernel: which functions they probe
 * on the names each kernel has (as seen in QEMU on 4.15.11, Debian's 5.10
 * and 6.1, and this machine's 6.18), and the freeze summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "freeze_mod.h"
#include "kernel.h"
#include "probe.h"

/* available_filter_functions, the block-layer part, per kernel */
static const char names_415[] =
	"blk_queue_enter\n"
	"blk_freeze_queue_start\n"
	"blk_mq_freeze_queue_wait\n"
	"blk_mq_freeze_queue_wait_timeout\n"
	"blk_freeze_queue\n"
	"blk_mq_freeze_queue\n"
	"blk_mq_unfreeze_queue\n"
	"queue_attr_store\n"
	"queue_attr_show\n";
static const char names_61[] =
	"blk_queue_enter\n"
	"__bio_queue_enter\n"
	"blk_freeze_queue_start\n"
	"blk_mq_freeze_queue_wait\n"
	"blk_freeze_queue\n"
	"blk_mq_freeze_queue\n"
	"__blk_mq_unfreeze_queue\n"
	"blk_mq_unfreeze_queue\n";
static const char names_618[] =
	"blk_queue_enter\n"
	"__bio_queue_enter\n"
	"blk_mq_freeze_queue_wait\n"
	"blk_mq_unfreeze_queue_nomemrestore\n"
	"blk_mq_unfreeze_queue_non_owner\n"
	"__blk_freeze_queue_start\n"
	"blk_freeze_queue_start\n"
	"blk_mq_freeze_queue_nomemsave\n"
	"__blk_mq_unfreeze_queue\n"
	"__ftrace_invalid_address___64\n";

static int names(const char *text, char ***v)
{
	int n = kprobe_match_text(text, "*", v);

	ck_assert_int_gt(n, 0);
	return n;
}

static void expect_all(const char *const *chain, const char *text,
		       const char *want)
{
	const char *out[8];
	char got[512] = "", **v;
	int n = names(text, &v), k, i;

	k = fn_pick_all(chain, v, n, out, 8);
	for (i = 0; i < k; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i ? " " : "", out[i]);
	ck_assert_str_eq(got, want);
	bb_free_strv(v, n);
}

START_TEST(test_start_functions_per_kernel)
{
	/* wrappers first: a freeze is counted (and its stack taken) at the
	 * outermost one; the others are the same call seen again */
	expect_all(freeze_start_fns, names_415,
		   "blk_mq_freeze_queue blk_freeze_queue blk_freeze_queue_start");
	expect_all(freeze_start_fns, names_618,
		   "blk_mq_freeze_queue_nomemsave blk_freeze_queue_start "
		   "__blk_freeze_queue_start");
}
END_TEST

START_TEST(test_end_functions_per_kernel)
{
	expect_all(freeze_end_fns, names_415, "blk_mq_unfreeze_queue");
	/* 6.1 inlines blk_mq_unfreeze_queue into blk_mq_update_nr_requests,
	 * which then calls __blk_mq_unfreeze_queue: both must be probed */
	expect_all(freeze_end_fns, names_61,
		   "blk_mq_unfreeze_queue __blk_mq_unfreeze_queue");
	expect_all(freeze_end_fns, names_618,
		   "blk_mq_unfreeze_queue_nomemrestore "
		   "blk_mq_unfreeze_queue_non_owner __blk_mq_unfreeze_queue");
}
END_TEST

START_TEST(test_pick_first)
{
	char **v;
	int n;

	n = names(names_415, &v);
	ck_assert_int_eq(fn_pick_first(qenter_slow_fns, v, n), -ENOENT);
	bb_free_strv(v, n);
	n = names(names_618, &v);
	ck_assert_int_eq(fn_pick_first(qenter_slow_fns, v, n), 0);
	ck_assert_str_eq(qenter_slow_fns[0], "__bio_queue_enter");
	ck_assert(fn_available(v, n, "blk_queue_enter"));
	ck_assert(!fn_available(v, n, "blk_queue_ente"));
	ck_assert(!fn_available(v, n, "__ftrace_invalid_address___64"));
	bb_free_strv(v, n);
	ck_assert(!fn_available(NULL, 0, "blk_queue_enter"));
}
END_TEST

static const char ksyms_text[] =
	"ffffffff81100000 T blk_mq_freeze_queue\n"
	"ffffffff81100100 T blk_freeze_queue_start\n"
	"ffffffff81200000 t elv_iosched_store\n"
	"ffffffff81300000 t queue_requests_store\n"
	"ffffffff81400000 t queue_attr_store\n";

static const uint64_t elv[] = { 0xffffffff81100001ULL, 0xffffffff812000e9ULL,
				0xffffffff8140005cULL };
static const uint64_t nrq[] = { 0xffffffff81100101ULL, 0xffffffff8130009aULL,
				0xffffffff8140005cULL };

static void fill(struct freeze_sum *s)
{
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(freeze_sum_add(s, "nullb0", "scheduler", elv, 3, 17000000, 16000000), 0);
	ck_assert_int_eq(freeze_sum_add(s, "nullb0", "nr_requests", nrq, 3, 5000000, 4000000), 0);
	ck_assert_int_eq(freeze_sum_add(s, "sda", "nr_requests", nrq, 3, 30000000, 29000000), 0);
	ck_assert_int_eq(freeze_sum_add(s, "", NULL, NULL, -14, 1000000, 0), 0);
	ck_assert_int_eq(freeze_sum_add(s, "nullb0", "scheduler", elv, 3, 2000000, 1000000), 0);
}

START_TEST(test_sum_aggregates)
{
	struct freeze_sum s;

	fill(&s);
	ck_assert_uint_eq(s.count, 5);
	ck_assert_uint_eq(s.frozen_ns, 55000000);
	ck_assert_int_eq(s.ndisks, 3);
	ck_assert_int_eq(s.nstacks, 3); /* elv, nrq, none */
	freeze_sum_sort(&s);
	/* most frozen time first */
	ck_assert_str_eq(s.disks[0].disk, "sda");
	ck_assert_str_eq(s.disks[1].disk, "nullb0");
	ck_assert_uint_eq(s.disks[1].count, 3);
	ck_assert_uint_eq(s.disks[1].frozen_ns, 24000000);
	ck_assert_uint_eq(s.disks[1].max_ns, 17000000);
	ck_assert_uint_eq(s.disks[1].drain_ns, 21000000);
	ck_assert_str_eq(s.disks[2].disk, "?"); /* unknown disk */
	/* per queue/ file, whatever the disk; "-": not a sysfs write */
	ck_assert_int_eq(s.nattrs, 3);
	ck_assert_str_eq(s.attrs[0].disk, "nr_requests");
	ck_assert_uint_eq(s.attrs[0].count, 2);
	ck_assert_uint_eq(s.attrs[0].frozen_ns, 35000000);
	ck_assert_uint_eq(s.attrs[0].max_ns, 30000000);
	ck_assert_uint_eq(s.attrs[0].drain_ns, 33000000);
	ck_assert_str_eq(s.attrs[1].disk, "scheduler");
	ck_assert_uint_eq(s.attrs[1].count, 2);
	ck_assert_uint_eq(s.attrs[1].frozen_ns, 19000000);
	ck_assert_str_eq(s.attrs[2].disk, "-");
	ck_assert_uint_eq(s.attrs[2].count, 1);
	ck_assert_int_eq(s.stacks[0].nips, 3);
	ck_assert_uint_eq(s.stacks[0].ips[1], nrq[1]);
	ck_assert_uint_eq(s.stacks[0].count, 2);
	ck_assert_uint_eq(s.stacks[0].frozen_ns, 35000000);
	ck_assert_uint_eq(s.stacks[1].ips[1], elv[1]);
	ck_assert_uint_eq(s.stacks[1].count, 2);
	ck_assert_int_eq(s.stacks[2].nips, 0); /* the lost stack */
	freeze_sum_free(&s);
	ck_assert_int_eq(s.ndisks, 0);
	freeze_sum_free(&s); /* twice is harmless */
}
END_TEST

static char *render(const struct freeze_sum *s, int json)
{
	struct bb_ksyms *ks = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(ksyms_parse(&ks, ksyms_text), 0);
	if (json)
		freeze_sum_json(f, s, ks);
	else
		freeze_sum_print(f, s, ks);
	fclose(f);
	ksyms_free(ks);
	return buf;
}

START_TEST(test_sum_text)
{
	struct freeze_sum s;
	char *out;
	const char *want =
		"\n2 freezes, 22.000 ms frozen in total\n"
		"\n"
		"DISK              FREEZES   FROZEN(ms)    MAX(ms)    DRAIN(ms)\n"
		"nullb0                  2       22.000     17.000       20.000\n"
		"\n"
		"ATTR              FREEZES   FROZEN(ms)    MAX(ms)    DRAIN(ms)\n"
		"scheduler               1       17.000     17.000       16.000\n"
		"nr_requests             1        5.000      5.000        4.000\n"
		"\n"
		" FREEZES   FROZEN(ms)    MAX(ms)  STACK\n"
		"       1       17.000     17.000  blk_mq_freeze_queue+0x1 [kernel]\n"
		"                                  elv_iosched_store+0xe9 [kernel]\n"
		"                                  queue_attr_store+0x5c [kernel]\n"
		"       1        5.000      5.000  blk_freeze_queue_start+0x1 [kernel]\n"
		"                                  queue_requests_store+0x9a [kernel]\n"
		"                                  queue_attr_store+0x5c [kernel]\n";

	memset(&s, 0, sizeof(s));
	freeze_sum_add(&s, "nullb0", "nr_requests", nrq, 3, 5000000, 4000000);
	freeze_sum_add(&s, "nullb0", "scheduler", elv, 3, 17000000, 16000000);
	freeze_sum_sort(&s);
	out = render(&s, 0);
	ck_assert_str_eq(out, want);
	free(out);

	s.no_stacks = 1; /* --no-stack: no table of stacks */
	out = render(&s, 0);
	ck_assert_ptr_null(strstr(out, "STACK"));
	free(out);
	freeze_sum_free(&s);

	out = render(&s, 0); /* nothing froze */
	ck_assert_str_eq(out, "\n0 freezes, 0.000 ms frozen in total\n");
	free(out);

	/* what was healed or not seen is said, and only then */
	s.healed = 1;
	s.unseen = 2;
	out = render(&s, 0);
	ck_assert_str_eq(out, "\n0 freezes, 0.000 ms frozen in total\n"
			 "healed 1 time: a queue we held frozen was made anew "
			 "or frozen anew by the kernel (it was torn down frozen, "
			 "or its unfreeze was missed); the freeze left open is "
			 "not reported\n"
			 "2 unfreezes of freezes that began before tracing (not "
			 "reported)\n");
	free(out);
}
END_TEST

START_TEST(test_sum_json)
{
	struct freeze_sum s;
	char *out;

	memset(&s, 0, sizeof(s));
	freeze_sum_add(&s, "nullb0", "scheduler", elv, 2, 17000000, 16000000);
	freeze_sum_add(&s, "a\"b", "", NULL, 0, 1500, 0);
	freeze_sum_sort(&s);
	s.healed = 3;
	s.unseen = 1;
	out = render(&s, 1);
	ck_assert_str_eq(out,
		"{\"freezes\":2,\"frozen_us\":17001,\"healed\":3,"
		"\"unseen\":1,\"disks\":["
		"{\"disk\":\"nullb0\",\"freezes\":1,\"frozen_us\":17000,"
		"\"max_us\":17000,\"drain_us\":16000},"
		"{\"disk\":\"a\\\"b\",\"freezes\":1,\"frozen_us\":1,"
		"\"max_us\":1,\"drain_us\":0}],\"attrs\":["
		"{\"attr\":\"scheduler\",\"freezes\":1,\"frozen_us\":17000,"
		"\"max_us\":17000,\"drain_us\":16000},"
		"{\"attr\":null,\"freezes\":1,\"frozen_us\":1,"
		"\"max_us\":1,\"drain_us\":0}],\"stacks\":["
		"{\"freezes\":1,\"frozen_us\":17000,\"max_us\":17000,"
		"\"stack\":[\"blk_mq_freeze_queue+0x1\",\"elv_iosched_store+0xe9\"]},"
		"{\"freezes\":1,\"frozen_us\":1,\"max_us\":1,\"stack\":[]}]}");
	free(out);
	freeze_sum_free(&s);
}
END_TEST

static Suite *freeze_suite(void)
{
	Suite *s = suite_create("freeze");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_start_functions_per_kernel);
	tcase_add_test(tc, test_end_functions_per_kernel);
	tcase_add_test(tc, test_pick_first);
	tcase_add_test(tc, test_sum_aggregates);
	tcase_add_test(tc, test_sum_text);
	tcase_add_test(tc, test_sum_json);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(freeze, freeze_suite, NULL)
