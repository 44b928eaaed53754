/* SPDX-License-Identifier: MIT */
/*
 * What the running kernel takes, asked of the kernel itself: each feature
 * is a tiny program or map it loads or refuses (as libbpf probes), since
 * distribution kernels carry features past their version number. And
 * what this kernel calls a system call's function (kallsyms).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "obj_internal.h"
#include "kernel.h"
#include "arch.h"

#define INSN BB_INSN
#define MOV0 INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static int try_load(uint32_t type, const struct bpf_insn *insns, uint32_t n)
{
	int fd = bpf_prog_load(type, insns, n, "GPL", 0, "bb_probe", NULL,
			       NULL);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int probe_calls(void)
{
	const struct bpf_insn p[] = {
		INSN(BPF_CALL_CODE, 0, BPF_PSEUDO_CALL, 0, 1), EXIT,
		MOV0, EXIT,
	};

	return try_load(BPF_PROG_TYPE_SOCKET_FILTER, p, 4);
}

static int probe_jmp32(void)
{
	const struct bpf_insn p[] = {
		MOV0, INSN(BPF_JMP32 | 0x10 | BPF_K, 0, 0, 0, 0), EXIT,
	};

	return try_load(BPF_PROG_TYPE_SOCKET_FILTER, p, 3);
}

static int probe_big(void)
{
	uint32_t n = BPF_MAXINSNS + 1, i;
	struct bpf_insn *p = calloc(n, sizeof(*p));
	const struct bpf_insn mov = MOV0, ex = EXIT;
	int ok;

	if (!p)
		return 0;
	for (i = 0; i + 1 < n; i++)
		p[i] = mov;
	p[n - 1] = ex;
	ok = try_load(BPF_PROG_TYPE_SOCKET_FILTER, p, n);
	free(p);
	return ok;
}

static int probe_global_data(void)
{
	struct bpf_insn p[] = {
		INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_VALUE, 0, 0),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0),
		MOV0, EXIT,
	};
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "bb_probe");
	int ok;

	if (fd < 0)
		return 0;
	p[0].imm = fd;
	ok = try_load(BPF_PROG_TYPE_SOCKET_FILTER, p, 5);
	close(fd);
	return ok;
}

static int probe_freeze(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "bb_probe");
	int ok;

	if (fd < 0)
		return 0;
	ok = bpf_map_freeze(fd) == 0;
	close(fd);
	return ok;
}

static int probe_rdonly_prog(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_RDONLY_PROG,
				"bb_probe");

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int probe_read_kernel(void)
{
	const struct bpf_insn p[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0),
		INSN(BPF_CALL_CODE, 0, 0, 0, 113),
		MOV0, EXIT,
	};

	return try_load(BPF_PROG_TYPE_TRACEPOINT, p, 7);
}

/*
 * Each name found in /proc/kallsyms (or NULL: not looked for) sets its
 * flag; one pass over the file, which holds every function name even when
 * kptr_restrict hides the addresses.
 */
static int kallsyms_have(const char *const *names, int n, int *found)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	int i;

	for (i = 0; i < n; i++)
		found[i] = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sym = strchr(line, ' '), *end;

		if (!sym || !(sym = strchr(sym + 1, ' ')))
			continue;
		sym++;
		end = sym + strcspn(sym, " \t\n");
		*end = 0;
		for (i = 0; i < n; i++)
			if (names[i] && !found[i] && !strcmp(sym, names[i]))
				found[i] = 1;
	}
	fclose(f);
	return 0;
}

/*
 * A pass over /proc/kallsyms costs 20-200 ms on a busy host (it holds
 * 100k-300k lines): done only for the objects whose programs need it.
 */
