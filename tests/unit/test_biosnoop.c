/* SPDX-License-Identifier: MIT */
/*
 * The lines biosnoop and slowbio print for a record: bcc's biosnoop
 * columns, the article's slowbio columns, and JSON that survives any comm.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "barebpf.h"
#include "biosnoop_out.h"
#include "slowbio_out.h"

/* Call fn(f, ...) on a memory stream and return what it wrote. */
#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static struct biosnoop_event read_4k(void)
{
	struct biosnoop_event e;

	memset(&e, 0, sizeof(e));
	e.ts = 5000000000ULL + 1500000; /* 1.5 ms after start */
	e.delta = 17030000;             /* 17.03 ms */
	e.sector = 2392;
	e.dev = 7 << 20;
	e.nr_sector = 8;
	e.pid = 4242;
	e.flags = BIOSNOOP_F_WHO;
	memcpy(e.rwbs, "RS", 3);
	memcpy(e.comm, "dd", 3);
	return e;
}

START_TEST(test_type_from_rwbs)
{
	ck_assert_int_eq(biosnoop_type("R"), 'R');
	ck_assert_int_eq(biosnoop_type("RS"), 'R');
	ck_assert_int_eq(biosnoop_type("RA"), 'R');
	ck_assert_int_eq(biosnoop_type("W"), 'W');
	ck_assert_int_eq(biosnoop_type("WS"), 'W');
	ck_assert_int_eq(biosnoop_type("WFS"), 'W');  /* FUA write */
	ck_assert_int_eq(biosnoop_type("FWS"), 'W');  /* preflush + write */
	ck_assert_int_eq(biosnoop_type("FF"), 'F');   /* preflush + flush */
	ck_assert_int_eq(biosnoop_type("F"), 'F');    /* flush alone */
	ck_assert_int_eq(biosnoop_type("D"), 'D');
	ck_assert_int_eq(biosnoop_type("DE"), 'D');   /* secure erase */
	ck_assert_int_eq(biosnoop_type("N"), 'N');
}
END_TEST

START_TEST(test_header_like_bcc)
{
	char *out = NULL;

	RENDER(out, biosnoop_print_header(f, 0));
	ck_assert_str_eq(out, "TIME(s)     COMM           PID    DISK    T "
			 "SECTOR     BYTES   LAT(ms)\n");
	free(out);
	RENDER(out, biosnoop_print_header(f, 1));
	ck_assert_str_eq(out, "TIME(s)     COMM           PID    DISK    T "
			 "SECTOR     BYTES   QUE(ms) LAT(ms)\n");
	free(out);
}
END_TEST

START_TEST(test_line_like_bcc)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	RENDER(out, biosnoop_print(f, &e, 5000000000ULL, "loop7", 0));
	ck_assert_str_eq(out, "0.001500    dd             4242   loop7   R "
			 "2392       4096      17.03\n");
	free(out);
}
END_TEST

/* Columns stay apart when every field is wider than bcc's width. */
START_TEST(test_line_wide_fields)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	e.nr_sector = 2048;          /* 1 MiB: 7 digits */
	e.delta = 1234567000000ULL;  /* 1234567 ms */
	e.sector = 123456789012ULL;
	memcpy(e.comm, "a_very_long_comm", 16); /* 16 bytes, no NUL */
	RENDER(out, biosnoop_print(f, &e, 5000000000ULL, "nvme0n1", 0));
	ck_assert_str_eq(out, "0.001500    a_very_long_co 4242   nvme0n1 R "
			 "123456789012 1048576 1234567.00\n");
	free(out);
}
END_TEST

START_TEST(test_line_queued)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	RENDER(out, biosnoop_print(f, &e, 5000000000ULL, "loop7", 1));
	/* never inserted: issued directly, no OS queue time to show */
	ck_assert_str_eq(out, "0.001500    dd             4242   loop7   R "
			 "2392       4096          -   17.03\n");
	free(out);
	e.flags |= BIOSNOOP_F_INSERTED;
	e.qdelta = 250000;
	RENDER(out, biosnoop_print(f, &e, 5000000000ULL, "loop7", 1));
	ck_assert_str_eq(out, "0.001500    dd             4242   loop7   R "
			 "2392       4096       0.25   17.03\n");
	free(out);
}
END_TEST

START_TEST(test_line_unknown_submitter)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	e.flags = 0; /* no block_getrq seen: comm and pid are not valid */
	e.pid = 0;
	memcpy(e.rwbs, "FF", 3);
	e.nr_sector = 0;
	RENDER(out, biosnoop_print(f, &e, 5000000000ULL, "sda", 0));
	ck_assert_str_eq(out, "0.001500    ?              0      sda     F "
			 "2392       0         17.03\n");
	free(out);
}
END_TEST

