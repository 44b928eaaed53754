/* SPDX-License-Identifier: MIT */
/* bpf/tcpdrop.bpf.c on the host: a kprobe on tcp_drop where the kernel
 * has it (4.10 to 5.18), else skb:kfree_skb with its reason (5.17+);
 * struct sk_buff's offsets (BTF, --btf, else skboff.c's discovery) and
 * struct sock's (tcpsock.c);
 * the reasons' names from the tracepoint's format file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "fieldoff.h"
#include "tcpdrop.skel.h"
#include "../../bpf/tcpdrop.h"

EMBEDDED_OBJ(tcpdrop);

#define TP_CAT "skb"
#define TP "kfree_skb"

int tcpdrop_parse_reasons(const char *fmt, struct tcpdrop_reasons *r)
{
	const char *p = strstr(fmt, "__print_symbolic(REC->reason,");
	char *end;
	unsigned long v;
	size_t len;
	const char *q;

	r->n = 0;
	if (!p)
		return -ENOENT;
	p += strlen("__print_symbolic(REC->reason,");
	while (r->n < TCPDROP_MAX_REASONS) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p != '{')
			break;
		p++;
		while (*p == ' ')
			p++;
		v = strtoul(p, &end, 0);
		if (end == p) /* a name the kernel left unevaluated */
			return -EINVAL;
		p = end;
		while (*p == ' ' || *p == ',')
			p++;
		if (*p != '"' || !(q = strchr(p + 1, '"')))
			return -EINVAL;
		len = (size_t)(q - p - 1);
		if (len >= sizeof(r->r[0].name))
			len = sizeof(r->r[0].name) - 1;
		r->r[r->n].value = (uint32_t)v;
		memcpy(r->r[r->n].name, p + 1, len);
		r->r[r->n].name[len] = 0;
		r->n++;
		p = strchr(q, '}');
		if (!p)
			return -EINVAL;
		p++;
	}
	return r->n ? 0 : -ENOENT;
}

const char *tcpdrop_reason_name(const struct tcpdrop_reasons *r, uint32_t v)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->r[i].value == v)
			return r->r[i].name;
	return NULL;
}

/* The reasons of the event's format file into s->reasons; NOT_SPECIFIED's
 * value (the floor of what is printed) into *min. */
