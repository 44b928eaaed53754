/* SPDX-License-Identifier: MIT */
/*
 * BPF objects, the load: create the maps (or reuse pinned ones), give
 * global data its maps where the kernel has them, resolve syscall probes
 * to this kernel's functions, relocate, load every program, fill the
 * program arrays and maps of maps the object describes, pin.
 *
 * Pinning: a map the object pins (iproute2/gobpf PIN_GLOBAL_NS, libbpf
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
#include "obj.h"

#define BPFFS "/sys/fs/bpf"
#define BPF_FS_MAGIC 0xcafe4a11

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

static const char *map_create_hint(int ret)
{
	switch (ret) {
	case -EPERM:
		return "; run as root (CAP_SYS_ADMIN), and raise "
		       "RLIMIT_MEMLOCK: kernels before 5.11 charge maps to it";
	case -ENOMEM:
		return "; kernels before 5.11 charge maps to RLIMIT_MEMLOCK: "
		       "raise it, or use fewer entries";
	case -EINVAL:
		return "; this kernel refuses the definition: a map type it "
		       "lacks, or sizes that type does not allow";
	default:
		return "";
	}
}

static int ensure_bpffs(struct bb_obj *obj, struct bb_err *err)
{
	struct statfs st;
	int ret;

	if (statfs(BPFFS, &st) == 0 && (uint32_t)st.f_type == BPF_FS_MAGIC)
		return 0;
	ret = sys_mount("bpf", BPFFS, "bpf", 0, "mode=0700");
	if (ret < 0)
		return bb_fail(err, ret,
			       "%s: maps are pinned, and " BPFFS " is not a "
			       "bpf filesystem and cannot be mounted (%s): "
			       "mount -t bpf bpf " BPFFS, obj->name,
			       strerror(-ret));
	obj->bpffs_mounted = 1;
	return 0;
}

static void bpffs_release(struct bb_obj *obj, int pinned)
{
	if (obj->bpffs_mounted && !pinned)
		sys_umount2(BPFFS, 0);
	obj->bpffs_mounted = 0;
}

static int mkdirs(const char *path)
{
	char buf[256];
	char *p;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	p = strrchr(buf, '/');
	if (!p)
		return 0;
	*p = 0;
	for (p = buf + strlen(BPFFS) + 1; p && *p; p = strchr(p + 1, '/')) {
		char c = *p;

		if (c != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = c;
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* A map pinned at m->pin already: reused if it is the same map. */
static int reuse_pinned(struct bb_obj *obj, struct bb_map *m,
			struct bb_err *err)
{
	struct bb_map_info info;
	int fd = bpf_obj_get(m->pin), ret;

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return bb_fail(err, fd, "%s: map %s: cannot open %s: %s",
			       obj->name, m->name, m->pin, strerror(-fd));
	ret = bpf_map_get_info(fd, &info);
	if (ret < 0) {
		close(fd);
		return bb_fail(err, ret, "%s: map %s: %s is not a map (%s)",
			       obj->name, m->name, m->pin, strerror(-ret));
	}
	if (info.type != m->def.type || info.key_size != m->def.key_size ||
	    info.value_size != m->def.value_size ||
	    info.max_entries != m->def.max_entries ||
	    info.map_flags != m->def.map_flags) {
		close(fd);
		return bb_fail(err, -EEXIST,
			       "%s: map %s is pinned at %s with another "
			       "definition (type %u, key %u, value %u, %u "
			       "entries, flags 0x%x) than the object's (type "
			       "%u, key %u, value %u, %u entries, flags 0x%x): "
			       "remove the pin (rm %s) if nothing uses it, or "
			       "rename the map", obj->name, m->name, m->pin,
			       info.type, info.key_size, info.value_size,
			       info.max_entries, info.map_flags, m->def.type,
			       m->def.key_size, m->def.value_size,
			       m->def.max_entries, m->def.map_flags, m->pin);
	}
	m->fd = fd;
	m->pin_reused = 1;
	return 1;
}

/* 6.1: hash elements from bpf_mem_alloc, and no tracing-program check */
#define LAZY_HASH_KVER 0x060100

void obj_set_lazy_hash(struct bb_obj *obj)
{
	obj->lazy_hash = 1;
}

