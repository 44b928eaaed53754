/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcplife: one record per TCP socket when it closes, with its life span
 * and the bytes it sent (acknowledged) and received, as bcc's tcplife:
 * from sock:inet_sock_set_state (4.16+; TCP only) or a kprobe on
 * tcp_set_state(sk, state) before. The birth is the first change to a
 * state before FIN_WAIT1; the process is the one that ran at SYN_SENT (a
 * client) or LAST_ACK (the side that closed second), else the current
 * one at the close (bcc's best effort). The bytes are tcp_sock's
 * bytes_acked and bytes_received (tcp_get_info), at offsets from the
 * field-offset layer (off_bytes_acked, off_bytes_received).
 *
 * Constants: filter_pid (0: any), filter_lport, filter_dport, the
 * tracepoint's offsets (tp_*), the socket's (sk_*).
 */
#define TCPSOCK_BPF
#include "bb_helpers.h"
#include "tcplife.h"

#define TCP_SYN_SENT 2
#define TCP_FIN_WAIT1 4
#define TCP_LAST_ACK 9

BB_MAP(birth, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(u64), 65536);
BB_MAP(whoami, BPF_MAP_TYPE_HASH, sizeof(u64), sizeof(struct tcplife_who),
       65536);
BB_MAP(lports, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u32), 64);
BB_MAP(dports, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u32), 64);
BB_MAP(snap, BPF_MAP_TYPE_ARRAY, sizeof(u32), TCPLIFE_SNAP_CHUNK,
       TCPLIFE_SNAP_N + 1);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TCPLIFE_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

static __always_inline void close_sk(void *ctx, u64 sk, u32 pid,
				     struct tcplife_event *e)
{
	u64 *tsp = bpf_map_lookup_elem(&birth, &sk), now;
	struct tcplife_who *who;
	u32 fpid = BB_CONST(filter_pid);
	const char *p = (const char *)(unsigned long)sk;

	if (!tsp) {
		bpf_map_delete_elem(&whoami, &sk); /* missed its start */
		return;
	}
	now = bpf_ktime_get_ns();
	e->span_ns = now - *tsp;
	bpf_map_delete_elem(&birth, &sk);
	who = bpf_map_lookup_elem(&whoami, &sk);
	if (who)
		pid = who->pid;
	if (fpid && pid != fpid)
		goto out;
	bpf_probe_read(&e->rx_b, 8, p + BB_CONST(off_bytes_received));
	bpf_probe_read(&e->tx_b, 8, p + BB_CONST(off_bytes_acked));
	e->ts = now;
	e->pid = pid;
	if (who)
		bpf_probe_read(e->comm, sizeof(e->comm), who->comm);
	else
		bpf_get_current_comm(e->comm, sizeof(e->comm));
	count(TCPLIFE_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
out:
	if (who)
		bpf_map_delete_elem(&whoami, &sk);
}

static __always_inline void change(void *ctx, u64 sk, int newstate,
				   struct tcplife_event *e)
{
	u32 pid = bpf_get_current_pid_tgid() >> 32;
	u32 fpid = BB_CONST(filter_pid);

	if (!TCPSOCK_PORT_OK(lports, filter_lport, e->f.lport) ||
	    !TCPSOCK_PORT_OK(dports, filter_dport, e->f.dport)) {
		bpf_map_delete_elem(&birth, &sk);
		return;
	}
	if (newstate < TCP_FIN_WAIT1) {
		u64 ts = bpf_ktime_get_ns();

		if (bpf_map_update_elem(&birth, &sk, &ts, BPF_ANY) < 0)
			count(TCPLIFE_UNTRACKED);
	}
	if (newstate == TCP_SYN_SENT || newstate == TCP_LAST_ACK) {
		struct tcplife_who me = { pid, 0 };

		if (fpid && pid != fpid)
			return;
		bpf_get_current_comm(me.comm, sizeof(me.comm));
		bpf_map_update_elem(&whoami, &sk, &me, BPF_ANY);
	}
	if (newstate == TCPSOCK_CLOSE)
		close_sk(ctx, sk, pid, e);
}

SEC("tracepoint/sock/inet_sock_set_state")
int tp_state(void *ctx)
{
	struct tcplife_event e = {};
	int newstate = 0;
	u64 sk;

	if (tcpsock_tp_protocol(ctx) != TCPSOCK_IPPROTO_TCP)
		return 0;
	sk = BB_TP_READ_ULONG(ctx, tp_skaddr);
	BB_TP_READ(newstate, ctx, tp_newstate);
	tcpsock_read_tp(ctx, (const char *)(unsigned long)sk, &e.f);
	change(ctx, sk, newstate, &e);
	return 0;
}

SEC("kprobe/tcp_set_state")
int kp_state(struct pt_regs *ctx)
{
	struct tcplife_event e = {};
	const char *sk = (const char *)(unsigned long)PT_REGS_PARM1(ctx);

	tcpsock_read_sk(sk, &e.f);
	change(ctx, (unsigned long)sk, (int)PT_REGS_PARM2(ctx), &e);
	return 0;
}

/*
 * The discovery's snapshot: the socket process snap_pid closes first (an
 * abortive close: in its own context), copied chunk by chunk through the
 * stack (4.9's helpers take no map value as memory).
 */
static __always_inline void snapshot(const char *sk, int newstate)
{
	char buf[TCPLIFE_SNAP_CHUNK];
	u32 k = TCPLIFE_SNAP_N, i;
	u32 *done;

	if (newstate != TCPSOCK_CLOSE ||
	    (u32)(bpf_get_current_pid_tgid() >> 32) != BB_CONST(snap_pid))
		return;
	done = bpf_map_lookup_elem(&snap, &k);
	if (!done || *done)
		return;
	*done = 1;
#pragma unroll
	for (i = 0; i < TCPLIFE_SNAP_N; i++) {
		bpf_probe_read(buf, sizeof(buf), sk + i * TCPLIFE_SNAP_CHUNK);
		k = i;
		bpf_map_update_elem(&snap, &k, buf, BPF_ANY);
	}
}

SEC("tracepoint/sock/inet_sock_set_state")
int tp_snap(void *ctx)
{
	int newstate = 0;

	BB_TP_READ(newstate, ctx, tp_newstate);
	snapshot((const char *)(unsigned long)BB_TP_READ_ULONG(ctx,
			tp_skaddr), newstate);
	return 0;
}

SEC("kprobe/tcp_set_state")
int kp_snap(struct pt_regs *ctx)
{
	snapshot((const char *)(unsigned long)PT_REGS_PARM1(ctx),
		 (int)PT_REGS_PARM2(ctx));
	return 0;
}

char _license[] SEC("license") = "GPL";
