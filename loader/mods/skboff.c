/* SPDX-License-Identifier: MIT */
/*
 * The discovery of struct sk_buff's fields for kernels without BTF (4.9
 * to 4.15 here, where tcpdrop takes skb:kfree_skb): head, network_header,
 * transport_header and sk. This process sends a UDP datagram over lo from
 * each of two connected sockets whose addresses and ports it knows
 * (127.0.0.2 -> 127.0.0.3, 127.0.0.4 -> 127.0.0.5, each to a bound
 * socket; the second without a UDP checksum, SO_NO_CHECK: the first's
 * sk_buff, CHECKSUM_PARTIAL on lo, has csum_start equal to
 * transport_header, the second's not); tcpdrop.bpf.c's tp_skbdisc, on net:net_dev_queue (a
 * tracepoint of every kernel from 4.9; no kprobe), copies the first bytes
 * of its sk_buff and some bytes at each pointer in them, and
 * skboff_solve.c finds the fields (network_header and transport_header:
 * u16 offsets from head on 32-bit kernels too, since 3.11). One run
 * answers every field; one at no offset or at several is refused with
 * the reason, never guessed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "mods.h"
#include "fieldoff.h"
#include "skboff_solve.h"
#include "tcpdrop.skel.h"

EMBEDDED_OBJ(tcpdrop);

#define NREC 2

static struct {
	int ran, ret, solved;
	double secs;
	struct skboff_result r;
} st;

/* a UDP socket bound to 127.0.0.a, its port into *port; or -errno */
static int udp(int a, uint16_t *port)
{
	struct sockaddr_in s = { .sin_family = AF_INET };
	socklen_t len = sizeof(s);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), e;

	s.sin_addr.s_addr = htonl(0x7f000000u | a);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&s, len) < 0 ||
	    getsockname(fd, (struct sockaddr *)&s, &len) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	*port = ntohs(s.sin_port);
	return fd;
}

/* a datagram from 127.0.0.a to 127.0.0.(a + 1), its sk_buff into r */
static int datagram(int map_fd, int a, struct skboff_rec *r,
		    struct bb_err *err)
{
	struct sockaddr_in d = { .sin_family = AF_INET };
	unsigned char v[TCPDROP_DISC_V] = { 0 };
	uint32_t k = 0;
	int s, c = -1, ret = -EIO, one = 1;

	s = udp(a + 1, &r->dport);
	if (s < 0 || (c = udp(a, &r->sport)) < 0) {
		ret = s < 0 ? s : c;
		bb_fail(err, ret, "a loopback UDP socket for the discovery of "
			"struct sk_buff's fields: %s (is lo up?)",
			strerror(-ret));
		goto out;
	}
	r->saddr = htonl(0x7f000000u | a);
	r->daddr = htonl(0x7f000000u | (a + 1));
	d.sin_addr.s_addr = r->daddr;
	d.sin_port = htons(r->dport);
	if ((a > 2 && setsockopt(c, SOL_SOCKET, SO_NO_CHECK, &one,
				 sizeof(one)) < 0) ||
	    bpf_map_update_elem(map_fd, &k, v, 0) < 0 ||
	    connect(c, (struct sockaddr *)&d, sizeof(d)) < 0 ||
	    send(c, "skboff", 6, 0) != 6) {
		ret = -errno;
		bb_fail(err, ret, "a loopback UDP datagram for the discovery "
			"of struct sk_buff's fields: %s", strerror(-ret));
		goto out;
	}
	for (k = 0; k < TCPDROP_DISC_N; k++) {
		if (bpf_map_lookup_elem(map_fd, &k, v) < 0) {
			ret = -errno;
			goto out;
		}
		if (k == 0 && !v[0]) {
			ret = bb_fail(err, -ESRCH, "the discovery of struct "
				      "sk_buff's fields: net:net_dev_queue "
				      "did not see its datagram over lo");
			goto out;
		}
		if (k == 0)
			memcpy(&r->ptr_size, v, 4);
		else if (k < 3)
			memcpy(r->win + (k - 1) * sizeof(v), v, sizeof(v));
		else if (k - 3 < TCPDROP_DISC_SLOTS / TCPDROP_DISC_PER)
			memcpy(r->peek[(k - 3) * TCPDROP_DISC_PER], v,
			       sizeof(v));
	}
	ret = 0;
out:
	if (c >= 0)
		close(c);
	if (s >= 0)
		close(s);
	return ret;
}

