/* SPDX-License-Identifier: MIT */
/*
 * BPF objects, the load: create the maps (mapload.c), resolve syscall
 * probes to this kernel's functions, relocate, load every program, fill
 * the program arrays and maps of maps the object describes, pin
 * (mapload.c).
 *
 * Pinning (mapload.c): a map the object pins (iproute2/gobpf PIN_GLOBAL_NS, libbpf
 * LIBBPF_PIN_BY_NAME) is looked for at its path under /sys/fs/bpf first;
 * one found is reused if its definition matches and refused, with both
 * definitions named, if not. New maps are pinned only once everything
 * loaded, so that a failure leaves nothing behind. If /sys/fs/bpf is not a
 * bpffs, it is mounted; that mount stays when something was pinned there
 * (unmounting would drop the pins) and is undone otherwise.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "obj_internal.h"
#include "arch.h"


void obj_note(struct bb_obj *obj, const char *fmt, ...)
{
	size_t old = obj->notes ? strlen(obj->notes) : 0;
	char line[512], *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = realloc(obj->notes, old + strlen(line) + 2);
	if (!n)
		return;
	obj->notes = n;
	sprintf(n + old, "%s\n", line);
}

void obj_set_lazy_hash(struct bb_obj *obj)
{
	obj->lazy_hash = 1;
}

void obj_set_str_fallback(struct bb_obj *obj)
{
	obj->str_fallback = 1;
}

void obj_set_const_mov(struct bb_obj *obj)
{
	obj->const_mov = 1;
}

/*
 * bpf_probe_read_str is 4.11. Before, an object that asked for it
 * (obj_set_str_fallback: the tools', written for it) gets bpf_probe_read
 * of the same fixed size instead: the string and what follows it up to
 * that size (the reader stops at the NUL), 0 instead of the length, and
 * nothing (zeroes, an error) where the string ends closer than that size
 * to unmapped memory.
 */
#define H_PROBE_READ 4
#define H_PROBE_READ_STR 45
static void str_rewrite(struct bpf_insn *in, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (in[k].code == BPF_CALL_CODE && in[k].src_reg == 0 &&
		    in[k].imm == H_PROBE_READ_STR)
			in[k].imm = H_PROBE_READ;
}

static void str_fallback(struct bb_obj *obj)
{
	int i, has = 0;
	size_t k;

	for (i = 0; i < obj->nprogs && !has; i++)
		for (k = 0; k < obj->progs[i].p.insn_cnt && !has; k++)
			has = obj->progs[i].p.insns[k].code == BPF_CALL_CODE &&
			      obj->progs[i].p.insns[k].src_reg == 0 &&
			      obj->progs[i].p.insns[k].imm == H_PROBE_READ_STR;
	if (!has || bpf_helper_available(BPF_PROG_TYPE_TRACEPOINT,
					 H_PROBE_READ_STR) != 0)
		return;
	obj->str_rewrite = 1; /* and the copies (obj_prog_load_copy) */
	for (i = 0; i < obj->nprogs; i++)
		str_rewrite(obj->progs[i].p.insns, obj->progs[i].p.insn_cnt);
}

int obj_set_noload(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i].p.name, name)) {
			obj->progs[i].noload = 1;
			return 0;
		}
	return -ENOENT;
}

/* "__x64_sys_, ..., SyS_ and sys_": the prefixes kcaps_syscall_func tries. */
static const char *sys_prefix_list(char *buf, size_t len)
{
	const char *pre[16];
	int i, n = bb_arch_sys_prefixes(pre, 16, 0, 1);
	size_t at = 0;

	buf[0] = 0;
	for (i = 0; i < n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%s",
			       !i ? "" : i == n - 1 ? " and " : ", ", pre[i]);
	return buf;
}

