/* SPDX-License-Identifier: MIT */
/*
 * System calls the loader makes, through our own entry (asm/) and numbers,
 * and the thin bpf() wrappers on top. All return a result or -errno.
 */
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "barebpf.h"
#include "syscall.h"

long sys_bpf(int cmd, void *attr, unsigned int size)
{
	return bb_syscall6(BB_NR_bpf, cmd, attr, size, 0, 0, 0);
}

int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags)
{
	return bb_syscall6(BB_NR_perf_event_open, attr, pid, cpu, group_fd,
			   flags, 0);
}

int sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return bb_syscall6(BB_NR_ioctl, fd, req, arg, 0, 0, 0);
}

long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
#ifdef BB_MMAP_PGOFF
	/* mmap2: the offset in pages of 1 << BB_MMAP_PGOFF bytes */
	off >>= BB_MMAP_PGOFF;
#endif
	return bb_syscall6(BB_NR_mmap, addr, len, prot, flags, fd, off);
}

int sys_munmap(void *addr, size_t len)
{
	return bb_syscall6(BB_NR_munmap, addr, len, 0, 0, 0, 0);
}

int sys_prlimit64(int pid, int resource, const void *new_lim, void *old_lim)
{
	return bb_syscall6(BB_NR_prlimit64, pid, resource, new_lim, old_lim,
			   0, 0);
}

int sys_mount(const char *src, const char *target, const char *fstype,
	      unsigned long flags, const void *data)
{
	return bb_syscall6(BB_NR_mount, src, target, fstype, flags, data, 0);
}

int sys_umount2(const char *target, int flags)
{
	return bb_syscall6(BB_NR_umount2, target, flags, 0, 0, 0, 0);
}

/* membarrier(MEMBARRIER_CMD_GLOBAL): returns once every CPU has passed a
 * quiescent state (synchronize_rcu; synchronize_sched before 4.20), so
 * a BPF program of a tracepoint, kprobe or uprobe that was running on
 * another CPU has ended. 4.3+; -EINVAL on nohz_full kernels. */
int bb_rcu_wait(void)
{
	return bb_syscall6(BB_NR_membarrier, 1 /* CMD_GLOBAL */, 0, 0, 0, 0,
			   0);
}

static void copy_name(char *dst, const char *src)
{
	size_t i;

	/* The kernel accepts only [A-Za-z0-9_.] and at most 15 characters. */
	for (i = 0; src && src[i] && i < BPF_OBJ_NAME_LEN - 1; i++) {
		char c = src[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '.';
		dst[i] = ok ? c : '_';
	}
}

/*
 * '.' in an object's name is 5.2 ("outer.inner", ".rodata"): before, the
 * kernel refuses the whole call with EINVAL. Then the call is made again
 * with '_' for '.': 1 if name has a '.' to replace, 0 if not.
 */
static int undot_name(char *name)
{
	int n = 0;

	for (; *name; name++)
		if (*name == '.') {
			*name = '_';
			n++;
		}
	return n > 0;
}

/*
 * Names of maps and programs are 4.15: before, bpf_attr ends earlier and a
 * non-zero name is refused (EINVAL where it falls inside the kernel's
 * bpf_attr, E2BIG beyond it; RHEL and Android backport names, so the
 * kernel's answer decides, never its version). On the first such refusal a
 * named and an unnamed one-entry array tell names apart from whatever else
 * the kernel refused; the answer holds for the rest of the run.
 * 1: names taken, 0: refused, -1: not known yet.
 */
static int names_taken = -1;

static int names_refused(int ret, const char *name)
{
	struct bpf_attr_map_create a;
	int fd;

	if (names_taken >= 0 || (ret != -EINVAL && ret != -E2BIG) ||
	    !name || !name[0])
		return names_taken == 0;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	copy_name(a.map_name, "bb_names");
	fd = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	if (fd >= 0) {
		names_taken = 1;
		close(fd);
		return 0;
	}
	memset(a.map_name, 0, sizeof(a.map_name));
	fd = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	if (fd < 0) /* arrays refused too: nothing learned */
		return 0;
	names_taken = 0;
	close(fd);
	return 1;
}

int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		   uint32_t max_entries, uint32_t flags, const char *name)
{
	struct bb_map_attr m = { type, key_size, value_size, max_entries,
				 flags, 0, 0 };

	return bpf_map_create_attr(&m, name);
}

