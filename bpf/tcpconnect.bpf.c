/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpconnect: one record per TCP connect() that sent its SYN, as bcc's
 * tcpconnect: a kprobe on tcp_v4_connect / tcp_v6_connect keeps the sock
 * by thread, the kretprobe reads its addresses and ports if it returned
 * 0 (bpf/tcpconn_read.h; the offsets are the loader's).
 */
#include "tcpconn_read.h"

BB_MAP(starts, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(u64), 4096);

static __always_inline int enter(struct pt_regs *ctx)
{
	u64 id = bpf_get_current_pid_tgid(), sk = (bb_kulong)PT_REGS_PARM1(ctx);
	u32 tid = id;

	if (!wanted(id))
		return 0;
	if (bpf_map_update_elem(&starts, &tid, &sk, BPF_ANY) < 0)
		count(TCPCONN_UNTRACKED);
	return 0;
}

static __always_inline int ret(struct pt_regs *ctx, int ip)
{
	u32 tid = bpf_get_current_pid_tgid();
	u64 *skp = bpf_map_lookup_elem(&starts, &tid), sk;

	if (!skp)
		return 0; /* entered before we started, or filtered out */
	sk = *skp;
	bpf_map_delete_elem(&starts, &tid);
	if ((int)PT_REGS_RC(ctx) != 0)
		return 0; /* no SYN sent: the sock's fields may be unset */
	emit(ctx, sk, ip, 1);
	return 0;
}

SEC("kprobe")
int kp_v4(struct pt_regs *ctx)
{
	return enter(ctx);
}

SEC("kretprobe")
int kr_v4(struct pt_regs *ctx)
{
	return ret(ctx, 4);
}

SEC("kprobe")
int kp_v6(struct pt_regs *ctx)
{
	return enter(ctx);
}

SEC("kretprobe")
int kr_v6(struct pt_regs *ctx)
{
	return ret(ctx, 6);
}

char _license[] SEC("license") = "GPL";
