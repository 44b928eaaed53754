/* SPDX-License-Identifier: MIT */
/*
 * The exporter's HTTP request parser and listen address parser
 * (loader/tools/exporter/httpd.c): what each request is answered, byte
 * limits, the forms RFC 9112 requires a server to refuse.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "httpd.h"

/* Parse all of s; the status, or 0 if more bytes are wanted. */
static int status_of(const char *s, struct httpd_req *req)
{
	struct httpd_req r;

	if (!req)
		req = &r;
	if (!httpd_parse(s, strlen(s), req))
		return 0;
	return req->status;
}

START_TEST(test_metrics)
{
	struct httpd_req r;

	ck_assert_int_eq(status_of("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
				   &r), 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_METRICS);
	ck_assert_int_eq(r.head, 0);
	/* what Prometheus 2.42 sends */
	ck_assert_int_eq(status_of(
		"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:19435\r\n"
		"User-Agent: Prometheus/2.42.0\r\n"
		"Accept: application/openmetrics-text;version=1.0.0,"
		"application/openmetrics-text;version=0.0.1;q=0.75,"
		"text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"
		"Accept-Encoding: gzip\r\n"
		"X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n", &r), 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_METRICS);
	ck_assert_int_eq(status_of("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
				   &r), 200);
	ck_assert_int_eq(r.head, 1);
	/* 1.0 needs no Host; bare LF ends lines; empty lines before */
	ck_assert_int_eq(status_of("GET /metrics HTTP/1.0\n\n", &r), 200);
	ck_assert_int_eq(status_of("\r\n\nGET /metrics HTTP/1.0\r\n\r\n", &r),
			 200);
	ck_assert_int_eq(status_of("GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\n\r\n",
				   &r), 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_METRICS);
	ck_assert_int_eq(status_of("GET http://h:1/metrics HTTP/1.1\r\n"
				   "Host: h:1\r\n\r\n", &r), 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_METRICS);
	ck_assert_int_eq(status_of("GET / HTTP/1.1\r\nHost: x\r\n\r\n", &r),
			 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_ROOT);
	ck_assert_int_eq(status_of("GET http://h HTTP/1.1\r\nHost: h\r\n\r\n",
				   &r), 200);
	ck_assert_int_eq(r.route, HTTPD_ROUTE_ROOT);
	ck_assert_int_eq(status_of("GET /metrics HTTP/1.1\r\nHost: x\r\n"
				   "Content-Length: 0\r\n\r\n", &r), 200);
	/* tabs and obs-text in values */
	ck_assert_int_eq(status_of("GET /metrics HTTP/1.1\r\nHost:\tx\t\r\n"
				   "X: \xc3\xa9\r\n\r\n", &r), 200);
}
END_TEST

START_TEST(test_other_answers)
{
	ck_assert_int_eq(status_of("GET /metricsx HTTP/1.1\r\nHost: x\r\n\r\n",
				   NULL), 404);
	ck_assert_int_eq(status_of("GET /metrics/ HTTP/1.1\r\nHost: x\r\n\r\n",
				   NULL), 404);
	ck_assert_int_eq(status_of("GET * HTTP/1.1\r\nHost: x\r\n\r\n", NULL),
			 404);
	ck_assert_int_eq(status_of("POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
				   NULL), 405);
	ck_assert_int_eq(status_of("get /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
				   NULL), 405); /* methods are case-sensitive */
	ck_assert_int_eq(status_of("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n",
				   NULL), 405);
	ck_assert_int_eq(status_of("GET /metrics HTTP/2.0\r\nHost: x\r\n\r\n",
				   NULL), 505);
	ck_assert_int_eq(status_of("GET /metrics HTTP/0.9\r\n\r\n", NULL), 505);
}
END_TEST

