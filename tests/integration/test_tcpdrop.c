/* SPDX-License-Identifier: MIT */
/*
 * tcpdrop on this kernel (skb:kfree_skb with its reason, BTF): drops the
 * test provokes over loopback, each counted and checked line by line:
 * SYNs to a closed port (NO_SOCKET, IPv4 and IPv6: the client's address
 * and port as the source, no socket), and ACKs of a sequence number far
 * beyond the window, written with a raw socket into an established
 * connection (TCP_INVALID_SEQUENCE, the socket ESTABLISHED where the
 * kernel says which socket it was, 6.12+); each with a kernel stack
 * through tcp_v4_rcv or tcp_v6_rcv.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define NSYN 3 /* refused connections per family */
#define NSEQ 4 /* bad segments */

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void loopback(int fam, int port, struct sockaddr_storage *ss,
		     socklen_t *sl)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = fam;
	if (fam == AF_INET6) {
		((struct sockaddr_in6 *)ss)->sin6_addr = in6addr_loopback;
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
		*sl = sizeof(struct sockaddr_in6);
	} else {
		((struct sockaddr_in *)ss)->sin_addr.s_addr =
			htonl(INADDR_LOOPBACK);
		((struct sockaddr_in *)ss)->sin_port = htons(port);
		*sl = sizeof(struct sockaddr_in);
	}
}

static int port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&ss, &sl), 0);
	return ntohs(ss.ss_family == AF_INET6 ?
		     ((struct sockaddr_in6 *)&ss)->sin6_port :
		     ((struct sockaddr_in *)&ss)->sin_port);
}

/* A port nothing listens on (bound, then closed), or -errno */
static int closed_port(int fam)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd = socket(fam, SOCK_STREAM, 0), p;

	if (fd < 0)
		return -errno;
	loopback(fam, 0, &ss, &sl);
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
		close(fd);
		return -errno;
	}
	p = port_of(fd);
	close(fd);
	return p;
}

struct drop_run {
	int nfam;
	int dport[2], sport[2][NSYN]; /* the refused SYNs */
	int seq_ok, cport, lport;     /* the bad sequence numbers */
};

/* NSYN connections to a closed port, each from a port bound first */
static void refused(struct drop_run *r, int i, int fam)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int j, fd;

	r->dport[i] = closed_port(fam);
	ck_assert_int_gt(r->dport[i], 0);
	for (j = 0; j < NSYN; j++) {
		fd = socket(fam, SOCK_STREAM, 0);
		ck_assert_int_ge(fd, 0);
		loopback(fam, 0, &ss, &sl);
		ck_assert_int_eq(bind(fd, (struct sockaddr *)&ss, sl), 0);
		r->sport[i][j] = port_of(fd);
		loopback(fam, r->dport[i], &ss, &sl);
		ck_assert_int_eq(connect(fd, (struct sockaddr *)&ss, sl), -1);
		ck_assert_int_eq(errno, ECONNREFUSED);
		close(fd);
	}
}

