/* SPDX-License-Identifier: MIT */
/*
 * Creating an object's maps for obj_load (load.c): each as defined, or a
 * pinned one reused; maps of maps from their inner template; global data
 * as array maps where the kernel has them (5.2). After the programs
 * loaded: the slots the object fills, and the pins.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "obj_internal.h"

#define BPF_FS_MAGIC 0xcafe4a11

/* What to do about a map the kernel did not create; buf holds the text
 * when it is made here. */
static const char *map_create_hint(int ret, const struct bb_map *m,
				   char *buf, size_t len)
{
	/* what the entries alone take, before the kernel's own per entry */
	double mib = ((double)m->def.key_size + m->def.value_size) *
		     m->def.max_entries / (1024.0 * 1024.0);

	switch (ret) {
	case -EPERM:
		return "; run as root (CAP_SYS_ADMIN), and raise "
		       "RLIMIT_MEMLOCK: kernels before 5.11 charge maps to it";
	case -ENOMEM:
		/* from 5.11 the memory cgroup pays, not RLIMIT_MEMLOCK */
		if (bb_memcg_charged())
			snprintf(buf, len, "; its entries alone take %.0f MiB, "
				 "more than the kernel could allocate (this "
				 "kernel charges BPF maps to the memory "
				 "cgroup, not to RLIMIT_MEMLOCK): use fewer "
				 "entries", mib);
		else
			snprintf(buf, len, "; its entries alone take %.0f MiB; "
				 "kernels before 5.11 charge maps to "
				 "RLIMIT_MEMLOCK: raise it (ulimit -l "
				 "unlimited), or use fewer entries", mib);
		return buf;
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

void obj_bpffs_release(struct bb_obj *obj, int pinned)
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

static int create_map(struct bb_obj *obj, struct bb_map *m, int inner_fd,
		      struct bb_err *err)
{
	struct bb_map_attr a;
	char hint[256];
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
	if (obj->lazy_hash && !m->prealloc &&
	    obj->kern_version >= LAZY_HASH_KVER &&
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
			       strerror(-fd),
			       map_create_hint(fd, m, hint, sizeof(hint)));
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

int obj_create_maps(struct bb_obj *obj, struct bb_err *err)
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
int obj_fill_inits(struct bb_obj *obj, struct bb_err *err)
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
int obj_pin_maps(struct bb_obj *obj, int *pinned, struct bb_err *err)
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