void obj_set_str_fallback(struct bb_obj *obj)
{
	obj->str_fallback = 1;
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
	for (i = 0; i < obj->nprogs; i++)
		for (k = 0; k < obj->progs[i].p.insn_cnt; k++) {
			struct bpf_insn *in = &obj->progs[i].p.insns[k];

			if (in->code == BPF_CALL_CODE && in->src_reg == 0 &&
			    in->imm == H_PROBE_READ_STR)
				in->imm = H_PROBE_READ;
		}
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

static int create_map(struct bb_obj *obj, struct bb_map *m, int inner_fd,
		      struct bb_err *err)
{
	struct bb_map_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = m->def.type;
	a.key_size = m->def.key_size;
	a.value_size = m->def.value_size;
	a.max_entries = m->def.max_entries;
	a.map_flags = m->def.map_flags;
	/* Not on a 32-bit kernel (we are 32-bit there): bpf_mem_alloc's
	 * elements start a 4-byte llist_node past its 8-byte alignment, so
	 * a u64 value is 4 bytes off, and the arm32 interpreter's 64-bit
	 * atomic add (ldrexd; its JIT has none) takes an alignment fault on
	 * it: a kernel oops (seen on 6.1 armmp). Preallocated elements are
	 * aligned. */
	if (obj->lazy_hash && obj->kern_version >= LAZY_HASH_KVER &&
	    sizeof(void *) == 8 &&
	    (a.type == BPF_MAP_TYPE_HASH || a.type == BPF_MAP_TYPE_PERCPU_HASH))
		a.map_flags |= BPF_F_NO_PREALLOC;
	a.inner_fd = inner_fd;
	a.numa_node = m->numa_node;
	if (m->numa_node)
		a.map_flags |= BPF_F_NUMA_NODE;
	fd = bpf_map_create_attr(&a, m->name);
	/* LRU hashes are 4.10: before, a plain hash of the same size, which
	 * refuses new keys when full instead of evicting old ones (the tools
	 * use LRU for entries that may never be deleted: a thread's disk) */
	if (fd == -EINVAL && (a.type == BPF_MAP_TYPE_LRU_HASH ||
			      a.type == BPF_MAP_TYPE_LRU_PERCPU_HASH)) {
		a.type = a.type == BPF_MAP_TYPE_LRU_HASH ?
			 BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_PERCPU_HASH;
		a.map_flags &= ~BPF_F_NO_COMMON_LRU;
		fd = bpf_map_create_attr(&a, m->name);
		if (fd < 0)
			fd = -EINVAL; /* the LRU's answer */
	}
	if (fd < 0)
		return bb_fail(err, fd,
			       "%s: cannot create map %s (type %u, key %u, "
			       "value %u, %u entries, flags 0x%x): %s%s",
			       obj->name, m->name, m->def.type,
			       m->def.key_size, m->def.value_size,
			       m->def.max_entries, m->def.map_flags,
			       strerror(-fd), map_create_hint(fd));
	m->fd = fd;
	return 0;
}

/* An inner map for a map of maps: the template the kernel checks. */
static int inner_template(struct bb_obj *obj, const struct bb_map *m,
			  struct bb_err *err)
{
	struct bb_map t;
	int ret;

	if (m->inner >= 0)
		return obj->maps[m->inner].fd;
	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), "%.50s.inner", m->name);
	t.def = m->inner_def;
	t.inner = -1;
	ret = create_map(obj, &t, -1, err);
	return ret < 0 ? ret : t.fd;
}

static int is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static int create_data_map(struct bb_obj *obj, struct obj_data *d,
			   struct bb_err *err)
{
	struct bb_map *m = &obj->maps[d->map];
	uint32_t key = 0;
	int ret;

	if (d->readonly && obj->caps.rdonly_prog)
		m->def.map_flags |= BPF_F_RDONLY_PROG;
	ret = create_map(obj, m, -1, err);
	if (ret < 0)
		return ret;
	ret = bpf_map_update_elem(m->fd, &key, d->image, BPF_ANY);
	if (ret < 0)
		return bb_fail(err, ret, "%s: cannot set the contents of %s: %s",
			       obj->name, d->name, strerror(-ret));
	/* frozen, the verifier takes .rodata's values as constants */
	if (d->readonly && obj->caps.map_freeze &&
	    (ret = bpf_map_freeze(m->fd)) < 0)
		return bb_fail(err, ret, "%s: cannot freeze %s: %s", obj->name,
			       d->name, strerror(-ret));
	return 0;
}

