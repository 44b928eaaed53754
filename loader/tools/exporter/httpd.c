/* SPDX-License-Identifier: MIT */
/*
 * See httpd.h; requests are parsed by httpd_parse.c.
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
	const struct httpd_allow *allow; /* NULL: everyone */
	int nallow;
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

void httpd_set_allow(struct httpd *h, const struct httpd_allow *a, int n)
{
	h->allow = a;
	h->nallow = n;
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

		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);

		memset(&peer, 0, sizeof(peer));
		fd = accept4(h->lfd, (struct sockaddr *)&peer, &plen,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
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
		if (!httpd_allowed(h->allow, h->nallow, &peer)) {
			close(fd);
			h->st.denied++;
			continue;
		}
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

const struct httpd_stats *httpd_get_stats(const struct httpd *h)
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
