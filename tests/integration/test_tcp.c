/* SPDX-License-Identifier: MIT */
/*
 * The network tools on this kernel's tracepoints (sock:inet_sock_set_state,
 * tcp:tcp_retransmit_skb), over loopback, IPv4 and IPv6: tcpstates lists
 * each transition of a connection this test opens and closes, with the
 * time spent in ESTABLISHED at least the time the test kept it; tcplife's
 * byte counts are the bytes the test sent and received; tcpretrans counts
 * as many retransmissions as the kernel sent (RetransSegs less
 * TCPRetransFail, in a network namespace of the test's own, where a socket filter that drops every
 * packet makes its one connection retransmit).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

struct conn {
	int l, c, a;     /* listener, client, accepted */
	int sport, cport; /* the listener's port, the client's */
};

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	return ntohs(ss.ss_family == AF_INET6 ?
		     ((struct sockaddr_in6 *)&ss)->sin6_port :
		     ((struct sockaddr_in *)&ss)->sin_port);
}

/* A loopback connection of family fam to a listener on port (0: any): 0,
 * or -errno (no IPv6 here). */
static int conn_open_port(int fam, int port, struct conn *k)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl = fam == AF_INET6 ? sizeof(*s6) : sizeof(*s4);

	ss.ss_family = fam;
	if (fam == AF_INET6)
		s6->sin6_addr = in6addr_loopback;
	else
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fam == AF_INET6)
		s6->sin6_port = htons(port);
	else
		s4->sin_port = htons(port);
	k->l = socket(fam, SOCK_STREAM, 0);
	if (k->l < 0)
		return -errno;
	if (bind(k->l, (struct sockaddr *)&ss, sl) < 0 || listen(k->l, 4) < 0) {
		close(k->l);
		return -errno;
	}
	k->sport = port_of(k->l);
	if (fam == AF_INET6)
		s6->sin6_port = htons(k->sport);
	else
		s4->sin_port = htons(k->sport);
	k->c = socket(fam, SOCK_STREAM, 0);
	ck_assert_int_ge(k->c, 0);
	ck_assert_int_eq(connect(k->c, (struct sockaddr *)&ss, sl), 0);
	k->a = accept(k->l, NULL, NULL);
	ck_assert_int_ge(k->a, 0);
	k->cport = port_of(k->c);
	return 0;
}

static int conn_open(int fam, struct conn *k)
{
	return conn_open_port(fam, 0, k);
}

static void conn_close(struct conn *k)
{
	close(k->c);
	close(k->a);
	close(k->l);
}

/* n bytes from fd to to, all read there */
static void pass(int fd, int to, size_t n)
{
	static char buf[65536];
	size_t sent = 0, got = 0;
	ssize_t r;

	memset(buf, 'x', sizeof(buf));
	while (got < n) {
		if (sent < n) {
			r = send(fd, buf, n - sent < sizeof(buf) ?
				 n - sent : sizeof(buf), MSG_DONTWAIT);
			if (r > 0)
				sent += r;
		}
		r = recv(to, buf, sizeof(buf), MSG_DONTWAIT);
		if (r > 0)
			got += r;
		else if (r == 0)
			break;
	}
	ck_assert_uint_eq(got, n);
}

static int have_ipv6(void)
{
	struct conn k;

	if (conn_open(AF_INET6, &k) < 0)
		return 0;
	conn_close(&k);
	return 1;
}

