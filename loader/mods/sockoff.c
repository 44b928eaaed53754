/* SPDX-License-Identifier: MIT */
/*
 * The discovery of struct sock's fields for kernels without BTF (4.9 to
 * 4.19 here), as weaveworks' tcptracer-bpf and Datadog's system-probe
 * do: this process makes loopback TCP connections whose addresses and
 * ports it knows, a kretprobe on inet_csk_accept (bpf/sockoff.bpf.c)
 * copies the first SOCKOFF_WINDOW bytes of each sock accept() returns,
 * and each field is the one offset where every connection's value is
 * (sockoff_solve.c). The connections differ in every value: two IPv4
 * ones (127.0.0.2 -> 127.0.0.1, 127.0.0.3 -> 127.0.0.4, each from and to
 * its own port) and, where the kernel has IPv6, one to an IPv4-mapped
 * address (::ffff:127.0.0.5 -> ::ffff:127.0.0.6) and one ::1 -> ::1; the
 * client of every other one shuts its side before the accept (and waits
 * for the ACK of its FIN), so that the accepted sock is in CLOSE_WAIT
 * (8), the others ESTABLISHED (1):
 * skc_state. One run answers every field; a field found at no offset or
 * at several is refused with the reason, never guessed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "mods.h"
#include "fieldoff.h"
#include "sockoff_solve.h"
#include "sockoff.skel.h"

EMBEDDED_OBJ(sockoff);

#define NCONN 4

static struct {
	int ran, ret, v6;
	char msg[sizeof(((struct bb_err *)0)->msg)];
	double secs;
	struct sockoff_result r;
} st;

int sockoff_have_ipv6(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return 0;
	a.sin6_addr.s6_addr[15] = 1; /* ::1: not there if IPv6 is disabled */
	ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

union sa {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/* v4: 127.0.0.a; v6: ::ffff:127.0.0.a, or ::1 if a is 0 */
static socklen_t addr(union sa *u, int v6, int a)
{
	memset(u, 0, sizeof(*u));
	if (!v6) {
		u->in.sin_family = AF_INET;
		u->in.sin_addr.s_addr = htonl(0x7f000000u | a);
		return sizeof(u->in);
	}
	u->in6.sin6_family = AF_INET6;
	if (!a) {
		u->in6.sin6_addr.s6_addr[15] = 1;
	} else {
		u->in6.sin6_addr.s6_addr[10] = 0xff;
		u->in6.sin6_addr.s6_addr[11] = 0xff;
		u->in6.sin6_addr.s6_addr[12] = 127;
		u->in6.sin6_addr.s6_addr[15] = a;
	}
	return sizeof(u->in6);
}

static uint16_t port_of(int fd)
{
	union sa u;
	socklen_t len = sizeof(u);

	if (getsockname(fd, &u.sa, &len) < 0)
		return 0;
	return ntohs(u.sa.sa_family == AF_INET ? u.in.sin_port :
		     u.in6.sin6_port);
}

static int bound(int v6, int a)
{
	union sa u;
	socklen_t len = addr(&u, v6, a);
	int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC,
			0);

