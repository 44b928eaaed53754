/* SPDX-License-Identifier: MIT */
/* The matching of known values in copies of socks (sockoff_solve.c), on
 * synthetic socks; tcpconnect's and tcpaccept's lines. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "sockoff_solve.h"
#include "tcpconnect_out.h"
#include "tcpaccept_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

/* where a layout puts each field (x86_64 4.9's sock_common; a 32-bit
 * one) */
static const uint32_t lay64[SOCKOFF_NFIELDS] = { 0, 4, 12, 14, 16, 18, 56,
						 72 };
static const uint32_t lay32[SOCKOFF_NFIELDS] = { 0, 4, 12, 14, 16, 18, 40,
						 56 };

static uint32_t seed = 12345;
static uint8_t noise(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 24;
}

/* conn i of the discovery's plan, its values written at lay's offsets
 * into noise */
static void conn(struct sockoff_conn *c, int i, const uint32_t *lay,
		 int v6kernel)
{
	static const struct { int v6, ca, sa, closed; } plan[4] = {
		{ 0, 2, 1, 1 }, { 0, 3, 4, 0 }, { 1, 5, 6, 1 }, { 1, 0, 0, 0 },
	};
	unsigned k;

	memset(c, 0, sizeof(*c));
	for (k = 0; k < sizeof(c->snap); k++)
		c->snap[k] = noise();
	c->v4_known = !plan[i].v6 || plan[i].ca;
	c->v6_known = plan[i].v6;
	c->family_known = !plan[i].v6 || !plan[i].ca;
	c->daddr = htonl(0x7f000000u | plan[i].ca);
	c->saddr = htonl(0x7f000000u | plan[i].sa);
	c->dport = htons(40000 + i * 7);
	c->num = 5000 + i * 3;
	c->family = plan[i].v6 ? 10 : 2;
	c->state = plan[i].closed ? 8 : 1;
	if (plan[i].v6 && plan[i].ca) {
		c->v6d[10] = c->v6d[11] = c->v6s[10] = c->v6s[11] = 0xff;
		memcpy(c->v6d + 12, &c->daddr, 4);
		memcpy(c->v6s + 12, &c->saddr, 4);
	} else if (plan[i].v6) {
		c->v6d[15] = c->v6s[15] = 1;
	}
	/* what the kernel holds, known or not: a mapped sock has its IPv4
	 * addresses, an IPv6 one 127.0.0.6 or anything */
	memcpy(c->snap + lay[SOCKOFF_DADDR], &c->daddr, 4);
	memcpy(c->snap + lay[SOCKOFF_SADDR], &c->saddr, 4);
	memcpy(c->snap + lay[SOCKOFF_DPORT], &c->dport, 2);
	memcpy(c->snap + lay[SOCKOFF_NUM], &c->num, 2);
	memcpy(c->snap + lay[SOCKOFF_FAMILY], &c->family, 2);
	c->snap[lay[SOCKOFF_STATE]] = c->state;
	if (plan[i].v6) {
		memcpy(c->snap + lay[SOCKOFF_V6D], c->v6d, 16);
		memcpy(c->snap + lay[SOCKOFF_V6S], c->v6s, 16);
	} else if (v6kernel) {
		/* sk_daddr_set: an IPv4 sock's addresses, mapped, in the
		 * IPv6 ones too */
		static const uint8_t m[12] = { [10] = 0xff, [11] = 0xff };

		memcpy(c->snap + lay[SOCKOFF_V6D], m, 12);
		memcpy(c->snap + lay[SOCKOFF_V6D] + 12, &c->daddr, 4);
		memcpy(c->snap + lay[SOCKOFF_V6S], m, 12);
		memcpy(c->snap + lay[SOCKOFF_V6S] + 12, &c->saddr, 4);
	}
}

/* n socks of the plan; on a kernel with IPv6 if n is 4 */
static void conns(struct sockoff_conn *c, int n, const uint32_t *lay)
{
	int i;

	for (i = 0; i < n; i++)
		conn(&c[i], i, lay, n == 4);
}