/* tool with -j and args (up to 3), started; traffic(arg) made; stopped */
static void with_tool(const char *tool, const char *a1, const char *a2,
		      void (*traffic)(void *), void *arg, char *out,
		      size_t len)
{
	char err[8192];
	char *argv[8] = { (char *)barebpf(), (char *)tool, "-j", (char *)a1,
			  (char *)a2, NULL };
	struct proc pr;
	size_t n = 0;

	out[0] = 0;
	spawn(&pr, argv);
	read_until(pr.err, err, sizeof(err), "Tracing", 20000);
	ck_assert_msg(strstr(err, "Tracing"), "%s did not start: %s", tool,
		      err);
	traffic(arg);
	msleep(300);
	kill(pr.pid, SIGINT);
	read_more(pr.out, out, len, &n, NULL, 20000);
	read_until(pr.err, err, sizeof(err), NULL, 5000);
	ck_assert_int_eq(wait_exit(pr.pid), 0);
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

/* ---- tcpstates ---- */
struct states_run {
	struct conn k[2];
	int nfam;
};

static void states_traffic(void *arg)
{
	struct states_run *r = arg;
	static const int fams[2] = { AF_INET, AF_INET6 };
	int i;

	for (i = 0; i < r->nfam; i++) {
		ck_assert_int_eq(conn_open(fams[i], &r->k[i]), 0);
		pass(r->k[i].c, r->k[i].a, 1000);
		msleep(150);
		/* the client closes first: FIN_WAIT1 on its side */
		close(r->k[i].c);
		msleep(50);
		close(r->k[i].a);
		close(r->k[i].l);
		msleep(50);
	}
}

static void states_traffic_port(void *arg)
{
	struct conn k;

	ck_assert_int_eq(conn_open_port(AF_INET, *(int *)arg, &k), 0);
	pass(k.c, k.a, 1000);
	close(k.c);
	msleep(50);
	close(k.a);
	close(k.l);
	msleep(50);
}

/* a change of the socket at lport->rport, once in out */
static void want_change(const char *out, const char *addr, int lport,
			int rport, const char *from, const char *to)
{
	char want[256];

	snprintf(want, sizeof(want), "\"laddr\":\"%s\",\"lport\":%d,"
		 "\"raddr\":\"%s\",\"rport\":%d,\"oldstate\":\"%s\","
		 "\"newstate\":\"%s\"", addr, lport, addr, rport, from, to);
	ck_assert_msg(count_of(out, want) == 1, "not once: %s in\n%s", want,
		      out);
}

static void check_states(const char *out, const struct conn *k,
			 const char *addr)
{
	char want[256];
	const char *p;
	double ms;

	want_change(out, addr, k->cport, k->sport, "SYN_SENT", "ESTABLISHED");
	want_change(out, addr, k->cport, k->sport, "ESTABLISHED",
		    "FIN_WAIT1");
	want_change(out, addr, k->cport, k->sport, "FIN_WAIT1", "FIN_WAIT2");
	want_change(out, addr, k->cport, k->sport, "FIN_WAIT2", "CLOSE");
	want_change(out, addr, k->sport, k->cport, "LISTEN", "SYN_RECV");
	want_change(out, addr, k->sport, k->cport, "SYN_RECV", "ESTABLISHED");
	want_change(out, addr, k->sport, k->cport, "ESTABLISHED",
		    "CLOSE_WAIT");
	want_change(out, addr, k->sport, k->cport, "CLOSE_WAIT", "LAST_ACK");
	want_change(out, addr, k->sport, k->cport, "LAST_ACK", "CLOSE");
	/* the time in ESTABLISHED: at least the 150 ms the test kept it */
	snprintf(want, sizeof(want), "\"lport\":%d,\"raddr\":\"%s\","
		 "\"rport\":%d,\"oldstate\":\"ESTABLISHED\",\"newstate\":"
		 "\"FIN_WAIT1\",\"ms\":", k->cport, addr, k->sport);
	p = strstr(out, want);
	ck_assert_ptr_nonnull(p);
	ms = strtod(p + strlen(want), NULL);
	ck_assert_msg(ms >= 149.0 && ms < 5000.0, "ESTABLISHED for %.3f ms, "
		      "not the 150 ms the test kept it", ms);
}

START_TEST(test_states_each_transition)
{
	static char out[262144];
	struct states_run r = { .nfam = have_ipv6() ? 2 : 1 };

	with_tool("tcpstates", NULL, NULL, states_traffic, &r, out,
		  sizeof(out));
	check_states(out, &r.k[0], "127.0.0.1");
	if (r.nfam == 2)
		check_states(out, &r.k[1], "::1");
	else
		bbtest_skip("IPv4 passed; no IPv6 loopback here (::1)");
}
END_TEST

/* -L: the listener's port only, so the client's changes are left out */
START_TEST(test_states_lport)
{
	static char out[262144];
	char port[16], want[64];
	/* a port free a moment ago, which the listener then binds */
	int p = free_port();

	snprintf(port, sizeof(port), "%d", p);
	with_tool("tcpstates", "-L", port, states_traffic_port, &p, out,
		  sizeof(out));
	snprintf(want, sizeof(want), "\"lport\":%d,", p);
	ck_assert_msg(count_of(out, "\"lport\":") == count_of(out, want) &&
		      count_of(out, want) >= 5, "-L %d: other ports, or not "
		      "its 5 changes:\n%s", p, out);
}
END_TEST

/* ---- tcplife ---- */
#define LIFE_TX 300000 /* client to server */
#define LIFE_RX 500000 /* server to client */

static void life_traffic(void *arg)
{
	struct states_run *r = arg;
	static const int fams[2] = { AF_INET, AF_INET6 };
	int i;

	for (i = 0; i < r->nfam; i++) {
		ck_assert_int_eq(conn_open(fams[i], &r->k[i]), 0);
		pass(r->k[i].c, r->k[i].a, LIFE_TX);
		pass(r->k[i].a, r->k[i].c, LIFE_RX);
		msleep(20);
		conn_close(&r->k[i]);
		msleep(50);
	}
}

/* The session lport->rport's bytes: tcp_sock's counts include the SYN's
 * and the FIN's sequence numbers as the kernel's tcpi_bytes_acked and
 * tcpi_bytes_received do (0 to 2 more than the data), never a KB more. */
static void want_life(const char *out, const char *addr, int lport,
		      int rport, long tx, long rx)
{
	char want[256];
	const char *p;
	long t, r;

	snprintf(want, sizeof(want), "\"laddr\":\"%s\",\"lport\":%d,"
		 "\"raddr\":\"%s\",\"rport\":%d,\"tx_bytes\":", addr, lport,
		 addr, rport);
	ck_assert_msg(count_of(out, want) == 1, "not once: %s in\n%s", want,
		      out);
	p = strstr(out, want) + strlen(want);
	t = strtol(p, (char **)&p, 10);
	ck_assert_msg(sscanf(p, ",\"rx_bytes\":%ld", &r) == 1, "%s", p);
	ck_assert_msg(t >= tx && t <= tx + 2 && r >= rx && r <= rx + 2 &&
		      t / 1024 == tx / 1024 && r / 1024 == rx / 1024,
		      "%s:%d: tx %ld rx %ld bytes, the test sent %ld and "
		      "received %ld", addr, lport, t, r, tx, rx);
}

START_TEST(test_life_bytes)
{
	static char out[65536];
	struct states_run r = { .nfam = have_ipv6() ? 2 : 1 };
	static const char *const addrs[2] = { "127.0.0.1", "::1" };
	int i;

	with_tool("tcplife", NULL, NULL, life_traffic, &r, out, sizeof(out));
	for (i = 0; i < r.nfam; i++) {
		want_life(out, addrs[i], r.k[i].cport, r.k[i].sport, LIFE_TX,
			  LIFE_RX);
		want_life(out, addrs[i], r.k[i].sport, r.k[i].cport, LIFE_RX,
			  LIFE_TX);
	}
	if (r.nfam == 1)
		bbtest_skip("IPv4 passed; no IPv6 loopback here (::1)");
}
END_TEST

/* tcp_sock's byte counts discovered (forced) where BTF has them: the same
 * offsets as BTF's */
START_TEST(test_life_discovery)
{
	char out[4096], err[8192], e2[8192];
	char *a1[] = { (char *)barebpf(), "tcplife", "-v", "--duration", "1",
		       NULL };
	const char *f[2] = { "tcp_sock.bytes_acked at offset ",
			     "tcp_sock.bytes_received at offset " };
	int i;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		bbtest_skip("no BTF to check the discovery against");
	ck_assert_int_eq(run(a1, out, sizeof(out), err, sizeof(err)), 0);
	setenv("BAREBPF_FIELDS", "discover:tcp_sock.bytes_acked,"
	       "tcp_sock.bytes_received", 1);
	i = run(a1, out, sizeof(out), e2, sizeof(e2));
	unsetenv("BAREBPF_FIELDS");
	ck_assert_msg(i == 0, "forced discovery: exit %d: %s", i, e2);
	for (i = 0; i < 2; i++) {
		const char *b = strstr(err, f[i]), *d = strstr(e2, f[i]);

		ck_assert_msg(b && strstr(b, "BTF"), "no BTF offset: %s", err);
		ck_assert_msg(d && strstr(d, "discovered"), "not discovered: "
			      "%s", e2);
		ck_assert_int_eq(atoi(d + strlen(f[i])), atoi(b + strlen(f[i])));
	}
}
END_TEST

/* -p: another process's sessions only: none of this test's */
START_TEST(test_life_pid)
{
	static char out[65536];
	struct states_run r = { .nfam = 1 };

	with_tool("tcplife", "-p", "1", life_traffic, &r, out, sizeof(out));
	ck_assert_msg(!strstr(out, "\"pid\":") ||
		      count_of(out, "\"pid\":1,") == count_of(out, "\"pid\":"),
		      "-p 1 printed other processes:\n%s", out);
}
END_TEST

/* ---- tcpretrans ---- */
/* The counter `name` of the lines `prefix` ("Tcp:", "TcpExt:") of file
 * (/proc/net/snmp, /proc/net/netstat: a header line, then the values). */
static unsigned long long net_counter(const char *file, const char *prefix,
				      const char *name)
{
	char line[4096], head[4096] = "";
	FILE *f = fopen(file, "r");
	unsigned long long v = 0;
	size_t pl = strlen(prefix);

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, pl))
			continue;
		if (!head[0]) {
			strcpy(head, line);
			continue;
		}
		char *h = head, *l = line, *hs, *ls, *ht, *lt;
		for (ht = strtok_r(h, " \n", &hs), lt = strtok_r(l, " \n", &ls);
		     ht && lt; ht = strtok_r(NULL, " \n", &hs),
		     lt = strtok_r(NULL, " \n", &ls))
			if (!strcmp(ht, name))
				v = strtoull(lt, NULL, 10);
		break;
	}
	fclose(f);
	return v;
}