static uint16_t csum(const uint8_t *p, size_t n, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* NSEQ ACKs from the client's port to the accepted socket, their sequence
 * number 2^30 beyond what it expects (TCP_REPAIR reads that) */
static void bad_seq(struct drop_run *r)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int l, c, a, raw, on = 1, off = 0, q = TCP_RECV_QUEUE, i;
	uint32_t rcv_nxt = 0;
	socklen_t ql = sizeof(rcv_nxt);
	uint8_t seg[32] = { 0 };

	l = socket(AF_INET, SOCK_STREAM, 0);
	loopback(AF_INET, 0, &ss, &sl);
	ck_assert_int_eq(bind(l, (struct sockaddr *)&ss, sl), 0);
	ck_assert_int_eq(listen(l, 4), 0);
	r->lport = port_of(l);
	loopback(AF_INET, r->lport, &ss, &sl);
	c = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_eq(connect(c, (struct sockaddr *)&ss, sl), 0);
	a = accept(l, NULL, NULL);
	ck_assert_int_ge(a, 0);
	r->cport = port_of(c);
	raw = socket(AF_INET, SOCK_RAW, IPPROTO_TCP);
	if (raw < 0 || setsockopt(a, IPPROTO_TCP, TCP_REPAIR, &on,
				  sizeof(on)) < 0 ||
	    setsockopt(a, IPPROTO_TCP, TCP_REPAIR_QUEUE, &q, sizeof(q)) < 0 ||
	    getsockopt(a, IPPROTO_TCP, TCP_QUEUE_SEQ, &rcv_nxt, &ql) < 0) {
		fprintf(stderr, "tcpdrop: no raw socket or TCP_REPAIR (%s): "
			"no bad sequence numbers\n", strerror(errno));
		goto out;
	}
	ck_assert_int_eq(setsockopt(a, IPPROTO_TCP, TCP_REPAIR, &off,
				    sizeof(off)), 0);
	/* the TCP header, then the pseudo header for the checksum */
	seg[0] = r->cport >> 8; seg[1] = r->cport & 255;
	seg[2] = r->lport >> 8; seg[3] = r->lport & 255;
	uint32_t s = htonl(rcv_nxt + 0x40000000u);
	memcpy(seg + 4, &s, 4);
	seg[12] = 5 << 4;
	seg[13] = 0x10; /* ACK */
	seg[14] = 0x10;
	memcpy(seg + 20, "\x7f\x00\x00\x01\x7f\x00\x00\x01\x00\x06\x00\x14",
	       12);
	uint16_t ck = csum(seg, 32, 0);
	seg[16] = ck >> 8; seg[17] = ck & 255;
	loopback(AF_INET, 0, &ss, &sl);
	for (i = 0; i < NSEQ; i++) {
		ck_assert_int_eq(sendto(raw, seg, 20, 0,
					(struct sockaddr *)&ss, sl), 20);
		msleep(20);
	}
	r->seq_ok = 1;
out:
	if (raw >= 0)
		close(raw);
	close(c);
	close(a);
	close(l);
}

static void traffic(struct drop_run *r, int seq)
{
	static const int fams[2] = { AF_INET, AF_INET6 };
	int i;

	for (i = 0; i < r->nfam; i++)
		refused(r, i, fams[i]);
	if (seq)
		bad_seq(r);
}

/* tcpdrop -j with a1 (or none), the traffic, stopped: out */
static void with_tcpdrop(const char *a1, struct drop_run *r, int seq,
			 char *out, size_t len)
{
	char err[8192];
	char *argv[] = { (char *)barebpf(), "tcpdrop", "-j", (char *)a1,
			 NULL };
	struct proc pr;
	size_t n = 0;

	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Tracing", 20000);
	ck_assert_msg(strstr(err, "Tracing"), "tcpdrop did not start: %s",
		      err);
	traffic(r, seq);
	msleep(300);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, len, &n, NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
	ck_assert_msg(strstr(err, "drops printed, 0 lost"), "%s", err);
	close(pr.out);
	close(pr.err);
}

static int count_of(const char *out, const char *want)
{
	int n = 0;

	while ((out = strstr(out, want))) {
		n++;
		out++;
	}
	return n;
}

/* The JSON line of out that has want, with a stack that has fn */
static void line_with_stack(const char *out, const char *want,
			    const char *fn)
{
	const char *l = strstr(out, want), *e, *k;

	ck_assert_msg(l != NULL, "no line with %s:\n%s", want, out);
	e = strchr(l, '\n');
	k = strstr(l, "\"kstack\":[\"");
	ck_assert_msg(k && e && k < e, "no stack after %s:\n%s", want, out);
	k = strstr(k, fn);
	ck_assert_msg(k && k < e, "no %s in the stack of %s:\n%s", fn, want,
		      out);
}

static int have_ipv6(void)
{
	return closed_port(AF_INET6) > 0;
}

