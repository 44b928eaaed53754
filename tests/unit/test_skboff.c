/* SPDX-License-Identifier: MIT */
/* The discovery of struct sk_buff's fields (skboff_solve.c) on synthetic
 * sk_buffs: known layouts found, ambiguous and missing fields refused by
 * name. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include "bbtest.h"
#include "skboff_solve.h"

/* where a layout puts each field, and the fields that look alike */
struct lay {
	uint32_t ps, head, nh, th, sk, data, mh, csum;
};
/* head, network_header, transport_header and sk as pahole gives them
 * (vm-tests/offsets/); data after head, mac_header after network_header:
 * x86_64 (4.9 to 6.18: the same offsets) */
static const struct lay lay64 = { 8, 192, 180, 178, 24, 200, 182, 152 };
/* arm64 4.15 */
static const struct lay laya64 = { 8, 184, 172, 170, 24, 192, 174, 144 };
/* armv7 4.19 (tail and end: pointers before head) */
static const struct lay lay32 = { 4, 160, 148, 146, 12, 164, 150, 96 };

static uint32_t seed = 4242;
static uint8_t noise(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 24;
}

static void put_ptr(struct skboff_rec *r, uint32_t off, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (r->ptr_size == 4)
		memcpy(r->win + off, &v32, 4);
	else
		memcpy(r->win + off, &v, 8);
}

static void put_u16(struct skboff_rec *r, uint32_t off, uint32_t v)
{
	uint16_t w = (uint16_t)v;

	memcpy(r->win + off, &w, 2);
}

/*
 * Datagram c of socket i as the discovery sends it (127.0.0.2+2i ->
 * 127.0.0.3+2i), at net_dev_queue, its slot at followed: data at the
 * Ethernet header, the IPv4 header at head + nh (nh_val), the UDP one
 * after it; csum: csum_start holds transport_header too
 * (CHECKSUM_PARTIAL). Everything else noise.
 */
static void rec(struct skboff_rec *r, int i, int c, uint32_t at,
		const struct lay *l, uint32_t nh_val, int csum)
{
	uint64_t base = l->ps == 4 ? 0xc2000000u : 0xffff888012340000ull;
	uint64_t head = base + 0x1000u * c, sk = base + 0x80000u + 0x800u * i;
	unsigned char pkt[38] = { 0 };
	uint32_t k;
	unsigned char *p = pkt + 14;

	memset(r, 0, sizeof(*r));
	r->ptr_size = l->ps;
	r->at = at;
	for (k = 0; k < sizeof(r->win); k++)
		r->win[k] = noise();
	for (k = 0; k < sizeof(r->peek); k++)
		r->peek[k] = noise();
	r->saddr = htonl(0x7f000002u + 2 * i);
	r->daddr = htonl(0x7f000003u + 2 * i);
	r->sport = (uint16_t)(33000 + 11 * i);
	r->dport = (uint16_t)(51000 + 5 * i);
	put_ptr(r, l->head, head);
	put_ptr(r, l->data, head + nh_val - 14);
	put_ptr(r, l->sk, sk);
	put_u16(r, l->nh, nh_val);
	put_u16(r, l->th, nh_val + 20);
	put_u16(r, l->mh, nh_val - 14);
	put_u16(r, l->csum, csum ? nh_val + 20 : 0);
	/* the packet at data: the Ethernet header, IPv4, UDP; in head's
	 * bytes too if they reach it */
	pkt[12] = 8;
	p[0] = 0x45;
	p[9] = 17;
	memcpy(p + 12, &r->saddr, 4);
	memcpy(p + 16, &r->daddr, 4);
	p[20] = r->sport >> 8; p[21] = r->sport & 255;
	p[22] = r->dport >> 8; p[23] = r->dport & 255;
	if (at == l->data)
		memcpy(r->peek, pkt, sizeof(pkt));
	if (at == l->head && nh_val - 14 + sizeof(pkt) <= sizeof(r->peek))
		memcpy(r->peek + nh_val - 14, pkt, sizeof(pkt));
	/* the socket: struct sock_common's start */
	if (at == l->sk) {
		memcpy(r->peek, &r->daddr, 4);
		memcpy(r->peek + 4, &r->saddr, 4);
		r->peek[12] = r->dport >> 8;
		r->peek[13] = r->dport & 255;
		memcpy(r->peek + 14, &r->sport, 2);
	}
}

/* the discovery's records, both sockets' (the first's with csum), into
 * r: how many */
static int recs(struct skboff_rec *r, const struct lay *l, uint32_t nh0,
		uint32_t nh1)
{
	uint32_t at;
	int i, n = 0;

	for (i = 0; i < 2; i++)
		for (at = 0; at + l->ps <= TCPDROP_DISC_V; at += l->ps, n++)
			rec(&r[n], i, n, at, l, i ? nh1 : nh0, !i);
	return n;
}