static int run(struct tool_ctx *td, struct skboff_rec *r, struct bb_err *err)
{
	static const struct mod_tp_off q[] = {
		{ "net_dev_queue", "skbaddr", TCPDROP_C_tp_q_skaddr, 0, 0 },
	};
	struct bb_probe p[1] = {
		{ TCPDROP_P_tp_skbdisc, "net/net_dev_queue", 0, NULL, NULL, 0,
		  0 },
	};
	int i, ret = tool_open(td, &tcpdrop_skel, EMBEDDED_ARGS(tcpdrop));

	for (i = 0; i < TCPDROP_NCONSTS && ret == 0; i++)
		ret = tcpdrop_set(td->obj, i, 0);
	if (ret < 0 || (ret = tcpdrop_set(td->obj, TCPDROP_C_disc_pid,
					  (uint32_t)getpid())) < 0 ||
	    (ret = mod_tp_offsets(td, &tcpdrop_skel, "net", q, 1, 1)) < 0)
		return ret;
	obj_set_noload(td->obj, TCPDROP_P_tp_kfree_skb);
	obj_set_noload(td->obj, TCPDROP_P_kp_tcp_drop);
	if ((ret = tool_load(td)) < 0)
		return ret;
	tool_ring_unread(td, tcpdrop_map_fd(td->obj, TCPDROP_M_events));
	if ((ret = tool_attach_probes(td, p, 1)) < 0)
		return ret;
	for (i = 0; i < NREC && ret == 0; i++)
		ret = datagram(tcpdrop_map_fd(td->obj, TCPDROP_M_skbdisc),
			       2 + 2 * i, &r[i], err);
	return ret;
}

static int discover(void *ctx, const char *path, struct bb_field *out,
		    struct bb_err *err)
{
	static struct skboff_rec r[NREC];
	int f;

	(void)ctx;
	if (!st.ran) {
		struct tool_ctx td;
		struct bb_err e = { "" };
		double t0 = bb_now_mono();

		st.ran = 1;
		memset(r, 0, sizeof(r));
		tool_init(&td, "skboff");
		st.ret = run(&td, r, &e);
		tool_cleanup(&td);
		st.solved = st.ret == 0;
		if (st.ret == 0)
			st.ret = skboff_solve(r, NREC, &st.r);
		else
			snprintf(st.r.why, sizeof(st.r.why), ": %.240s", e.msg[0] ?
				 e.msg : "the discovery of struct sk_buff's "
				 "fields failed (above)");
		st.secs = bb_now_mono() - t0;
	}
	for (f = 0; f < SKBOFF_NFIELDS; f++)
		if (!strcmp(path, skboff_paths[f]))
			break;
	if (f == SKBOFF_NFIELDS)
		return bb_fail(err, -ENOENT, "field %s: not one the sk_buff "
			       "discovery knows", path);
	if (st.ret < 0)
		return bb_fail(err, st.ret, "%s%s%s; give this kernel's BTF "
			       "with --btf FILE", st.solved ? "" : "field ",
			       st.solved ? "" : path, st.r.why);
	out->offset = st.r.off[f];
	out->size = st.r.size[f];
	snprintf(out->how, sizeof(out->how), "%.170s (%.0f ms)", st.r.why,
		 st.secs * 1000);
	return 0;
}

int skboff_register(struct bb_fieldoff *fo)
{
	int f, ret;

	for (f = 0; f < SKBOFF_NFIELDS; f++) {
		ret = fieldoff_register(fo, skboff_paths[f], discover, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}
