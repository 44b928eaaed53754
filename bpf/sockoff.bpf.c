/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sockoff: the discovery of struct sock's fields on kernels without BTF
 * (loader/mods/sockoff.c). A kretprobe on inet_csk_accept copies the
 * first SOCKOFF_WINDOW bytes of the sock it returns to the discovering
 * process (constant pid) into snap[0]; the loader made that connection
 * with addresses and ports it knows and looks for them in the copy.
 * Built on the stack: 4.9's bpf_probe_read writes the stack only.
 */
#include "bb_helpers.h"
#include "sockoff.h"

BB_MAP(snap, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(struct sockoff_snap), 1);

SEC("kretprobe")
int kr_accept(struct pt_regs *ctx)
{
	u64 sk = (bb_kulong)PT_REGS_RC(ctx);
	u32 key = 0;
	struct sockoff_snap s = {}, *old;

	if ((u32)(bpf_get_current_pid_tgid() >> 32) != (u32)BB_CONST(pid) ||
	    !sk)
		return 0;
	old = bpf_map_lookup_elem(&snap, &key);
	if (!old)
		return 0;
	s.seq = old->seq + 1;
	bpf_probe_read(s.bytes, sizeof(s.bytes), (const void *)(long)sk);
	bpf_map_update_elem(&snap, &key, &s, BPF_ANY);
	return 0;
}

char _license[] SEC("license") = "GPL";
