/* SPDX-License-Identifier: MIT */
/*
 * bpf/tcpconnect.bpf.c and bpf/tcpaccept.bpf.c on the host: where the
 * sock's fields are (the field-offset layer: BTF, --btf, else the
 * discovery of sockoff.c), the filters, the ring, the kprobes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mods.h"
#include "fieldoff.h"
#include "sockoff_solve.h"
#include "tcpconnect.skel.h"
#include "tcpaccept.skel.h"
#include "../../bpf/tcpconn.h"

EMBEDDED_OBJ(tcpconnect);
EMBEDDED_OBJ(tcpaccept);

/* the program's constant for each field of sockoff_paths */
static const char *const off_names[SOCKOFF_NFIELDS] = {
	"off_daddr", "off_saddr", "off_dport", "off_num", "off_family", NULL,
	"off_v6d", "off_v6s",
};

struct offs {
	uint32_t off[SOCKOFF_NFIELDS];
	int v6;
};

/* sizes the program reads: a field of another size is a kernel we do not
 * know */
static const uint8_t want_size[SOCKOFF_NFIELDS] = { 4, 4, 2, 2, 2, 1, 16,
						    16 };

static int find_offsets(struct tool_ctx *t, struct offs *o)
{
	struct bb_fieldoff fo;
	struct bb_field f;
	struct bb_err err = { "" };
	int i, ret = 0;

	memset(o, 0, sizeof(*o));
	o->v6 = sockoff_have_ipv6();
	fieldoff_init(&fo, t->btf_file);
	sockoff_register(&fo);
	for (i = 0; i < SOCKOFF_NFIELDS && !ret; i++) {
		/* skc_state: not read here; -v says where it is all the same
		 * (the QEMU case sockoff-btf checks every field) */
		if ((!off_names[i] && !t->verbose) ||
		    (!o->v6 && i >= SOCKOFF_V6D))
			continue;
		ret = fieldoff_find(&fo, sockoff_paths[i], &f, &err);
		if (ret < 0 && !off_names[i]) {
			fprintf(stderr, "%s (not read by this tool): %s\n",
				sockoff_paths[i], err.msg);
			ret = 0;
			continue;
		}
		if (ret < 0) {
			tool_error(t, "%s", err.msg);
			break;
		}
		if (f.size != want_size[i]) {
			ret = tool_fail(t, -EINVAL, "%s has %u bytes here, "
					"not %u: a kernel barebpf does not "
					"know", sockoff_paths[i], f.size,
					want_size[i]);
			break;
		}
		o->off[i] = f.offset;
		if (t->verbose)
			fprintf(stderr, "%s at offset %u (%u bytes): %s\n",
				sockoff_paths[i], f.offset, f.size, f.how);
	}
	if (!ret && t->verbose && !o->v6)
		fprintf(stderr, "no IPv6 here (no AF_INET6 socket binds to "
			"::1): IPv4 only\n");
	fieldoff_close(&fo);
	return ret;
}

static int set(struct tool_ctx *t, const struct bb_skel *sk,
	       const char *name, uint64_t v)
{
	int i;

	for (i = 0; i < sk->nconsts; i++)
		if (!strcmp(sk->consts[i], name))
			return obj_skel_set(t->obj, sk, i, v);
	return 0; /* a constant the object does not read (tcpconnect knows
		   * the family from the function) */
}

static int configure(struct tool_ctx *t, const struct bb_skel *sk,
		     const struct tcpconn_settings *s, const struct offs *o)
{
	int res[SOCKOFF_NFIELDS + 6], n = 0, i;

	for (i = 0; i < SOCKOFF_NFIELDS; i++)
		if (off_names[i])
			res[n++] = set(t, sk, off_names[i], o->off[i]);
	res[n++] = set(t, sk, "have_v6", o->v6);
	res[n++] = set(t, sk, "filter_pid", s->pid);
	res[n++] = set(t, sk, "filter_uid", s->uid);
	res[n++] = set(t, sk, "filter_ip", s->ip);
	res[n++] = set(t, sk, "filter_ports", s->nports > 0);
	return mod_consts_set(t, res, n);
}

