/* SPDX-License-Identifier: MIT */
/*
 * The discovery of the fields fsslower reads, for kernels without BTF
 * (bpf/fsslower.bpf.c with discover = 1): two files of known, unusual
 * names are made on a mounted file system of the traced type, and this
 * process opens and reads them while the open and read entries copy what
 * they see.
 *  - file.f_path.dentry and dentry.d_name.name: for each pointer-aligned
 *    offset A of the struct file the open saw and each B under 128, the
 *    open reads the string at *(*(file + A) + B); the pairs that give the
 *    first file's name, then the second's, are it. One pair, or none
 *    (a refusal): never a guess.
 *  - kiocb.ki_filp and kiocb.ki_pos: a pread at two unusual offsets; the
 *    read entry's kiocb holds the struct file the open saw, and the offset
 *    asked, at one place each.
 *  - file.f_op (reads through generic_file_read_iter): the word of the
 *    struct file equal to the file system's file_operations.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fsslower_mod.h"
#include "fsslower.skel.h"
#include "../../bpf/fsslower.h"

EMBEDDED_OBJ(fsslower);

#define PTR (int)sizeof(long)
#define NAME_WIN 128
static const uint64_t pos_a = 0x1234568ULL, pos_b = 0x2468ad0ULL;

int fss_find_word(const unsigned char *win, size_t len, int size, int step,
		  uint64_t v, uint32_t *out, int max)
{
	size_t o;
	int n = 0;

	for (o = 0; o + size <= len; o += step) {
		uint64_t w = 0;

		if (size == 4) {
			uint32_t w4;

			memcpy(&w4, win + o, 4);
			w = w4;
		} else {
			memcpy(&w, win + o, 8);
		}
		if (w != v)
			continue;
		if (n < max)
			out[n] = o;
		n++;
	}
	return n;
}

/* The object with discover = 1 in t, its read and open entries attached
 * on d's functions. */
static int disc_start(struct tool_ctx *t, const struct fss_disc_ctx *d)
{
	struct bb_probe pr[] = {
		{ FSSLOWER_P_read_entry, d->read_fn, 0, NULL, NULL, 0, 0 },
		{ FSSLOWER_P_open_entry, d->open_fn, 0, NULL, NULL, 0, 0 },
	};
	struct bb_obj *o;
	int ret = tool_open(t, &fsslower_skel, EMBEDDED_ARGS(fsslower));

	if (ret < 0)
		return ret;
	o = t->obj;
	const int set[] = {
		fsslower_set(o, FSSLOWER_C_filter_pid, 0),
		fsslower_set(o, FSSLOWER_C_min_ns, 0),
		fsslower_set(o, FSSLOWER_C_dist, 0),
		fsslower_set(o, FSSLOWER_C_unit_div, 1),
		fsslower_set(o, FSSLOWER_C_off_kiocb_filp, 0),
		fsslower_set(o, FSSLOWER_C_off_kiocb_pos, 0),
		fsslower_set(o, FSSLOWER_C_off_file_dentry, 0),
		fsslower_set(o, FSSLOWER_C_off_dentry_name, 0),
		fsslower_set(o, FSSLOWER_C_off_file_fop, 0),
		fsslower_set(o, FSSLOWER_C_fop_addr, 0),
		fsslower_set(o, FSSLOWER_C_discover, 1),
		fsslower_set(o, FSSLOWER_C_disc_pid, getpid()),
	};
	if ((ret = MOD_CONSTS_SET(t, set)) < 0)
		return ret;
	obj_set_noload(o, FSSLOWER_P_write_entry);
	obj_set_noload(o, FSSLOWER_P_fsync_entry);
	obj_set_noload(o, FSSLOWER_P_op_return);
	if ((ret = tool_load(t)) < 0)
		return ret;
	tool_ring_unread(t, fsslower_map_fd(o, FSSLOWER_M_events));
	return tool_attach_probes(t, pr, 2);
}

struct probe_files {
	char path[2][600];
	const char *name[2];
};

/* Two files in the first writable mount of fs (made here, removed by
 * files_remove). */
static int files_make(struct fss_disc_ctx *d, struct probe_files *pf)
{
	FILE *m = fopen("/proc/self/mounts", "r");
	char line[1024], dev[256], dir[512], type[64];
	int i, fd, made = 0;

	if (!m)
		return bb_fail(&d->err, -errno, "cannot read /proc/self/mounts");
	while (!made && fgets(line, sizeof(line), m)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) != 3 ||
		    strcmp(type, d->fs) || strchr(dir, '\\'))
			continue;
		for (i = 0; i < 2; i++) {
			snprintf(pf->path[i], sizeof(pf->path[i]),
				 "%s/.barebpf-fsdisc-%d-%s", dir, (int)getpid(),
				 i ? "Wm3pRy" : "Qz7vXk");
			pf->name[i] = strrchr(pf->path[i], '/') + 1;
			fd = open(pf->path[i], O_CREAT | O_EXCL | O_RDWR |
				  O_CLOEXEC, 0600);
			if (fd < 0)
				break;
			close(fd);
		}
		made = i == 2;
		if (!made && i == 1)
			unlink(pf->path[0]);
	}
	fclose(m);
	if (!made)
		return bb_fail(&d->err, -ENOENT, "the discovery of %s's "
			       "fields needs a writable %s file system "
			       "mounted (to open files of known names on "
			       "it), and /proc/self/mounts lists none; or "
			       "give this kernel's BTF with --btf FILE",
			       d->fs, d->fs);
	return 0;
}

