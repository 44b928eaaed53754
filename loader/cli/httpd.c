/* SPDX-License-Identifier: MIT */
/*
 * See httpd.h. The parser follows RFC 9112 strictly where leniency has
 * been an attack (request smuggling: whitespace before a field's colon,
 * obs-fold, bare CR, several Host fields) and leniently where RFC 9112
 * allows it (a bare LF ends a line, empty lines before the request line).
 * No request takes a body here, so one that announces one is refused
 * rather than read.
 *
 * A connection goes READ -> WRITE -> LINGER -> closed. LINGER half-closes
 * and reads what the client still sends for a moment before the close:
 * closing with unread bytes makes the kernel send a reset, and the client
 * may lose the answer (our 400 or 431) before it reads it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>
#include <unistd.h>
#include "httpd.h"

#define LINGER_TIME 1.0
#define LINGER_DISCARD 65536
#define ACCEPT_BURST 64      /* per httpd_serve: the loop stays ours */
#define ACCEPT_BACKOFF 0.2   /* after EMFILE and the like */
#define EVICT_MIN_AGE 0.05

/* ---- the parser ---- */

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

/* ---- the server ---- */

/* A document shared by the connections sending it. */
struct body {
	int refs;
	size_t len;
	char data[];
};

enum { C_FREE, C_READ, C_WRITE, C_LINGER };

struct conn {
	int fd;
	int state;
	double start, linger_end;
	size_t inlen, discarded;
	char in[HTTPD_MAX_HEAD];
	char out[512];          /* status line, fields, and a short body */
	size_t outlen, off;     /* off: bytes of out + body sent */
	struct body *body;      /* NULL: out is all */
};

struct httpd {
	int lfd;
	double accept_after;
	struct body *metrics;
	struct httpd_stats st;
	int polled[HTTPD_MAX_CONNS]; /* conns in pollfds order, after lfd */
	int npolled;
	struct conn c[HTTPD_MAX_CONNS];
};

static void body_put(struct body *b)
{
	if (b && --b->refs == 0)
		free(b);
}

static void conn_close(struct conn *c)
{
	if (c->state == C_FREE)
		return;
	close(c->fd);
	body_put(c->body);
	c->body = NULL;
	c->fd = -1;
	c->state = C_FREE;
}

int httpd_open(struct httpd **hp, const char *addr)
{
	struct sockaddr_storage ss;
	struct httpd *h;
	socklen_t len;
	int one = 1, ret, i;

	ret = httpd_parse_listen(addr, &ss, &len, NULL);
	if (ret < 0)
		return ret;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (i = 0; i < HTTPD_MAX_CONNS; i++)
		h->c[i].fd = -1;
	h->lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
			SOCK_CLOEXEC, 0);
	if (h->lfd < 0) {
		ret = -errno;
		free(h);
		return ret;
	}
	/* a restart must not wait for the old connections' TIME_WAIT */
	setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(h->lfd, (struct sockaddr *)&ss, len) < 0 ||
	    listen(h->lfd, 1024) < 0) {
		ret = -errno;
		close(h->lfd);
		free(h);
		return ret;
	}
	*hp = h;
	return 0;
}

int httpd_set_metrics(struct httpd *h, const char *buf, size_t len)
{
	struct body *b = malloc(sizeof(*b) + len);

	if (!b)
		return -ENOMEM;
	b->refs = 1;
	b->len = len;
	memcpy(b->data, buf, len);
	body_put(h->metrics);
	h->metrics = b;
	return 0;
}

int httpd_pollfds(struct httpd *h, struct pollfd *fds, int max, double now)
{
	int i, n = 0;

	h->npolled = 0;
	if (max < 1)
		return 0;
	/* a negative fd is skipped by poll: the slot stays, its events not */
	fds[n].fd = now >= h->accept_after ? h->lfd : -1;
	fds[n].events = POLLIN;
	fds[n++].revents = 0;
	for (i = 0; i < HTTPD_MAX_CONNS && n < max; i++) {
		struct conn *c = &h->c[i];

		if (c->state == C_FREE)
			continue;
		fds[n].fd = c->fd;
		fds[n].events = c->state == C_WRITE ? POLLOUT : POLLIN;
		fds[n++].revents = 0;
		h->polled[h->npolled++] = i;
	}
	return n;
}