START_TEST(test_refused_and_bad_seq)
{
	static char out[1 << 20];
	char want[256];
	struct drop_run r = { .nfam = have_ipv6() ? 2 : 1 };
	const char *st6;
	int i, j;

	with_tcpdrop(NULL, &r, 1, out, sizeof(out));
	for (i = 0; i < r.nfam; i++)
		for (j = 0; j < NSYN; j++) {
			snprintf(want, sizeof(want), "\"ip\":%d,\"saddr\":"
				 "\"%s\",\"sport\":%d,\"daddr\":\"%s\","
				 "\"dport\":%d,\"state\":null,\"flags\":"
				 "\"SYN\",\"reason\":\"NO_SOCKET\"",
				 i ? 6 : 4, i ? "::1" : "127.0.0.1",
				 r.sport[i][j], i ? "::1" : "127.0.0.1",
				 r.dport[i]);
			ck_assert_msg(count_of(out, want) == 1,
				      "%d lines of %s:\n%s",
				      count_of(out, want), want, out);
			line_with_stack(out, want, i ? "tcp_v6_rcv+" :
					"tcp_v4_rcv+");
		}
	if (!r.seq_ok)
		return;
	/* the socket: 6.12+'s rx_sk */
	st6 = system("grep -q rx_sk /sys/kernel/tracing/events/skb/"
		     "kfree_skb/format 2>/dev/null") == 0 ?
		"\"ESTABLISHED\"" : "null";
	snprintf(want, sizeof(want), "\"ip\":4,\"saddr\":\"127.0.0.1\","
		 "\"sport\":%d,\"daddr\":\"127.0.0.1\",\"dport\":%d,"
		 "\"state\":%s,\"flags\":\"ACK\",\"reason\":"
		 "\"TCP_INVALID_SEQUENCE\"", r.cport, r.lport, st6);
	ck_assert_msg(count_of(out, want) == NSEQ, "%d lines of %s, not %d:"
		      "\n%s", count_of(out, want), want, NSEQ, out);
	line_with_stack(out, want, "tcp_");
}
END_TEST

/* -6: the IPv6 drops only */
START_TEST(test_family)
{
	static char out[1 << 20];
	char want[128];
	struct drop_run r = { .nfam = 2 };

	if (!have_ipv6()) {
		fprintf(stderr, "SKIP test_family: no IPv6 here\n");
		return;
	}
	with_tcpdrop("-6", &r, 0, out, sizeof(out));
	snprintf(want, sizeof(want), "\"dport\":%d,", r.dport[1]);
	ck_assert_msg(count_of(out, want) == NSYN, "%d lines of %s:\n%s",
		      count_of(out, want), want, out);
	ck_assert_msg(!strstr(out, "\"ip\":4"), "-6 printed IPv4:\n%s", out);
}
END_TEST

/* the lines of test_by_location's drops */
static void check_by_location(const char *out, const struct drop_run *r)
{
	char want[256];
	int j;

	for (j = 0; j < NSYN; j++) {
		snprintf(want, sizeof(want), "\"ip\":4,\"saddr\":\"127.0.0.1\","
			 "\"sport\":%d,\"daddr\":\"127.0.0.1\",\"dport\":%d,"
			 "\"state\":null,\"flags\":\"SYN\",\"reason\":null",
			 r->sport[0][j], r->dport[0]);
		ck_assert_msg(count_of(out, want) == 1, "%d lines of %s:\n%s",
			      count_of(out, want), want, out);
		line_with_stack(out, want, "tcp_v4_rcv+");
	}
	ck_assert_msg(!strstr(out, "\"reason\":\""), "a reason:\n%s", out);
}

/* before 5.17's reasons (BAREBPF_TCPDROP=location here): the drops
 * tcp functions make, without a reason */
START_TEST(test_by_location)
{
	static char out[1 << 20];
	struct drop_run r = { .nfam = 1 };

	setenv("BAREBPF_TCPDROP", "location", 1);
	with_tcpdrop(NULL, &r, 0, out, sizeof(out));
	unsetenv("BAREBPF_TCPDROP");
	check_by_location(out, &r);
}
END_TEST

#define SKB_FIELDS "sk_buff.head,sk_buff.network_header," \
	"sk_buff.transport_header,sk_buff.sk"

/* struct sk_buff's fields discovered (forced) where BTF has them, as
 * 4.9 to 4.15 do: BTF's offsets, and the drops of test_by_location */
