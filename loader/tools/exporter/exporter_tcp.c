/* SPDX-License-Identifier: MIT */
/*
 * The exporter's tcp collector (issue 29), chosen with --collectors:
 * TCP retransmits and resets by local port, from the tracepoints
 * tcp:tcp_retransmit_skb, tcp_send_reset and tcp_receive_reset (Linux
 * 4.15 on), else kprobes (tcpexp.bpf.c). The label set is bounded: the
 * ports of the listening TCP sockets (/proc/net/tcp and tcp6, state 0A)
 * at the start, each at 0, and those that start listening later, found at
 * a render, up to EXP_TCP_PORTS; every other port counts under
 * port="_other".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exporter.h"
#include "mods.h"
#include "prom.h"
#include "../../../bpf/tcpexp.h"

int exp_tcp_port_add(uint16_t *ports, int n, int max, uint16_t port)
{
	int i, j;

	for (i = 0; i < n && ports[i] < port; i++)
		;
	if ((i < n && ports[i] == port) || n >= max)
		return n;
	for (j = n; j > i; j--)
		ports[j] = ports[j - 1];
	ports[i] = port;
	return n + 1;
}

int exp_tcp_listen_ports(const char *text, uint16_t *ports, int n, int max)
{
	const char *l = text;

	for (; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned port, st;
		char rem[64];

		/* "  0: 0100007F:1F90 00000000:0000 0A ..." (the header's
		 * words are not hex) */
		if (sscanf(l, " %*u: %*[0-9A-Fa-f]:%x %63s %x", &port, rem,
			   &st) == 3 && st == 0x0A && port && port <= 0xffff)
			n = exp_tcp_port_add(ports, n, max, (uint16_t)port);
	}
	return n;
}

struct tcp_priv {
	uint16_t port[EXP_TCP_PORTS];
	/* a port's count when it got its label (counted until then under
	 * _other, which keeps it: no series goes down) */
	uint64_t base[EXP_TCP_PORTS][TCPEXP_NWHAT];
	uint64_t val[EXP_TCP_PORTS][TCPEXP_NWHAT];
	uint64_t other[TCPEXP_NWHAT];
	int n;
	unsigned have;
};

static int port_index(const struct tcp_priv *p, uint16_t port)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (p->port[i] == port)
			return i;
	return -1;
}

/* New listening ports, with their counts so far as their base. */
static void tcp_listeners(struct tcp_priv *p, int fd)
{
	static const char *const files[] = { "/proc/net/tcp",
					     "/proc/net/tcp6" };
	uint16_t ports[EXP_TCP_PORTS];
	int f, i, j, n = p->n;

	memcpy(ports, p->port, sizeof(ports));
	for (f = 0; f < 2; f++) {
		char *text = NULL;

		if (bb_read_file(files[f], &text) >= 0)
			n = exp_tcp_listen_ports(text, ports, n,
						 EXP_TCP_PORTS);
		free(text);
	}
	for (i = 0; i < n && p->n < EXP_TCP_PORTS; i++) {
		uint64_t base[TCPEXP_NWHAT] = { 0 };

		if (port_index(p, ports[i]) >= 0)
			continue;
		for (f = 0; f < TCPEXP_NWHAT; f++) {
			struct tcpexp_key k = { ports[i], (unsigned short)f };

			if (fd >= 0)
				bpf_map_lookup_elem(fd, &k, &base[f]);
		}
		/* in its place: the series come out by port */
		for (j = p->n++; j > 0 && p->port[j - 1] > ports[i]; j--) {
			p->port[j] = p->port[j - 1];
			memcpy(p->base[j], p->base[j - 1], sizeof(base));
		}
		p->port[j] = ports[i];
		memcpy(p->base[j], base, sizeof(base));
	}
}

int exp_tcp_start(struct exporter *e, struct collector *c)
{
	struct tcp_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return tool_fail(&c->t, -ENOMEM, "out of memory");
	c->priv = p;
	tcp_listeners(p, -1);
	return tcpexp_start(&c->t, e->o.no_kprobes, &p->have) < 0 ? -1 : 0;
}

static void tcp_read(struct tcp_priv *p, int fd)
{
	struct tcpexp_key k, next;
	void *prev = NULL;
	uint64_t v;
	int i, f;

	memset(p->val, 0, sizeof(p->val));
	memset(p->other, 0, sizeof(p->other));
	/* the map holds running sums: read anew, not added */
	while (fd >= 0 && bpf_map_get_next_key(fd, prev, &next) == 0) {
		k = next;
		prev = &k;
		if (k.what >= TCPEXP_NWHAT ||
		    bpf_map_lookup_elem(fd, &k, &v) < 0)
			continue;
		i = port_index(p, k.port);
		if (i < 0)
			p->other[k.what] += v;
		else
			p->val[i][k.what] += v;
	}
	for (i = 0; i < p->n; i++)
		for (f = 0; f < TCPEXP_NWHAT; f++) {
			uint64_t b = p->base[i][f];

			b = b < p->val[i][f] ? b : p->val[i][f];
			p->val[i][f] -= b;
			p->other[f] += b;
		}
}

static void tcp_series(FILE *f, const char *name, const char *port,
		       const char *dir, uint64_t v)
{
	struct prom_label l[2] = { { "port", port }, { "dir", dir } };

	prom_sample_u64(f, name, l, dir ? 2 : 1, v);
}

void exp_tcp_render(struct exporter *e, struct collector *c, FILE *f)
{
	static const char *const dirs[] = { NULL, "sent", "received" };
	static const char *const names[] = { "barebpf_tcp_retransmits_total",
					     "barebpf_tcp_resets_total" };
	static const char *const helps[] = {
		"TCP segments retransmitted (tcp:tcp_retransmit_skb; before "
		"4.15 a kprobe on tcp_retransmit_skb), by "
		"local port: the ports listening at the start and those that "
		"listen later (64 at most); other ports, port=\"_other\".",
		"TCP resets sent (tcp:tcp_send_reset; before 6.10 kprobes "
		"where they can: tcp_v4_send_reset, tcp_v6_send_reset, "
		"tcp_send_active_reset) and received "
		"(tcp:tcp_receive_reset; tcp_reset), by local port as "
		"barebpf_tcp_retransmits_total. A reset sent for a segment "
		"that found no socket counts under the port it was sent to "
		"where the kprobes or the tracepoint (6.10 on) see it, else "
		"not at all."
	};
	struct tcp_priv *p = c->priv;
	int fd = tcpexp_counts_fd(&c->t), i, w;
	char port[8];

	(void)e;
	tcp_listeners(p, fd);
	tcp_read(p, fd);
	for (w = 0; w < TCPEXP_NWHAT; w++) {
		if (w < 2 && (p->have & (w ? 6u : 1u)))
			prom_family(f, names[w], "counter", helps[w]);
		if (!(p->have & (1u << w)))
			continue;
		for (i = 0; i < p->n; i++) {
			snprintf(port, sizeof(port), "%u", p->port[i]);
			tcp_series(f, names[w > 0], port, dirs[w],
				   p->val[i][w]);
		}
		tcp_series(f, names[w > 0], "_other", dirs[w], p->other[w]);
	}
}