START_TEST(test_bad_requests)
{
	static const char *const bad[] = {
		"GET /metrics\r\n\r\n",                      /* HTTP/0.9 */
		"GET  /metrics HTTP/1.1\r\nHost: x\r\n\r\n", /* two SP */
		"GET /metrics HTTP/1.1 \r\nHost: x\r\n\r\n",
		"GET /metrics HTTP/11\r\nHost: x\r\n\r\n",
		"GET /metrics http/1.1\r\nHost: x\r\n\r\n",
		"GET /met\x01rics HTTP/1.1\r\nHost: x\r\n\r\n",
		"G(T /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
		" GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
		/* 1.1 without Host, with two */
		"GET /metrics HTTP/1.1\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",
		/* smuggling forms: space before colon, obs-fold, bare CR */
		"GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\rX: y\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\n: empty name\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nX: a\x7f\r\n\r\n",
		/* bodies: none is taken */
		"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
		"Content-Length: 0\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Transfer-Encoding: chunked\r\n\r\n",
		NULL
	};
	int i;

	for (i = 0; bad[i]; i++)
		ck_assert_msg(status_of(bad[i], NULL) == 400, "%d: '%s' -> %d",
			      i, bad[i], status_of(bad[i], NULL));
}
END_TEST

/* Garbage is refused as soon as it shows, not at the size limit. */
START_TEST(test_early_refusal)
{
	struct httpd_req r;
	/* a TLS ClientHello's first bytes */
	const char tls[] = { 0x16, 0x03, 0x01, 0x02, 0x00, 0x01 };

	ck_assert_int_eq(httpd_parse(tls, sizeof(tls), &r), 1);
	ck_assert_int_eq(r.status, 400);
	ck_assert_int_eq(httpd_parse("GET /a\0", 7, &r), 1);
	ck_assert_int_eq(r.status, 400);
	/* an incomplete but fine request wants more */
	ck_assert_int_eq(httpd_parse("GET /metrics HTTP/1.1\r\nHo", 25, &r), 0);
	ck_assert_int_eq(httpd_parse("GET /metrics HTTP/1.1\r", 22, &r), 0);
	ck_assert_int_eq(httpd_parse("", 0, &r), 0);
	/* a bad complete line before the end of the head */
	ck_assert_int_eq(httpd_parse("GET /metrics HTTP/1.1\r\nBad Field: x\r\n",
				     37, &r), 1);
	ck_assert_int_eq(r.status, 400);
}
END_TEST

START_TEST(test_limits)
{
	static char buf[HTTPD_MAX_HEAD * 2];
	struct httpd_req r;
	size_t n;
	int i;

	/* a head that ends exactly at the limit is fine */
	n = snprintf(buf, sizeof(buf), "GET /metrics HTTP/1.1\r\nHost: x\r\nX: ");
	memset(buf + n, 'a', HTTPD_MAX_HEAD - n - 4);
	memcpy(buf + HTTPD_MAX_HEAD - 4, "\r\n\r\n", 4);
	ck_assert_int_eq(httpd_parse(buf, HTTPD_MAX_HEAD, &r), 1);
	ck_assert_int_eq(r.status, 200);
	/* one byte more is not */
	memset(buf + n, 'a', HTTPD_MAX_HEAD - n - 3);
	memcpy(buf + HTTPD_MAX_HEAD - 3, "\r\n\r\n", 4);
	ck_assert_int_eq(httpd_parse(buf, HTTPD_MAX_HEAD + 1, &r), 1);
	ck_assert_int_eq(r.status, 431);
	/* nor HTTPD_MAX_HEAD bytes that have not ended the head */
	ck_assert_int_eq(httpd_parse(buf, HTTPD_MAX_HEAD, &r), 1);
	ck_assert_int_eq(r.status, 431);
	ck_assert_int_eq(httpd_parse(buf, HTTPD_MAX_HEAD - 1, &r), 0);
	/* HTTPD_MAX_FIELDS fields, then one more */
	n = snprintf(buf, sizeof(buf), "GET /metrics HTTP/1.1\r\nHost: x\r\n");
	for (i = 1; i < HTTPD_MAX_FIELDS; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "X%d: y\r\n", i);
	memcpy(buf + n, "\r\n", 3);
	ck_assert_int_eq(httpd_parse(buf, n + 2, &r), 1);
	ck_assert_int_eq(r.status, 200);
	n += snprintf(buf + n, sizeof(buf) - n, "Z: y\r\n\r\n");
	ck_assert_int_eq(httpd_parse(buf, n, &r), 1);
	ck_assert_int_eq(r.status, 431);
}
END_TEST