static int resolve_syscalls(struct bb_obj *obj, struct bb_err *err)
{
	char list[160];
	int i, unwrapped, ret;

	for (i = 0; i < obj->nprogs; i++) {
		struct bb_prog *p = &obj->progs[i].p;
		const char *written = p->target;

		if (p->syscall == BB_SYSCALL_NONE || p->target == p->resolved)
			continue;
		ret = kcaps_syscall_func(written, p->syscall, &obj->caps,
					 p->resolved, sizeof(p->resolved),
					 &unwrapped);
		if (ret == -ENOENT)
			return bb_fail(err, ret,
				       "%s: section %s: this kernel has no "
				       "function for system call '%s' (looked "
				       "for %s in /proc/kallsyms)", obj->name,
				       p->section, written,
				       sys_prefix_list(list, sizeof(list)));
		if (ret < 0)
			return bb_fail(err, ret,
				       "%s: section %s: cannot read "
				       "/proc/kallsyms to find the system "
				       "call's function: %s", obj->name,
				       p->section, strerror(-ret));
		if (p->syscall == BB_SYSCALL_WRAP && unwrapped &&
		    p->kind == BB_PROG_KPROBE)
			return bb_fail(err, -EOPNOTSUPP,
				       "%s: section %s: this kernel's syscall "
				       "functions (here %s) take the arguments "
				       "themselves, not a struct pt_regs * as "
				       "%s does on x86_64 4.17+ and arm64 "
				       "4.19+: name the section ksyscall/%s "
				       "and read arguments with "
				       "BB_SYSCALL_ARG (bb_helpers.h) or "
				       "libbpf's BPF_KSYSCALL", obj->name,
				       p->section, p->resolved, written,
				       strstr(written, "_sys_") + 5);
		if (strcmp(written, p->resolved))
			obj_note(obj, "%s: %s attached to %s%s", p->section,
				 p->name, p->resolved,
				 p->syscall == BB_SYSCALL_OLD && !unwrapped &&
				 p->kind == BB_PROG_KPROBE ?
				 ", which takes the syscall's struct pt_regs *:"
				 " PT_REGS_PARM1(ctx) is that pointer; read the "
				 "arguments with BB_SYSCALL_ARG(ctx, n)" : "");
		p->target = p->resolved;
	}
	return 0;
}

/* Constants the loader knows itself, unless the user set them. */
static void auto_consts(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj->nconsts; i++) {
		struct bb_const *c = &obj->consts[i];

		if (c->set)
			continue;
		if (!strcmp(c->name, "bb_syscall_wrapper") ||
		    !strcmp(c->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
			c->value = kcaps_syscall_wrapper(&obj->caps);
			c->set = 1;
		} else if (!strcmp(c->name, "LINUX_KERNEL_VERSION") &&
			   obj->caps.kver) {
			c->value = obj->caps.kver;
			c->set = 1;
		}
	}
}

/*
 * What an old verifier's refusal says this kernel lacks, or NULL. Such a
 * refusal is the kernel's, not the program's: one line says it, and the
 * log (of no use to the user) is dropped.
 */
static const char *kernel_lacks(const char *log)
{
	/* 4.9/4.10: a helper's memory argument is the stack only */
	if (strstr(log, "type=map_value") && strstr(log, "expected=fp\n"))
		return ": this kernel's helpers take no map value as memory, "
		       "only the stack (map values came in 4.11)";
	/* an object the tools' fallback does not cover (run's) */
	if (strstr(log, "invalid func 45\n"))
		return ": this kernel lacks bpf_probe_read_str (4.11)";
	return NULL;
}

