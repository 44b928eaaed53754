/* SPDX-License-Identifier: MIT */
/*
 * The HTTP request parser and --listen addresses (httpd.h; pure, fuzzed:
 * tests/fuzz/fuzz_http.c). It follows RFC 9112 strictly where leniency has
 * been an attack (request smuggling: whitespace before a field's colon,
 * obs-fold, bare CR, several Host fields) and leniently where RFC 9112
 * allows it (a bare LF ends a line, empty lines before the request line).
 * No request takes a body here, so one that announces one is refused
 * rather than read.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "httpd.h"

static int is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* field-value bytes: HTAB, SP, VCHAR, obs-text */
static int is_value_char(unsigned char c)
{
	return c == '\t' || (c >= 0x20 && c != 0x7f);
}

static int answer(struct httpd_req *req, int status)
{
	req->status = status;
	return 1;
}

/* method SP request-target SP HTTP-version */
static int parse_request_line(const char *p, size_t n, struct httpd_req *req,
			      int *method_ok, int *minor, int *major,
			      const char **target, size_t *tlen)
{
	size_t i = 0, m;

	while (i < n && is_tchar(p[i]))
		i++;
	m = i;
	if (!m || i >= n || p[i] != ' ')
		return -1;
	*method_ok = (m == 3 && !memcmp(p, "GET", 3)) ||
		     (m == 4 && !memcmp(p, "HEAD", 4));
	*target = p + ++i;
	while (i < n && (unsigned char)p[i] > 0x20 && p[i] != 0x7f)
		i++;
	*tlen = p + i - *target;
	if (!*tlen || i >= n || p[i] != ' ')
		return -1;
	i++;
	if (n - i != 8 || memcmp(p + i, "HTTP/", 5) || p[i + 6] != '.' ||
	    p[i + 5] < '0' || p[i + 5] > '9' || p[i + 7] < '0' ||
	    p[i + 7] > '9')
		return -1;
	*major = p[i + 5] - '0';
	*minor = p[i + 7] - '0';
	/* the answer to a HEAD has no body, whatever its status */
	req->head = m == 4 && !memcmp(p, "HEAD", 4);
	return 0;
}

static int route_of(const char *t, size_t n)
{
	size_t i = 0;

	/* absolute-form (RFC 9112 3.2.2): skip scheme and authority */
	if ((n >= 7 && !strncasecmp(t, "http://", 7)) ||
	    (n >= 8 && !strncasecmp(t, "https://", 8))) {
		i = t[4] == ':' ? 7 : 8;
		while (i < n && t[i] != '/' && t[i] != '?')
			i++;
		if (i == n || t[i] == '?')
			return HTTPD_ROUTE_ROOT;
		t += i;
		n -= i;
	}
	for (i = 0; i < n && t[i] != '?'; i++)
		;
	if (i == 8 && !memcmp(t, "/metrics", 8))
		return HTTPD_ROUTE_METRICS;
	if (i == 1 && t[0] == '/')
		return HTTPD_ROUTE_ROOT;
	return HTTPD_ROUTE_NONE;
}

struct fields {
	int n, hosts, lengths, body;
};

/* field-name ":" OWS field-value OWS */
static int parse_field(const char *p, size_t n, struct fields *fs)
{
	size_t i = 0, v, e;

	while (i < n && is_tchar(p[i]))
		i++;
	if (!i || i >= n || p[i] != ':')
		return -1; /* also whitespace before the colon, and obs-fold */
	for (v = i + 1; v < n; v++)
		if (!is_value_char(p[v]))
			return -1;
	v = i + 1;
	while (v < n && (p[v] == ' ' || p[v] == '\t'))
		v++;
	e = n;
	while (e > v && (p[e - 1] == ' ' || p[e - 1] == '\t'))
		e--;
	if (i == 4 && !strncasecmp(p, "host", 4)) {
		fs->hosts++;
	} else if (i == 14 && !strncasecmp(p, "content-length", 14)) {
		size_t k;

		fs->lengths++;
		if (v == e)
			return -1;
		for (k = v; k < e; k++) {
			if (p[k] < '0' || p[k] > '9')
				return -1;
			if (p[k] != '0')
				fs->body = 1;
		}
	} else if (i == 17 && !strncasecmp(p, "transfer-encoding", 17)) {
		fs->body = 1;
	}
	return 0;
}