static double deadline(const struct conn *c)
{
	double d = c->start + HTTPD_LIFETIME;

	if (c->state == C_READ && c->start + HTTPD_READ_TIMEOUT < d)
		d = c->start + HTTPD_READ_TIMEOUT;
	if (c->state == C_LINGER && c->linger_end < d)
		d = c->linger_end;
	return d;
}

int httpd_timeout_ms(const struct httpd *h, double now)
{
	double next = 0;
	int i;

	for (i = 0; i < HTTPD_MAX_CONNS; i++) {
		double d;

		if (h->c[i].state == C_FREE)
			continue;
		d = deadline(&h->c[i]);
		if (!next || d < next)
			next = d;
	}
	if (now < h->accept_after && (!next || h->accept_after < next))
		next = h->accept_after;
	if (!next)
		return -1;
	return next <= now ? 0 : (int)((next - now) * 1000) + 1;
}

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 431: return "Request Header Fields Too Large";
	case 505: return "HTTP Version Not Supported";
	}
	return "Error";
}

static int status_index(int status)
{
	static const int known[] = { 200, 400, 404, 405, 431, 505 };
	int i;

	for (i = 0; i < 6; i++)
		if (known[i] == status)
			return i;
	return 1;
}

static void respond(struct httpd *h, struct conn *c,
		    const struct httpd_req *req)
{
	static const char root[] =
		"barebpf exporter: the metrics are at /metrics\n";
	const char *text = NULL, *type = "text/plain; charset=utf-8";
	size_t blen;
	char msg[96];

	h->st.by_status[status_index(req->status)]++;
	if (req->status == 200 && req->route == HTTPD_ROUTE_METRICS) {
		c->body = h->metrics;
		if (c->body)
			c->body->refs++;
		blen = c->body ? c->body->len : 0;
		type = "text/plain; version=0.0.4; charset=utf-8";
	} else {
		if (req->status == 200)
			text = root;
		else if (req->status == 404)
			text = "not found: the metrics are at /metrics\n";
		else {
			snprintf(msg, sizeof(msg), "%d %s\n", req->status,
				 reason(req->status));
			text = msg;
		}
		blen = strlen(text);
	}
	c->outlen = snprintf(c->out, sizeof(c->out),
			     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
			     "Content-Length: %zu\r\nConnection: close\r\n%s"
			     "\r\n", req->status, reason(req->status), type,
			     blen, req->status == 405 ?
			     "Allow: GET, HEAD\r\n" : "");
	if (req->head) {
		body_put(c->body);
		c->body = NULL;
	} else if (text && c->outlen + blen < sizeof(c->out)) {
		memcpy(c->out + c->outlen, text, blen);
		c->outlen += blen;
	}
	c->off = 0;
	c->state = C_WRITE;
}

static void start_linger(struct conn *c, double now)
{
	shutdown(c->fd, SHUT_WR);
	c->state = C_LINGER;
	c->linger_end = now + LINGER_TIME;
	c->discarded = 0;
}

static void do_write(struct httpd *h, struct conn *c, double now)
{
	for (;;) {
		struct iovec iov[2];
		struct msghdr mh;
		size_t total = c->outlen + (c->body ? c->body->len : 0);
		ssize_t n;
		int k = 0;

		if (c->off >= total) {
			h->st.served++;
			start_linger(c, now);
			return;
		}
		if (c->off < c->outlen) {
			iov[k].iov_base = c->out + c->off;
			iov[k++].iov_len = c->outlen - c->off;
		}
		if (c->body) {
			size_t boff = c->off > c->outlen ? c->off - c->outlen : 0;

			iov[k].iov_base = c->body->data + boff;
			iov[k++].iov_len = c->body->len - boff;
		}
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = k;
		/* MSG_NOSIGNAL: a client gone is no SIGPIPE for the tool */
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				conn_close(c);
			return;
		}
		c->off += n;
	}
}

