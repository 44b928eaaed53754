/* SPDX-License-Identifier: MIT */
/* bpf/funccount.bpf.c on the host: settings, probes, the counts. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "mods.h"
#include "arch.h"
#include "funccount.skel.h"
#include "sysnr.h"
#include "sysnames.h"
#include "../../bpf/funccount.h"

EMBEDDED_OBJ(funccount);

/* the hand-written counters below: each instruction a value */
#define INSN(c, d, s, o, i) ((struct bpf_insn)BB_INSN(c, d, s, o, i))

int funccount_load(struct tool_ctx *t, uint32_t pid)
{
	int ret = tool_open(t, &funccount_skel, EMBEDDED_ARGS(funccount));

	if (ret < 0)
		return ret;
	const int set[] = {
		funccount_set(t->obj, FUNCCOUNT_C_filter_tgid, pid),
		funccount_set(t->obj, FUNCCOUNT_C_ukey, 0),
	};
	ret = MOD_CONSTS_SET(t, set);
	return ret < 0 ? ret : tool_load(t);
}

void funccount_probes(struct bb_probe *p, char **names, int n, int tp)
{
	int i;

	/* each counts alone: no order between them */
	for (i = 0; i < n; i++) {
		p[i].prog = tp ? FUNCCOUNT_P_count_tp : FUNCCOUNT_P_count_kprobe;
		p[i].target = names[i];
		p[i].optional = n > 1;
	}
}

int funccount_counts_fd(struct tool_ctx *t)
{
	return funccount_map_fd(t->obj, FUNCCOUNT_M_counts);
}

/*
 * uprobes: one copy of count_uprobe per function, counting under its
 * index (names[i] then names the row, as a tracepoint's does).
 */
int funccount_uprobe_progs(struct tool_ctx *t, struct bb_probe *p, int n,
			   struct bb_prog **progs)
{
	struct bb_err err = { "" };
	int i, ret;

	for (i = 0; i < n; i++) {
		p[i].prog = FUNCCOUNT_P_count_uprobe;
		ret = funccount_set(t->obj, FUNCCOUNT_C_ukey, i);
		if (ret < 0)
			return tool_fail(t, ret, "internal: no constant ukey");
		ret = obj_prog_load_copy(t->obj, FUNCCOUNT_P_count_uprobe,
					 BB_PROG_UPROBE, &progs[i], &err);
		if (ret < 0)
			return tool_fail(t, ret, "%s", err.msg);
	}
	return 0;
}

/*
 * counts[key] += 1, for thread group tgid only if not 0: a raw tracepoint
 * program cannot tell which tracepoint runs it, so each tracepoint gets its
 * own, its key an immediate (too many to load the object once each).
 */
static int rawtp_prog(int map_fd, uint32_t key, uint32_t tgid)
{
	const struct bpf_insn in[] = {
		INSN(BPF_CALL_CODE, 0, 0, 0, 14),     /* get_current_pid_tgid */
		INSN(0x77, 0, 0, 0, 32),              /* r0 >>= 32 */
		INSN(0x55, 0, 0, 9, (int32_t)tgid),   /* if r0 != tgid: out */
		INSN(0x7a, 10, 0, -8, (int32_t)key),  /* *(u64 *)(r10 - 8) = key */
		INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),                  /* r1 = map */
		INSN(0xbf, 2, 10, 0, 0),              /* r2 = r10 */
		INSN(0x07, 2, 0, 0, -8),              /* r2 += -8 */
		INSN(BPF_CALL_CODE, 0, 0, 0, 1),      /* map_lookup_elem */
		INSN(0x15, 0, 0, 2, 0),               /* if r0 == 0: out */
		INSN(0xb7, 1, 0, 0, 1),               /* r1 = 1 */
		INSN(0xdb, 0, 1, 0, 0),               /* lock *(u64 *)r0 += r1 */
		INSN(0xb7, 0, 0, 0, 0),               /* out: r0 = 0 */
		INSN(0x95, 0, 0, 0, 0),               /* exit */
	};
	const struct bpf_insn *p = in;
	int cnt = sizeof(in) / sizeof(in[0]);

	if (!tgid) { /* no filter: from the key on */
		p += 3;
		cnt -= 3;
	}
	return bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, p, cnt, "GPL", 0,
			     "funccount_rtp", NULL, NULL);
}