static int fill_ports(struct tool_ctx *t, int fd,
		      const struct tcpconn_settings *s)
{
	uint8_t one = 1;
	int i;

	for (i = 0; i < s->nports; i++)
		if (bpf_map_update_elem(fd, &s->ports[i], &one, BPF_ANY) < 0)
			return tool_fail(t, -EIO, "cannot fill the map ports");
	return 0;
}

int tcpconn_start(struct tool_ctx *t, const struct tcpconn_settings *s,
		  struct bb_perfbuf **pb)
{
	const struct bb_skel *sk = s->accept ? &tcpaccept_skel :
					       &tcpconnect_skel;
	/* a return ends what an entry opens: the returns first */
	struct bb_probe p[4] = {
		{ TCPCONNECT_P_kr_v4, "tcp_v4_connect", 0, NULL, "sk", 0, 0 },
		{ TCPCONNECT_P_kp_v4, "tcp_v4_connect", 0, "sk", NULL, 0, 0 },
		{ TCPCONNECT_P_kr_v6, "tcp_v6_connect", 0, NULL, "sk6", 1, 0 },
		{ TCPCONNECT_P_kp_v6, "tcp_v6_connect", 0, "sk6", NULL, 1, 0 },
	};
	struct bb_probe pa[1] = {
		{ TCPACCEPT_P_kr_accept, "inet_csk_accept", 0, NULL, NULL, 0,
		  0 },
	};
	struct offs o;
	int ret, fd, np = 2;

	if (s->nports > TCPCONN_MAXPORTS)
		return tool_fail(t, -E2BIG, "-P: %d ports; %d at most",
				 s->nports, TCPCONN_MAXPORTS);
	if ((ret = tool_need_kprobes(t)) < 0 ||
	    (ret = find_offsets(t, &o)) < 0)
		return ret;
	if (s->ip == 6 && !o.v6)
		return tool_fail(t, -EAFNOSUPPORT, "-6: no IPv6 here (no "
				 "AF_INET6 socket binds to ::1)");
	if (s->accept)
		ret = tool_open(t, sk, EMBEDDED_ARGS(tcpaccept));
	else
		ret = tool_open(t, sk, EMBEDDED_ARGS(tcpconnect));
	if (ret < 0)
		return ret;
	if (!s->accept && (!o.v6 || s->ip == 4)) {
		obj_set_noload(t->obj, TCPCONNECT_P_kp_v6);
		obj_set_noload(t->obj, TCPCONNECT_P_kr_v6);
	} else if (!s->accept && s->ip == 6) {
		obj_set_noload(t->obj, TCPCONNECT_P_kp_v4);
		obj_set_noload(t->obj, TCPCONNECT_P_kr_v4);
		np = 0;
	} else if (!s->accept) {
		np = 4;
	}
	if ((ret = configure(t, sk, s, &o)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	fd = obj_skel_map_fd(t->obj, sk, s->accept ? TCPACCEPT_M_ports :
						     TCPCONNECT_M_ports);
	ret = fill_ports(t, fd, s);
	if (ret < 0)
		return ret;
	fd = obj_skel_map_fd(t->obj, sk, s->accept ? TCPACCEPT_M_events :
						     TCPCONNECT_M_events);
	ret = tool_ring(t, fd, 16, s->on_event, s->ctx, pb);
	if (ret < 0)
		return ret;
	if (s->accept)
		return tool_attach_probes(t, pa, 1);
	if (np == 0) { /* -6: the IPv6 ones only */
		p[2].optional = p[3].optional = 0;
		return tool_attach_probes(t, p + 2, 2);
	}
	return tool_attach_probes(t, p, np);
}

int tcpconn_stats_fd(struct tool_ctx *t)
{
	struct bb_map *m = t->obj ? obj_map(t->obj, "stats") : NULL;

	return m ? m->fd : -1;
}
