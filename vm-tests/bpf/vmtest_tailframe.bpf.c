/* SPDX-License-Identifier: MIT */
/*
 * For the vm-tests case run-tailframe: a kprobe with an 8-byte stack
 * frame tail-calls (bpf_load's slot kprobe/0) a program that fills 480
 * bytes of its own stack. A 6.9+ kernel without a JIT runs the callee in
 * the caller's frame: without loader/obj/tailframe.c's padding those
 * writes land on the kernel's stack below it (breakdown's crash of armv7
 * 6.12 and riscv64 7.x, vm-tests/README.md, "Known problems").
 * counts[0]: how many times the callee ran (no atomic add: 32-bit ARM's
 * JIT takes none, and caller and callee must be both JIT or both not).
 */
#include "bb_helpers.h"

struct bpf_map_def {
	unsigned int type, key_size, value_size, max_entries, map_flags;
};

struct bpf_map_def SEC("maps") counts = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
	.max_entries = 1,
};
struct bpf_map_def SEC("maps") big = {
	.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 480,
	.max_entries = 1,
};
struct bpf_map_def SEC("maps") progs = {
	.type = 3 /* PROG_ARRAY */, .key_size = 4, .value_size = 4,
	.max_entries = 1,
};

SEC("kprobe/0")
int deep(struct pt_regs *ctx)
{
	char buf[480];
	u32 zero = 0;
	u64 *v;

	__builtin_memset(buf, 0x5a, sizeof(buf));
	bpf_map_update_elem(&big, &zero, buf, BPF_ANY);
	v = bpf_map_lookup_elem(&counts, &zero);
	if (v)
		*v += 1;
	return 0;
}

SEC("kprobe/vfs_read")
int shallow(struct pt_regs *ctx)
{
	bpf_tail_call(ctx, &progs, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
