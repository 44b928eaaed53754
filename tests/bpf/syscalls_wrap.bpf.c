/* SPDX-License-Identifier: MIT */
/*
 * The wrapper's own name in a kprobe section: kprobe/__x64_sys_kill
 * (__arm64_sys_kill on arm64), as programs written for 4.17+ spell it.
 * Where the kernel has that wrapper it takes a struct pt_regs *, and this
 * counts one process's kill(2) calls; on 4.15 the function found
 * (SyS_kill) takes the arguments themselves, and barebpf run refuses it
 * with the fix named (vm-tests/cases/run-syscalls.sh).
 */
#include "bb_helpers.h"

BB_MAP(calls, BPF_MAP_TYPE_ARRAY, 4, 8, 1);

#if defined(__TARGET_ARCH_arm64)
SEC("kprobe/__arm64_sys_kill")
#elif defined(__TARGET_ARCH_riscv)
SEC("kprobe/__riscv_sys_kill")
#else
SEC("kprobe/__x64_sys_kill")
#endif
int wrapper_spelling(struct pt_regs *ctx)
{
	u32 slot = 0;
	u64 *p;

	if (bpf_get_current_pid_tgid() >> 32 != BB_CONST(bb_tgid))
		return 0;
	p = bpf_map_lookup_elem(&calls, &slot);
	if (p)
		__sync_fetch_and_add(p, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
