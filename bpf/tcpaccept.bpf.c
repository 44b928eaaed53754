/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpaccept: one record per sock inet_csk_accept returns (an accept() of
 * a TCP connection), as bcc's tcpaccept: a kretprobe, in the acceptor's
 * context (its pid; sock:inet_sock_set_state may run elsewhere). The
 * family is the sock's (an IPv4 connection accepted on an IPv6 socket is
 * IPv6, ::ffff:a.b.c.d).
 */
#include "tcpconn_read.h"

SEC("kretprobe")
int kr_accept(struct pt_regs *ctx)
{
	u64 sk = (bb_kulong)PT_REGS_RC(ctx);

	if (!sk || !wanted(bpf_get_current_pid_tgid()))
		return 0;
	emit(ctx, sk, 0, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
