/* SPDX-License-Identifier: MIT */
/*
 * bpf/fsslower.bpf.c on the host: which functions of the file system it
 * probes, where the fields it reads are (the field-offset layer: BTF,
 * --btf, else fsslower_disc.c's discovery), settings, ring, probes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fsslower_mod.h"
#include "kfuncs.h"
#include "fsslower.skel.h"
#include "../../bpf/fsslower.h"

EMBEDDED_OBJ(fsslower);

const char *const fss_field_paths[FSS_NFIELDS] = {
	"kiocb.ki_filp", "kiocb.ki_pos", "file.f_path.dentry",
	"dentry.d_name.name", "file.f_op",
};

/* bcc's ext4slower, xfsslower, btrfsslower, nfsslower, and
 * libbpf-tools' fsslower; read[1]: where the kernel has no read_iter of
 * the file system's own (ext4 before 4.10, btrfs before 5.x, f2fs), the
 * generic one with an f_op check against fops */
static const struct fss_fs fss_fss[] = {
	{ "ext4", { "ext4_file_read_iter", "generic_file_read_iter", NULL },
	  "ext4_file_write_iter", "ext4_file_open", "ext4_sync_file",
	  "ext4_file_operations" },
	{ "xfs", { "xfs_file_read_iter", NULL, NULL }, "xfs_file_write_iter",
	  "xfs_file_open", "xfs_file_fsync", NULL },
	{ "btrfs", { "btrfs_file_read_iter", "generic_file_read_iter", NULL },
	  "btrfs_file_write_iter", "btrfs_file_open", "btrfs_sync_file",
	  "btrfs_file_operations" },
	{ "nfs", { "nfs_file_read", NULL, NULL }, "nfs_file_write",
	  "nfs_file_open", "nfs_file_fsync", NULL },
	{ "f2fs", { "f2fs_file_read_iter", "generic_file_read_iter", NULL },
	  "f2fs_file_write_iter", "f2fs_file_open", "f2fs_sync_file",
	  "f2fs_file_operations" },
};
#define NFS_KNOWN (int)(sizeof(fss_fss) / sizeof(fss_fss[0]))

const struct fss_fs *fsslower_fs(const char *name)
{
	int i;

	for (i = 0; name && i < NFS_KNOWN; i++)
		if (!strcmp(fss_fss[i].fs, name))
			return &fss_fss[i];
	return NULL;
}

int fsslower_pick(const struct fss_fs *fs, char *const *avail, int n,
		  struct fss_pick *p, char *why, size_t len)
{
	const char *own[] = { fs->write, fs->open, fs->fsync };
	int i = fn_pick_first(fs->read, avail, n), k;

	memset(p, 0, sizeof(*p));
	for (k = 0; k < 3; k++)
		if (!fn_available(avail, n, own[k])) {
			snprintf(why, len, "this kernel has no %s: no %s in "
				 "its functions (not built, and no module "
				 "loaded: modprobe %s; or it has another name "
				 "in this version)", fs->fs, own[k], fs->fs);
			return -ENOENT;
		}
	if (i < 0) {
		snprintf(why, len, "this kernel has neither %s nor %s: "
			 "%s's reads cannot be traced", fs->read[0],
			 fs->read[1] ? fs->read[1] : "another", fs->fs);
		return -ENOENT;
	}
	p->fn[FSS_READ] = fs->read[i];
	p->fn[FSS_WRITE] = fs->write;
	p->fn[FSS_OPEN] = fs->open;
	p->fn[FSS_FSYNC] = fs->fsync;
	p->generic = i > 0;
	return 0;
}

/* The fops address, where reads go through the generic function. */
static int fops_addr(struct tool_ctx *t, const struct fss_fs *fs,
		     uint64_t *addr)
{
	struct bb_err err = { "" };
	const char *names[] = { fs->fops };

	if (ksyms_lookup(NULL, names, 1, addr, &err) < 0)
		return tool_fail(t, -ENOENT, "%s", err.msg);
	if (!*addr)
		return tool_fail(t, -ENOENT, "this kernel reads %s files "
				 "through generic_file_read_iter, and to tell "
				 "them from others barebpf needs the address "
				 "of %s, which /proc/kallsyms does not list "
				 "(CONFIG_KALLSYMS_ALL, or kptr_restrict)",
				 fs->fs, fs->fops);
	return 0;
}