int funccount_rawtp_attach(struct tool_ctx *t, char **names, int n,
			   uint32_t pid, int *links, int *progs)
{
	int map = funccount_counts_fd(t), i, fd, nlinks = 0;
	uint64_t key, zero = 0;

	for (i = 0; i < n; i++)
		links[i] = progs[i] = -1;
	if (map < 0)
		return tool_fail(t, map, "funccount: no counts map");
	for (i = 0; i < n; i++) {
		const char *ev = strchr(names[i], ':');

		/* no raw tracepoint of their own: funccount_rawsys_attach */
		if (!strncmp(names[i], "syscalls:", 9))
			continue;
		key = i;
		if (bpf_map_update_elem(map, &key, &zero, BPF_ANY) < 0)
			return tool_fail(t, -ENOMEM, "cannot set up the count "
					 "of %s", names[i]);
		fd = rawtp_prog(map, i, pid);
		/* the program type itself is unknown before 4.17 */
		if (fd == -EINVAL && !nlinks)
			return -EOPNOTSUPP;
		if (fd < 0)
			return tool_fail(t, fd, "cannot load the counting "
					 "program of %s: %s", names[i],
					 strerror(-fd));
		links[i] = bpf_raw_tp_open(ev ? ev + 1 : names[i], fd);
		if (links[i] < 0) {
			int err = links[i];

			links[i] = -1;
			close(fd);
			/* its count is the perf events': one row of key i */
			bpf_map_delete_elem(map, &key);
			if (err == -ENOENT)
				continue;
			if (err == -EINVAL && !nlinks)
				return -EOPNOTSUPP;
			return tool_fail(t, err, "cannot attach a raw "
					 "tracepoint to %s: %s", names[i],
					 strerror(-err));
		}
		progs[i] = fd;
		nlinks++;
	}
	return nlinks;
}

/*
 * The syscalls/ events are made by the kernel from the raw_syscalls ones
 * (perf_syscall_enter on sys_enter, for the events of the number the
 * call has): counted through raw sys_enter and sys_exit by that number
 * instead, their end waits for nothing (bpf_raw_tp_open). An event's
 * number is that of its name in musl's table of this architecture
 * ($(O)/gen/sysnr.h), but for the kernel's own names of some calls
 * (SYSCALL_DEFINE(newstat) is __NR_stat): the event name first, the
 * table's second.
 */
static const char sysnr_renames[] =
	"newstat\0stat\0newlstat\0lstat\0newfstat\0fstat\0newuname\0uname\0"
	"sendfile64\0sendfile\0umount\0umount2\0";

static int sysnr_table(const char *call)
{
	return sysnames_number(call);
}

int funccount_sysnr(const char *event, int *exit,
		    int (*exists)(const char *call, void *arg), void *arg)
{
	const char *call, *r, *to;
	int nr;

	if (!strncmp(event, "syscalls:", 9))
		event += 9;
	if (!strncmp(event, "sys_enter_", 10)) {
		*exit = 0;
		call = event + 10;
	} else if (!strncmp(event, "sys_exit_", 9)) {
		*exit = 1;
		call = event + 9;
	} else {
		return -ENOENT;
	}
	nr = sysnr_table(call);
	for (r = sysnr_renames; *r; r = to + strlen(to) + 1) {
		to = r + strlen(r) + 1;
		if (nr < 0 && !strcmp(call, r))
			return sysnr_table(to);
		/* a kernel with an event newstat as well as stat (arm's
		 * OABI calls): this stat is an older call than musl's */
		if (nr >= 0 && !strcmp(call, to) && sysnr_table(r) < 0 &&
		    exists && exists(r, arg))
			return -ENOENT;
	}
	return nr;
}

int funccount_sysnr_count(void)
{
	return SYSNR_COUNT;
}

/* The lowest offset and the length of what rawsys_prog reads of struct
 * pt_regs: the syscall number and, where told apart, the compat word. */
static void ptregs_span(const struct bb_arch *a, int *lo, int *len)
{
	int hi = a->sysnr_off + a->sysnr_size;

	*lo = a->sysnr_off;
	if (a->compat != BB_COMPAT_NONE) {
		if (a->compat_off < *lo)
			*lo = a->compat_off;
		if (a->compat_off + 8 > hi)
			hi = a->compat_off + 8;
	}
	*len = hi - *lo;
}

/*
 * On raw sys_enter (regs, id) or sys_exit (regs, ret): row = nrs[nr, or
 * SYSNR_COUNT + nr at the exit]; if row, counts[row - 1] += 1. The number
 * at the exit is the one syscall_get_nr() reads, as the sys_exit_* events
 * do (loader/arch.c: sysnr_off); calls of 32-bit tasks are left out
 * where the events leave them out (compat_off).
 */