static int create_maps(struct bb_obj *obj, struct bb_err *err)
{
	int i, pass, ret;

	for (i = 0; i < obj->nmaps; i++)
		if (obj->maps[i].pin[0]) {
			ret = ensure_bpffs(obj, err);
			if (ret < 0)
				return ret;
			break;
		}
	/* inner maps before the maps of maps that name them */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < obj->nmaps; i++) {
			struct bb_map *m = &obj->maps[i];
			int inner = -1;

			if (m->fd >= 0 || is_map_in_map(m->def.type) != pass)
				continue;
			if (m->origin == BB_MAP_DATA) {
				int d;

				if (!obj->caps.global_data)
					continue;
				for (d = 0; d < obj->ndata; d++)
					if (obj->data[d].map == i)
						break;
				ret = create_data_map(obj, &obj->data[d], err);
				if (ret < 0)
					return ret;
				continue;
			}
			if (m->pin[0]) {
				ret = reuse_pinned(obj, m, err);
				if (ret < 0)
					return ret;
				if (ret > 0)
					continue;
			}
			if (pass) {
				inner = inner_template(obj, m, err);
				if (inner < 0)
					return inner;
			}
			ret = create_map(obj, m, inner, err);
			if (pass && m->inner < 0)
				close(inner);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/* Syscall probes: the function of this kernel, and what it passes. */
static int resolve_syscalls(struct bb_obj *obj, struct bb_err *err)
{
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
				       "for __x64_sys_, __arm64_sys_, "
				       "__riscv_sys_, SyS_ and "
				       "sys_ in /proc/kallsyms)", obj->name,
				       p->section, written);
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

static int fill_inits(struct bb_obj *obj, struct bb_err *err)
{
	int i, ret;

	for (i = 0; i < obj->ninits; i++) {
		const struct obj_init *in = &obj->inits[i];
		const struct bb_map *m = &obj->maps[in->map];
		int fd = in->is_prog ? obj->progs[in->idx].p.fd :
				       obj->maps[in->idx].fd;

		ret = bpf_map_update_elem(m->fd, &in->slot, &fd, BPF_ANY);
		if (ret < 0)
			return bb_fail(err, ret,
				       "%s: cannot put %s %s in slot %u of map "
				       "%s: %s", obj->name,
				       in->is_prog ? "program" : "map",
				       in->is_prog ? obj->progs[in->idx].p.name :
						     obj->maps[in->idx].name,
				       in->slot, m->name, strerror(-ret));
	}
	return 0;
}

/* Pin the maps that were created (not reused); undone on failure. */
static int pin_maps(struct bb_obj *obj, int *pinned, struct bb_err *err)
{
	int i, ret;

	*pinned = 0;
	for (i = 0; i < obj->nmaps; i++) {
		struct bb_map *m = &obj->maps[i];

		if (!m->pin[0] || m->pin_reused || m->fd < 0)
			continue;
		ret = mkdirs(m->pin);
		if (ret == 0)
			ret = bpf_obj_pin(m->fd, m->pin);
		if (ret < 0) {
			bb_fail(err, ret, "%s: cannot pin map %s at %s: %s",
				obj->name, m->name, m->pin, strerror(-ret));
			goto err_unpin;
		}
		(*pinned)++;
	}
	return 0;

err_unpin:
	while (i-- > 0)
		if (obj->maps[i].pin[0] && !obj->maps[i].pin_reused)
			unlink(obj->maps[i].pin);
	*pinned = 0;
	return ret;
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
	ret = create_maps(obj, err);
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
		p->fd = fd;
	}
	ret = fill_inits(obj, err);
	if (ret < 0)
		goto err_close_fds;
	ret = pin_maps(obj, &pinned, err);
	if (ret < 0)
		goto err_close_fds;
	bpffs_release(obj, pinned);
	obj->loaded = 1;
	obj->kern_version = kern_version;
	return 0;

err_close_fds:
	obj_close_fds(obj);
	bpffs_release(obj, 0);
	return ret;
}

int obj_prog_load_copy(struct bb_obj *obj, const char *name,
		       enum bb_prog_kind kind, struct bb_prog **copyp,
		       struct bb_err *err)
{
	struct obj_prog *src = NULL, tmp;
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
	c->prog_type = kind == BB_PROG_TRACEPOINT ? BPF_PROG_TYPE_TRACEPOINT
						  : BPF_PROG_TYPE_KPROBE;
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
