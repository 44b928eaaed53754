/* SPDX-License-Identifier: MIT */
/* oomkill: what crosses between bpf/oomkill.bpf.c and the tool. */
#ifndef BAREBPF_OOMKILL_H
#define BAREBPF_OOMKILL_H

/* One OOM kill: the task that ran the OOM killer (its process and name)
 * and the victim; the victim's name where the kernel's mark_victim has
 * it (6.1 does, 5.10 not) or signal_generate gave it (has_comm), its sizes (kB) where
 * mark_victim has them (has_rss). */
struct oomkill_event {
	unsigned int tpid, vpid;
	char tcomm[16];
	char vcomm[16];
	unsigned long long total_vm_kb, anon_rss_kb, file_rss_kb, shmem_rss_kb;
	unsigned int has_comm, has_rss;
};

/* lastkill: the target of the last SIGKILL sent on this CPU */
struct oomkill_sigkill {
	int pid;
	char comm[16];
};

/* stats: a per-CPU array */
#define OOMKILL_EMITTED 0
#define OOMKILL_NSTATS 1

#endif
