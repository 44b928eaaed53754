/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpstates: one record per TCP state change, with the time spent in the
 * old state, as bcc's tcpstates: from the tracepoint
 * sock:inet_sock_set_state (4.16+; TCP only) or a kprobe on
 * tcp_set_state(sk, state) before, reading the socket through the
 * field-offset layer's offsets (bpf/tcpsock.h). The socket's address is
 * the key of the time of its last change; a socket that closes leaves the
 * map. The record is built on the stack (4.9).
 *
 * Constants: filter_lport, filter_dport (-L, -D: the ports maps), the
 * tracepoint's field offsets (tp_*), the socket's (sk_*).
 */
#define TCPSOCK_BPF
#include "bb_helpers.h"
#include "tcpstates.h"

BB_MAP(last, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64), 65536);
BB_MAP(lports, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u32), 64);
BB_MAP(dports, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u32), 64);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TCPSTATES_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

static __always_inline void change(void *ctx, struct tcpstates_event *e)
{
	u64 now = bpf_ktime_get_ns(), *tsp;

	if (!TCPSOCK_PORT_OK(lports, filter_lport, e->f.lport) ||
	    !TCPSOCK_PORT_OK(dports, filter_dport, e->f.dport)) {
		bpf_map_delete_elem(&last, &e->skaddr);
		return;
	}
	tsp = bpf_map_lookup_elem(&last, &e->skaddr);
	if (tsp && now > *tsp)
		e->span_ns = now - *tsp;
	e->ts = now;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	count(TCPSTATES_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
	if (e->newstate == TCPSOCK_CLOSE)
		bpf_map_delete_elem(&last, &e->skaddr);
	else if (bpf_map_update_elem(&last, &e->skaddr, &now, BPF_ANY) < 0)
		count(TCPSTATES_UNTRACKED);
}

SEC("tracepoint/sock/inet_sock_set_state")
int tp_state(void *ctx)
{
	struct tcpstates_event e = {};

	if (tcpsock_tp_protocol(ctx) != TCPSOCK_IPPROTO_TCP)
		return 0;
	e.skaddr = BB_TP_READ_ULONG(ctx, tp_skaddr);
	BB_TP_READ(e.oldstate, ctx, tp_oldstate);
	BB_TP_READ(e.newstate, ctx, tp_newstate);
	tcpsock_read_tp(ctx, (const char *)(unsigned long)e.skaddr, &e.f);
	change(ctx, &e);
	return 0;
}

SEC("kprobe/tcp_set_state")
int kp_state(struct pt_regs *ctx)
{
	struct tcpstates_event e = {};
	const char *sk = (const char *)(unsigned long)PT_REGS_PARM1(ctx);

	e.skaddr = (unsigned long)sk;
	e.newstate = (int)PT_REGS_PARM2(ctx);
	tcpsock_read_sk(sk, &e.f);
	e.oldstate = e.f.state;
	change(ctx, &e);
	return 0;
}

char _license[] SEC("license") = "GPL";
