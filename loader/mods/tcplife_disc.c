/* SPDX-License-Identifier: MIT */
/*
 * tcp_sock.bytes_acked and bytes_received where no BTF places them: a
 * loopback connection whose client sends TCPLIFE_DISC_TX bytes and
 * receives TCPLIFE_DISC_RX, all acknowledged, then closes abortively (a
 * RST: the close, and so the change to CLOSE, happens in this process);
 * tcplife.bpf.c's snapshot program copies that socket then. bytes_acked
 * is the one u64 holding TX + 1 (the SYN's sequence number is acked too;
 * no FIN was sent), bytes_received the one holding RX (none received):
 * tcp_get_info's tcpi_bytes_acked and tcpi_bytes_received, which the test
 * checks against BTF (BAREBPF_FIELDS=discover). The sizes are odd enough
 * that no other field holds them (bytes_sent holds TX, not TX + 1).
 * The snapshot (3 KiB) can be longer than the socket: it is searched no
 * further than the TCP slab's object size (/proc/slabinfo), past which
 * lies the next socket of the slab, often the connection's other end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "mods.h"
#include "fieldoff.h"
#include "tcplife.skel.h"
#include "../../bpf/tcplife.h"

EMBEDDED_OBJ(tcplife);

#define TCPLIFE_DISC_TX 123457u
#define TCPLIFE_DISC_RX 98765u

/* n bytes from fd to to, all read there; 0 or -errno */
static int pass(int fd, int to, size_t n)
{
	char buf[16384];
	size_t sent = 0, got = 0;
	struct pollfd p[2] = { { fd, POLLOUT, 0 }, { to, POLLIN, 0 } };
	ssize_t r;

	memset(buf, 'b', sizeof(buf));
	while (got < n) {
		p[0].events = sent < n ? POLLOUT : 0;
		if (poll(p, 2, 2000) <= 0)
			return -ETIMEDOUT;
		if (sent < n && (p[0].revents & POLLOUT)) {
			r = send(fd, buf, n - sent < sizeof(buf) ? n - sent :
				 sizeof(buf), MSG_DONTWAIT);
			if (r < 0 && errno != EAGAIN)
				return -errno;
			sent += r > 0 ? r : 0;
		}
		if (p[1].revents & POLLIN) {
			r = recv(to, buf, sizeof(buf), MSG_DONTWAIT);
			if (r == 0)
				return -ECONNRESET;
			got += r > 0 ? r : 0;
		}
	}
	return 0;
}

/* the connection, closed abortively by its client; 0 or -errno */
static int connection(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	struct linger lg = { 1, 0 };
	struct tcp_info ti;
	socklen_t tl;
	int l, c = -1, s = -1, ret = -errno, i;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return ret;
	if (bind(l, (struct sockaddr *)&a, al) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &al) < 0 ||
	    (c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
	    connect(c, (struct sockaddr *)&a, al) < 0 ||
	    (s = accept(l, NULL, NULL)) < 0) {
		ret = -errno;
		goto out;
	}
	if ((ret = pass(c, s, TCPLIFE_DISC_TX)) < 0 ||
	    (ret = pass(s, c, TCPLIFE_DISC_RX)) < 0)
		goto out;
	/* everything the client sent acknowledged (loopback: at once) */
	for (i = 0; i < 200; i++) {
		tl = sizeof(ti);
		if (getsockopt(c, IPPROTO_TCP, TCP_INFO, &ti, &tl) == 0 &&
		    ti.tcpi_unacked == 0)
			break;
		usleep(5000);
	}
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	ret = 0;
out:
	if (c >= 0)
		close(c);
	if (s >= 0)
		close(s);
	close(l);
	return ret;
}

/* the one 8-aligned u64 of the snapshot holding v: its offset, or -1 (no
 * such u64, or several); the offsets of the first 4 in at[] */