START_TEST(test_listen_addresses)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	const char *why;
	socklen_t len;
	char txt[64];

	ck_assert_int_eq(httpd_parse_listen("127.0.0.1:19435", &ss, &len, &why),
			 0);
	ck_assert_int_eq(ss.ss_family, AF_INET);
	ck_assert_int_eq(ntohs(in4->sin_port), 19435);
	ck_assert_int_eq(ntohl(in4->sin_addr.s_addr), INADDR_LOOPBACK);
	ck_assert_int_eq(len, sizeof(*in4));
	ck_assert_int_eq(httpd_parse_listen("localhost:1", &ss, &len, &why), 0);
	ck_assert_int_eq(ntohl(in4->sin_addr.s_addr), INADDR_LOOPBACK);
	ck_assert_int_eq(httpd_parse_listen(":65535", &ss, &len, &why), 0);
	ck_assert_int_eq(ntohl(in4->sin_addr.s_addr), INADDR_ANY);
	ck_assert_int_eq(ntohs(in4->sin_port), 65535);
	ck_assert_int_eq(httpd_parse_listen("[::1]:80", &ss, &len, &why), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET6);
	ck_assert_int_eq(ntohs(in6->sin6_port), 80);
	inet_ntop(AF_INET6, &in6->sin6_addr, txt, sizeof(txt));
	ck_assert_str_eq(txt, "::1");
	ck_assert_int_eq(httpd_parse_listen("[::]:80", &ss, &len, &why), 0);

	ck_assert_int_eq(httpd_parse_listen("19435", &ss, &len, &why), -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("1.2.3.4:", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("1.2.3.4:0", &ss, &len, &why),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "1 to 65535"));
	ck_assert_int_eq(httpd_parse_listen("1.2.3.4:65536", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("1.2.3.4:+80", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("1.2.3.4:123456", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("host.example:80", &ss, &len, &why),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "IPv4"));
	ck_assert_int_eq(httpd_parse_listen("::1:80", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("[1.2.3.4]:80", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen("[::1]80", &ss, &len, &why),
			 -EINVAL);
	ck_assert_int_eq(httpd_parse_listen(NULL, &ss, &len, &why), -EINVAL);
}
END_TEST

/*
 * The server parses again after every read, so the verdict on any prefix
 * must be the verdict on the whole. Inputs make fuzz found against that
 * (tests/fuzz/fuzz_http.c), checked here at every cut: a HEAD whose
 * version is bad, and a 65th field with a bad byte (both 400 and 431
 * apply: which is said must not depend on where a read ended).
 */
static void same_verdict_at_every_cut(const char *path)
{
	static char buf[HTTPD_MAX_HEAD * 2];
	struct httpd_req whole, part;
	FILE *f = fopen(path, "rb");
	size_t n, k;

	ck_assert_msg(f != NULL, "%s missing", path);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ck_assert_int_eq(httpd_parse(buf, n, &whole), 1);
	for (k = 0; k <= n; k++) {
		if (!httpd_parse(buf, k, &part))
			continue;
		ck_assert_msg(part.status == whole.status &&
			      part.head == whole.head &&
			      part.route == whole.route,
			      "%s: %zu bytes say %d (head %d), all %zu say %d "
			      "(head %d)", path, k, part.status, part.head, n,
			      whole.status, whole.head);
	}
}

START_TEST(test_prefix_verdicts)
{
	same_verdict_at_every_cut("tests/unit/data/http-head-then-bad-version.bin");
	same_verdict_at_every_cut("tests/unit/data/http-bad-65th-field.bin");
}
END_TEST

static struct sockaddr_storage peer(const char *addr)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof(ss));
	if (strchr(addr, ':')) {
		ss.ss_family = AF_INET6;
		ck_assert_int_eq(inet_pton(AF_INET6, addr,
			&((struct sockaddr_in6 *)&ss)->sin6_addr), 1);
	} else {
		ss.ss_family = AF_INET;
		ck_assert_int_eq(inet_pton(AF_INET, addr,
			&((struct sockaddr_in *)&ss)->sin_addr), 1);
	}
	return ss;
}

/* --allow ADDR[/PREFIX]: who may scrape; IPv4 clients of an IPv6
 * socket arrive as ::ffff:a.b.c.d and match the IPv4 entries. */
START_TEST(test_allow_list)
{
	static const char *const bad[] = { "", "/24", "10.0.0.1/33",
					   "10.0.0.1/", "10.0.0.1/x",
					   "fd00::/129", "host.example",
					   "10.0.0", "[10.0.0.1" };
	struct httpd_allow a[3];
	struct sockaddr_storage p;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(httpd_parse_allow(bad[i], a, &why) == -EINVAL &&
			      why, "'%s' taken", bad[i]);
	ck_assert_int_eq(httpd_parse_allow("192.168.1.0/24", &a[0], &why), 0);
	ck_assert_int_eq(httpd_parse_allow("10.0.0.7", &a[1], &why), 0);
	ck_assert_int_eq(a[1].prefix, 32);
	ck_assert_int_eq(httpd_parse_allow("[fd00::]/8", &a[2], &why), 0);
	ck_assert_int_eq(a[2].family, AF_INET6);
	ck_assert_int_eq(a[2].prefix, 8);

	p = peer("192.168.1.200");
	ck_assert(httpd_allowed(a, 3, &p));
	p = peer("192.168.2.1");
	ck_assert(!httpd_allowed(a, 3, &p));
	p = peer("10.0.0.7");
	ck_assert(httpd_allowed(a, 3, &p));
	p = peer("10.0.0.8");
	ck_assert(!httpd_allowed(a, 3, &p));
	p = peer("::ffff:192.168.1.9");
	ck_assert(httpd_allowed(a, 3, &p));
	p = peer("::ffff:10.0.0.8");
	ck_assert(!httpd_allowed(a, 3, &p));
	p = peer("fdab::1");
	ck_assert(httpd_allowed(a, 3, &p));
	p = peer("fe80::1");
	ck_assert(!httpd_allowed(a, 3, &p));
	/* a prefix that ends inside a byte */
	ck_assert_int_eq(httpd_parse_allow("10.0.0.0/13", &a[0], &why), 0);
	p = peer("10.7.255.255");
	ck_assert(httpd_allowed(a, 1, &p));
	p = peer("10.8.0.0");
	ck_assert(!httpd_allowed(a, 1, &p));
	ck_assert_int_eq(httpd_parse_allow("0.0.0.0/0", &a[0], &why), 0);
	ck_assert(httpd_allowed(a, 1, &p));
	/* no list: everyone */
	ck_assert(httpd_allowed(NULL, 0, &p));
}
END_TEST

/* Where the exporter listens: loopback or beyond, and a URL a client on
 * this host can open (":19561" printed http://:19561/metrics). */
START_TEST(test_listen_reach)
{
	static const struct {
		const char *listen, *url;
		int loopback;
	} cases[] = {
		{ "127.0.0.1:19435", "http://127.0.0.1:19435/metrics", 1 },
		{ "localhost:80", "http://127.0.0.1:80/metrics", 1 },
		{ "127.1.2.3:9", "http://127.1.2.3:9/metrics", 1 },
		{ "[::1]:19435", "http://[::1]:19435/metrics", 1 },
		{ ":19561", "http://127.0.0.1:19561/metrics", 0 },
		{ "0.0.0.0:19561", "http://127.0.0.1:19561/metrics", 0 },
		{ "[::]:19561", "http://[::1]:19561/metrics", 0 },
		{ "10.1.2.3:80", "http://10.1.2.3:80/metrics", 0 },
		{ "[fd00::1]:80", "http://[fd00::1]:80/metrics", 0 },
	};
	struct sockaddr_storage ss;
	socklen_t len;
	char url[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(httpd_parse_listen(cases[i].listen, &ss, &len,
						    NULL), 0);
		ck_assert_msg(httpd_is_loopback(&ss) == cases[i].loopback,
			      "%s", cases[i].listen);
		httpd_url(&ss, url, sizeof(url));
		ck_assert_str_eq(url, cases[i].url);
	}
}
END_TEST

static Suite *httpd_suite(void)
{
	Suite *s = suite_create("httpd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_metrics);
	tcase_add_test(tc, test_other_answers);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_early_refusal);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_listen_addresses);
	tcase_add_test(tc, test_prefix_verdicts);
	tcase_add_test(tc, test_allow_list);
	tcase_add_test(tc, test_listen_reach);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(httpd, httpd_suite, NULL)