/* Bytes of a line not complete yet that no request line or field has. */
static int partial_bad(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c == '\r' && i + 1 == n)
			break;
		if (c != '\t' && (c < 0x20 || c == 0x7f))
			return 1;
	}
	return 0;
}

int httpd_parse(const char *buf, size_t len, struct httpd_req *req)
{
	struct fields fs = { 0 };
	const char *target = NULL;
	size_t pos = 0, tlen = 0;
	int seen_line = 0, method_ok = 0, minor = 0, major = 0;

	memset(req, 0, sizeof(*req));
	req->status = 400;
	for (;;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t eol, next, n;
		const char *line = buf + pos;

		if (!nl) {
			if (len >= HTTPD_MAX_HEAD)
				return answer(req, 431);
			if (partial_bad(line, len - pos))
				return answer(req, 400);
			return 0;
		}
		eol = nl - buf;
		next = eol + 1;
		if (next > HTTPD_MAX_HEAD)
			return answer(req, 431);
		if (eol > pos && buf[eol - 1] == '\r')
			eol--;
		n = eol - pos;
		if (!seen_line) {
			/* RFC 9112 2.2: empty lines before it are ignored */
			if (n && parse_request_line(line, n, req, &method_ok,
						    &minor, &major, &target,
						    &tlen) < 0)
				return answer(req, 400);
			seen_line = n > 0;
		} else if (n) {
			/* bad bytes before too many fields: a read that
			 * ends inside this line has judged its bytes */
			if (parse_field(line, n, &fs) < 0)
				return answer(req, 400);
			if (++fs.n > HTTPD_MAX_FIELDS)
				return answer(req, 431);
		} else {
			break;
		}
		pos = next;
	}
	/* RFC 9112 3.2: exactly one Host in 1.1, at most one before */
	if (fs.hosts > 1 || (major == 1 && minor >= 1 && fs.hosts != 1) ||
	    fs.lengths > 1 || fs.body)
		return answer(req, 400);
	if (major != 1)
		return answer(req, 505);
	if (!method_ok)
		return answer(req, 405);
	req->route = route_of(target, tlen);
	return answer(req, req->route == HTTPD_ROUTE_NONE ? 404 : 200);
}

int httpd_parse_listen(const char *s, struct sockaddr_storage *ss,
		       socklen_t *len, const char **why)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[64];
	const char *colon, *p;
	unsigned long port = 0;
	size_t hl;

	memset(ss, 0, sizeof(*ss));
	if (why)
		*why = "give ADDR:PORT, e.g. 127.0.0.1:19435, [::1]:19435 or "
		       ":19435 (every interface)";
	if (!s)
		return -EINVAL;
	if (s[0] == '[') {
		colon = strstr(s, "]:");
		if (!colon)
			return -EINVAL;
		hl = colon - s - 1;
		p = colon + 2;
		s++;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return -EINVAL;
		hl = colon - s;
		p = colon + 1;
	}
	if (hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, hl);
	host[hl] = 0;
	if (!*p || strlen(p) > 5)
		goto bad_port;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			goto bad_port;
		port = port * 10 + (*p - '0');
	}
	if (!port || port > 65535)
		goto bad_port;
	if (colon[0] == ']') {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1) {
			if (why)
				*why = "not an IPv6 address between [ and ]";
			return -EINVAL;
		}
		*len = sizeof(*in6);
		return 0;
	}
	in4->sin_family = AF_INET;
	in4->sin_port = htons(port);
	if (!*host)
		in4->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (!strcmp(host, "localhost"))
		in4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &in4->sin_addr) != 1) {
		if (why)
			*why = "not an IPv4 address (names other than "
			       "localhost are not looked up; IPv6 goes in "
			       "brackets: [::1]:19435)";
		return -EINVAL;
	}
	*len = sizeof(*in4);
	return 0;
bad_port:
	if (why)
		*why = "the port must be a number from 1 to 65535";
	return -EINVAL;
}