START_TEST(test_finds_every_field)
{
	const uint32_t *lays[2] = { lay64, lay32 };
	struct sockoff_conn c[4];
	struct sockoff_result r;
	int l, f;

	for (l = 0; l < 2; l++) {
		conns(c, 4, lays[l]);
		sockoff_solve(c, 4, 1, &r);
		for (f = 0; f < SOCKOFF_NFIELDS; f++) {
			ck_assert_msg(r.ret[f] == 0, "%s: %d %s",
				      sockoff_paths[f], r.ret[f], r.why[f]);
			ck_assert_uint_eq(r.off[f], lays[l][f]);
		}
		ck_assert_uint_eq(r.size[SOCKOFF_STATE], 1);
		ck_assert_uint_eq(r.size[SOCKOFF_FAMILY], 2);
		ck_assert_uint_eq(r.size[SOCKOFF_V6S], 16);
	}
}
END_TEST

/* no IPv6: two IPv4 socks, the family placed between skc_num and
 * skc_state; the IPv6 fields refused */
START_TEST(test_ipv4_only)
{
	struct sockoff_conn c[2];
	struct sockoff_result r;
	int f;

	conns(c, 2, lay64);
	sockoff_solve(c, 2, 0, &r);
	for (f = 0; f < SOCKOFF_V6D; f++) {
		ck_assert_msg(r.ret[f] == 0, "%s: %s", sockoff_paths[f],
			      r.why[f]);
		ck_assert_uint_eq(r.off[f], lay64[f]);
	}
	ck_assert_ptr_nonnull(strstr(r.why[SOCKOFF_FAMILY], "between"));
	ck_assert_int_eq(r.ret[SOCKOFF_V6D], -EOPNOTSUPP);
	ck_assert_int_eq(r.ret[SOCKOFF_V6S], -EOPNOTSUPP);
}
END_TEST

/* the same values at two offsets of every sock: refused, not guessed */
START_TEST(test_ambiguous_refused)
{
	struct sockoff_conn c[4];
	struct sockoff_result r;
	int i;

	conns(c, 4, lay64);
	for (i = 0; i < 4; i++)
		memcpy(c[i].snap + 100, &c[i].dport, 2);
	sockoff_solve(c, 4, 1, &r);
	ck_assert_int_eq(r.ret[SOCKOFF_DPORT], -EEXIST);
	ck_assert_ptr_nonnull(strstr(r.why[SOCKOFF_DPORT], "2 offsets"));
	ck_assert_int_eq(r.ret[SOCKOFF_DADDR], 0);
	ck_assert_int_eq(r.ret[SOCKOFF_NUM], 0);
}
END_TEST

/* a value found in one sock only (the second disagrees): not found; and
 * the family, placed by the state, with it where there is no IPv6 */
START_TEST(test_missing_refused)
{
	struct sockoff_conn c[2];
	struct sockoff_result r;

	conns(c, 2, lay64);
	c[1].snap[lay64[SOCKOFF_STATE]] = 7;
	sockoff_solve(c, 2, 0, &r);
	ck_assert_int_eq(r.ret[SOCKOFF_STATE], -ESRCH);
	ck_assert_int_ne(r.ret[SOCKOFF_FAMILY], 0);
	ck_assert_int_eq(r.ret[SOCKOFF_SADDR], 0);
}
END_TEST

/* a value all the socks share tells nothing */
START_TEST(test_same_values_no_data)
{
	struct sockoff_conn c[2];
	uint32_t off = 0;
	int count = -1;

	conns(c, 2, lay64);
	c[1].num = c[0].num;
	memcpy(c[1].snap + lay64[SOCKOFF_NUM], &c[1].num, 2);
	ck_assert_int_eq(sockoff_match(c, 2, SOCKOFF_NUM, 0, SOCKOFF_WINDOW,
				       NULL, &off, &count), -ENODATA);
	ck_assert_int_eq(sockoff_match(c, 1, SOCKOFF_SADDR, 0, SOCKOFF_WINDOW,
				       NULL, &off, &count), -ENODATA);
	ck_assert_int_eq(sockoff_match(c, 2, SOCKOFF_SADDR, 0, SOCKOFF_WINDOW,
				       NULL, &off, &count), 0);
	ck_assert_uint_eq(off, 4);
	/* the range: outside it, none */
	ck_assert_int_eq(sockoff_match(c, 2, SOCKOFF_SADDR, 8, SOCKOFF_WINDOW,
				       NULL, &off, &count), -ESRCH);
}
END_TEST