static int read_reasons(struct tool_ctx *t, struct tcpdrop_settings *s,
			uint32_t *min)
{
	const char *tfs = tool_tracefs(t);
	char path[512], *buf = NULL;
	int i, ret;

	if (!tfs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/" TP_CAT "/" TP "/format", tfs);
	ret = bb_read_file(path, &buf);
	if (ret < 0)
		return tool_fail(t, ret, "%s: %s", path, strerror(-ret));
	ret = tcpdrop_parse_reasons(buf, &s->reasons);
	free(buf);
	if (ret < 0)
		return tool_fail(t, ret, "%s: no list of drop reasons in its "
				 "print fmt (__print_symbolic(REC->reason, "
				 "{ N, \"NAME\" }...)): a format barebpf does "
				 "not know", path);
	for (i = 0; i < s->reasons.n; i++)
		if (!strcmp(s->reasons.r[i].name, "NOT_SPECIFIED"))
			break;
	if (i == s->reasons.n)
		return tool_fail(t, -EINVAL, "%s: no NOT_SPECIFIED among its "
				 "drop reasons: a format barebpf does not "
				 "know", path);
	*min = s->reasons.r[i].value;
	if (t->verbose)
		fprintf(stderr, "%d drop reasons in " TP_CAT ":" TP "'s format; "
			"printed: those above NOT_SPECIFIED (%u)\n",
			s->reasons.n, *min);
	return 0;
}

/* struct sk_buff's fields into the constants: 1 placed, 0 not (the
 * kprobe then reads the socket, without the flags), -errno said. */
static int skb_offsets(struct tool_ctx *t, struct tcpdrop_settings *s)
{
	static const struct {
		const char *path, *name;
		uint32_t size; /* 0: a pointer */
	} f[] = {
		{ "sk_buff.head", "skb_off_head", 0 },
		{ "sk_buff.network_header", "skb_off_nh", 2 },
		{ "sk_buff.transport_header", "skb_off_th", 2 },
		{ "sk_buff.sk", "skb_off_sk", 0 },
	};
	uint32_t off[4] = { 0 };
	struct bb_fieldoff fo;
	struct bb_field fl;
	struct bb_err err = { "" };
	int i, ret = 0;

	fieldoff_init(&fo, t->btf_file);
	ret = skboff_register(&fo, &tcpdrop_skel);
	for (i = 0; i < 4 && ret == 0; i++) {
		memset(&fl, 0, sizeof(fl));
		ret = fieldoff_find(&fo, f[i].path, &fl, &err);
		if (ret == 0 && f[i].size && fl.size != f[i].size) {
			snprintf(s->why, sizeof(s->why), "%s has %u bytes, not "
				 "%u", f[i].path, fl.size, f[i].size);
			ret = -EINVAL;
		} else if (ret < 0) {
			snprintf(s->why, sizeof(s->why), "%s", err.msg);
		} else {
			off[i] = fl.offset;
			if (t->verbose)
				fprintf(stderr, "%s at offset %u (%u bytes): "
					"%s\n", f[i].path, fl.offset, fl.size,
					fl.how);
		}
	}
	fieldoff_close(&fo);
	s->skb_known = ret == 0;
	for (i = 0; i < 4; i++)
		if (obj_set_const(t->obj, f[i].name,
				  s->skb_known ? off[i] : 0) < 0)
			return tool_fail(t, -EINVAL, "internal: constant %s",
					 f[i].name);
	if (!s->skb_known && !s->tp && t->verbose)
		fprintf(stderr, "struct sk_buff not placed (%s): the addresses "
			"and ports from the socket, no flags\n", s->why);
	return s->skb_known;
}

/* Which way: 0 the kprobe, 1 the tracepoint by its reason, 2 by its
 * location; -errno said */
static int choose(struct tool_ctx *t, const char **kfunc)
{
	static const char *const fn[] = { "tcp_drop" };
	const char *way = getenv("BAREBPF_TCPDROP");
	char **avail = NULL;
	int n;

	*kfunc = "tcp_drop";
	/* a test's: the kprobe's program on another function of tcp_drop's
	 * arguments (sk, skb), tcp_v4_do_rcv, where tcp_drop was inlined */
	if (way && !strncmp(way, "kprobe:", 7) && way[7]) {
		*kfunc = way + 7;
		if (t->verbose)
			fprintf(stderr, "BAREBPF_TCPDROP: a kprobe on %s\n",
				*kfunc);
		return 0;
	}
	n = tool_funcs(t, BB_FUNCS_FTRACE, fn, 1, 1, &avail);
	if (n >= 0)
		bb_free_strv(avail, n);
	if (n < 0)
		return n;
	if (n > 0)
		return 0;
	if (tcpsock_tp_has(t, TP_CAT, TP, "reason") &&
	    !(way && !strcmp(way, "location")))
		return 1;
	if (tcpsock_tp_has(t, TP_CAT, TP, "location"))
		return 2;
	return tool_fail(t, -EOPNOTSUPP, "this kernel has neither the "
			 "function tcp_drop (Linux 4.10 to 5.18, where the "
			 "compiler did not inline it) nor the tracepoint "
			 "skb:kfree_skb: nothing tells of its TCP drops");
}

static int configure(struct tool_ctx *t, struct tcpdrop_settings *s)
{
	static const struct mod_tp_off offs[] = {
		{ TP, "skbaddr", TCPDROP_C_tp_skaddr, 0, 0 },
		{ TP, "protocol", TCPDROP_C_tp_protocol, 0, 0 },
	};
	static const struct mod_tp_off reason[] = {
		{ TP, "reason", TCPDROP_C_tp_reason, 0, 0 },
	};
	static const struct mod_tp_off loc[] = {
		{ TP, "location", TCPDROP_C_tp_location, 0, 0 },
	};
	static const struct mod_tp_off rx[] = {
		{ TP, "rx_sk", TCPDROP_C_tp_rx_sk, 0, 0 },
	};
	uint32_t min = 0;
	int has_rx = s->tp && tcpsock_tp_has(t, TP_CAT, TP, "rx_sk");
	int by_reason = s->tp && !s->by_location;
	int ret = mod_tp_offsets(t, &tcpdrop_skel, TP_CAT, offs, 2, s->tp);

	if (ret < 0 || (by_reason && (ret = read_reasons(t, s, &min)) < 0) ||
	    (ret = mod_tp_offsets(t, &tcpdrop_skel, TP_CAT, reason, 1,
				  by_reason)) < 0 ||
	    (ret = mod_tp_offsets(t, &tcpdrop_skel, TP_CAT, loc, 1,
				  s->by_location)) < 0 ||
	    (ret = mod_tp_offsets(t, &tcpdrop_skel, TP_CAT, rx, 1,
				  has_rx)) < 0 ||
	    (ret = skb_offsets(t, s)) < 0)
		return ret;
	if (s->tp && !s->skb_known)
		return tool_fail(t, -EOPNOTSUPP, "%sskb:kfree_skb gives the "
				 "packet, whose headers barebpf reads at "
				 "struct sk_buff's offsets, which this kernel "
				 "does not say: %s%s", s->by_location ?
				 "tcp_drop is no function of this kernel (it "
				 "was inlined): " : "", s->why,
				 strstr(s->why, "--btf") ? "" :
				 "; give its BTF with --btf FILE (e.g. "
				 "BTFhub's)");
	if (s->by_location && t->verbose)
		fprintf(stderr, "tcp_drop is no function here and skb:kfree_skb "
			"has no reason: the drops of TCP packets that tcp "
			"functions free\n");
	if ((ret = tcpsock_sk_offsets(t, 1, NULL, 0)) < 0)
		return ret;
	obj_set_noload(t->obj, s->tp ? TCPDROP_P_kp_tcp_drop :
		       TCPDROP_P_tp_kfree_skb);
	obj_set_noload(t->obj, TCPDROP_P_tp_skbdisc);
	const int set[] = {
		tcpdrop_set(t->obj, TCPDROP_C_disc_pid, 0),
		tcpdrop_set(t->obj, TCPDROP_C_tp_q_skaddr, 0),
		tcpdrop_set(t->obj, TCPDROP_C_filter_family, s->family),
		tcpdrop_set(t->obj, TCPDROP_C_skb_known, s->skb_known),
		tcpdrop_set(t->obj, TCPDROP_C_tp_has_rx_sk, has_rx),
		tcpdrop_set(t->obj, TCPDROP_C_min_reason, min),
		tcpdrop_set(t->obj, TCPDROP_C_by_location, s->by_location),
	};
	return MOD_CONSTS_SET(t, set);
}

int tcpdrop_start(struct tool_ctx *t, struct tcpdrop_settings *s,
		  struct bb_perfbuf **pb)
{
	struct bb_probe p = { NULL, NULL, 0, NULL, NULL, 0, 0 };
	int ret = tool_open(t, &tcpdrop_skel, EMBEDDED_ARGS(tcpdrop));

	if (ret < 0 || (ret = choose(t, &s->kfunc)) < 0)
		return ret;
	s->tp = ret > 0;
	s->by_location = ret == 2;
	if (!s->tp && (ret = tool_need_kprobes(t)) < 0)
		return ret;
	p.prog = s->tp ? TCPDROP_P_tp_kfree_skb : TCPDROP_P_kp_tcp_drop;
	p.target = s->tp ? TP_CAT "/" TP : s->kfunc;
	if ((ret = configure(t, s)) < 0 || (ret = tool_load(t)) < 0 ||
	    (ret = tool_ring(t, tcpdrop_map_fd(t->obj, TCPDROP_M_events), 16,
			     s->on_event, s->ctx, pb)) < 0)
		return ret;
	return tool_attach_probes(t, &p, 1);
}

int tcpdrop_stacks_fd(struct tool_ctx *t)
{
	return tcpdrop_map_fd(t->obj, TCPDROP_M_stacks);
}