/* Every field, from the offset layer; the first missing said. */
static int fields(struct tool_ctx *t, struct fss_disc_ctx *d,
		  uint32_t *off)
{
	struct bb_fieldoff fo;
	struct bb_field f;
	int i, ret = 0, n = d->fop_addr ? FSS_NFIELDS : FSS_F_FOP;

	fieldoff_init(&fo, t->btf_file);
	for (i = 0; i < n; i++)
		fieldoff_register(&fo, fss_field_paths[i], fss_discover, d);
	for (i = 0; i < n && ret == 0; i++) {
		struct bb_err err = { "" };

		ret = fieldoff_find(&fo, fss_field_paths[i], &f, &err);
		if (ret < 0) {
			tool_error(t, "%s", err.msg);
			break;
		}
		off[i] = f.offset;
		if (t->verbose)
			fprintf(stderr, "%s at offset %u: %s\n",
				fss_field_paths[i], f.offset, f.how);
	}
	fieldoff_close(&fo);
	return ret;
}

static int configure(struct tool_ctx *t, const struct fsslower_settings *s,
		     const uint32_t *off, uint64_t fop)
{
	struct bb_obj *o = t->obj;
	const int set[] = {
		fsslower_set(o, FSSLOWER_C_filter_pid, s->pid),
		fsslower_set(o, FSSLOWER_C_min_ns, s->min_ns),
		fsslower_set(o, FSSLOWER_C_dist, s->dist),
		fsslower_set(o, FSSLOWER_C_unit_div,
			     s->unit_div ? s->unit_div : 1000),
		fsslower_set(o, FSSLOWER_C_off_kiocb_filp, off[FSS_F_FILP]),
		fsslower_set(o, FSSLOWER_C_off_kiocb_pos, off[FSS_F_POS]),
		fsslower_set(o, FSSLOWER_C_off_file_dentry, off[FSS_F_DENTRY]),
		fsslower_set(o, FSSLOWER_C_off_dentry_name, off[FSS_F_NAME]),
		fsslower_set(o, FSSLOWER_C_off_file_fop, off[FSS_F_FOP]),
		fsslower_set(o, FSSLOWER_C_fop_addr, fop),
		fsslower_set(o, FSSLOWER_C_discover, 0),
		fsslower_set(o, FSSLOWER_C_disc_pid, 0),
	};
	return MOD_CONSTS_SET(t, set);
}

int fsslower_start(struct tool_ctx *t, const struct fsslower_settings *s,
		   const struct fss_pick *p, struct bb_perfbuf **pb)
{
	const struct fss_fs *fs = fsslower_fs(s->fs);
	struct fss_disc_ctx d = { t, s->fs, p->fn[FSS_READ], p->fn[FSS_OPEN],
				  0, 0, { "" }, { { 0 } } };
	uint32_t off[FSS_NFIELDS] = { 0 };
	struct bb_probe pr[] = {
		{ FSSLOWER_P_op_return, p->fn[FSS_READ], 0, NULL, "op", 0, 0 },
		{ FSSLOWER_P_op_return, p->fn[FSS_WRITE], 0, NULL, "op", 0, 0 },
		{ FSSLOWER_P_op_return, p->fn[FSS_OPEN], 0, NULL, "op", 0, 0 },
		{ FSSLOWER_P_op_return, p->fn[FSS_FSYNC], 0, NULL, "op", 0, 0 },
		{ FSSLOWER_P_read_entry, p->fn[FSS_READ], 0, "op", NULL, 0, 0 },
		{ FSSLOWER_P_write_entry, p->fn[FSS_WRITE], 0, "op", NULL, 0,
		  0 },
		{ FSSLOWER_P_open_entry, p->fn[FSS_OPEN], 0, "op", NULL, 0, 0 },
		{ FSSLOWER_P_fsync_entry, p->fn[FSS_FSYNC], 0, "op", NULL, 0,
		  0 },
	};
	int ret;

	if (!fs)
		return tool_fail(t, -EINVAL, "no file system %s", s->fs);
	if (p->generic && (ret = fops_addr(t, fs, &d.fop_addr)) < 0)
		return ret;
	if ((ret = fields(t, &d, off)) < 0)
		return ret;
	ret = tool_open(t, &fsslower_skel, EMBEDDED_ARGS(fsslower));
	if (ret < 0 || (ret = configure(t, s, off, d.fop_addr)) < 0 ||
	    (ret = tool_load(t)) < 0)
		return ret;
	if (s->dist)
		tool_ring_unread(t, fsslower_map_fd(t->obj,
						    FSSLOWER_M_events));
	else if ((ret = tool_ring(t, fsslower_map_fd(t->obj,
						     FSSLOWER_M_events),
				  64, s->on_event, s->ctx, pb)) < 0)
		return ret;
	return tool_attach_probes(t, pr, 8);
}

int fsslower_hist_fd(struct tool_ctx *t)
{
	return fsslower_map_fd(t->obj, FSSLOWER_M_hist);
}

int fsslower_sums_fd(struct tool_ctx *t)
{
	return fsslower_map_fd(t->obj, FSSLOWER_M_sums);
}

int fsslower_stats_fd(struct tool_ctx *t)
{
	return fsslower_map_fd(t->obj, FSSLOWER_M_stats);
}