static void files_remove(struct probe_files *pf)
{
	unlink(pf->path[0]);
	unlink(pf->path[1]);
}

struct disc_run {
	struct tool_ctx *t;
	int cfg_fd, disc_fd;
	uint64_t seq;
};

/* Open path with the candidates (a, b): what the open entry saw. */
static int try_open(struct disc_run *r, const char *path, uint32_t a,
		    uint32_t b, struct fss_disc *out)
{
	struct fss_disc_cfg c = { ++r->seq, a, b };
	uint32_t k = 0;
	int fd;

	if (bpf_map_update_elem(r->cfg_fd, &k, &c, BPF_ANY) < 0)
		return -EIO;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	if (bpf_map_lookup_elem(r->disc_fd, &k, out) < 0)
		return -EIO;
	return out->seq == r->seq ? 0 : -ENODATA;
}

/* file.f_path.dentry and dentry.d_name.name */
static int find_name(struct fss_disc_ctx *d, struct disc_run *r,
		     const struct probe_files *pf, struct fss_disc *file)
{
	struct fss_disc o;
	uint32_t a, b, fa = 0, fb = 0;
	int ret, n = 0;

	ret = try_open(r, pf->path[0], 0, 0, file);
	if (ret < 0)
		return bb_fail(&d->err, ret, "discovery: the open of %s was "
			       "not seen (%s)", pf->path[0], strerror(-ret));
	for (a = 0; a + PTR <= FSS_WIN; a += PTR) {
		uint64_t w = 0;

		memcpy(&w, file->win + a, PTR);
		if (!w)
			continue;
		for (b = 0; b + PTR <= NAME_WIN; b += PTR) {
			if (bb_stop)
				return bb_fail(&d->err, -EINTR, "discovery "
					       "interrupted");
			if (try_open(r, pf->path[0], a, b, &o) < 0 ||
			    strcmp(o.name, pf->name[0]) ||
			    try_open(r, pf->path[1], a, b, &o) < 0 ||
			    strcmp(o.name, pf->name[1]))
				continue;
			fa = a;
			fb = b;
			n++;
		}
	}
	if (n != 1)
		return bb_fail(&d->err, -ESRCH, "discovery: %s (%d pointer "
			       "pairs in the first %d bytes of a struct file "
			       "led to both files' names): file.f_path.dentry "
			       "and dentry.d_name.name not found; give this "
			       "kernel's BTF with --btf FILE", n ? "ambiguous" :
			       "none", n, FSS_WIN);
	d->f[FSS_F_DENTRY].offset = fa;
	d->f[FSS_F_DENTRY].size = PTR;
	d->f[FSS_F_NAME].offset = fb;
	d->f[FSS_F_NAME].size = PTR;
	return 0;
}

/* The read entry's kiocb for a pread of pos on fd. */
static int try_read(struct disc_run *r, int fd, uint64_t pos,
		    struct fss_disc *out)
{
	uint32_t k = 1;
	char c;

	memset(out, 0, sizeof(*out));
	if (bpf_map_update_elem(r->disc_fd, &k, out, BPF_ANY) < 0)
		return -EIO;
	if (pread(fd, &c, 1, pos) < 0)
		return -errno;
	if (bpf_map_lookup_elem(r->disc_fd, &k, out) < 0)
		return -EIO;
	return out->ptr ? 0 : -ENODATA;
}

/* The first offset where a holds va and b holds vb (size bytes): 1, or 0
 * if there is none. */
static int first_both(const struct fss_disc *a, const struct fss_disc *b,
		      int size, uint64_t va, uint64_t vb, uint32_t *off)
{
	uint32_t oa[16], ob[16];
	int na = fss_find_word(a->win, FSS_WIN, size, PTR, va, oa, 16);
	int nb = fss_find_word(b->win, FSS_WIN, size, PTR, vb, ob, 16);
	int i, k;

	for (i = 0; i < na && i < 16; i++)
		for (k = 0; k < nb && k < 16; k++)
			if (oa[i] == ob[k]) {
				*off = oa[i];
				return 1;
			}
	return 0;
}