/* A record from another CPU may be older than the first one printed. */
START_TEST(test_line_before_start)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	RENDER(out, biosnoop_print(f, &e, e.ts + 2000, "sda", 0));
	ck_assert_ptr_nonnull(strstr(out, "-0.000002   dd"));
	free(out);
}
END_TEST

START_TEST(test_json)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	RENDER(out, biosnoop_print_json(f, &e, 5000000000ULL, "loop7", 0));
	ck_assert_str_eq(out, "{\"time\":0.001500,\"comm\":\"dd\",\"pid\":4242,"
			 "\"disk\":\"loop7\",\"t\":\"R\",\"rwbs\":\"RS\","
			 "\"sector\":2392,\"bytes\":4096,\"lat_ms\":17.030}\n");
	free(out);
	RENDER(out, biosnoop_print_json(f, &e, 5000000000ULL, "loop7", 1));
	ck_assert_ptr_nonnull(strstr(out, ",\"que_ms\":null,\"lat_ms\":17.030}"));
	free(out);
	e.flags |= BIOSNOOP_F_INSERTED;
	e.qdelta = 250000;
	RENDER(out, biosnoop_print_json(f, &e, 5000000000ULL, "loop7", 1));
	ck_assert_ptr_nonnull(strstr(out, ",\"que_ms\":0.250,\"lat_ms\":17.030}"));
	free(out);
}
END_TEST

/* A task may name itself anything (prctl PR_SET_NAME): still JSON. */
START_TEST(test_json_escapes_comm)
{
	struct biosnoop_event e = read_4k();
	char *out = NULL;

	memcpy(e.comm, "a\"b\\c\nd", 8);
	RENDER(out, biosnoop_print_json(f, &e, 5000000000ULL, "loop7", 0));
	ck_assert_ptr_nonnull(strstr(out, "\"comm\":\"a\\\"b\\\\c\\nd\","));
	free(out);
}
END_TEST

static struct slowbio_event slow_call(void)
{
	struct slowbio_event e;

	memset(&e, 0, sizeof(e));
	e.ts = 7000000000ULL + 123456789; /* 0.123456789 s after start */
	e.lat = 16384500;                 /* 16384.5 us */
	e.pid = 977;
	e.tid = 978;
	e.dev = 252 << 20;
	memcpy(e.comm, "dd", 3);
	return e;
}

START_TEST(test_slowbio_lines)
{
	struct slowbio_event e = slow_call();
	char *out = NULL;

	RENDER(out, slowbio_print_header(f, 0));
	ck_assert_str_eq(out, "TIME(s)            COMM             PID        "
			 "LAT(us) DISK\n");
	free(out);
	RENDER(out, slowbio_print(f, &e, 7000000000ULL, "nullb0", 0));
	ck_assert_str_eq(out, "0.123456789        dd               977          "
			 "16384 nullb0\n");
	free(out);
	RENDER(out, slowbio_print_header(f, 1));
	ck_assert_ptr_nonnull(strstr(out, "LAT(ms) DISK\n"));
	free(out);
	RENDER(out, slowbio_print(f, &e, 7000000000ULL, "nullb0", 1));
	ck_assert_str_eq(out, "0.123456789        dd               977          "
			 "16.38 nullb0\n");
	free(out);
}
END_TEST

START_TEST(test_slowbio_json)
{
	struct slowbio_event e = slow_call();
	char *out = NULL;

	memcpy(e.comm, "sixteen_chars_xx", 16); /* no NUL */
	RENDER(out, slowbio_print_json(f, &e, 7000000000ULL, "nullb0"));
	ck_assert_str_eq(out, "{\"time\":0.123456789,\"comm\":\"sixteen_chars_xx\","
			 "\"pid\":977,\"tid\":978,\"lat_us\":16384,"
			 "\"disk\":\"nullb0\"}\n");
	free(out);
}
END_TEST

static Suite *biosnoop_suite(void)
{
	Suite *s = suite_create("biosnoop");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_type_from_rwbs);
	tcase_add_test(tc, test_header_like_bcc);
	tcase_add_test(tc, test_line_like_bcc);
	tcase_add_test(tc, test_line_wide_fields);
	tcase_add_test(tc, test_line_queued);
	tcase_add_test(tc, test_line_unknown_submitter);
	tcase_add_test(tc, test_line_before_start);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_json_escapes_comm);
	tcase_add_test(tc, test_slowbio_lines);
	tcase_add_test(tc, test_slowbio_json);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(biosnoop, biosnoop_suite, NULL)