static const char *prog_load_hint(struct bb_obj *obj,
				  const struct bb_prog *p, int ret)
{
	const char *log = obj->log ? obj->log : "", *lacks = kernel_lacks(log);

	if (lacks) {
		free(obj->log);
		obj->log = NULL;
		return lacks;
	}

	bpf_verifier_explain(ret, obj->log, obj->log_truncated,
			     obj->hint + 2, sizeof(obj->hint) - 2);
	if (obj->hint[2]) {
		obj->hint[0] = ':';
		obj->hint[1] = ' ';
		return obj->hint;
	}

	if (strstr(log, "GPL"))
		return obj->license[0] ?
		       "; it calls a GPL-only helper and the license is not "
		       "GPL-compatible: set `char _license[] SEC(\"license\") "
		       "= \"GPL\";`" :
		       "; it calls a GPL-only helper and the object has no "
		       "license section: add `char _license[] "
		       "SEC(\"license\") = \"GPL\";`";
	if (strstr(log, "unknown func") || strstr(log, "invalid func"))
		return "; it calls a helper this kernel lacks (see the "
		       "verifier log)";
	/* ENOTSUPP (524, the kernel's own): the program verified, but the
	 * JIT could not compile it and the kernel has no interpreter to fall
	 * back on (CONFIG_BPF_JIT_ALWAYS_ON). 32-bit ARM's JIT has no atomic
	 * add (BPF_XADD), which every counting tool uses; where the JIT may
	 * fall back, such a program runs interpreted. */
	if (ret == -524)
		return " (ENOTSUPP): the kernel's BPF JIT cannot compile it "
		       "(32-bit ARM's has no atomic add) and this kernel has "
		       "no interpreter to fall back on "
		       "(CONFIG_BPF_JIT_ALWAYS_ON)";
	if (log[0])
		return "; the verifier log says why";
	if (ret == -EPERM)
		return "; run as root (CAP_SYS_ADMIN), and raise "
		       "RLIMIT_MEMLOCK: kernels before 5.11 charge programs "
		       "to it";
	if (ret == -EINVAL && p->prog_type == BPF_PROG_TYPE_KPROBE)
		return "; before Linux 5.0, kprobe programs need kern_version "
		       "to equal the running kernel's LINUX_VERSION_CODE";
	if (ret == -E2BIG)
		return "; this kernel loads at most 4096 instructions";
	return "";
}

void obj_close_fds(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj->ncopies; i++) {
		if (obj->copies[i]->fd >= 0)
			close(obj->copies[i]->fd);
		obj->copies[i]->fd = -1;
	}
	for (i = 0; obj->progs && i < obj->nprogs; i++) {
		if (obj->progs[i].p.fd >= 0)
			close(obj->progs[i].p.fd);
		obj->progs[i].p.fd = -1;
	}
	for (i = 0; obj->maps && i < obj->nmaps; i++) {
		if (obj->maps[i].fd >= 0)
			close(obj->maps[i].fd);
		obj->maps[i].fd = -1;
	}
}

/*
 * What of the kernel this object's code and maps make us ask (KCAP_*):
 * a bpf-to-bpf call, a JMP32 instruction, more than 4096 instructions in
 * all, global data, a call of bpf_probe_read_{kernel,user}[_str]. The
 * tools' own programs need none of it, and each probe costs a load.
 */
static unsigned caps_needed(const struct bb_obj *obj)
{
	unsigned need = 0;
	uint64_t total = 0;
	uint32_t j;
	int i;

	for (i = 0; i < obj->nmaps; i++)
		if (obj->maps[i].origin == BB_MAP_DATA)
			need |= KCAP_DATA;
	for (i = 0; i < obj->ncode; i++) {
		const struct obj_code *c = &obj->code[i];

		total += c->cnt;
		for (j = 0; j < c->cnt; j++) {
			const struct bpf_insn *in = &c->insns[j];

			if (BPF_CLASS(in->code) == BPF_JMP32)
				need |= KCAP_JMP32;
			if (in->code != BPF_CALL_CODE)
				continue;
			if (in->src_reg == BPF_PSEUDO_CALL)
				need |= KCAP_CALLS;
			else if (in->imm >= H_PROBE_READ_USER &&
				 in->imm <= H_PROBE_READ_KERNEL_STR)
				need |= KCAP_PRK;
		}
	}
	if (total > BPF_MAXINSNS)
		need |= KCAP_BIG;
	return need;
}