static int find_u64(const unsigned char *snap, size_t len, uint64_t v,
		    int *n, int *at)
{
	uint64_t w;
	size_t i;

	*n = 0;
	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, snap + i, 8);
		if (w == v && (*n)++ < 4)
			at[*n - 1] = (int)i;
	}
	return *n == 1 ? at[0] : -1;
}

/*
 * The size of the objects of the TCP slab (/proc/slabinfo's "TCP": IPv4's
 * tcp_sock, rounded up), or 0 if not known: the snapshot past it is the
 * next object of the slab, often the other end of the connection (armv7
 * 4.19: tcp_sock is 1704 bytes, objects 1728 apart, and the server's
 * bytes_sent and bytes_acked, both RX, were at 1728 + 1040 and + 1048).
 */
static size_t tcp_slab_size(void)
{
	char *buf = NULL, *l;
	unsigned long act, num, size;
	size_t found = 0;

	if (bb_read_file("/proc/slabinfo", &buf) < 0)
		return 0;
	for (l = buf; l && *l && !found; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, "TCP ", 4) &&
		    sscanf(l + 4, "%lu %lu %lu", &act, &num, &size) == 3)
			found = size;
	free(buf);
	return found;
}

/* " (at 8, 16)": where the first 3 are, for the refusal */
static void where(char *s, size_t size, int n, const int *at)
{
	int i, k = 0;

	s[0] = 0;
	for (i = 0; i < n && i < 3 && k >= 0 && (size_t)k < size; i++)
		k += snprintf(s + k, size - k, "%s%d", i ? ", " : " (at ",
			      at[i]);
	if (n && k >= 0 && (size_t)k < size)
		snprintf(s + k, size - k, "%s)", n > 3 ? ", ..." : "");
}

static int configure(struct tool_ctx *td, const struct tcplife_disc *d)
{
	static const struct mod_tp_off offs[] = {
		{ "inet_sock_set_state", "newstate", TCPLIFE_C_tp_newstate,
		  0, 0 },
	};
	const struct tcpsock_ports none = { { 0 }, 0 };
	int ret = mod_tp_offsets(td, &tcplife_skel, "sock", offs, 1, d->tp);

	if (ret < 0 || (ret = tcpsock_tp_protocol(td, "sock",
			"inet_sock_set_state", d->tp)) < 0 ||
	    (ret = tcpsock_tp_offsets(td, "sock", "inet_sock_set_state",
				      d->tp)) < 0 ||
	    (ret = tcpsock_sk_offsets(td, 0, NULL, 0)) < 0 ||
	    (ret = tcpsock_ports_on(td, "filter_lport", &none)) < 0 ||
	    (ret = tcpsock_ports_on(td, "filter_dport", &none)) < 0)
		return ret;
	obj_set_noload(td->obj, TCPLIFE_P_tp_state);
	obj_set_noload(td->obj, TCPLIFE_P_kp_state);
	obj_set_noload(td->obj, d->tp ? TCPLIFE_P_kp_snap : TCPLIFE_P_tp_snap);
	const int set[] = {
		tcplife_set(td->obj, TCPLIFE_C_filter_pid, 0),
		tcplife_set(td->obj, TCPLIFE_C_off_bytes_acked, 0),
		tcplife_set(td->obj, TCPLIFE_C_off_bytes_received, 0),
		tcplife_set(td->obj, TCPLIFE_C_snap_pid, (uint32_t)getpid()),
	};
	return MOD_CONSTS_SET(td, set);
}