/* kiocb.ki_filp and kiocb.ki_pos */
static int find_kiocb(struct fss_disc_ctx *d, struct disc_run *r,
		      const struct probe_files *pf)
{
	struct fss_disc f, k1, k2;
	uint32_t filp = 0, pos = 0;
	int fd, ret, nf, np;

	/* the struct file of fd: its open, seen by the entry */
	ret = bpf_map_update_elem(r->cfg_fd, &(uint32_t){ 0 },
				  &(struct fss_disc_cfg){ ++r->seq, 0, 0 },
				  BPF_ANY) ? -EIO : 0;
	fd = open(pf->path[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bb_fail(&d->err, -errno, "cannot open %s", pf->path[0]);
	if (ret == 0)
		ret = bpf_map_lookup_elem(r->disc_fd, &(uint32_t){ 0 }, &f) ?
		      -EIO : f.seq == r->seq ? 0 : -ENODATA;
	if (ret == 0 && (ret = try_read(r, fd, pos_a, &k1)) == 0)
		ret = try_read(r, fd, pos_b, &k2);
	close(fd);
	if (ret < 0)
		return bb_fail(&d->err, ret, "discovery: a read of %s was not "
			       "seen at %s (%s)", pf->path[0], d->read_fn,
			       strerror(-ret));
	/* the window runs past the kiocb (the caller's stack frame, where
	 * the file and the position have copies): its field is the first */
	nf = first_both(&k1, &k2, PTR, f.ptr, f.ptr, &filp);
	np = first_both(&k1, &k2, 8, pos_a, pos_b, &pos);
	if (nf < 1 || np < 1)
		return bb_fail(&d->err, -ESRCH, "discovery: the kiocb %s saw "
			       "held %s: kiocb.ki_filp and kiocb.ki_pos not "
			       "found; give this kernel's BTF with --btf FILE",
			       d->read_fn, nf < 1 ? "not the struct file the "
			       "open saw" : "not the offset read");
	d->f[FSS_F_FILP].offset = filp;
	d->f[FSS_F_FILP].size = PTR;
	d->f[FSS_F_POS].offset = pos;
	d->f[FSS_F_POS].size = 8;
	return 0;
}

/* file.f_op: the word of the struct file that is the fops */
static int find_fop(struct fss_disc_ctx *d, const struct fss_disc *file)
{
	uint32_t o;
	int n = fss_find_word(file->win, FSS_WIN, PTR, PTR, d->fop_addr,
			      &o, 1);

	if (n != 1)
		return bb_fail(&d->err, -ESRCH, "discovery: %d words of the "
			       "struct file of an %s file held %s_file_"
			       "operations' address: file.f_op not found; "
			       "give this kernel's BTF with --btf FILE", n,
			       d->fs, d->fs);
	d->f[FSS_F_FOP].offset = o;
	d->f[FSS_F_FOP].size = PTR;
	return 0;
}

static int run(struct fss_disc_ctx *d)
{
	struct probe_files pf;
	struct fss_disc file;
	struct tool_ctx td;
	struct disc_run r = { &td, -1, -1, 0 };
	int ret;

	ret = files_make(d, &pf);
	if (ret < 0)
		return ret;
	tool_init(&td, d->t->name);
	td.verbose = d->t->verbose;
	td.kver_override = d->t->kver_override;
	ret = disc_start(&td, d);
	if (ret < 0) {
		bb_fail(&d->err, ret, "the discovery's probes failed (above)");
		goto out;
	}
	r.cfg_fd = fsslower_map_fd(td.obj, FSSLOWER_M_cfg);
	r.disc_fd = fsslower_map_fd(td.obj, FSSLOWER_M_disc);
	ret = find_name(d, &r, &pf, &file);
	if (ret == 0)
		ret = find_kiocb(d, &r, &pf);
	if (ret == 0 && d->fop_addr)
		ret = find_fop(d, &file);
out:
	tool_cleanup(&td);
	files_remove(&pf);
	return ret;
}

int fss_discover(void *ctx, const char *path, struct bb_field *out,
		 struct bb_err *err)
{
	struct fss_disc_ctx *d = ctx;
	int i;

	for (i = 0; i < FSS_NFIELDS; i++)
		if (!strcmp(path, fss_field_paths[i]))
			break;
	if (i == FSS_NFIELDS)
		return bb_fail(err, -ENOENT, "no discovery of %s", path);
	if (!d->state) {
		double t0 = bb_now_mono();
		int k;

		d->state = run(d) < 0 ? -1 : 1;
		for (k = 0; k < FSS_NFIELDS; k++)
			snprintf(d->f[k].how, sizeof(d->f[k].how),
				 "discovered: %s files opened and read "
				 "(%.2f s)", d->fs, bb_now_mono() - t0);
	}
	if (d->state < 0)
		return bb_fail(err, -ESRCH, "%s", d->err.msg);
	*out = d->f[i];
	out->src = BB_FIELD_DISCOVERED;
	return 0;
}