static int map_elem_op(int cmd, int fd, const void *key, void *value,
		       uint64_t flags)
{
	struct bpf_attr_map_elem a;

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = (uint64_t)(unsigned long)key;
	a.value = (uint64_t)(unsigned long)value;
	a.flags = flags;
	return sys_bpf(cmd, &a, sizeof(a));
}

int bpf_map_lookup_elem(int fd, const void *key, void *value)
{
	return map_elem_op(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int bpf_map_update_elem(int fd, const void *key, const void *value,
			uint64_t flags)
{
	return map_elem_op(BPF_MAP_UPDATE_ELEM, fd, key, (void *)value, flags);
}

int bpf_map_delete_elem(int fd, const void *key)
{
	return map_elem_op(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);
}

int bpf_map_get_next_key(int fd, const void *key, void *next_key)
{
	return map_elem_op(BPF_MAP_GET_NEXT_KEY, fd, key, next_key, 0);
}

int bpf_map_create_attr(const struct bb_map_attr *m, const char *name)
{
	struct bpf_attr_map_create a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.map_type = m->type;
	a.key_size = m->key_size;
	a.value_size = m->value_size;
	a.max_entries = m->max_entries;
	a.map_flags = m->map_flags;
	a.inner_map_fd = m->inner_fd > 0 ? m->inner_fd : 0;
	a.numa_node = m->numa_node;
	if (names_taken != 0)
		copy_name(a.map_name, name);
	ret = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	if (ret == -EINVAL && undot_name(a.map_name))
		ret = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	if (ret < 0 && a.map_name[0] && names_refused(ret, a.map_name)) {
		memset(a.map_name, 0, sizeof(a.map_name));
		ret = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	}
	return ret;
}

static int obj_op(int cmd, int fd, const char *path)
{
	struct bpf_attr_obj a;

	memset(&a, 0, sizeof(a));
	a.pathname = (uint64_t)(unsigned long)path;
	a.bpf_fd = fd;
	return sys_bpf(cmd, &a, sizeof(a));
}

int bpf_obj_pin(int fd, const char *path)
{
	return obj_op(BPF_OBJ_PIN, fd, path);
}

int bpf_obj_get(const char *path)
{
	return obj_op(BPF_OBJ_GET, 0, path);
}

int bpf_map_freeze(int fd)
{
	uint32_t a[2] = { (uint32_t)fd, 0 };

	return sys_bpf(BPF_MAP_FREEZE, a, sizeof(a));
}

int bpf_map_get_info(int fd, struct bb_map_info *info)
{
	struct bpf_attr_info a;
	uint32_t raw[16];
	int ret;

	memset(&a, 0, sizeof(a));
	memset(raw, 0, sizeof(raw));
	a.bpf_fd = fd;
	a.info_len = sizeof(raw);
	a.info = (uint64_t)(unsigned long)raw;
	ret = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a));
	if (ret < 0)
		return ret;
	/* struct bpf_map_info starts type, id, key_size, value_size,
	 * max_entries, map_flags (4.13) */
	info->type = raw[0];
	info->id = raw[1];
	info->key_size = raw[2];
	info->value_size = raw[3];
	info->max_entries = raw[4];
	info->map_flags = raw[5];
	return 0;
}

