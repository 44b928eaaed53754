/* SPDX-License-Identifier: MIT */
/*
 * A small HTTP/1.1 server for one document, /metrics, that lives in the
 * caller's poll loop: every socket is non-blocking, nothing here sleeps,
 * and the caller's timer keeps running whatever clients do. Bounded by
 * design: at most HTTPD_MAX_CONNS connections (when all are taken, a new
 * one evicts a slow or idle one; see evictee() in httpd.c), a request head of at most HTTPD_MAX_HEAD bytes and
 * HTTPD_MAX_FIELDS header lines, HTTPD_READ_TIMEOUT seconds from accept to
 * the end of the head and HTTPD_LIFETIME seconds in all; one request per
 * connection (Connection: close). Prints nothing; errors are -errno.
 */
#ifndef BAREBPF_HTTPD_H
#define BAREBPF_HTTPD_H

#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>

#define HTTPD_DEFAULT_PORT 19435
#define HTTPD_MAX_CONNS 32
#define HTTPD_MAX_HEAD 8192
#define HTTPD_MAX_FIELDS 64
#define HTTPD_READ_TIMEOUT 5.0
#define HTTPD_LIFETIME 15.0

/* ---- the request parser (pure: tests/unit, tests/fuzz/fuzz_http.c) ---- */
enum httpd_route { HTTPD_ROUTE_NONE, HTTPD_ROUTE_METRICS, HTTPD_ROUTE_ROOT };

struct httpd_req {
	int status;  /* what to answer: 200, 400, 404, 405, 431, 505 */
	int head;    /* HEAD: the answer has no body */
	int route;   /* HTTPD_ROUTE_* when status is 200 */
};

/*
 * Parse the request head at the start of buf (len bytes, not
 * NUL-terminated). Returns 0 while more bytes are needed, 1 once req says
 * what to answer: the head is complete, or the bytes so far are already
 * wrong (400) or too many (431: HTTPD_MAX_HEAD bytes without the end of
 * the head, or more than HTTPD_MAX_FIELDS fields).
 */
int httpd_parse(const char *buf, size_t len, struct httpd_req *req);

/*
 * "ADDR:PORT": 127.0.0.1:19435, [::1]:19435, localhost:19435, or :19435
 * for every interface (as Go servers read it). Pure; -EINVAL with a
 * reason in why (if not NULL).
 */
int httpd_parse_listen(const char *s, struct sockaddr_storage *ss,
		       socklen_t *len, const char **why);

/*
 * Who may scrape: "ADDR[/PREFIX]" (10.0.0.5, 192.168.1.0/24, [::1] or
 * ::1, fd00::/8). Pure; -EINVAL with a reason in why (if not NULL).
 */
struct httpd_allow {
	int family;             /* AF_INET or AF_INET6 */
	int prefix;             /* bits that must match */
	unsigned char addr[16]; /* network order */
};
int httpd_parse_allow(const char *s, struct httpd_allow *a, const char **why);
/* 1 if peer is in one of a[0..n-1] (an IPv4 client on an IPv6 socket,
 * ::ffff:a.b.c.d, matches the IPv4 entries); n == 0 allows everyone. */
int httpd_allowed(const struct httpd_allow *a, int n,
		  const struct sockaddr_storage *peer);
/* 1 if a listening address only loopback clients can reach. */
int httpd_is_loopback(const struct sockaddr_storage *ss);
/* "http://HOST:PORT/metrics" that reaches ss from this host (the
 * loopback address for a wildcard, which no client can connect to). */
void httpd_url(const struct sockaddr_storage *ss, char *buf, size_t len);

/* ---- the server ---- */
struct httpd;

struct httpd_stats {
	unsigned long long accepted, served, evicted, refused, timed_out;
	unsigned long long denied; /* not in the allow-list: closed at once */
	unsigned long long by_status[6]; /* 200 400 404 405 431 505 */
};

/* Bind and listen on addr (httpd_parse_listen's form). */
int httpd_open(struct httpd **hp, const char *addr);
/* Serve only clients in a[0..n-1] (kept, not copied); others are closed
 * at accept, unanswered. */
void httpd_set_allow(struct httpd *h, const struct httpd_allow *a, int n);
/* The document /metrics serves from now on (copied; connections already
 * answering keep the one they started with). */
int httpd_set_metrics(struct httpd *h, const char *buf, size_t len);
/* Put the server's fds in fds (at most max); returns how many. */
int httpd_pollfds(struct httpd *h, struct pollfd *fds, int max, double now);
/* Milliseconds until the next deadline of a connection, -1 if none. */
int httpd_timeout_ms(const struct httpd *h, double now);
/* Serve what fds (as filled by httpd_pollfds, after poll) say is ready,
 * and close connections past their deadline. now: monotonic seconds. */
void httpd_serve(struct httpd *h, const struct pollfd *fds, int n,
		 double now);
const struct httpd_stats *httpd_get_stats(const struct httpd *h);
int httpd_nconns(const struct httpd *h);
void httpd_close(struct httpd *h); /* NULL is fine */

#endif