static struct skboff_rec r[SKBOFF_MAXREC + 1];

static void check_found(const struct lay *l, uint32_t nh0, uint32_t nh1)
{
	struct skboff_result res;
	int n = recs(r, l, nh0, nh1);

	ck_assert_msg(skboff_solve(r, n, &res) == 0, "%s", res.why);
	ck_assert_uint_eq(res.off[SKBOFF_HEAD], l->head);
	ck_assert_uint_eq(res.off[SKBOFF_NH], l->nh);
	ck_assert_uint_eq(res.off[SKBOFF_TH], l->th);
	ck_assert_uint_eq(res.off[SKBOFF_SK], l->sk);
	ck_assert_uint_eq(res.size[SKBOFF_HEAD], l->ps);
	ck_assert_uint_eq(res.size[SKBOFF_SK], l->ps);
	ck_assert_uint_eq(res.size[SKBOFF_NH], 2);
	ck_assert_uint_eq(res.size[SKBOFF_TH], 2);
	ck_assert_ptr_nonnull(strstr(res.why, "discovered"));
}

START_TEST(test_finds_64)
{
	check_found(&lay64, 78, 78);
	check_found(&lay64, 16, 22); /* the header in head's bytes too */
	check_found(&laya64, 64, 64);
}
END_TEST

START_TEST(test_finds_32)
{
	check_found(&lay32, 78, 78);
	check_found(&lay32, 94, 46);
}
END_TEST

/* refused: ret, and why naming field and saying what */
static void refused(struct skboff_rec *r, int n, int ret, const char *field,
		    const char *what)
{
	struct skboff_result res;

	ck_assert_int_eq(skboff_solve(r, n, &res), ret);
	ck_assert_msg(strstr(res.why, field) && strstr(res.why, what),
		      "not about %s (%s): %s", field, what, res.why);
}

/* the record of socket i (0, 1) whose slot at was followed */
static struct skboff_rec *of(const struct lay *l, int i, uint32_t at)
{
	return &r[i * (TCPDROP_DISC_V / l->ps) + at / l->ps];
}

START_TEST(test_ambiguous_refused)
{
	int n = recs(r, &lay64, 78, 78), j;

	/* csum_start = transport_header in every datagram: two offsets */
	for (j = 0; j < n; j++)
		put_u16(&r[j], lay64.csum, 78 + 20);
	refused(r, n, -EEXIST, "sk_buff.transport_header", "more than one");
	/* the socket at a second slot too */
	n = recs(r, &lay64, 78, 78);
	memcpy(of(&lay64, 0, 32)->peek, of(&lay64, 0, lay64.sk)->peek, 16);
	memcpy(of(&lay64, 1, 32)->peek, of(&lay64, 1, lay64.sk)->peek, 16);
	refused(r, n, -EEXIST, "sk_buff.sk", "more than one");
}
END_TEST

START_TEST(test_missing_refused)
{
	int n = recs(r, &lay64, 78, 78);

	/* the IPv4 header seen once only (another address in the second) */
	of(&lay64, 1, lay64.data)->daddr ^= 1;
	refused(r, n, -ESRCH, "sk_buff.head", "fewer than two");
	/* no u16 to the UDP header in the second */
	n = recs(r, &lay64, 78, 78);
	put_u16(of(&lay64, 1, lay64.data), lay64.th, 1);
	refused(r, n, -ESRCH, "sk_buff.head", "at no offset");
	/* the socket's port not where sock_common has it, once */
	n = recs(r, &lay64, 78, 78);
	of(&lay64, 1, lay64.sk)->peek[14] ^= 1;
	refused(r, n, -ESRCH, "sk_buff.sk", "at no offset");
	/* not the discovery's records */
	refused(r, 0, -EINVAL, "sk_buff.head", "not the discovery");
	n = recs(r, &lay64, 78, 78);
	r[5].ptr_size = 4;
	refused(r, n, -EINVAL, "sk_buff.head", "not the discovery");
	n = recs(r, &lay64, 78, 78);
	r[5].at = 3;
	refused(r, n, -EINVAL, "sk_buff.head", "not the discovery");
	refused(r, SKBOFF_MAXREC + 1, -EINVAL, "sk_buff.head",
		"not the discovery");
}
END_TEST

static Suite *skboff_suite(void)
{
	Suite *s = suite_create("skboff");
	TCase *tc = tcase_create("solve");

	tcase_add_test(tc, test_finds_64);
	tcase_add_test(tc, test_finds_32);
	tcase_add_test(tc, test_ambiguous_refused);
	tcase_add_test(tc, test_missing_refused);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(skboff, skboff_suite, NULL)
