/* SPDX-License-Identifier: MIT */
/*
 * fsslower and fsdist: a file system's reads, writes, opens and fsyncs,
 * from kprobes at the entry and return of its functions (bcc's
 * ext4slower, ext4dist): read_iter(kiocb, iov_iter) and
 * write_iter(kiocb, ...) take the file and the offset from the kiocb,
 * open(inode, file) and fsync(file, ...) the file. The host attaches each
 * entry program to the function this kernel has; where a file system
 * reads through generic_file_read_iter (ext4 before 4.10), fop_addr is
 * its file_operations, and only the files whose f_op is that count.
 *
 * Constants: filter_pid (0: all), min_ns, dist (1: histograms in `hist`,
 * their ns in `sums`, else records of those slower than min_ns), unit_div
 * (ns per histogram unit), off_kiocb_filp, off_kiocb_pos, off_file_dentry
 * (file.f_path.dentry), off_dentry_name (dentry.d_name.name), off_file_fop,
 * fop_addr (0: no f_op check). discover, disc_pid: the discovery of those
 * offsets (loader/mods/fsslower.c): the entries of disc_pid copy what they
 * see into `disc` and track nothing.
 */
#include "bb_helpers.h"
#include "fsslower.h"

BB_MAP(start, BPF_MAP_TYPE_HASH, sizeof(u32), sizeof(struct fss_start),
       10240);
BB_MAP(hist, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64),
       FSS_NOPS * FSS_SLOTS);
/* the ns of each operation's histogram, summed (the exporter's _sum) */
BB_MAP(sums, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(u64), FSS_NOPS);
BB_MAP(stats, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(u32), sizeof(u64),
       FSS_NSTATS);
BB_MAP(events, BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(u32), sizeof(u32), 1024);
BB_MAP(cfg, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(struct fss_disc_cfg), 1);
BB_MAP(disc, BPF_MAP_TYPE_ARRAY, sizeof(u32), sizeof(struct fss_disc), 2);

static __always_inline void count(u32 key)
{
	u64 *v = bpf_map_lookup_elem(&stats, &key);

	if (v)
		*v += 1; /* per-CPU: no other writer */
}

/* the discovery: what disc_pid's open (key 0) or read (key 1) sees */
static __always_inline int disc_copy(u64 ptr, u32 key)
{
	u32 zero = 0;
	struct fss_disc_cfg *c = bpf_map_lookup_elem(&cfg, &zero);
	struct fss_disc d = {};
	u64 dent, name;

	if (!c)
		return 0;
	d.seq = c->seq;
	d.ptr = ptr;
	bpf_probe_read(d.win, sizeof(d.win), (void *)ptr);
	if (key == 0) {
		dent = BB_KREAD_ULONG(ptr + c->off_dentry);
		name = BB_KREAD_ULONG(dent + c->off_name);
		bpf_probe_read_str(d.name, sizeof(d.name), (void *)name);
	}
	bpf_map_update_elem(&disc, &key, &d, BPF_ANY);
	return 0;
}

static __always_inline int entry(u64 fp, u64 pos, u32 op)
{
	u64 id = bpf_get_current_pid_tgid();
	u32 tid = id, pid = id >> 32, fpid = BB_CONST(filter_pid);
	u64 fop = BB_CONST(fop_addr);
	struct fss_start s = {};

	if (fpid && pid != fpid)
		return 0;
	if (fop && op == FSS_READ &&
	    BB_KREAD_ULONG(fp + BB_CONST(off_file_fop)) != fop)
		return 0;
	s.ts = bpf_ktime_get_ns();
	s.fp = fp;
	s.pos = pos;
	s.op = op;
	if (bpf_map_update_elem(&start, &tid, &s, BPF_ANY) < 0)
		count(FSS_UNTRACKED);
	return 0;
}

static __always_inline int kiocb_entry(struct pt_regs *ctx, u32 op)
{
	u64 iocb = PT_REGS_PARM1(ctx), pos = 0;

	if (BB_CONST(discover)) {
		if ((u32)(bpf_get_current_pid_tgid() >> 32) ==
		    BB_CONST(disc_pid) && op == FSS_READ)
			disc_copy(iocb, 1);
		return 0;
	}
	bpf_probe_read(&pos, sizeof(pos),
		       (void *)(iocb + BB_CONST(off_kiocb_pos)));
	return entry(BB_KREAD_ULONG(iocb + BB_CONST(off_kiocb_filp)), pos, op);
}

SEC("kprobe/ext4_file_read_iter")
int read_entry(struct pt_regs *ctx)
{
	return kiocb_entry(ctx, FSS_READ);
}

SEC("kprobe/ext4_file_write_iter")
int write_entry(struct pt_regs *ctx)
{
	return kiocb_entry(ctx, FSS_WRITE);
}

SEC("kprobe/ext4_file_open")
int open_entry(struct pt_regs *ctx)
{
	if (BB_CONST(discover)) {
		if ((u32)(bpf_get_current_pid_tgid() >> 32) ==
		    BB_CONST(disc_pid))
			disc_copy(PT_REGS_PARM2(ctx), 0);
		return 0;
	}
	return entry(PT_REGS_PARM2(ctx), 0, FSS_OPEN);
}

SEC("kprobe/ext4_sync_file")
int fsync_entry(struct pt_regs *ctx)
{
	if (BB_CONST(discover))
		return 0;
	return entry(PT_REGS_PARM1(ctx), 0, FSS_FSYNC);
}

static __always_inline int record(struct pt_regs *ctx, struct fss_start *s,
				  u64 now, u64 delta, u32 tid)
{
	struct fss_event e = {};
	u64 dent, name;

	e.ts = now;
	e.delta = delta;
	e.size = PT_REGS_RC_LONG(ctx);
	e.offset = s->pos;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.tid = tid;
	e.op = s->op;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	dent = BB_KREAD_ULONG(s->fp + BB_CONST(off_file_dentry));
	name = BB_KREAD_ULONG(dent + BB_CONST(off_dentry_name));
	bpf_probe_read_str(e.name, sizeof(e.name), (void *)name);
	count(FSS_EMITTED);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("kretprobe/ext4_file_read_iter")
int op_return(struct pt_regs *ctx)
{
	u32 tid = bpf_get_current_pid_tgid();
	struct fss_start *s = bpf_map_lookup_elem(&start, &tid);
	struct fss_start st;
	u64 now, delta, *v;
	u32 key;

	if (!s)
		return 0; /* entered before we started, or filtered out */
	st = *s;
	bpf_map_delete_elem(&start, &tid);
	now = bpf_ktime_get_ns();
	delta = now - st.ts;
	if ((s64)delta < 0)
		return 0;
	if (!BB_CONST(dist)) {
		if (delta < BB_CONST(min_ns))
			return 0;
		return record(ctx, &st, now, delta, tid);
	}
	key = bb_log2l(delta / BB_CONST(unit_div));
	if (key >= FSS_SLOTS)
		key = FSS_SLOTS - 1;
	if (st.op >= FSS_NOPS)
		return 0;
	key += st.op * FSS_SLOTS;
	v = bpf_map_lookup_elem(&hist, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	key = st.op;
	v = bpf_map_lookup_elem(&sums, &key);
	if (v)
		__sync_fetch_and_add(v, delta);
	return 0;
}

char _license[] SEC("license") = "GPL";