/* The retransmissions the kernel sent: RetransSegs counts each attempt,
 * tcp:tcp_retransmit_skb (before 6.x's reason) only those whose transmit
 * did not fail, which TCPRetransFail counts (net/ipv4/tcp_output.c,
 * __tcp_retransmit_skb): a loopback backlog full under load fails one. */
static unsigned long long retrans_segs(void)
{
	return net_counter("/proc/net/snmp", "Tcp:", "RetransSegs") -
	       net_counter("/proc/net/netstat", "TcpExt:", "TCPRetransFail");
}

/* In a network namespace of its own (lo up): one connection whose
 * receiver drops every packet (a socket filter), so that the sender
 * retransmits; its port and the RetransSegs delta over 2 s on fd. */
static void retrans_child(int fam, int fd)
{
	struct sock_filter drop = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = { 1, &drop };
	struct linger lg = { 1, 0 };
	struct conn k;
	unsigned long long r0;
	char msg[64];

	if (conn_open(fam, &k) < 0) {
		dprintf(fd, "none\n");
		_exit(0);
	}
	ck_assert_int_eq(setsockopt(k.a, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
				    sizeof(prog)), 0);
	r0 = retrans_segs();
	ck_assert_int_eq(send(k.c, "retransmit me", 13, 0), 13);
	msleep(2000);
	snprintf(msg, sizeof(msg), "%d %d %llu\n", k.cport, k.sport,
		 retrans_segs() - r0);
	/* reset, not closed: no FIN to retransmit after the count */
	setsockopt(k.c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	setsockopt(k.a, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	conn_close(&k);
	ck_assert_int_eq(write(fd, msg, strlen(msg)), (ssize_t)strlen(msg));
	_exit(0);
}

struct retrans_run {
	int cport[2], sport[2];
	unsigned long long delta[2];
	int ok[2];
};

static void retrans_traffic(void *arg)
{
	struct retrans_run *r = arg;
	static const int fams[2] = { AF_INET, AF_INET6 };
	char buf[128] = "";
	int i, p[2];
	pid_t pid;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(pipe(p), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			struct ifreq ifr = { 0 };
			int s;

			close(p[0]);
			if (unshare(CLONE_NEWNET) < 0)
				_exit(3);
			s = socket(AF_INET, SOCK_DGRAM, 0);
			strcpy(ifr.ifr_name, "lo");
			ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
			if (s < 0 || ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
				_exit(4);
			close(s);
			retrans_child(fams[i], p[1]);
		}
		close(p[1]);
		memset(buf, 0, sizeof(buf));
		ck_assert_int_ge(read(p[0], buf, sizeof(buf) - 1), 0);
		close(p[0]);
		ck_assert_int_eq(wait_exit(pid), 0);
		r->ok[i] = sscanf(buf, "%d %d %llu", &r->cport[i], &r->sport[i],
				  &r->delta[i]) == 3;
	}
}

START_TEST(test_retrans_count)
{
	static char out[65536];
	static const char *const addrs[2] = { "127.0.0.1", "::1" };
	struct retrans_run r = { { 0 } };
	char want[256];
	const char *p;
	unsigned long long n;
	int i;

	with_tool("tcpretrans", "-c", NULL, retrans_traffic, &r, out,
		  sizeof(out));
	ck_assert_msg(r.ok[0], "the IPv4 connection could not be made");
	for (i = 0; i < 2 && r.ok[i]; i++) {
		ck_assert_msg(r.delta[i] >= 2, "RetransSegs grew by %llu: the "
			      "filter did not make retransmissions",
			      r.delta[i]);
		snprintf(want, sizeof(want), "\"laddr\":\"%s\",\"lport\":%d,"
			 "\"raddr\":\"%s\",\"rport\":%d,\"retransmits\":",
			 addrs[i], r.cport[i], addrs[i], r.sport[i]);
		p = strstr(out, want);
		ck_assert_msg(p, "no %s in\n%s", want, out);
		n = strtoull(p + strlen(want), NULL, 10);
		ck_assert_msg(n == r.delta[i], "%s: %llu retransmits counted, "
			      "RetransSegs grew by %llu; the output:\n%s",
			      addrs[i], n, r.delta[i], out);
	}
	if (!r.ok[1])
		bbtest_skip("IPv4 passed; no IPv6 loopback in a new network "
			    "namespace here");
}
END_TEST

/* one line per retransmission: R, the flow, its state */
START_TEST(test_retrans_lines)
{
	static char out[65536];
	struct retrans_run r = { { 0 } };
	char want[256];

	with_tool("tcpretrans", "-4", NULL, retrans_traffic, &r, out,
		  sizeof(out));
	ck_assert_msg(r.ok[0], "the IPv4 connection could not be made");
	snprintf(want, sizeof(want), "\"ip\":4,\"laddr\":\"127.0.0.1\","
		 "\"lport\":%d,\"type\":\"R\",\"raddr\":\"127.0.0.1\","
		 "\"rport\":%d,\"state\":\"ESTABLISHED\"}", r.cport[0],
		 r.sport[0]);
	ck_assert_msg((unsigned long long)count_of(out, want) == r.delta[0],
		      "%d lines of %s, RetransSegs grew by %llu:\n%s",
		      count_of(out, want), want, r.delta[0], out);
	ck_assert_msg(!strstr(out, "\"ip\":6"), "-4 printed IPv6:\n%s", out);
}
END_TEST

/* bad options: a message naming the problem, exit 1 */
START_TEST(test_bad_options)
{
	char out[4096], err[4096];
	char *a1[] = { (char *)barebpf(), "tcpstates", "-L", "80,x", NULL };
	char *a2[] = { (char *)barebpf(), "tcplife", "-D", "70000", NULL };
	char *a3[] = { (char *)barebpf(), "tcpretrans", "-4", "-6", NULL };
	char *a4[] = { (char *)barebpf(), "tcplife", "--btf", "/nonexistent",
		       "--duration", "1", NULL };

	ck_assert_int_eq(run(a1, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-L '80,x': 'x' is not a port"), "%s", err);
	ck_assert_int_eq(run(a2, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-D '70000': '70000' is not a port"), "%s", err);
	ck_assert_int_eq(run(a3, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-4 and -6"), "%s", err);
	ck_assert_int_eq(run(a4, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "/nonexistent"), "%s", err);
}
END_TEST

static Suite *tcp_suite(void)
{
	Suite *s = suite_create("tcp");
	TCase *tc = tcase_create("tcp");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_states_each_transition);
	tcase_add_test(tc, test_states_lport);
	tcase_add_test(tc, test_life_bytes);
	tcase_add_test(tc, test_life_pid);
	tcase_add_test(tc, test_life_discovery);
	tcase_add_test(tc, test_retrans_count);
	tcase_add_test(tc, test_retrans_lines);
	tcase_add_test(tc, test_bad_options);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tcp, tcp_suite, need_root_and_tools)
