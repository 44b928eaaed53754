/* SPDX-License-Identifier: MIT */
/* bpf/funccount.bpf.c on the host: settings, probes, the counts. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "progs.h"
#include "funccount.skel.h"
#include "sysnr.h"
#include "../../bpf/funccount.h"

EMBEDDED_OBJ(funccount);

int funccount_load(struct tool_ctx *t, uint32_t pid)
{
	int ret = tool_open(t, &funccount_skel, EMBEDDED_ARGS(funccount));

	if (ret < 0)
		return ret;
	const int set[] = {
		funccount_set(t->obj, FUNCCOUNT_C_filter_tgid, pid),
		funccount_set(t->obj, FUNCCOUNT_C_ukey, 0),
	};
	ret = PROG_CONSTS_SET(t, set);
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
	struct bpf_insn in[] = {
		{ .code = BPF_CALL_CODE, .imm = 14 },       /* get_current_pid_tgid */
		{ .code = 0x77, .dst_reg = 0, .imm = 32 },  /* r0 >>= 32 */
		{ .code = 0x55, .dst_reg = 0, .off = 9,
		  .imm = (int32_t)tgid },                   /* if r0 != tgid: out */
		{ .code = 0x7a, .dst_reg = 10, .off = -8,
		  .imm = (int32_t)key },                    /* *(u64 *)(r10 - 8) = key */
		{ .code = BPF_LD_IMM64_CODE, .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd }, /* r1 = map */
		{ .code = 0 },
		{ .code = 0xbf, .dst_reg = 2, .src_reg = 10 }, /* r2 = r10 */
		{ .code = 0x07, .dst_reg = 2, .imm = -8 },  /* r2 += -8 */
		{ .code = BPF_CALL_CODE, .imm = 1 },        /* map_lookup_elem */
		{ .code = 0x15, .dst_reg = 0, .off = 2 },   /* if r0 == 0: out */
		{ .code = 0xb7, .dst_reg = 1, .imm = 1 },   /* r1 = 1 */
		{ .code = 0xdb, .dst_reg = 0, .src_reg = 1 }, /* lock *(u64 *)r0 += r1 */
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },   /* out: r0 = 0 */
		{ .code = 0x95 },                           /* exit */
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

		key = i;
		if (bpf_map_update_elem(map, &key, &zero, BPF_ANY) < 0)
			return tool_fail(t, -ENOMEM, "cannot set up the count "
					 "of %s", names[i]);
		fd = rawtp_prog(map, i, pid);
		/* the program type itself is unknown before 4.17 */
		if (fd == -EINVAL && i == 0)
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
			if (err == -EINVAL && !nlinks && i == 0)
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

int funccount_sysnr_find(const char *table, int count, const char *call)
{
	const char *e = table, *w;
	size_t len = strlen(call);
	int nr;

	if (!len) /* not the "" of a number without a call */
		return -ENOENT;
	for (nr = 0; nr < count; nr++, e += strlen(e) + 1)
		for (w = e; *w; w += strcspn(w, " "), w += *w == ' ')
			if (!strncmp(w, call, len) &&
			    (w[len] == ' ' || !w[len]))
				return nr;
	return -ENOENT;
}

static int sysnr_table(const char *call)
{
	return funccount_sysnr_find(sysnr_names, SYSNR_COUNT, call);
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
