/* SPDX-License-Identifier: MIT */
/*
 * The exporter's tcp collector (issue 29, --collectors tcp), scraped
 * before and after known TCP events on loopback, on ports that listen
 * when it starts (so they are labels, at 0 from the first scrape):
 * 3 connections refused by port P (its listener closed after the start:
 * resets sent from P; 2 more to an IPv6 port of ::1 closed the same
 * way: the tracepoint's sockaddr_in6), 2 connections to Q aborted by the client with
 * SO_LINGER 0 (resets received by Q's sockets), and the SYN retransmits
 * of a client bound to port R (its listener closed too) connecting to a
 * listener whose accept queue is full (its SYNs are dropped), closed
 * after 2 s (1 retransmit at 1 s): as many as its tcp_info counts. Each
 * labelled series moves by exactly that much; a port that starts to
 * listen later is a label, at 0, from the next render; the exporter's own port
 * and the others under "_other" are not checked (the host's traffic).
 * Resets sent without a socket count where the tracepoint records them
 * (6.10+) or the kprobes replace it (4.15-6.9 with kprobes: -v says so).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

/* a listener on a port the kernel picks, into *port */
static int listener(int *port, int backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(fd, 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ck_assert_msg(bind(fd, (void *)&a, sizeof(a)) == 0 &&
		      listen(fd, backlog) == 0 &&
		      getsockname(fd, (void *)&a, &len) == 0, "listen: %s",
		      strerror(errno));
	*port = ntohs(a.sin_port);
	return fd;
}

/* a connection from 127.0.0.1:from (0: any) to port; connect's errno */
static int connect_from(int from, int port, int nonblock, int *out)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, ret;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(fd, 0);
	if (from) {
		a.sin_port = htons(from);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		ck_assert_msg(bind(fd, (void *)&a, sizeof(a)) == 0,
			      "bind %d: %s", from, strerror(errno));
	}
	if (nonblock)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	a.sin_port = htons(port);
	ret = connect(fd, (void *)&a, sizeof(a)) ? errno : 0;
	if (out)
		*out = fd;
	else
		close(fd);
	return ret;
}

/* the same over IPv6 (::1): a listener into *port, or a connect's errno */
static int v6(int listen_, int *port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	a.sin6_addr = in6addr_loopback;
	ck_assert_int_ge(fd, 0);
	if (!listen_) {
		a.sin6_port = htons(*port);
		ret = connect(fd, (void *)&a, sizeof(a)) ? errno : 0;
		close(fd);
		return ret;
	}
	ck_assert_msg(bind(fd, (void *)&a, sizeof(a)) == 0 &&
		      listen(fd, 8) == 0 &&
		      getsockname(fd, (void *)&a, &len) == 0, "listen on ::1: "
		      "%s", strerror(errno));
	*port = ntohs(a.sin6_port);
	return fd;
}

static double value(const char *text, const char *series)
{
	char want[256];
	const char *p;

	snprintf(want, sizeof(want), "\n%s ", series);
	p = strstr(text, want);
	ck_assert_msg(p != NULL, "no %s in the scrape:\n%s", series, text);
	return atof(p + strlen(want));
}

static char *scrape(int port)
{
	struct http_reply r;

	usleep(1300000);
	ck_assert_int_eq(http_get(port, "/metrics", &r, 5), 200);
	return strdup(r.body);
}

/* 1 if tcp_send_reset records the segment's addresses as a sockaddr
 * (6.10+: resets without a socket too), else 0 (only a socket's) */
static int resets_without_socket(void)
{
	char out[64];

	return sh("grep -qs 'saddr\\[28\\]' /sys/kernel/tracing/events/tcp/"
		  "tcp_send_reset/format /sys/kernel/debug/tracing/events/"
		  "tcp/tcp_send_reset/format 2>/dev/null", out,
		  sizeof(out)) == 0;
}

/* the ports of the retransmit series, in order: ascending, or 0 */
static int ports_ascend(const char *text)
{
	const char *k = "\nbarebpf_tcp_retransmits_total{port=\"", *at;
	long last = -1, n = 0;

	for (at = strstr(text, k); at; at = strstr(at + 1, k)) {
		long v = strtol(at + strlen(k), NULL, 10);

		if (at[strlen(k)] == '_')
			continue; /* _other, last */
		if (v <= last)
			return 0;
		last = v;
		n++;
	}
	return n > 0;
}

#define RST(dir) "barebpf_tcp_resets_total{port=\"%d\",dir=\"" dir "\"}"

static double series(const char *text, const char *fmt, int port)
{
	char s[128];

	snprintf(s, sizeof(s), fmt, port);
	return value(text, s);
}