int kcaps_syscall_wrapper(struct bb_kcaps *c)
{
	const char *pre[16], *names[16] = { 0 };
	char cand[16][48];
	int found[16], i, n;

	if (c->wrapper_unknown) {
		n = bb_arch_sys_prefixes(pre, 16, 0, 0);
		for (i = 0; i < n; i++) {
			snprintf(cand[i], sizeof(cand[i]), "%sgetpid", pre[i]);
			names[i] = cand[i];
		}
		if (kallsyms_have(names, n, found) == 0)
			for (i = 0; i < n; i++)
				c->syscall_wrapper |= found[i];
	}
	c->wrapper_unknown = 0;
	return c->syscall_wrapper;
}

void kcaps_probe_some(struct bb_kcaps *c, uint32_t kver, unsigned need)
{
	char src[64];

	memset(c, 0, sizeof(*c));
	c->probed = 1;
	c->kver = kver;
	if (!kver && kver_detect(NULL, &c->kver, src, sizeof(src), NULL) < 0)
		c->kver = 0;
	c->skipped = KCAP_ALL & ~need;
	if (need & KCAP_CALLS)
		c->bpf_calls = probe_calls();
	if (need & KCAP_JMP32)
		c->jmp32 = probe_jmp32();
	if (need & KCAP_BIG)
		c->big_progs = probe_big();
	if (need & KCAP_DATA) {
		c->global_data = probe_global_data();
		c->map_freeze = probe_freeze();
		c->rdonly_prog = probe_rdonly_prog();
	}
	if (need & KCAP_PRK)
		c->probe_read_kernel = probe_read_kernel();
	c->wrapper_unknown = 1;
}

void kcaps_probe(struct bb_kcaps *c, uint32_t kver)
{
	kcaps_probe_some(c, kver, KCAP_ALL);
}

static const char *yes_no(const struct bb_kcaps *c, unsigned cap, int v)
{
	return c->skipped & cap ? "not probed (not needed)" : v ? "yes" : "no";
}

void kcaps_describe(const struct bb_kcaps *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "bpf-to-bpf calls %s, JMP32 %s, >4096 instructions %s, "
		 "global data %s, map freeze %s, probe_read_kernel %s, "
		 "syscall wrappers take pt_regs %s",
		 yes_no(c, KCAP_CALLS, c->bpf_calls),
		 yes_no(c, KCAP_JMP32, c->jmp32),
		 yes_no(c, KCAP_BIG, c->big_progs),
		 yes_no(c, KCAP_DATA, c->global_data),
		 yes_no(c, KCAP_DATA, c->map_freeze),
		 yes_no(c, KCAP_PRK, c->probe_read_kernel),
		 c->wrapper_unknown ? "not looked up"
				    : c->syscall_wrapper ? "yes" : "no");
}

/*
 * A syscall probe's function on this kernel. sys is the target as
 * written; kind how (BB_SYSCALL_*). Candidates, in order: the wrapper
 * that takes pt_regs (x86_64 4.17+, arm64 4.19+, riscv64 5.19+), then
 * the SyS_ wrapper
 * of 4.x kernels, then the plain sys_. *unwrapped is set when the
 * function found takes the arguments themselves.
 */
int kcaps_syscall_func(const char *sys, int kind, const struct bb_kcaps *c,
		       char *out, size_t len, int *unwrapped)
{
	const char *base = sys, *pre[16], *names[16] = { 0 };
	char cand[16][160];
	int found[16], i, n, nwrap, ret;

	(void)c;
	if (kind == BB_SYSCALL_OLD)
		base = sys + 4;
	else if (kind == BB_SYSCALL_WRAP)
		base = strstr(sys, "_sys_") + 5;
	nwrap = bb_arch_sys_prefixes(pre, 16, 0, 0);
	n = bb_arch_sys_prefixes(pre, 16, 0, 1);
	for (i = 0; i < n; i++) {
		snprintf(cand[i], sizeof(cand[i]), "%s%s", pre[i], base);
		names[i] = cand[i];
	}
	ret = kallsyms_have(names, n, found);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		if (!found[i])
			continue;
		snprintf(out, len, "%s", cand[i]);
		*unwrapped = i >= nwrap;
		return 0;
	}
	return -ENOENT;
}
