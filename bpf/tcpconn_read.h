/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of tcpconnect and tcpaccept: a struct sock read into a
 * record, at the offsets the loader found (BTF or the discovery:
 * load-time constants off_daddr, off_saddr, off_dport, off_num,
 * off_family, off_v6d, off_v6s), and the filters (filter_pid,
 * filter_uid: 0xffffffff for any; filter_ports: the ports map).
 */
#ifndef BAREBPF_TCPCONN_READ_H
#define BAREBPF_TCPCONN_READ_H

#include "bb_helpers.h"
#include "tcpconn.h"

BB_MAP(ports, BPF_MAP_TYPE_HASH, sizeof(u16), sizeof(u8), TCPCONN_MAXPORTS);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       TCPCONN_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/* the process filters: 1 to trace */
static __always_inline int wanted(u64 id)
{
	u32 fpid = BB_CONST(filter_pid), fuid = BB_CONST(filter_uid);

	if (fpid && (u32)(id >> 32) != fpid)
		return 0;
	if (fuid != 0xffffffff && (u32)bpf_get_current_uid_gid() != fuid)
		return 0;
	return 1;
}

/* Send sk's connection (ip: 4 or 6; 0: from its skc_family) unless a
 * filter drops it; port: which port -P names, 0 local, 1 remote. */
static __always_inline void emit(void *ctx, u64 sk, int ip, int port)
{
	u64 id = bpf_get_current_pid_tgid();
	struct tcpconn_event e = {};
	u16 dport = 0, family = 0, p;

	bpf_probe_read(&e.lport, 2, (void *)(long)(sk + BB_CONST(off_num)));
	bpf_probe_read(&dport, 2, (void *)(long)(sk + BB_CONST(off_dport)));
	e.dport = __builtin_bswap16(dport);
	if (!ip) {
		bpf_probe_read(&family, 2,
			       (void *)(long)(sk + BB_CONST(off_family)));
		if (family == 2)
			ip = 4;
		else if (family == 10 && BB_CONST(have_v6))
			ip = 6;
		else
			return;
	}
	if (BB_CONST(filter_ip) && ip != (int)BB_CONST(filter_ip))
		return;
	p = port ? e.dport : e.lport;
	if (BB_CONST(filter_ports) && !bpf_map_lookup_elem(&ports, &p))
		return;
	if (ip == 4) {
		bpf_probe_read(e.saddr, 4,
			       (void *)(long)(sk + BB_CONST(off_saddr)));
		bpf_probe_read(e.daddr, 4,
			       (void *)(long)(sk + BB_CONST(off_daddr)));
	} else {
		bpf_probe_read(e.saddr, 16,
			       (void *)(long)(sk + BB_CONST(off_v6s)));
		bpf_probe_read(e.daddr, 16,
			       (void *)(long)(sk + BB_CONST(off_v6d)));
	}
	e.ip = ip;
	e.ts = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.tid = id;
	e.uid = bpf_get_current_uid_gid();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	count(TCPCONN_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
}

#endif
