/* SPDX-License-Identifier: MIT */
/* The network modules (issue 29): part of mods.h, which includes it (the
 * rules of loader/mods/ are there); include mods.h, not this file.
 * sockoff.c (struct sock's fields discovered), tcpconn.c (tcpconnect,
 * tcpaccept), tcpsock.c (what tcpstates, tcplife and tcpretrans share:
 * bpf/tcpsock.h's host side), tcpstates.c, tcplife.c (and tcplife_disc.c),
 * tcpretrans.c, tcpdrop.c. */
#ifndef BAREBPF_MODS_NET_H
#define BAREBPF_MODS_NET_H

/* ---- sockoff.c: struct sock's fields, discovered (kernels without BTF) ---- */
struct bb_fieldoff;
/*
 * Register with fo the discoveries of sock.__sk_common.skc_daddr,
 * skc_rcv_saddr, skc_dport, skc_num, skc_family, skc_state, skc_v6_daddr
 * and skc_v6_rcv_saddr: the first lookup of any makes loopback
 * connections with known addresses and ports, copies each accepted sock
 * through a kretprobe on inet_csk_accept and finds every field at once
 * (sockoff_solve.h); fieldoff_find caches each per boot. 0 or -errno.
 */
int sockoff_register(struct bb_fieldoff *fo);
/* skboff.c: the discovery of struct sk_buff's head, network_header,
 * transport_header and sk where no BTF places them (UDP datagrams over lo
 * of known addresses and ports, net:net_dev_queue, the program tp_skbdisc
 * of tcpdrop's object, whose skeleton the caller gives): registers them. */
int skboff_register(struct bb_fieldoff *fo, const struct bb_skel *tcpdrop);
/* 1 if this kernel has IPv6 (an AF_INET6 socket binds to ::1), else 0. */
int sockoff_have_ipv6(void);

/* ---- tcpconn.c: tcpconnect and tcpaccept (kprobes, struct sock) ---- */
struct tcpconn_settings {
	int accept;             /* tcpaccept; else tcpconnect */
	uint32_t pid;           /* 0: any */
	uint32_t uid;           /* 0xffffffff: any */
	int ip;                 /* 4, 6; 0: both */
	const uint16_t *ports;  /* -P: remote (tcpconnect), local (tcpaccept) */
	int nports;
	perfbuf_sample_fn on_event;
	void *ctx;
};
/* The sock's offsets (BTF, --btf, else sockoff's discovery; -v says
 * which), then open, configure, load tcpconnect.bpf.c or tcpaccept.bpf.c,
 * open its ring into *pb, attach. */
int tcpconn_start(struct tool_ctx *t, const struct tcpconn_settings *s,
		  struct bb_perfbuf **pb);
int tcpconn_stats_fd(struct tool_ctx *t);

/* ---- tcpexp.c: TCP retransmits and resets by local port ---- */
/* Open, configure, load tcpexp.bpf.c in t and attach the tracepoints of
 * tcp_retransmit_skb, tcp_send_reset, tcp_receive_reset this kernel has
 * (Linux 4.15 on), else (unless no_kprobes) kprobes on tcp_retransmit_skb,
 * tcp_reset, tcp_v4_send_reset, tcp_v6_send_reset and
 * tcp_send_active_reset (those it has, a counter left out without its
 * function or fields said), and where tcp_send_reset takes a socket
 * (4.15-6.9) those kprobes for the resets sent if they can: bit TCPEXP_*
 * of *have for each. -errno (said) if none. */
int tcpexp_start(struct tool_ctx *t, int no_kprobes, unsigned *have);
/* counts: struct tcpexp_key -> u64 running sum */
int tcpexp_counts_fd(struct tool_ctx *t);

/* The per-CPU counters of the streaming objects (NAME_EMITTED ...: for
 * tool_ring_lost and the warnings at the end). */
int biosnoop_stats_fd(struct tool_ctx *t);
int drsnoop_stats_fd(struct tool_ctx *t);
int execsnoop_stats_fd(struct tool_ctx *t);

/* ---- tcpsock.c: the network modules' shared parts (bpf/tcpsock.h) ---- */
#define TCPSOCK_MAXPORTS 16
struct tcpsock_ports {
	uint16_t port[TCPSOCK_MAXPORTS];
	int n; /* 0: no filter */
};
/* A field of a struct the tool reads besides sock's (tcp_sock.bytes_acked),
 * into constant `name` of t's object. */
struct tcpsock_extra {
	const char *path, *name;
	uint32_t size;
	/* its discovery where no BTF places it (fieldoff.h), or NULL */
	int (*disc)(void *ctx, const char *path, struct bb_field *out,
		    struct bb_err *err);
	void *disc_ctx;
};
/*
 * Set the constants sk_off_* (and sk_have_v6) of t's object to struct
 * sock's offsets (fieldoff.h: BTF, --btf, else sockoff.c's discovery),
 * with need 0, to 0 (no program reads them); and x[0..nx-1]'s. -errno
 * after saying which field could not be placed.
 */
int tcpsock_sk_offsets(struct tool_ctx *t, int need,
		       const struct tcpsock_extra *x, int nx);
/* The constants tp_* to the fields of events/cat/event (tp_has_family 0
 * where it has no family); with read 0, to 0. */
int tcpsock_tp_offsets(struct tool_ctx *t, const char *cat,
		       const char *event, int read);
/* The constants tp_protocol and tp_proto_u8 to the event's protocol field
 * (a __u8 before 6.x, a __u16 since); with read 0, to 0. */
int tcpsock_tp_protocol(struct tool_ctx *t, const char *cat,
			const char *event, int read);