static int prog_load_once(uint32_t type, const struct bpf_insn *insns,
			  uint32_t cnt, const char *license,
			  uint32_t kern_version, const char *name, char *log,
			  uint32_t log_size)
{
	struct bpf_attr_prog_load a;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insn_cnt = cnt;
	a.insns = (uint64_t)(unsigned long)insns;
	a.license = (uint64_t)(unsigned long)license;
	a.kern_version = kern_version;
	if (names_taken != 0)
		copy_name(a.prog_name, name);
	if (log) {
		log[0] = 0;
		a.log_level = 1;
		a.log_size = log_size;
		a.log_buf = (uint64_t)(unsigned long)log;
	}
	return sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
}

/*
 * The log of a refused program. A log that does not fit gives ENOSPC with
 * what fit (the head of the log; since 6.4 its tail), and 4.15-5.1 refuse a
 * log_size above UINT_MAX >> 8 with EINVAL (5.2 took it to UINT_MAX >> 2).
 * So the buffer grows from 64 KiB to that first cap, then on to 256 MiB
 * while the kernel takes it, and the largest log obtained is kept: a
 * truncated log is still a log (4.15 once showed none at all when a
 * program exploded the verifier: the 16 MiB attempt got EINVAL).
 */
#define LOG_FIRST (64u * 1024)
#define LOG_CAP_OLD (UINT32_MAX >> 8)
#define LOG_CAP (256u << 20)

int bpf_prog_load(uint32_t type, const struct bpf_insn *insns, uint32_t cnt,
		  const char *license, uint32_t kern_version, const char *name,
		  char **logp, int *truncated)
{
	uint32_t size = LOG_FIRST;
	char *log = NULL, *buf;
	int fd, again;

	if (logp)
		*logp = NULL;
	if (truncated)
		*truncated = 0;
	/* First without a log: verbose verification is slow on big programs. */
	fd = prog_load_once(type, insns, cnt, license, kern_version, name,
			    NULL, 0);
	if (fd < 0 && names_taken < 0 && names_refused(fd, name))
		fd = prog_load_once(type, insns, cnt, license, kern_version,
				    name, NULL, 0);
	if (fd >= 0 || !logp)
		return fd;
	for (;;) {
		buf = malloc(size);
		if (!buf)
			break;
		again = prog_load_once(type, insns, cnt, license, kern_version,
				       name, buf, size);
		if (again >= 0) { /* loaded this time: keep it */
			free(buf);
			free(log);
			return again;
		}
		if (again == -EINVAL && size > LOG_FIRST && !buf[0]) {
			/* the size, not the program: keep the last log */
			free(buf);
			break;
		}
		free(log);
		log = buf;
		if (truncated)
			*truncated = again == -ENOSPC;
		if (again != -ENOSPC || size >= LOG_CAP)
			break;
		size = size < LOG_CAP_OLD / 4 ? size * 4 :
		       size < LOG_CAP_OLD ? LOG_CAP_OLD : LOG_CAP;
	}
	*logp = log;
	return fd;
}

int bpf_helper_map_value_mem(void)
{
	/* v = lookup(map, &0); if (v) bpf_get_current_comm(v, 16) */
	struct bpf_insn insns[] = {
		{ .code = 0x62, .dst_reg = 10, .off = -4 },   /* *(u32 *)(r10 - 4) = 0 */
		{ .code = 0xbf, .dst_reg = 2, .src_reg = 10 }, /* r2 = r10 */
		{ .code = 0x07, .dst_reg = 2, .imm = -4 },     /* r2 += -4 */
		{ .code = BPF_LD_IMM64_CODE, .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD },              /* r1 = map */
		{ .code = 0 },
		{ .code = BPF_CALL_CODE, .imm = 1 },           /* lookup */
		{ .code = 0x15, .off = 3 },                    /* if r0 == 0 */
		{ .code = 0xbf, .dst_reg = 1 },                /* r1 = r0 */
		{ .code = 0xb7, .dst_reg = 2, .imm = 16 },     /* r2 = 16 */
		{ .code = BPF_CALL_CODE, .imm = 16 },          /* get_current_comm */
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },      /* r0 = 0 */
		{ .code = 0x95 },                              /* exit */
	};
	int map = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 16, 1, 0, "bb_probe");
	int fd;

	if (map < 0)
		return map;
	insns[3].imm = map;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, insns,
			   sizeof(insns) / sizeof(insns[0]), "GPL", 0,
			   "bb_probe", NULL, NULL);
	close(map);
	if (fd == -EACCES || fd == -EINVAL)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	return 1;
}