	if (fd < 0)
		return -errno;
	if (bind(fd, &u.sa, len) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* Until the client k's FIN is acknowledged (FIN_WAIT2): the server's end
 * has had it, and is in CLOSE_WAIT. A fixed wait was not enough: under
 * emulation, the first discovery after boot saw ESTABLISHED there (4.15,
 * QEMU TCG: 2 of 7 runs). 2 s at most; then the solve says what it saw. */
static void fin_acked(int k)
{
	struct tcp_info ti;
	socklen_t len;
	int i;

	for (i = 0; i < 2000; i++) {
		len = sizeof(ti);
		if (getsockopt(k, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
		    ti.tcpi_state != TCP_FIN_WAIT1)
			return;
		usleep(1000);
	}
}

/* The known values of a connection from client address ca to server sa
 * (v6: ::ffff:127.0.0.x, or ::1 for 0) */
static void known(struct sockoff_conn *c, int v6, int ca, int sa,
		  uint16_t cport, uint16_t sport, int closed)
{
	union sa u;

	c->v4_known = !v6 || ca; /* a mapped sock has its IPv4 ones */
	c->daddr = htonl(0x7f000000u | ca);
	c->saddr = htonl(0x7f000000u | sa);
	c->dport = htons(cport);
	c->num = sport;
	c->family_known = !v6 || !ca; /* a mapped sock's: not relied on */
	c->family = v6 ? AF_INET6 : AF_INET;
	c->state = closed ? 8 : 1; /* TCP_CLOSE_WAIT, TCP_ESTABLISHED */
	c->v6_known = v6;
	if (v6) {
		addr(&u, 1, ca);
		memcpy(c->v6d, &u.in6.sin6_addr, 16);
		addr(&u, 1, sa);
		memcpy(c->v6s, &u.in6.sin6_addr, 16);
	}
}

static int one_conn(int map_fd, int v6, int ca, int sa, int closed,
		    struct sockoff_conn *c, struct bb_err *err)
{
	struct sockoff_snap s0, s1;
	union sa u;
	socklen_t len = addr(&u, v6, sa);
	uint32_t key = 0;
	uint16_t cport, sport;
	int l = bound(v6, sa), k = -1, a = -1, ret = -EIO;

	if (l < 0 || listen(l, 4) < 0 || (k = bound(v6, ca)) < 0) {
		ret = l < 0 ? l : k < 0 ? k : -errno;
		bb_fail(err, ret, "a loopback socket for the discovery of "
			"struct sock's fields: %s (is lo up?)",
			strerror(-ret));
		goto out;
	}
	u.in.sin_port = htons(port_of(l)); /* sin6_port: same place */
	if (connect(k, &u.sa, len) < 0) {
		ret = -errno;
		bb_fail(err, ret, "a loopback connection for the discovery "
			"of struct sock's fields: %s", strerror(-ret));
		goto out;
	}
	sport = port_of(l);
	cport = port_of(k);
	if (closed) {
		shutdown(k, SHUT_WR);
		fin_acked(k);
	}
	if (bpf_map_lookup_elem(map_fd, &key, &s0) < 0 ||
	    (a = accept(l, NULL, NULL)) < 0 ||
	    bpf_map_lookup_elem(map_fd, &key, &s1) < 0 ||
	    s1.seq != s0.seq + 1) {
		bb_fail(err, -EIO, "the discovery of struct sock's fields: "
			"the kretprobe on inet_csk_accept did not see this "
			"process's accept()");
		goto out;
	}
	memcpy(c->snap, s1.bytes, sizeof(c->snap));
	known(c, v6, ca, sa, cport, sport, closed);
	ret = 0;
out:
	if (a >= 0)
		close(a);
	if (k >= 0)
		close(k);
	if (l >= 0)
		close(l);
	return ret;
}

static int conns(int map_fd, struct sockoff_conn *c, int *n,
		 struct bb_err *err)
{
	static const struct { int v6, ca, sa, closed; } plan[NCONN] = {
		{ 0, 2, 1, 1 }, { 0, 3, 4, 0 }, { 1, 5, 6, 1 }, { 1, 0, 0, 0 },
	};
	int i, ret;

	for (i = 0, *n = 0; i < (st.v6 ? NCONN : 2); i++, (*n)++) {
		ret = one_conn(map_fd, plan[i].v6, plan[i].ca, plan[i].sa,
			       plan[i].closed, &c[i], err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int run(struct tool_ctx *td, struct bb_err *err)
{
	struct bb_probe p[1] = {
		{ SOCKOFF_P_kr_accept, "inet_csk_accept", 0, NULL, NULL, 0, 0 },
	};
	struct sockoff_conn c[NCONN];
	int n, ret = tool_open(td, &sockoff_skel, EMBEDDED_ARGS(sockoff));

	if (ret < 0)
		return ret;
	const int set[] = { sockoff_set(td->obj, SOCKOFF_C_pid, getpid()) };

	if ((ret = MOD_CONSTS_SET(td, set)) < 0 || (ret = tool_load(td)) < 0 ||
	    (ret = tool_attach_probes(td, p, 1)) < 0)
		return ret;
	memset(c, 0, sizeof(c));
	ret = conns(sockoff_map_fd(td->obj, SOCKOFF_M_snap), c, &n, err);
	if (ret < 0)
		return ret;
	sockoff_solve(c, n, st.v6, &st.r);
	return 0;
}

static int discover(void *ctx, const char *path, struct bb_field *out,
		    struct bb_err *err)
{
	int f;

	(void)ctx;
	if (!st.ran) {
		struct tool_ctx td;
		struct bb_err e = { "" };
		double t0 = bb_now_mono();

		st.ran = 1;
		st.v6 = sockoff_have_ipv6();
		tool_init(&td, "sockoff");
		st.ret = run(&td, &e);
		tool_cleanup(&td);
		st.secs = bb_now_mono() - t0;
		snprintf(st.msg, sizeof(st.msg), "%s", e.msg[0] ? e.msg :
			 "the discovery of struct sock's fields failed "
			 "(above)");
	}
	if (st.ret < 0)
		return bb_fail(err, st.ret, "field %s: %s", path, st.msg);
	for (f = 0; f < SOCKOFF_NFIELDS; f++)
		if (!strcmp(path, sockoff_paths[f]))
			break;
	if (f == SOCKOFF_NFIELDS)
		return bb_fail(err, -ENOENT, "field %s: not one the sock "
			       "discovery knows", path);
	if (st.r.ret[f] < 0)
		return bb_fail(err, st.r.ret[f], "field %s not found: %s; "
			       "give this kernel's BTF with --btf FILE", path,
			       st.r.why[f]);
	out->offset = st.r.off[f];
	out->size = st.r.size[f];
	snprintf(out->how, sizeof(out->how), "%s (%.0f ms)", st.r.why[f],
		 st.secs * 1000);
	return 0;
}

int sockoff_register(struct bb_fieldoff *fo)
{
	int f, ret;

	for (f = 0; f < SOCKOFF_NFIELDS; f++) {
		ret = fieldoff_register(fo, sockoff_paths[f], discover, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}