int httpd_parse_allow(const char *s, struct httpd_allow *a, const char **why)
{
	char host[64];
	const char *slash, *p;
	size_t hl;
	int max;

	memset(a, 0, sizeof(*a));
	if (why)
		*why = "give ADDR or ADDR/PREFIX, e.g. 10.0.0.5, "
		       "192.168.1.0/24 or fd00::/8";
	if (!s || !*s)
		return -EINVAL;
	slash = strchr(s, '/');
	hl = slash ? (size_t)(slash - s) : strlen(s);
	if (hl >= 2 && s[0] == '[' && s[hl - 1] == ']') {
		s++;
		hl -= 2;
	}
	if (!hl || hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, hl);
	host[hl] = 0;
	if (inet_pton(AF_INET, host, a->addr) == 1) {
		a->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, a->addr) == 1) {
		a->family = AF_INET6;
		max = 128;
	} else {
		if (why)
			*why = "not an IPv4 or IPv6 address (names are not "
			       "looked up)";
		return -EINVAL;
	}
	a->prefix = max;
	if (slash) {
		p = slash + 1;
		if (!*p || strlen(p) > 3)
			goto bad_prefix;
		for (a->prefix = 0; *p; p++) {
			if (*p < '0' || *p > '9')
				goto bad_prefix;
			a->prefix = a->prefix * 10 + (*p - '0');
		}
		if (a->prefix > max)
			goto bad_prefix;
	}
	return 0;
bad_prefix:
	if (why)
		*why = max == 32 ? "the prefix must be a number from 0 to 32" :
				   "the prefix must be a number from 0 to 128";
	return -EINVAL;
}

static int prefix_match(const unsigned char *a, const unsigned char *b,
			int bits)
{
	int full = bits / 8, rest = bits % 8;

	if (memcmp(a, b, full))
		return 0;
	return !rest || !((a[full] ^ b[full]) & (0xff00 >> rest));
}

int httpd_allowed(const struct httpd_allow *a, int n,
		  const struct sockaddr_storage *peer)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0,
						  0, 0, 0xff, 0xff };
	const unsigned char *v4 = NULL, *v6 = NULL;
	int i;

	if (!n)
		return 1;
	if (peer->ss_family == AF_INET) {
		v4 = (const unsigned char *)&((const struct sockaddr_in *)peer)
			     ->sin_addr;
	} else if (peer->ss_family == AF_INET6) {
		v6 = ((const struct sockaddr_in6 *)peer)->sin6_addr.s6_addr;
		if (!memcmp(v6, mapped, sizeof(mapped)))
			v4 = v6 + 12;
	}
	for (i = 0; i < n; i++) {
		if (a[i].family == AF_INET && v4 &&
		    prefix_match(a[i].addr, v4, a[i].prefix))
			return 1;
		if (a[i].family == AF_INET6 && v6 &&
		    prefix_match(a[i].addr, v6, a[i].prefix))
			return 1;
	}
	return 0;
}

int httpd_is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr)
			>> 24) == 127;
	if (ss->ss_family == AF_INET6) {
		const struct in6_addr *a =
			&((const struct sockaddr_in6 *)ss)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) ||
		       (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
	}
	return 0;
}

void httpd_url(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in4 = (const struct sockaddr_in *)ss;
		struct in_addr a = in4->sin_addr;

		if (a.s_addr == htonl(INADDR_ANY))
			a.s_addr = htonl(INADDR_LOOPBACK);
		inet_ntop(AF_INET, &a, host, sizeof(host));
		port = ntohs(in4->sin_port);
		snprintf(buf, len, "http://%s:%d/metrics", host, port);
		return;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 =
			(const struct sockaddr_in6 *)ss;
		struct in6_addr a = in6->sin6_addr;

		if (IN6_IS_ADDR_UNSPECIFIED(&a))
			a = in6addr_loopback;
		inet_ntop(AF_INET6, &a, host, sizeof(host));
		port = ntohs(in6->sin6_port);
	}
	snprintf(buf, len, "http://[%s]:%d/metrics", host, port);
}