/* the snapshot's chunks into snap; 0, or -errno said in d->why */
static int snapshot(struct tool_ctx *td, struct tcplife_disc *d,
		    unsigned char *snap)
{
	struct bb_probe p[1] = { { d->tp ? TCPLIFE_P_tp_snap :
		TCPLIFE_P_kp_snap, d->tp ? "sock/inet_sock_set_state" :
		"tcp_set_state", 0, NULL, NULL, 0, 0 } };
	unsigned char v[TCPLIFE_SNAP_CHUNK];
	uint32_t k;
	int fd, ret;

	if ((ret = configure(td, d)) < 0 || (ret = tool_load(td)) < 0)
		return ret;
	tool_ring_unread(td, tcplife_map_fd(td->obj, TCPLIFE_M_events));
	if ((ret = tool_attach_probes(td, p, 1)) < 0)
		return ret;
	ret = connection();
	if (ret < 0) {
		snprintf(d->why, sizeof(d->why), "its loopback connection "
			 "failed: %s", strerror(-ret));
		return ret;
	}
	fd = tcplife_map_fd(td->obj, TCPLIFE_M_snap);
	k = TCPLIFE_SNAP_N;
	if (bpf_map_lookup_elem(fd, &k, v) < 0 || !v[0]) {
		snprintf(d->why, sizeof(d->why), "the close of its loopback "
			 "connection was not seen");
		return -ESRCH;
	}
	for (k = 0; k < TCPLIFE_SNAP_N; k++)
		if (bpf_map_lookup_elem(fd, &k, snap + k * sizeof(v)) < 0)
			return -errno;
	return 0;
}

static int measure(struct tcplife_disc *d)
{
	static unsigned char snap[TCPLIFE_SNAP_N * TCPLIFE_SNAP_CHUNK];
	struct tool_ctx td;
	double t0 = bb_now_mono();
	int ret, na, nr, ata[4], atr[4];
	char wa[32], wr[32];
	size_t len = sizeof(snap), slab;

	tool_init(&td, d->t->name);
	td.verbose = d->t->verbose;
	td.kver_override = d->t->kver_override;
	ret = tool_open(&td, &tcplife_skel, EMBEDDED_ARGS(tcplife));
	if (ret == 0)
		ret = snapshot(&td, d, snap);
	tool_cleanup(&td);
	if (ret < 0)
		return ret;
	slab = tcp_slab_size();
	if (slab >= 512 && slab < len)
		len = slab;
	d->acked = find_u64(snap, len, TCPLIFE_DISC_TX + 1, &na, ata);
	d->received = find_u64(snap, len, TCPLIFE_DISC_RX, &nr, atr);
	if (na != 1 || nr != 1) {
		where(wa, sizeof(wa), na, ata);
		where(wr, sizeof(wr), nr, atr);
		snprintf(d->why, sizeof(d->why), "a socket that sent %u "
			 "bytes and received %u has %d u64s of %u%s and %d of "
			 "%u%s in its first %u bytes, not one each",
			 TCPLIFE_DISC_TX, TCPLIFE_DISC_RX, na,
			 TCPLIFE_DISC_TX + 1, wa, nr, TCPLIFE_DISC_RX, wr,
			 (unsigned)len);
		return -ESRCH;
	}
	snprintf(d->how, sizeof(d->how), "discovered: the u64 holding %%u "
		 "in the first %zu bytes of a loopback socket that sent %u "
		 "bytes and received %u (%.0f ms)", len, TCPLIFE_DISC_TX,
		 TCPLIFE_DISC_RX, (bb_now_mono() - t0) * 1000);
	return 0;
}

int tcplife_discover(void *ctx, const char *path, struct bb_field *out,
		     struct bb_err *err)
{
	struct tcplife_disc *d = ctx;
	int acked = strstr(path, "bytes_acked") != NULL;

	if (!d->done) {
		d->ret = measure(d);
		d->done = 1;
	}
	if (d->ret < 0)
		return bb_fail(err, d->ret, "discovery of %s: %s", path,
			       d->why[0] ? d->why : "failed (above)");
	out->offset = acked ? d->acked : d->received;
	out->size = 8;
	snprintf(out->how, sizeof(out->how), d->how,
		 acked ? TCPLIFE_DISC_TX + 1 : TCPLIFE_DISC_RX);
	return 0;
}
