/* SPDX-License-Identifier: MIT */
/*
 * The generated names of an object ($(O)/gen/NAME.skel.h, scripts/bbskel.c)
 * and the library's checks behind them (obj_skel_*): an id of another
 * object, out of range, or of a map not created is an error returned.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "skel.h"
#include "biolatency.skel.h"
#include "qenter.skel.h"
#include "trace.skel.h"
#include "trace_spec.h"
#include "obj.h"

static struct bb_obj *open_built(const char *name, unsigned char **buf)
{
	char path[256];
	struct bb_err err = { "" };
	struct bb_obj *obj = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), BB_BUILD_DIR "/bpf/%s.bpf.o", name);
	f = fopen(path, "rb");
	ck_assert_msg(f, "%s", path);
	*buf = malloc(1 << 20);
	ck_assert(*buf);
	len = fread(*buf, 1, 1 << 20, f);
	fclose(f);
	ck_assert_msg(obj_open(&obj, *buf, len, name, &err) == 0, "%s", err.msg);
	return obj;
}

START_TEST(test_skel_ids)
{
	unsigned char *buf;
	struct bb_obj *obj = open_built("biolatency", &buf);
	struct bb_err err = { "" };
	const struct bb_const *c;
	struct bb_map *m = NULL;
	int i, n;

	/* the generated lists are the object's names, in its order */
	ck_assert_int_eq(BIOLATENCY_NCONSTS, obj_consts(obj, &c));
	ck_assert_str_eq(biolatency_const_names[BIOLATENCY_C_filter_dev],
			 "filter_dev");
	ck_assert_str_eq(BIOLATENCY_P_rq_complete, "rq_complete");
	/* not bound yet: refused */
	ck_assert_int_eq(biolatency_set(obj, BIOLATENCY_C_unit_div, 1000),
			 -EINVAL);
	ck_assert_int_eq(obj_skel_bind(obj, &biolatency_skel, &err), 0);
	ck_assert_int_eq(biolatency_set(obj, BIOLATENCY_C_unit_div, 1000), 0);
	n = obj_consts(obj, &c);
	for (i = 0; i < n && strcmp(c[i].name, "unit_div"); i++)
		;
	ck_assert_int_lt(i, n);
	ck_assert(c[i].set && c[i].value == 1000);
	/* out of range, or the ids of another object */
	ck_assert_int_eq(obj_skel_set(obj, &biolatency_skel,
				      BIOLATENCY_NCONSTS, 1), -EINVAL);
	ck_assert_int_eq(obj_skel_set(obj, &biolatency_skel, -1, 1), -EINVAL);
	ck_assert_int_eq(obj_skel_set(obj, &qenter_skel, QENTER_C_need_dev, 1),
			 -EINVAL);
	ck_assert_int_eq(obj_skel_map_fd(obj, &biolatency_skel,
					 BIOLATENCY_NMAPS), -EINVAL);
	/* a map not created (no obj_load): an error, not a NULL or -1 fd */
	ck_assert_int_eq(biolatency_map(obj, BIOLATENCY_M_hist, &m), 0);
	ck_assert_str_eq(m->name, "hist");
	ck_assert_int_eq(biolatency_map_fd(obj, BIOLATENCY_M_hist), -EBADF);
	obj_close(obj);
	free(buf);
}
END_TEST

/* An object out of step with the header it is used with: bind says so. */
START_TEST(test_skel_bind_mismatch)
{
	unsigned char *buf;
	struct bb_obj *obj = open_built("biolatency", &buf);
	struct bb_err err = { "" };

	ck_assert_int_eq(obj_skel_bind(obj, &qenter_skel, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "no constant") || strstr(err.msg,
		      "no map"), "%s", err.msg);
	ck_assert_int_eq(qenter_set(obj, QENTER_C_need_dev, 1), -EINVAL);
	obj_close(obj);
	free(buf);
}
END_TEST

struct names_seen {
	int n, missing;
	char first[64];
};

static void seen(void *ctx, const char *name, uint64_t v)
{
	struct names_seen *c = ctx;
	int i;

	(void)v;
	c->n++;
	for (i = 0; i < TRACE_NCONSTS; i++)
		if (!strcmp(trace_const_names[i], name))
			return;
	if (!c->missing++)
		snprintf(c->first, sizeof(c->first), "%s", name);
}

/* trace's compiler names the object's constants by strings it makes
 * ("s3_off"): each one is a constant of the built object (traceobj_set
 * would refuse it at run time). */
START_TEST(test_skel_trace_names)
{
	struct trace_prog pr;
	struct names_seen c = { 0 };

	memset(&pr, 0, sizeof(pr));
	trace_prog_consts(&pr, 0, seen, &c);
	ck_assert_int_gt(c.n, 100);
	ck_assert_msg(c.missing == 0, "%d names not in trace.bpf.o, first %s",
		      c.missing, c.first);
}
END_TEST

static Suite *skel_suite(void)
{
	Suite *s = suite_create("skel");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_skel_ids);
	tcase_add_test(tc, test_skel_bind_mismatch);
	tcase_add_test(tc, test_skel_trace_names);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(skel, skel_suite, NULL)