int obj_load(struct bb_obj *obj, uint32_t kern_version, struct bb_err *err)
{
	int i, fd, ret, pinned = 0;

	if (obj->loaded)
		return bb_fail(err, -EBUSY, "%s: already loaded", obj->name);
	free(obj->log);
	obj->log = NULL;
	if (!obj->caps.probed)
		kcaps_probe_some(&obj->caps, kern_version, caps_needed(obj));
	auto_consts(obj);
	/* Before creating anything: a missing constant is the likely error. */
	for (i = 0; i < obj->nconsts; i++)
		if (!obj->consts[i].set)
			return obj_relocate(obj, err);
	ret = resolve_syscalls(obj, err);
	if (ret < 0)
		return ret;
	obj->kern_version = kern_version;
	ret = obj_create_maps(obj, err);
	if (ret < 0)
		goto err_close_fds;
	ret = obj_relocate(obj, err);
	if (ret < 0)
		goto err_close_fds;
	if (obj->str_fallback)
		str_fallback(obj);
	for (i = 0; i < obj->nprogs; i++) {
		struct bb_prog *p = &obj->progs[i].p;

		if (obj->progs[i].noload)
			continue;
		fd = bpf_prog_load(p->prog_type, p->insns, p->insn_cnt,
				   obj->license, kern_version, p->name,
				   &obj->log, &obj->log_truncated);
		if (fd < 0) {
			ret = bb_fail(err, fd,
				      "%s: the kernel refused program %s "
				      "(section %s, %zu instructions): %s%s",
				      obj->name, p->name, p->section,
				      p->insn_cnt, strerror(-fd),
				      prog_load_hint(obj, p, fd));
			goto err_close_fds;
		}
		ret = tailframe_check(obj, p, &fd, err);
		p->fd = fd;
		if (ret < 0)
			goto err_close_fds;
		if (ret)
			obj_note(obj, "program %s: its stack frame padded to "
				 "512 bytes: it tail-calls, and without a JIT "
				 "this kernel (6.9+) runs the programs it calls "
				 "in its frame", p->name);
	}
	ret = obj_fill_inits(obj, err);
	if (ret < 0)
		goto err_close_fds;
	ret = obj_pin_maps(obj, &pinned, err);
	if (ret < 0)
		goto err_close_fds;
	obj_bpffs_release(obj, pinned);
	obj->loaded = 1;
	obj->kern_version = kern_version;
	return 0;

err_close_fds:
	obj_close_fds(obj);
	obj_bpffs_release(obj, 0);
	return ret;
}

int obj_prog_load_copy(struct bb_obj *obj, const char *name,
		       enum bb_prog_kind kind, struct bb_prog **copyp,
		       struct bb_err *err)
{
	struct obj_prog_rec *src = NULL, tmp;
	struct bb_prog *c, **cc;
	int i, fd, ret;

	*copyp = NULL;
	if (!obj->loaded)
		return bb_fail(err, -EINVAL, "%s: load the object before "
			       "copying program %s", obj->name, name);
	for (i = 0; i < obj->nprogs && !src; i++)
		if (!strcmp(obj->progs[i].p.name, name))
			src = &obj->progs[i];
	if (!src)
		return bb_fail(err, -ENOENT, "%s: no program %s", obj->name,
			       name);
	cc = realloc(obj->copies, (obj->ncopies + 1) * sizeof(*cc));
	if (!cc)
		return bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
	obj->copies = cc;
	c = malloc(sizeof(*c));
	if (!c)
		return bb_fail(err, -ENOMEM, "%s: out of memory", obj->name);
	/* linked again from its functions: the maps as created, the
	 * constants as they are now */
	tmp = *src;
	tmp.p.insns = NULL;
	ret = obj_link(obj, &tmp, err);
	if (ret < 0) {
		free(c);
		return ret;
	}
	*c = tmp.p;
	c->kind = kind;
	c->prog_type = kind == BB_PROG_TRACEPOINT ? BPF_PROG_TYPE_TRACEPOINT :
		       kind == BB_PROG_RAW_TRACEPOINT ?
		       BPF_PROG_TYPE_RAW_TRACEPOINT : BPF_PROG_TYPE_KPROBE;
	if (obj->str_rewrite)
		str_rewrite(c->insns, c->insn_cnt);
	free(obj->log);
	obj->log = NULL;
	fd = bpf_prog_load(c->prog_type, c->insns, c->insn_cnt, obj->license,
			   obj->kern_version, c->name, &obj->log,
			   &obj->log_truncated);
	free(c->insns);
	c->insns = NULL;
	if (fd < 0) {
		ret = bb_fail(err, fd, "%s: the kernel refused a copy of "
			      "program %s (%zu instructions): %s%s",
			      obj->name, name, src->p.insn_cnt, strerror(-fd),
			      prog_load_hint(obj, &src->p, fd));
		free(c);
		return ret;
	}
	c->fd = fd;
	obj->copies[obj->ncopies++] = c;
	*copyp = c;
	return 0;
}
