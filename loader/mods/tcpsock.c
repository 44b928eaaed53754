/* SPDX-License-Identifier: MIT */
/*
 * The network modules' shared host side (bpf/tcpsock.h): the offsets of
 * struct sock's fields from the field-offset layer (BTF, --btf, else
 * sockoff.c's discovery) and of the tracepoints' fields from their format
 * files, set as the constants of whichever object t has open (the names
 * are the same in each), and the port filters' maps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mods.h"
#include "fieldoff.h"
#include "../../bpf/tcpsock.h"

static int set(struct tool_ctx *t, const char *name, uint64_t v)
{
	int ret = obj_set_const(t->obj, name, v);

	if (ret < 0)
		return tool_fail(t, ret, "internal: constant %s of %s: %s",
				 name, t->name, strerror(-ret));
	return 0;
}

static const struct {
	const char *path, *name;
	uint32_t size;
	int v6; /* IPv6's: a kernel without CONFIG_IPV6 has none */
} sk_fields[] = {
	{ "sock.__sk_common.skc_family", "sk_off_family", 2, 0 },
	{ "sock.__sk_common.skc_num", "sk_off_num", 2, 0 },
	{ "sock.__sk_common.skc_dport", "sk_off_dport", 2, 0 },
	{ "sock.__sk_common.skc_state", "sk_off_state", 1, 0 },
	{ "sock.__sk_common.skc_rcv_saddr", "sk_off_saddr", 4, 0 },
	{ "sock.__sk_common.skc_daddr", "sk_off_daddr", 4, 0 },
	{ "sock.__sk_common.skc_v6_rcv_saddr", "sk_off_v6_saddr", 16, 1 },
	{ "sock.__sk_common.skc_v6_daddr", "sk_off_v6_daddr", 16, 1 },
};
#define NSK (int)(sizeof(sk_fields) / sizeof(sk_fields[0]))

/* One field into *f: 0, 1 (an optional one missing), or -errno said. */
static int find(struct tool_ctx *t, struct bb_fieldoff *fo, const char *path,
		uint32_t size, int optional, struct bb_field *f)
{
	struct bb_err err = { "" };
	int ret = fieldoff_find(fo, path, f, &err);

	/* IPv6's: none in a kernel without CONFIG_IPV6, and a discovery
	 * cannot make an IPv6 connection there: IPv4 only, said with -v */
	if (ret < 0 && optional) {
		if (t->verbose)
			fprintf(stderr, "%s: not placed (%s): IPv4 only\n",
				path, err.msg);
		return 1;
	}
	if (ret < 0)
		return tool_fail(t, ret, "%s", err.msg);
	if (f->size != size)
		return tool_fail(t, -EINVAL, "%s has %u bytes in this kernel, "
				 "not %u: a layout barebpf does not know",
				 path, f->size, size);
	if (t->verbose)
		fprintf(stderr, "%s at offset %u (%u bytes): %s\n", path,
			f->offset, f->size, f->how);
	return 0;
}

int tcpsock_sk_offsets(struct tool_ctx *t, int need,
		       const struct tcpsock_extra *x, int nx)
{
	struct bb_fieldoff fo;
	struct bb_field f;
	int i, ret = 0, v6 = need;

	for (i = 0; i < NSK && ret == 0 && !need; i++)
		ret = set(t, sk_fields[i].name, 0);
	if (ret < 0 || (!need && !nx))
		return ret ? ret : set(t, "sk_have_v6", 0);
	fieldoff_init(&fo, t->btf_file);
	ret = need ? sockoff_register(&fo) : 0;
	if (ret < 0)
		tool_error(t, "the discovery of struct sock's fields could "
			   "not be registered: %s", strerror(-ret));
	for (i = 0; i < NSK && ret >= 0 && need; i++) {
		memset(&f, 0, sizeof(f));
		ret = find(t, &fo, sk_fields[i].path, sk_fields[i].size,
			   sk_fields[i].v6, &f);
		if (ret == 1)
			v6 = 0;
		if (ret >= 0)
			ret = set(t, sk_fields[i].name, f.offset);
	}
	for (i = 0; i < nx && ret >= 0; i++) {
		if (x[i].disc)
			fieldoff_register(&fo, x[i].path, x[i].disc,
					  x[i].disc_ctx);
		memset(&f, 0, sizeof(f));
		ret = find(t, &fo, x[i].path, x[i].size, 0, &f);
		if (ret >= 0)
			ret = set(t, x[i].name, f.offset);
	}
	fieldoff_close(&fo);
	return ret < 0 ? ret : set(t, "sk_have_v6", v6);
}