static struct tcpconn_event ev(int ip)
{
	struct tcpconn_event e;

	memset(&e, 0, sizeof(e));
	e.ts = 3500000000ull;
	e.pid = 4000;
	e.tid = 4001;
	e.uid = 1000;
	e.ip = ip;
	e.lport = 43210;
	e.dport = 80;
	if (ip == 4) {
		inet_pton(AF_INET, "10.1.2.3", e.saddr);
		inet_pton(AF_INET, "192.168.0.9", e.daddr);
	} else {
		inet_pton(AF_INET6, "::1", e.saddr);
		inet_pton(AF_INET6, "fe80::1", e.daddr);
	}
	memcpy(e.comm, "curl_with_a_long_name", 16);
	return e;
}

START_TEST(test_tcpconnect_like_bcc)
{
	struct tcpconn_event e = ev(4), e6 = ev(6);
	char *out;

	RENDER(out, tcpconnect_print_header(f, 0));
	ck_assert_str_eq(out, "PID    COMM         IP SADDR            DADDR"
			 "            DPORT\n");
	free(out);
	RENDER(out, tcpconnect_print(f, &e, 0, 0, 0));
	ck_assert_str_eq(out, "4000   curl_with_a_ 4  10.1.2.3         "
			 "192.168.0.9      80\n");
	free(out);
	RENDER(out, tcpconnect_print_header(f, TCPCONNECT_TS | TCPCONNECT_UID |
					    TCPCONNECT_LPORT));
	ck_assert_str_eq(out, "TIME(s)  UID   PID    COMM         IP SADDR  "
			 "          LPORT  DADDR            DPORT\n");
	free(out);
	RENDER(out, tcpconnect_print(f, &e6, 1.25, TCPCONNECT_TS |
				     TCPCONNECT_UID | TCPCONNECT_LPORT, 0));
	ck_assert_str_eq(out, "1.250    1000  4000   curl_with_a_ 6  ::1   "
			 "           43210  fe80::1          80\n");
	free(out);
	RENDER(out, tcpconnect_print_count(f, &e, 7, 0));
	ck_assert_str_eq(out, "10.1.2.3                  192.168.0.9        "
			 "       80                   7         \n");
	free(out);
}
END_TEST

START_TEST(test_tcpaccept_like_bcc)
{
	struct tcpconn_event e = ev(4);
	char *out;

	RENDER(out, tcpaccept_print_header(f, 0));
	ck_assert_str_eq(out, "PID     COMM         IP RADDR            RPORT"
			 " LADDR            LPORT\n");
	free(out);
	RENDER(out, tcpaccept_print(f, &e, "12:00:01", 0, 0, 0));
	ck_assert_str_eq(out, "4000    curl_with_a_ 4  192.168.0.9      80   "
			 " 10.1.2.3         43210\n");
	free(out);
	RENDER(out, tcpaccept_print(f, &e, "12:00:01", 0, 0, 1));
	ck_assert_str_eq(out, "{\"pid\":4000,\"tid\":4001,\"comm\":\"curl_with_"
			 "a_long\",\"ip\":4,\"raddr\":\"192.168.0.9\","
			 "\"rport\":80,\"laddr\":\"10.1.2.3\",\"lport\":43210}"
			 "\n");
	free(out);
}
END_TEST

static Suite *sockoff_suite(void)
{
	Suite *s = suite_create("sockoff");
	TCase *tc = tcase_create("match");

	tcase_add_test(tc, test_finds_every_field);
	tcase_add_test(tc, test_ipv4_only);
	tcase_add_test(tc, test_ambiguous_refused);
	tcase_add_test(tc, test_missing_refused);
	tcase_add_test(tc, test_same_values_no_data);
	tcase_add_test(tc, test_tcpconnect_like_bcc);
	tcase_add_test(tc, test_tcpaccept_like_bcc);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(sockoff, sockoff_suite, NULL)