int bpf_helper_available(uint32_t prog_type, int32_t helper)
{
	/* helper(r10 - 8, 8, 0): a stack buffer, its size, any value */
	const struct bpf_insn insns[] = {
		{ .code = 0xbf, .dst_reg = 1, .src_reg = 10 }, /* r1 = r10 */
		{ .code = 0x07, .dst_reg = 1, .imm = -8 },     /* r1 += -8 */
		{ .code = 0xb7, .dst_reg = 2, .imm = 8 },      /* r2 = 8 */
		{ .code = 0xb7, .dst_reg = 3, .imm = 0 },      /* r3 = 0 */
		{ .code = BPF_CALL_CODE, .imm = helper },
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },      /* r0 = 0 */
		{ .code = 0x95 },                              /* exit */
	};
	int fd = bpf_prog_load(prog_type, insns, sizeof(insns) / sizeof(insns[0]),
			       "GPL", 0, "bb_helper", NULL, NULL);

	if (fd == -EINVAL)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	return 1;
}

int bpf_helper_needs_jit(uint32_t prog_type, int32_t helper)
{
	const struct bpf_insn call[] = {
		{ .code = BPF_CALL_CODE, .imm = helper },
		{ .code = 0x95 },                              /* exit */
	}, ret0[] = {
		{ .code = 0xb7 },                              /* r0 = 0 */
		{ .code = 0x95 },
	};
	int fd = bpf_prog_load(prog_type, call, 2, "GPL", 0, "bb_helper",
			       NULL, NULL);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fd = bpf_prog_load(prog_type, ret0, 2, "GPL", 0, "bb_helper", NULL,
			   NULL);
	if (fd < 0)
		return 0; /* the type itself is refused: said by its load */
	close(fd);
	return 1;
}