static int rawsys_prog(int nrs, int counts, int exit, uint32_t tgid)
{
	const struct bb_arch *a = bb_arch_native();
	struct bpf_insn in[48];
	int n = 0, outs[8], nout = 0, i, lo, len;
	/* pt_regs are read at the exit, and to tell a 32-bit task */
	const int regs = exit || a->compat != BB_COMPAT_NONE;

	in[n++] = INSN(0xbf, 6, 1, 0, 0);             /* r6 = ctx */
	if (tgid) {
		in[n++] = INSN(BPF_CALL_CODE, 0, 0, 0, 14); /* pid_tgid */
		in[n++] = INSN(0x77, 0, 0, 0, 32);    /* r0 >>= 32 */
		outs[nout++] = n;
		in[n++] = INSN(0x55, 0, 0, 0, (int32_t)tgid); /* != tgid */
	}
	ptregs_span(a, &lo, &len);
	if (regs) { /* probe_read(r10 - 24, len, regs + lo) */
		in[n++] = INSN(0x79, 3, 6, 0, 0);     /* r3 = ctx[0] */
		in[n++] = INSN(0x07, 3, 0, 0, lo);
		in[n++] = INSN(0xbf, 1, 10, 0, 0);
		in[n++] = INSN(0x07, 1, 0, 0, -24);
		in[n++] = INSN(0xb7, 2, 0, 0, len);
		in[n++] = INSN(BPF_CALL_CODE, 0, 0, 0, 4);
		outs[nout++] = n;
		in[n++] = INSN(0x55, 0, 0, 0, 0);     /* if r0 != 0: out */
	}
	if (a->compat != BB_COMPAT_NONE) {
		in[n++] = INSN(0x79, 1, 10, -24 + a->compat_off - lo, 0);
		outs[nout++] = n;
		/* == or & : out */
		in[n++] = INSN(a->compat == BB_COMPAT_EQ ? 0x15 : 0x45, 1, 0,
			       0, (int32_t)a->compat_val);
	}
	if (exit)
		in[n++] = INSN(a->sysnr_size == 8 ? 0x79 : 0x61, 1, 10,
			       -24 + a->sysnr_off - lo, 0);
	else
		in[n++] = INSN(0x79, 1, 6, 8, 0);     /* r1 = ctx[1]: id */
	outs[nout++] = n;
	in[n++] = INSN(0x35, 1, 0, 0, SYSNR_COUNT);   /* >= (unsigned): out */
	if (exit)
		in[n++] = INSN(0x07, 1, 0, 0, SYSNR_COUNT);
	in[n++] = INSN(0x63, 10, 1, -4, 0);           /* *(u32 *)(r10 - 4) */
	in[n++] = INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, nrs);
	in[n++] = INSN(0, 0, 0, 0, 0);
	in[n++] = INSN(0xbf, 2, 10, 0, 0);
	in[n++] = INSN(0x07, 2, 0, 0, -4);
	in[n++] = INSN(BPF_CALL_CODE, 0, 0, 0, 1);    /* map_lookup_elem */
	outs[nout++] = n;
	in[n++] = INSN(0x15, 0, 0, 0, 0);             /* if !r0: out */
	in[n++] = INSN(0x61, 1, 0, 0, 0);             /* r1 = row */
	outs[nout++] = n;
	in[n++] = INSN(0x15, 1, 0, 0, 0);             /* if !row: out */
	in[n++] = INSN(0x07, 1, 0, 0, -1);
	in[n++] = INSN(0x7b, 10, 1, -16, 0);          /* *(u64 *)(r10 - 16) */
	in[n++] = INSN(BPF_LD_IMM64_CODE, 1, BPF_PSEUDO_MAP_FD, 0, counts);
	in[n++] = INSN(0, 0, 0, 0, 0);
	in[n++] = INSN(0xbf, 2, 10, 0, 0);
	in[n++] = INSN(0x07, 2, 0, 0, -16);
	in[n++] = INSN(BPF_CALL_CODE, 0, 0, 0, 1);
	outs[nout++] = n;
	in[n++] = INSN(0x15, 0, 0, 0, 0);
	in[n++] = INSN(0xb7, 1, 0, 0, 1);
	in[n++] = INSN(0xdb, 0, 1, 0, 0);             /* lock *(u64 *)r0 += 1 */
	for (i = 0; i < nout; i++)                    /* out: */
		in[outs[i]].off = (int16_t)(n - outs[i] - 1);
	in[n++] = INSN(0xb7, 0, 0, 0, 0);
	in[n++] = INSN(0x95, 0, 0, 0, 0);
	return bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, in, n, "GPL", 0,
			     exit ? "funccount_sysx" : "funccount_syse",
			     NULL, NULL);
}

static void rawsys_close(struct funccount_rawsys *r)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (r->link[i] >= 0)
			close(r->link[i]);
		if (r->prog[i] >= 0)
			close(r->prog[i]);
	}
	if (r->nrs >= 0)
		close(r->nrs);
	*r = FUNCCOUNT_RAWSYS_NONE;
}

uint64_t funccount_raw_close(int *links, int *progs, int n,
			     struct funccount_rawsys *r)
{
	uint64_t sum = 0, v;
	int i;