static void do_read(struct httpd *h, struct conn *c, double now)
{
	struct httpd_req req;

	for (;;) {
		ssize_t n;

		if (c->state == C_LINGER) {
			char sink[4096];

			n = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
			if (n > 0) {
				c->discarded += n;
				if (c->discarded > LINGER_DISCARD)
					conn_close(c);
				else
					continue;
			} else if (n == 0 || (errno != EINTR &&
					      errno != EAGAIN &&
					      errno != EWOULDBLOCK)) {
				conn_close(c);
			} else if (errno == EINTR) {
				continue;
			}
			return;
		}
		n = recv(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen,
			 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			conn_close(c); /* gone before asking anything */
			return;
		}
		c->inlen += n;
		if (httpd_parse(c->in, c->inlen, &req)) {
			respond(h, c, &req);
			do_write(h, c, now);
			return;
		}
	}
}

/*
 * The connection to close for a new one when all are taken, the oldest of
 * the first kind there is: one that sent part of a request (a whole one
 * comes in one segment: this is a slow client), one that sent nothing for
 * EVICT_MIN_AGE, any other one that old. A newcomer whose request is there
 * (the usual case: it came with the handshake's last ACK) may also take
 * the place of a younger idle one; one that has sent nothing yet may not,
 * so that a client whose request is a moment behind its connection is
 * answered while a flood of connections comes in. NULL: refuse the new
 * one.
 */
static struct conn *evictee(struct httpd *h, double now, int has_data)
{
	struct conn *best = NULL;
	int i, best_rank = 0;

	for (i = 0; i < HTTPD_MAX_CONNS; i++) {
		struct conn *c = &h->c[i];
		int rank;

		if (c->state == C_READ && c->inlen)
			rank = 0;
		else if (c->start <= now - EVICT_MIN_AGE)
			rank = c->state == C_READ ? 1 : 2;
		else if (has_data)
			rank = 3;
		else
			continue;
		if (!best || rank < best_rank ||
		    (rank == best_rank && c->start < best->start)) {
			best = c;
			best_rank = rank;
		}
	}
	return best;
}

static void do_accept(struct httpd *h, double now)
{
	int k;

	for (k = 0; k < ACCEPT_BURST; k++) {
		struct conn *c = NULL;
		int fd, i;

		fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				/* EMFILE, ENOBUFS...: the connection stays
				 * queued and poll would say so at once */
				h->accept_after = now + ACCEPT_BACKOFF;
			return;
		}
		h->st.accepted++;
		for (i = 0; i < HTTPD_MAX_CONNS && !c; i++)
			if (h->c[i].state == C_FREE)
				c = &h->c[i];
		if (!c) {
			char b;

			c = evictee(h, now, recv(fd, &b, 1, MSG_PEEK |
						 MSG_DONTWAIT) > 0);
			if (!c) {
				close(fd);
				h->st.refused++;
				continue;
			}
			conn_close(c);
			h->st.evicted++;
		}
		c->fd = fd;
		c->state = C_READ;
		c->start = now;
		c->inlen = 0;
		c->outlen = c->off = 0;
		c->body = NULL;
		/* the request usually came with the connection: answer it
		 * now, before the next newcomers want the slot */
		do_read(h, c, now);
	}
}

void httpd_serve(struct httpd *h, const struct pollfd *fds, int n,
		 double now)
{
	int i;

	for (i = 1; i < n && i - 1 < h->npolled; i++) {
		struct conn *c = &h->c[h->polled[i - 1]];

		if (!fds[i].revents || c->state == C_FREE || c->fd != fds[i].fd)
			continue;
		if (c->state == C_WRITE)
			do_write(h, c, now);
		else
			do_read(h, c, now);
	}
	h->npolled = 0;
	for (i = 0; i < HTTPD_MAX_CONNS; i++) {
		struct conn *c = &h->c[i];

		if (c->state != C_FREE && now >= deadline(c)) {
			if (c->state != C_LINGER)
				h->st.timed_out++;
			conn_close(c);
		}
	}
	if (n > 0 && fds[0].fd >= 0 && fds[0].revents)
		do_accept(h, now);
}

const struct httpd_stats *httpd_stats(const struct httpd *h)
{
	return &h->st;
}

int httpd_nconns(const struct httpd *h)
{
	int i, n = 0;

	for (i = 0; i < HTTPD_MAX_CONNS; i++)
		n += h->c[i].state != C_FREE;
	return n;
}

void httpd_close(struct httpd *h)
{
	int i;

	if (!h)
		return;
	for (i = 0; i < HTTPD_MAX_CONNS; i++)
		conn_close(&h->c[i]);
	body_put(h->metrics);
	close(h->lfd);
	free(h);
}
