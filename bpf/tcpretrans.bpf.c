/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpretrans: TCP retransmissions, as bcc's tcpretrans: from the
 * tracepoint tcp:tcp_retransmit_skb (4.15+) or a kprobe on
 * tcp_retransmit_skb(sk, ...) before; tail loss probes (-l) from a kprobe
 * on tcp_send_loss_probe(sk). A record per event, or with -c a count per
 * flow. The tracepoint has the ports and addresses; the state (4.16+)
 * where it has it, else it is read from the socket through the
 * field-offset layer's offsets (bpf/tcpsock.h); the family where it has
 * it (5.x), else IPv4 if saddr_v6 is IPv4-mapped. Where the tracepoint
 * has an err (recent kernels: it fires for every attempt), an attempt
 * that sent nothing (err != 0: the segment still in the host's queue, no
 * memory) is not a retransmission: older kernels fire it only for those
 * sent.
 *
 * Constants: count_only (-c), filter_family (-4, -6; 0: both),
 * tp_has_state, tp_state, tp_has_err, tp_err, the tracepoint's offsets
 * (tp_*), the socket's (sk_*).
 */
#define TCPSOCK_BPF
#include "bb_helpers.h"
#include "tcpretrans.h"

BB_MAP(counts, BPF_MAP_TYPE_HASH, sizeof(struct tcpretrans_key), sizeof(u64),
       10240);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TCPRETRANS_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

static __always_inline void emit(void *ctx, struct tcpretrans_event *e)
{
	u32 fam = BB_CONST(filter_family);
	u64 one = 1, *v;

	if (fam && e->f.family != fam)
		return;
	if (BB_CONST(count_only)) {
		struct tcpretrans_key k = {};

		__builtin_memcpy(&k.f, &e->f, sizeof(k.f));
		k.f.state = 0;
		v = bpf_map_lookup_elem(&counts, &k);
		if (v)
			__sync_fetch_and_add(v, 1);
		else if (bpf_map_update_elem(&counts, &k, &one,
					     BPF_NOEXIST) < 0) {
			v = bpf_map_lookup_elem(&counts, &k);
			if (v)
				__sync_fetch_and_add(v, 1);
			else
				count(TCPRETRANS_UNTRACKED);
		}
		return;
	}
	e->ts = bpf_ktime_get_ns();
	e->pid = bpf_get_current_pid_tgid() >> 32;
	count(TCPRETRANS_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, e, sizeof(*e));
}

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tp_retrans(void *ctx)
{
	struct tcpretrans_event e = { .type = TCPRETRANS_RETRANSMIT };
	const char *sk = (const char *)(unsigned long)
		BB_TP_READ_ULONG(ctx, tp_skaddr);
	int state = 0, err = 0;

	if (BB_CONST(tp_has_err)) {
		BB_TP_READ(err, ctx, tp_err);
		if (err)
			return 0;
	}
	tcpsock_read_tp(ctx, sk, &e.f);
	if (BB_CONST(tp_has_state))
		BB_TP_READ(state, ctx, tp_state);
	else
		bpf_probe_read(&state, 1, sk + BB_CONST(sk_off_state));
	e.f.state = state;
	emit(ctx, &e);
	return 0;
}

static __always_inline void kprobe(struct pt_regs *ctx, u32 type)
{
	struct tcpretrans_event e = { .type = type };
	const char *sk = (const char *)(unsigned long)PT_REGS_PARM1(ctx);

	if (!sk)
		return;
	tcpsock_read_sk(sk, &e.f);
	if (e.f.family == TCPSOCK_AF_INET || e.f.family == TCPSOCK_AF_INET6)
		emit(ctx, &e);
}

SEC("kprobe/tcp_retransmit_skb")
int kp_retrans(struct pt_regs *ctx)
{
	kprobe(ctx, TCPRETRANS_RETRANSMIT);
	return 0;
}

SEC("kprobe/tcp_send_loss_probe")
int kp_tlp(struct pt_regs *ctx)
{
	kprobe(ctx, TCPRETRANS_TLP);
	return 0;
}

char _license[] SEC("license") = "GPL";