	for (i = 0; i < n; i++)
		if (progs[i] >= 0 &&
		    bpf_prog_recursion_misses(progs[i], &v) == 0)
			sum += v;
	for (i = 0; i < 2; i++)
		if (r->prog[i] >= 0 &&
		    bpf_prog_recursion_misses(r->prog[i], &v) == 0)
			sum += v;
	for (i = 0; i < n; i++) {
		if (links[i] >= 0)
			close(links[i]);
		if (progs[i] >= 0)
			close(progs[i]);
		links[i] = progs[i] = -1;
	}
	rawsys_close(r);
	return sum;
}

/* Has this kernel the syscalls/ event sys_enter_CALL? */
static int sys_event_exists(const char *call, void *arg)
{
	struct tool_ctx *t = arg;
	char ev[128];

	snprintf(ev, sizeof(ev), "sys_enter_%s", call);
	return tracefs_event_id(t->sess.tracefs, "syscalls", ev) >= 0;
}

int funccount_rawsys_attach(struct tool_ctx *t, char **names, int n,
			    uint32_t pid, int *links,
			    struct funccount_rawsys *r)
{
	static const char *const tps[2] = { "sys_enter", "sys_exit" };
	int counts = funccount_counts_fd(t), i, nr, exit, rows = 0;
	int want[2] = { 0, 0 }, ret;
	uint32_t key, row;
	uint64_t zero = 0, k64;

	*r = FUNCCOUNT_RAWSYS_NONE;
	for (i = 0; i < n && strncmp(names[i], "syscalls:", 9); i++)
		;
	if (i == n)
		return 0; /* no map to make */
	if (counts < 0)
		return tool_fail(t, counts, "funccount: no counts map");
	r->nrs = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 2 * SYSNR_COUNT, 0,
				"funccount_nrs");
	if (r->nrs < 0) {
		ret = r->nrs;
		r->nrs = -1;
		return tool_fail(t, ret, "cannot create the map of syscall "
				 "numbers: %s", strerror(-ret));
	}
	for (i = 0; i < n; i++) {
		if (links[i] != -1 || strncmp(names[i], "syscalls:", 9))
			continue;
		nr = funccount_sysnr(names[i], &exit, sys_event_exists, t);
		if (nr < 0)
			continue; /* not in musl's table: a perf event */
		key = (uint32_t)(exit * SYSNR_COUNT + nr);
		/* two events of one number: neither can be told apart */
		if (bpf_map_lookup_elem(r->nrs, &key, &row) == 0 && row) {
			if (row != UINT32_MAX) {
				k64 = row - 1;
				links[row - 1] = -1;
				bpf_map_delete_elem(counts, &k64);
				rows--;
			}
			row = UINT32_MAX;
			bpf_map_update_elem(r->nrs, &key, &row, BPF_ANY);
			continue;
		}
		row = (uint32_t)i + 1;
		k64 = (uint64_t)i;
		if (bpf_map_update_elem(r->nrs, &key, &row, BPF_ANY) < 0 ||
		    bpf_map_update_elem(counts, &k64, &zero, BPF_ANY) < 0) {
			rawsys_close(r);
			return tool_fail(t, -ENOMEM, "cannot set up the count "
					 "of %s", names[i]);
		}
		links[i] = FUNCCOUNT_RAW_SYS;
		want[exit] = 1;
		rows++;
	}
	for (exit = 0; exit < 2 && rows > 0; exit++) {
		if (!want[exit])
			continue;
		r->prog[exit] = rawsys_prog(r->nrs, counts, exit, pid);
		if (r->prog[exit] >= 0)
			r->link[exit] = bpf_raw_tp_open(tps[exit],
							r->prog[exit]);
		ret = r->prog[exit] < 0 ? r->prog[exit] : r->link[exit];
		if (ret >= 0)
			continue;
		/* before 4.17 (EINVAL), or no raw_syscalls (ENOENT):
		 * every one of them to perf events */
		if (ret == -EINVAL || ret == -ENOENT) {
			rows = 0;
			break;
		}
		rawsys_close(r);
		return tool_fail(t, ret, "cannot count syscalls through the "
				 "raw tracepoint %s: %s", tps[exit],
				 strerror(-ret));
	}
	if (rows > 0 && t->verbose)
		fprintf(stderr, "%d syscalls/ events counted by number through "
			"the raw tracepoints sys_enter and sys_exit\n", rows);
	if (rows > 0)
		return rows;
	for (i = 0; i < n; i++) {
		k64 = (uint64_t)i;
		if (links[i] == FUNCCOUNT_RAW_SYS) {
			links[i] = -1;
			bpf_map_delete_elem(counts, &k64);
		}
	}
	rawsys_close(r);
	return 0;
}
