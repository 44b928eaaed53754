/* SPDX-License-Identifier: MIT */
/*
 * The discovery of struct sk_buff's fields for kernels without BTF (4.9
 * to 4.15 here, where tcpdrop takes skb:kfree_skb): head, network_header,
 * transport_header and sk. This process sends UDP datagrams over lo from
 * two connected sockets whose addresses and ports it knows (127.0.0.2 ->
 * 127.0.0.3, 127.0.0.4 -> 127.0.0.5, each to a bound socket; the second
 * without a UDP checksum, SO_NO_CHECK: the first's sk_buffs,
 * CHECKSUM_PARTIAL on lo, have csum_start equal to transport_header, the
 * second's not), one for each pointer-sized slot of the sk_buff's first
 * TCPDROP_DISC_V bytes; tcpdrop.bpf.c's tp_skbdisc, on net:net_dev_queue
 * (a tracepoint of every kernel from 4.9; no kprobe), copies those bytes
 * and some at the address in that datagram's slot, and skboff_solve.c
 * finds the fields (network_header and transport_header: u16 offsets
 * from head on 32-bit kernels too, since 3.11). One run answers every
 * field; one at no offset or at several is refused with the reason,
 * never guessed.
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

static struct {
	int ran, ret, solved;
	double secs;
	struct skboff_result r;
} st;

/* a UDP socket bound to 127.0.0.a, its port into *port; or -1 (errno) */
static int udp(int a, uint16_t *port)
{
	struct sockaddr_in s = { .sin_family = AF_INET };
	socklen_t len = sizeof(s);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	s.sin_addr.s_addr = htonl(0x7f000000u | a);
	if (fd >= 0 && (bind(fd, (struct sockaddr *)&s, len) < 0 ||
			getsockname(fd, (struct sockaddr *)&s, &len) < 0)) {
		close(fd);
		fd = -1;
	}
	*port = ntohs(s.sin_port);
	return fd;
}

/*
 * Datagrams from 127.0.0.a to 127.0.0.(a + 1), one for each slot of the
 * sk_buff's copy, the pointer in it followed, into r[*n...]; 0 or -errno
 * (-ENODATA: the tracepoint did not see one)
 */
static int datagrams(int map_fd, int a, struct skboff_rec *r, int *n)
{
	struct sockaddr_in d = { .sin_family = AF_INET };
	unsigned char v[TCPDROP_DISC_V] = { 0 };
	uint16_t sport, dport;
	uint32_t k, at = 0, ps = 4;
	int s = udp(a + 1, &dport), c = udp(a, &sport), one = 1, ret = 0;

	d.sin_addr.s_addr = htonl(0x7f000000u | (a + 1));
	d.sin_port = htons(dport);
	if (s < 0 || c < 0 ||
	    (a > 2 && setsockopt(c, SOL_SOCKET, SO_NO_CHECK, &one,
				 sizeof(one)) < 0) ||
	    connect(c, (struct sockaddr *)&d, sizeof(d)) < 0)
		ret = errno ? -errno : -EIO;
	for (; ret == 0 && at + ps <= TCPDROP_DISC_V && *n < SKBOFF_MAXREC;
	     at += ps) {
		struct skboff_rec *q = &r[*n];

		k = 0;
		memset(v, 0, 8);
		memcpy(v + 4, &at, 4);
		if (bpf_map_update_elem(map_fd, &k, v, 0) < 0 ||
		    send(c, "skboff", 6, 0) != 6 ||
		    (k = 1, bpf_map_lookup_elem(map_fd, &k, q->win) < 0) ||
		    (k = 2, bpf_map_lookup_elem(map_fd, &k, v) < 0) ||
		    !memcpy(q->peek, v, sizeof(q->peek)) ||
		    (k = 0, bpf_map_lookup_elem(map_fd, &k, v) < 0))
			ret = errno ? -errno : -EIO;
		memcpy(&ps, v, 4);
		if (ret == 0 && !ps)
			ret = -ENODATA;
		q->ptr_size = ps;
		q->at = at;
		q->saddr = htonl(0x7f000000u | a);
		q->daddr = d.sin_addr.s_addr;
		q->sport = sport;
		q->dport = dport;
		(*n)++;
	}
	if (c >= 0)
		close(c);
	if (s >= 0)
		close(s);
	return ret;
}

static int run(struct tool_ctx *td, const struct bb_skel *sk,
	       struct skboff_rec *r, int *n)
{
	static const struct mod_tp_off q[] = {
		{ "net_dev_queue", "skbaddr", TCPDROP_C_tp_q_skaddr, 0, 0 },
	};
	struct bb_probe p[1] = {
		{ TCPDROP_P_tp_skbdisc, "net/net_dev_queue", 0, NULL, NULL, 0,
		  0 },
	};
	int i, ret = tool_open(td, sk, EMBEDDED_ARGS(tcpdrop));

	for (i = 0; i < TCPDROP_NCONSTS && ret == 0; i++)
		ret = obj_skel_set(td->obj, sk, i, i == TCPDROP_C_disc_pid ?
				   (uint32_t)getpid() : 0);
	if (ret < 0 || (ret = mod_tp_offsets(td, sk, "net", q, 1, 1)) < 0)
		return ret;
	obj_set_noload(td->obj, TCPDROP_P_tp_kfree_skb);
	obj_set_noload(td->obj, TCPDROP_P_kp_tcp_drop);
	if ((ret = tool_load(td)) < 0)
		return ret;
	tool_ring_unread(td, obj_skel_map_fd(td->obj, sk, TCPDROP_M_events));
	if ((ret = tool_attach_probes(td, p, 1)) < 0)
		return ret;
	for (i = 0; i < 2 && ret == 0; i++)
		ret = datagrams(obj_skel_map_fd(td->obj, sk, TCPDROP_M_skbdisc),
				2 + 2 * i, r, n);
	if (ret < 0)
		snprintf(st.r.why, sizeof(st.r.why), ": its UDP datagrams over "
			 "lo: %s (is lo up?)", ret == -ENODATA ?
			 "net:net_dev_queue did not see them" :
			 strerror(-ret));
	return ret;
}

static int discover(void *ctx, const char *path, struct bb_field *out,
		    struct bb_err *err)
{
	static struct skboff_rec r[SKBOFF_MAXREC];
	int f, n = 0;

	if (!st.ran) {
		struct tool_ctx td;
		double t0 = bb_now_mono();

		st.ran = 1;
		tool_init(&td, "skboff");
		st.ret = run(&td, ctx, r, &n);
		tool_cleanup(&td);
		st.solved = st.ret == 0;
		if (st.ret == 0)
			st.ret = skboff_solve(r, n, &st.r);
		else if (!st.r.why[0])
			snprintf(st.r.why, sizeof(st.r.why), ": its discovery "
				 "failed (above)");
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
	snprintf(out->how, sizeof(out->how), "%.100s (%.0f ms)", st.r.why,
		 st.secs * 1000);
	return 0;
}

int skboff_register(struct bb_fieldoff *fo, const struct bb_skel *tcpdrop)
{
	int f, ret = 0;

	for (f = 0; f < SKBOFF_NFIELDS && ret == 0; f++)
		ret = fieldoff_register(fo, skboff_paths[f], discover,
					(void *)tcpdrop);
	return ret;
}