/* 1 to use the tracepoint events/cat/event (it exists, and BAREBPF_TCP
 * is not "kprobes"), else 0. */
int tcpsock_tracepoint(struct tool_ctx *t, const char *cat,
		       const char *event);
/* 1 if events/cat/event has the field (and the event exists), else 0. */
int tcpsock_tp_has(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field);
/* Before the load: constant `on` 1 if p filters; after: p into the
 * filter's map map_fd. */
int tcpsock_ports_on(struct tool_ctx *t, const char *on,
		     const struct tcpsock_ports *p);
int tcpsock_ports_fill(struct tool_ctx *t, int map_fd,
		       const struct tcpsock_ports *p);

/* ---- tcpstates.c: one line per TCP state change ---- */
struct tcpstates_settings {
	struct tcpsock_ports lports, dports; /* -L, -D */
	perfbuf_sample_fn on_event;
	void *ctx;
	int tp; /* set by tcpstates_start: 1 the tracepoint, 0 a kprobe */
};
/* Open, configure (sock:inet_sock_set_state where the kernel has it, else
 * a kprobe on tcp_set_state and the socket's offsets), load, open the ring
 * into *pb, attach. */
int tcpstates_start(struct tool_ctx *t, struct tcpstates_settings *s,
		    struct bb_perfbuf **pb);
int tcpstates_stats_fd(struct tool_ctx *t);

/* ---- tcplife.c: one line per TCP socket's life, at its close ---- */
struct tcplife_settings {
	uint32_t pid;                        /* -p; 0: any */
	struct tcpsock_ports lports, dports; /* -L, -D */
	perfbuf_sample_fn on_event;
	void *ctx;
	int tp; /* set by tcplife_start: 1 the tracepoint, 0 a kprobe */
};
/* As tcpstates_start; tcp_sock.bytes_acked and bytes_received through the
 * field-offset layer (refused, naming them, where it cannot place them). */
int tcplife_start(struct tool_ctx *t, struct tcplife_settings *s,
		  struct bb_perfbuf **pb);
int tcplife_stats_fd(struct tool_ctx *t);
/* tcplife_disc.c: where no BTF places tcp_sock.bytes_acked and
 * bytes_received, a loopback connection of known byte counts, closed
 * abortively, and its socket's snapshot searched for them (a
 * bb_field_discover_fn; ctx: a struct tcplife_disc). */
struct tcplife_disc {
	struct tool_ctx *t;
	int tp;              /* the tracepoint, else the kprobe */
	int done, ret;       /* measured once for both fields */
	uint32_t acked, received;
	char how[160];
	char why[256];
};
int tcplife_discover(void *ctx, const char *path, struct bb_field *out,
		     struct bb_err *err);

/* ---- tcpretrans.c: TCP retransmissions (and tail loss probes) ---- */
struct tcpretrans_settings {
	int tlp;      /* -l: tail loss probes too (a kprobe) */
	int count;    /* -c: counts by flow in counts, no records */
	int family;   /* -4: 2, -6: 10; 0: both */
	perfbuf_sample_fn on_event;
	void *ctx;
	int tp; /* set by tcpretrans_start: 1 the tracepoint, 0 a kprobe */
};
/* Open, configure (tcp:tcp_retransmit_skb where the kernel has it, else a
 * kprobe; struct sock's offsets where a program reads it), load, open the
 * ring into *pb, attach. */
int tcpretrans_start(struct tool_ctx *t, struct tcpretrans_settings *s,
		     struct bb_perfbuf **pb);
/* counts: struct tcpretrans_key -> u64 */
int tcpretrans_counts_fd(struct tool_ctx *t);
int tcpretrans_stats_fd(struct tool_ctx *t);

/* ---- tcpdrop.c: TCP drops, with the kernel stack and the reason ---- */
#define TCPDROP_MAX_REASONS 256
/* skb:kfree_skb's reasons, by its format file's __print_symbolic list */
struct tcpdrop_reasons {
	int n;
	struct {
		uint32_t value;
		char name[40];
	} r[TCPDROP_MAX_REASONS];
};
struct tcpdrop_settings {
	int family; /* -4: 2, -6: 10; 0: both */
	perfbuf_sample_fn on_event;
	void *ctx;
	/* set by tcpdrop_start */
	int tp;        /* 1 skb:kfree_skb, 0 a kprobe on tcp_drop */
	int by_location; /* the tracepoint without reasons (before 5.17):
			  * every kfree_skb of a TCP packet, its location for
			  * the tool to keep those freed by tcp_* functions */
	const char *kfunc; /* the kprobe's: tcp_drop (BAREBPF_TCPDROP) */
	int skb_known; /* struct sk_buff placed: the packet's headers read */
	char why[600]; /* with skb_known 0, why not */
	struct tcpdrop_reasons reasons; /* with tp */
};
/* Choose the kprobe on tcp_drop (where the kernel has it as a function),
 * else skb:kfree_skb (by its reason, else by its location), refusing
 * where the tracepoint's packet cannot be read (no BTF); then configure,
 * load, open the ring into *pb, attach. */
int tcpdrop_start(struct tool_ctx *t, struct tcpdrop_settings *s,
		  struct bb_perfbuf **pb);
/* the stack trace map of the records' kstack ids */
int tcpdrop_stacks_fd(struct tool_ctx *t);
/* Pure: the reasons of a format file's text into r: 0, or -ENOENT (no
 * list), -EINVAL (a list barebpf cannot read). */
int tcpdrop_parse_reasons(const char *fmt, struct tcpdrop_reasons *r);
/* v's name, or NULL */
const char *tcpdrop_reason_name(const struct tcpdrop_reasons *r, uint32_t v);

#endif
