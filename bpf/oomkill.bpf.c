/* SPDX-License-Identifier: MIT */
/*
 * oomkill: one record per OOM kill, from the oom:mark_victim tracepoint
 * (4.13 on), which the OOM killer fires as it marks its victim, global or
 * of a memory cgroup, in the context of the task that ran it: that task
 * is bcc's "Triggered by" (bcc's kprobe on oom_kill_process runs there
 * too). The tracepoint gives the victim's pid, and where it has them
 * (6.1 does, 5.10 does not) its name and sizes (kB): read where the
 * format file has them, no struct offset of the kernel's is needed.
 *
 * Constants: tpoff_pid; has_comm and tpoff_comm (__data_loc); has_rss and
 * tpoff_total_vm, tpoff_anon_rss, tpoff_file_rss, tpoff_shmem_rss;
 * tpoff_sig_sig, tpoff_sig_pid, tpoff_sig_comm (signal_generate).
 */
#include "bb_helpers.h"
#include "oomkill.h"

BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       OOMKILL_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(lastkill, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32),
       sizeof(struct oomkill_sigkill), 1);

/*
 * The OOM killer sends its victim SIGKILL just before it marks it (4.13
 * to 7.x: do_send_sig_info, then mark_oom_victim), on the same CPU: the
 * name signal_generate gives the target of the last SIGKILL sent here is
 * the victim's when its pid is the one marked, on kernels whose
 * mark_victim has no comm (5.10, 4.x).
 */
SEC("tracepoint/signal/signal_generate")
int sigkill(void *ctx)
{
	u32 zero = 0;
	struct oomkill_sigkill *k = bpf_map_lookup_elem(&lastkill, &zero);
	struct oomkill_sigkill s = {};
	int sig = 0;

	BB_TP_READ(sig, ctx, tpoff_sig_sig);
	if (!k || sig != 9)
		return 0;
	BB_TP_READ(s.pid, ctx, tpoff_sig_pid);
	BB_TP_READ(s.comm, ctx, tpoff_sig_comm);
	*k = s;
	return 0;
}

SEC("tracepoint/oom/mark_victim")
int mark_victim(void *ctx)
{
	struct oomkill_event e = {};
	u32 key = OOMKILL_EMITTED, loc = 0, len, i;
	u64 *n;
	int pid = 0;

	e.tpid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e.tcomm, sizeof(e.tcomm));
	BB_TP_READ(pid, ctx, tpoff_pid);
	e.vpid = pid;
	if (BB_CONST(has_comm)) {
		BB_TP_READ(loc, ctx, tpoff_comm);
		bpf_probe_read(e.vcomm, sizeof(e.vcomm),
			       (char *)ctx + (loc & 0xffff));
		len = loc >> 16;
#pragma unroll
		for (i = 0; i < sizeof(e.vcomm); i++)
			if (i + 1 >= len)
				e.vcomm[i] = 0;
		e.has_comm = 1;
	} else {
		u32 zero = 0;
		struct oomkill_sigkill *k = bpf_map_lookup_elem(&lastkill,
								 &zero);

		if (k && k->pid == pid) {
			__builtin_memcpy(e.vcomm, k->comm, sizeof(e.vcomm));
			e.has_comm = 1;
		}
	}
	if (BB_CONST(has_rss)) {
		e.total_vm_kb = BB_TP_READ_ULONG(ctx, tpoff_total_vm);
		e.anon_rss_kb = BB_TP_READ_ULONG(ctx, tpoff_anon_rss);
		e.file_rss_kb = BB_TP_READ_ULONG(ctx, tpoff_file_rss);
		e.shmem_rss_kb = BB_TP_READ_ULONG(ctx, tpoff_shmem_rss);
		e.has_rss = 1;
	}
	n = bpf_map_lookup_elem(&stats, &key);
	if (n)
		*n += 1; /* per-CPU: no other writer */
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

char _license[] SEC("license") = "GPL";