int bpf_map_sum_percpu_u64(int fd, uint32_t key, uint64_t *sum)
{
	int ncpus = bb_ncpus_possible(), i, ret;
	uint64_t *v;

	*sum = 0;
	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EIO;
	v = calloc(ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ret = bpf_map_lookup_elem(fd, &key, v);
	for (i = 0; ret == 0 && i < ncpus; i++)
		*sum += v[i];
	free(v);
	return ret;
}

void bpf_map_percpu_deltas(int fd, uint32_t n, uint64_t *prev, uint64_t *d)
{
	uint64_t now;
	uint32_t k;

	for (k = 0; k < n; k++) {
		d[k] = 0;
		if (bpf_map_sum_percpu_u64(fd, k, &now) == 0) {
			d[k] = now - prev[k];
			prev[k] = now;
		}
	}
}

int bpf_prog_info_u64(int prog_fd, uint32_t off, uint64_t *v)
{
	uint64_t info[32] = { 0 }; /* the first 256 bytes of bpf_prog_info */
	struct {
		uint32_t bpf_fd, info_len;
		uint64_t info;
	} attr = { 0 };
	int ret;

	*v = 0;
	if (off % 8 || off + 8 > sizeof(info))
		return -EINVAL;
	attr.bpf_fd = prog_fd;
	attr.info_len = sizeof(info);
	attr.info = (uintptr_t)info;
	/* the kernel fills what it knows and says how much in info_len */
	ret = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
	if (ret < 0)
		return ret;
	if (attr.info_len < off + 8)
		return -EOPNOTSUPP;
	*v = info[off / 8];
	return 0;
}

/*
 * The kernel skips a program that fires on a CPU where a BPF program (ours
 * or another tool's) is already running (trace_call_bpf's bpf_prog_active),
 * and since 6.7 counts the skips in bpf_prog_info.recursion_misses (a field
 * of 5.12, counting only trampoline programs until then). Before, they are
 * not counted anywhere.
 */
#define PROG_INFO_RECURSION_MISSES 208 /* offsetof(struct bpf_prog_info, ..) */
int bpf_prog_recursion_misses(int prog_fd, uint64_t *misses)
{
	return bpf_prog_info_u64(prog_fd, PROG_INFO_RECURSION_MISSES, misses);
}

/*
 * Why raw tracepoints end fast: closing the fd releases the link
 * (bpf_raw_tp_link_release, bpf_raw_tracepoint_release before 5.7) ->
 * bpf_probe_unregister -> tracepoint_probe_unregister, whose
 * release_probes frees the old probe array by call_rcu/call_srcu: nothing
 * waits. Closing a tracepoint's last perf event goes through
 * perf_trace_destroy -> perf_trace_event_unreg instead, which holds
 * event_mutex and calls tracepoint_synchronize_unregister() (an SRCU and
 * an RCU grace period, waited for) once per trace event: 53 ms each here,
 * one after the other.
 */
int bpf_raw_tp_open(const char *name, int prog_fd)
{
	struct {
		uint64_t name;
		uint32_t prog_fd, pad;
	} attr = { (uintptr_t)name, (uint32_t)prog_fd, 0 };

	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
}

/*
 * Does this kernel charge BPF memory to the memory cgroup instead of
 * RLIMIT_MEMLOCK (5.11)? Nothing says so directly; libbpf
 * (probe_memcg_account) asks for bpf_ktime_get_coarse_ns, which came in
 * the same release: a program calling it loads only there.
 */
int bb_memcg_charged(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_CALL_CODE, .imm = 160 }, /* ktime_get_coarse_ns */
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 }, /* r0 = 0 */
		{ .code = 0x95 },                         /* exit */
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns,
			       sizeof(insns) / sizeof(insns[0]), "GPL", 0,
			       "bb_memcg", NULL, NULL);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int bb_raise_memlock(struct bb_err *err)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };
	int ret = sys_prlimit64(0, RLIMIT_MEMLOCK, &r, NULL);

	/* where the limit does not apply, not raising it is no failure */
	if (ret < 0 && bb_memcg_charged())
		return 0;
	if (ret < 0)
		return bb_fail(err, ret,
			       "cannot raise RLIMIT_MEMLOCK (%s): kernels before "
			       "5.11 charge BPF maps to it; run as root, or "
			       "raise it first with `ulimit -l unlimited`",
			       strerror(-ret));
	return 0;
}

long bb_raise_nofile(void)
{
	struct rlimit cur, r;
	char buf[32];
	long max;

	if (sys_prlimit64(0, RLIMIT_NOFILE, NULL, &cur) < 0)
		return -EPERM;
	/* root may raise the hard limit up to fs.nr_open (CAP_SYS_RESOURCE) */
	if (bb_read_small("/proc/sys/fs/nr_open", buf, sizeof(buf)) > 0 &&
	    (max = atol(buf)) > 0 && (rlim_t)max > cur.rlim_max) {
		r.rlim_cur = r.rlim_max = max;
		if (sys_prlimit64(0, RLIMIT_NOFILE, &r, NULL) == 0)
			return max;
	}
	if (cur.rlim_cur < cur.rlim_max) {
		r.rlim_cur = r.rlim_max = cur.rlim_max;
		if (sys_prlimit64(0, RLIMIT_NOFILE, &r, NULL) == 0)
			return (long)cur.rlim_max;
	}
	return (long)cur.rlim_cur;
}

double bb_now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