int tcpsock_tp_offsets(struct tool_ctx *t, const char *cat,
		       const char *event, int read)
{
	static const char *const names[][2] = {
		{ "sport", "tp_sport" }, { "dport", "tp_dport" },
		{ "saddr", "tp_saddr" }, { "daddr", "tp_daddr" },
		{ "saddr_v6", "tp_saddr_v6" }, { "daddr_v6", "tp_daddr_v6" },
		{ "skaddr", "tp_skaddr" },
	};
	struct bb_tp_field f;
	struct bb_err err = { "" };
	const char *tfs = read ? tool_tracefs(t) : NULL;
	int i, ret = 0, fam;

	if (read && !tfs)
		return -ENOENT;
	for (i = 0; i < 7 && ret == 0; i++) {
		f.offset = 0;
		if (read && (ret = tool_tp_field(t, cat, event, names[i][0],
						 &f)) < 0)
			return ret;
		ret = set(t, names[i][1], f.offset);
	}
	f.offset = 0;
	fam = read && tp_field(tfs, cat, event, "family", &f, &err) == 0;
	if (ret == 0)
		ret = set(t, "tp_family", f.offset);
	/* saddr_v6 was read above: an IPv4 socket's is IPv4-mapped */
	if (ret == 0)
		ret = set(t, "tp_family_mapped", read && !fam);
	return ret ? ret : set(t, "tp_has_family", fam);
}

int tcpsock_tp_protocol(struct tool_ctx *t, const char *cat,
			const char *event, int read)
{
	struct bb_tp_field f = { .offset = 0, .size = 2 };
	int ret = read ? tool_tp_field(t, cat, event, "protocol", &f) : 0;

	if (ret < 0)
		return ret;
	if (f.size != 1 && f.size != 2)
		return tool_fail(t, -EINVAL, "%s:%s's protocol has %d bytes, "
				 "not 1 or 2: a format barebpf does not know",
				 cat, event, f.size);
	ret = set(t, "tp_protocol", f.offset);
	return ret ? ret : set(t, "tp_proto_u8", f.size == 1);
}

int tcpsock_tracepoint(struct tool_ctx *t, const char *cat,
		       const char *event)
{
	const char *way = getenv("BAREBPF_TCP");

	if (way && !strcmp(way, "kprobes")) {
		if (t->verbose)
			fprintf(stderr, "BAREBPF_TCP=kprobes: not %s:%s\n",
				cat, event);
		return 0;
	}
	return tcpsock_tp_has(t, cat, event, "skaddr");
}

int tcpsock_tp_has(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field)
{
	struct bb_tp_field f;
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);

	return tfs && tp_field(tfs, cat, event, field, &f, &err) == 0;
}

int tcpsock_ports_on(struct tool_ctx *t, const char *on,
		     const struct tcpsock_ports *p)
{
	return set(t, on, p->n > 0);
}

int tcpsock_ports_fill(struct tool_ctx *t, int map_fd,
		       const struct tcpsock_ports *p)
{
	uint32_t one = 1, k;
	int i;

	for (i = 0; i < p->n; i++) {
		k = p->port[i];
		if (bpf_map_update_elem(map_fd, &k, &one, 0) < 0)
			return tool_fail(t, -errno, "the port filter: %s",
					 strerror(errno));
	}
	return 0;
}