START_TEST(test_tcp_counts_by_port)
{
	const char *ret_fmt = "barebpf_tcp_retransmits_total{port=\"%d\"}";
	int p, q, r, l, n, ln, port = free_port();
	int p6, l6 = v6(1, &p6), lp = listener(&p, 8), lq = listener(&q, 8), lr = listener(&r, 8);
	int ll = listener(&l, 0), filler, c[2], acc[2], i, e;
	char listen_[64], out[4096], err[4096];
	char *argv[] = { (char *)barebpf(), "exporter", "--listen", listen_,
			 "-i", "1", "-c", "tcp", "-v", NULL };
	struct linger lin = { 1, 0 };
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);
	int rc, sock0 = resets_without_socket();
	struct proc ex;
	char *a, *b;

	if (access("/sys/kernel/tracing/events/tcp/tcp_send_reset", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/tcp/tcp_send_reset",
		   F_OK)) {
		printf("SKIP: no tcp:tcp_send_reset tracepoint (4.15+)\n");
		return;
	}
	snprintf(listen_, sizeof(listen_), "127.0.0.1:%d", port);
	spawn(&ex, argv);
	read_until(ex.out, out, sizeof(out), "Exporting", 30000);
	ck_assert_msg(strstr(out, "Exporting"), "not started: %s", out);
	a = scrape(port);
	/* the listening ports from the start, at 0 */
	ck_assert_int_eq(series(a, RST("sent"), p), 0);
	ck_assert_int_eq(series(a, RST("sent"), p6), 0);
	ck_assert_int_eq(series(a, RST("received"), q), 0);
	ck_assert_int_eq(series(a, ret_fmt, r), 0);
	ck_assert_int_eq(series(a, ret_fmt, l), 0);
	value(a, "barebpf_tcp_resets_total{port=\"_other\",dir=\"sent\"}");
	close(lp);
	close(lr);
	close(l6);
	ln = listener(&n, 8); /* a new one: a label from the next render */
	for (i = 0; i < 3; i++) {
		e = connect_from(0, p, 0, NULL);
		ck_assert_msg(e == ECONNREFUSED, "to %d: %s", p, strerror(e));
	}
	for (i = 0; i < 2; i++) {
		e = v6(0, &p6);
		ck_assert_msg(e == ECONNREFUSED, "to ::1 %d: %s", p6,
			      strerror(e));
	}
	for (i = 0; i < 2; i++) {
		e = connect_from(0, q, 0, &c[i]);
		ck_assert_msg(e == 0, "to %d: %s", q, strerror(e));
		ck_assert_int_ge(acc[i] = accept(lq, NULL, NULL), 0);
	}
	for (i = 0; i < 2; i++) {
		setsockopt(c[i], SOL_SOCKET, SO_LINGER, &lin, sizeof(lin));
		close(c[i]);
	}
	/* fill l's accept queue (backlog 0: one), then R's SYNs are lost */
	e = connect_from(0, l, 0, &filler);
	ck_assert_msg(e == 0, "to %d: %s", l, strerror(e));
	usleep(100000);
	e = connect_from(r, l, 1, &rc);
	ck_assert_msg(e == EINPROGRESS, "connect from %d: %s", r,
		      strerror(e));
	/* the first retransmit at 1 s, the next at 3 s: the kernel's own
	 * count of that socket's, then it is closed */
	usleep(2000000);
	ck_assert_int_eq(getsockopt(rc, IPPROTO_TCP, TCP_INFO, &ti, &tl), 0);
	close(rc);
	ck_assert_msg(ti.tcpi_total_retrans >= 1, "%u", ti.tcpi_total_retrans);
	b = scrape(port);
	kill(ex.pid, SIGINT);
	read_until(ex.err, err, sizeof(err), NULL, 10000);
	ck_assert_msg(wait_exit(ex.pid) == 0, "exporter exit: %s", err);
	close(ex.out);
	close(ex.err);
	/* 4.15-6.9 with kprobes: resets sent by kprobes, with or without a
	 * socket (-v says so) */
	if (strstr(err, "resets sent: kprobes"))
		sock0 = 1;
	ck_assert_msg(series(b, RST("sent"), p) == 3 * sock0, "resets sent by "
		      "%d: %g, not %d", p, series(b, RST("sent"), p), 3 * sock0);
	ck_assert_msg(series(b, RST("sent"), p6) == 2 * sock0, "resets sent by "
		      "::1 %d: %g, not %d", p6, series(b, RST("sent"), p6),
		      2 * sock0);
	ck_assert_msg(series(b, RST("received"), q) == 2, "resets received "
		      "by %d: %g, not 2", q, series(b, RST("received"), q));
	ck_assert_msg(series(b, ret_fmt, r) == ti.tcpi_total_retrans,
		      "retransmits of %d: %g, not the socket's %u", r,
		      series(b, ret_fmt, r), ti.tcpi_total_retrans);
	ck_assert_msg(series(b, RST("received"), p) == 0, "%s", b);
	ck_assert_msg(series(b, ret_fmt, n) == 0, "%s", b);
	ck_assert_msg(ports_ascend(a) && ports_ascend(b), "not by port:\n%s",
		      b);
	ck_assert_msg(series(b, RST("sent"), n) == 0, "%s", b);
	close(lq);
	close(ll);
	close(ln);
	close(filler);
	close(acc[0]);
	close(acc[1]);
	free(a);
	free(b);
}
END_TEST

/* Without the tracepoints (BAREBPF_TCP=kprobes here), --no-kprobes leaves
 * the collector out, and says why */
START_TEST(test_tcp_no_kprobes)
{
	char cmd[512], out[4096];
	int rc;

	snprintf(cmd, sizeof(cmd), "BAREBPF_TCP=kprobes %s exporter -c tcp "
		 "--no-kprobes --listen 127.0.0.1:%d --duration 1 2>&1",
		 barebpf(), free_port());
	rc = sh(cmd, out, sizeof(out));
	ck_assert_msg(rc != 0 && strstr(out, "--no-kprobes leaves them out") &&
		      strstr(out, "the tcp collector is left out"),
		      "exit %d: %s", rc, out);
}
END_TEST

static Suite *exporter_tcp_suite(void)
{
	Suite *s = suite_create("exporter_tcp");
	TCase *tc = tcase_create("tcp");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tcp_counts_by_port);
	tcase_add_test(tc, test_tcp_no_kprobes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exporter_tcp, exporter_tcp_suite, need_root_and_tools)