START_TEST(test_skb_discovery)
{
	static char out[1 << 20];
	char o1[4096], err[8192], e2[8192], f[64];
	char *a1[] = { (char *)barebpf(), "tcpdrop", "-v", "--duration", "1",
		       NULL };
	struct drop_run r = { .nfam = 1 };
	const char *b, *d;
	int i;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		bbtest_skip("no BTF to check the discovery against");
	ck_assert_int_eq(run(a1, o1, sizeof(o1), err, sizeof(err)), 0);
	setenv("BAREBPF_FIELDS", "discover:" SKB_FIELDS, 1);
	i = run(a1, o1, sizeof(o1), e2, sizeof(e2));
	ck_assert_msg(i == 0, "forced discovery: exit %d: %s", i, e2);
	for (i = 0; i < 4; i++) {
		snprintf(f, sizeof(f), "%s at offset ", i == 0 ? "sk_buff.head" :
			 i == 1 ? "sk_buff.network_header" : i == 2 ?
			 "sk_buff.transport_header" : "sk_buff.sk");
		b = strstr(err, f);
		d = strstr(e2, f);
		ck_assert_msg(b && strstr(b, "BTF"), "no BTF offset: %s", err);
		ck_assert_msg(d && strstr(d, "discovered"), "not discovered: "
			      "%s", e2);
		ck_assert_int_eq(atoi(d + strlen(f)), atoi(b + strlen(f)));
	}
	setenv("BAREBPF_TCPDROP", "location", 1);
	with_tcpdrop(NULL, &r, 0, out, sizeof(out));
	unsetenv("BAREBPF_TCPDROP");
	unsetenv("BAREBPF_FIELDS");
	check_by_location(out, &r);
}
END_TEST

/* the discovery where lo is down (a network namespace of its own):
 * refused, naming the field, lo and --btf; nothing printed on stdout */
START_TEST(test_skb_discovery_no_lo)
{
	char out[4096], err[8192];
	char *a1[] = { "/usr/bin/unshare", "-n", (char *)barebpf(), "tcpdrop",
		       "--duration", "1", NULL };
	int rc;

	if (system("/usr/bin/unshare -n true 2>/dev/null") != 0)
		bbtest_skip("no /usr/bin/unshare -n here");
	setenv("BAREBPF_FIELDS", "discover:" SKB_FIELDS, 1);
	rc = run(a1, out, sizeof(out), err, sizeof(err));
	unsetenv("BAREBPF_FIELDS");
	ck_assert_msg(rc == 1, "exit %d: %s", rc, err);
	ck_assert_msg(strstr(err, "field sk_buff.head: ") &&
		      strstr(err, "(is lo up?)") && strstr(err, "--btf FILE"),
		      "%s", err);
	ck_assert_msg(!out[0], "%s", out);
}
END_TEST

/* the text: bcc's header and line, the stack a frame a line */
START_TEST(test_text)
{
	char out[65536], err[8192], want[128];
	char cmd[512];
	int p = closed_port(AF_INET);

	ck_assert_int_gt(p, 0);
	snprintf(cmd, sizeof(cmd), "'%s' tcpdrop --duration 3 & sleep 1.5; "
		 "bash -c ': </dev/tcp/127.0.0.1/%d' 2>/dev/null; wait",
		 barebpf(), p);
	ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
	(void)err;
	ck_assert_msg(strstr(out, "TIME     PID     IP SADDR:SPORT          "
			     "> DADDR:DPORT          STATE (FLAGS) REASON\n"),
		      "%s", out);
	snprintf(want, sizeof(want), "> 127.0.0.1:%-10d - (SYN) NO_SOCKET\n\t",
		 p);
	ck_assert_msg(strstr(out, want), "no %s in:\n%s", want, out);
	ck_assert_msg(strstr(out, "\ttcp_v4_rcv+0x"), "%s", out);
}
END_TEST

START_TEST(test_bad_options)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "tcpdrop", "-4", "-6", NULL };
	char *a2[] = { (char *)barebpf(), "tcpdrop", "extra", NULL };
	char *a3[] = { (char *)barebpf(), "tcpdrop", "--btf", "/nonexistent",
		       "--duration", "1", NULL };

	ck_assert_int_eq(run(a1, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-4 and -6") && !out[0], "%s", err);
	ck_assert_int_eq(run(a2, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "extra") && !out[0], "%s", err);
	ck_assert_int_eq(run(a3, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "/nonexistent"), "%s", err);
}
END_TEST

static Suite *tcpdrop_suite(void)
{
	Suite *s = suite_create("tcpdrop");
	TCase *tc = tcase_create("tcpdrop");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_refused_and_bad_seq);
	tcase_add_test(tc, test_family);
	tcase_add_test(tc, test_by_location);
	tcase_add_test(tc, test_skb_discovery);
	tcase_add_test(tc, test_skb_discovery_no_lo);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_bad_options);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tcpdrop, tcpdrop_suite, need_root_and_tools)
