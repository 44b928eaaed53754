/* SPDX-License-Identifier: MIT */
/*
 * The exporter's fs collector (issue 31), chosen with --collectors:
 * fsdist's histograms (loader/mods/fsslower.c, bpf/fsslower.bpf.c in its
 * dist mode, kprobes) as barebpf_fs_operation_latency_seconds{fs,op}, one
 * object per file system type this kernel has among ext4, xfs, btrfs, nfs
 * and f2fs (its functions in available_filter_functions at the start).
 * Every traced type x {read, write, open, fsync} is there from the first
 * render, at 0; maps read and never cleared.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exporter.h"
#include "mods.h"
#include "prom.h"
#include "../../../bpf/fsslower.h"

static const char *const fs_types[EXP_FS_TYPES] = {
	"ext4", "xfs", "btrfs", "nfs", "f2fs",
};
static const char *const fs_ops[FSS_NOPS] = {
	"read", "write", "open", "fsync",
};

int exp_fs_present(char *const *avail, int navail,
		   struct exp_fs_type *out, int max)
{
	int i, n = 0;

	for (i = 0; i < EXP_FS_TYPES && n < max; i++) {
		const struct fss_fs *fs = fsslower_fs(fs_types[i]);
		char why[256];

		if (fs && fsslower_pick(fs, avail, navail, &out[n].pick, why,
					sizeof(why)) == 0)
			out[n++].name = fs_types[i];
	}
	return n;
}

struct fs_priv {
	struct exp_fs_type ty[EXP_FS_TYPES];
	struct tool_ctx t[EXP_FS_TYPES]; /* t[0] unused: c->t traces ty[0] */
	int n;
	int gone;                        /* types left out, for names */
};

static struct tool_ctx *ctx_of(struct collector *c, struct fs_priv *p,
			       int i)
{
	return i ? &p->t[i] : &c->t;
}

static void fs_drop(struct fs_priv *p, int i)
{
	memmove(&p->ty[i], &p->ty[i + 1], (p->n - i - 1) * sizeof(p->ty[0]));
	memmove(&p->t[i], &p->t[i + 1], (p->n - i - 1) * sizeof(p->t[0]));
	p->n--;
}

/* A fresh context with the frame's settings, its probes named from
 * nprobes on. */
static void ctx_fresh(struct tool_ctx *t, const struct tool_ctx *from,
		      int nprobes)
{
	int verbose = from->verbose;
	const char *kv = from->kver_override, *btf = from->btf_file;

	tool_init(t, "exporter");
	t->sess.nprobes = nprobes;
	t->verbose = verbose;
	t->kver_override = kv;
	t->btf_file = btf;
}

int exp_fs_start(struct exporter *e, struct collector *c)
{
	struct fs_priv *p = calloc(1, sizeof(*p));
	int i, base = c->t.sess.nprobes;

	if (!p)
		return tool_fail(&c->t, -ENOMEM, "out of memory");
	c->priv = p;
	p->n = exp_fs_present(e->avail, e->navail, p->ty, EXP_FS_TYPES);
	if (!p->n)
		return tool_fail(&c->t, -ENOENT, "fs: this kernel has none of "
				 "ext4, xfs, btrfs, nfs, f2fs's functions to "
				 "probe (not built, or their modules not "
				 "loaded)");
	for (i = 0; i < p->n; i++) {
		struct fsslower_settings s = { .fs = p->ty[i].name, .dist = 1,
					       .unit_div = 1000 };
		struct tool_ctx *t = ctx_of(c, p, i);

		if (i)
			ctx_fresh(t, &c->t, base + 1000 * (i + p->gone));
		if (fsslower_start(t, &s, &p->ty[i].pick, NULL) == 0)
			continue;
		tool_error(&c->t, "fs: %s is left out", p->ty[i].name);
		/* the type after it takes its place (c->t for the first) */
		tool_cleanup(t);
		p->gone++;
		if (!i)
			ctx_fresh(&c->t, &c->t, base + 1000 * p->gone);
		fs_drop(p, i--);
	}
	return p->n ? 0 : -1;
}

void exp_fs_render(struct exporter *e, struct collector *c, FILE *f)
{
	struct fs_priv *p = c->priv;
	int i, op;

	(void)e;
	prom_family(f, "barebpf_fs_operation_latency_seconds", "histogram",
		    "File system operations' latency, by type and operation "
		    "(kprobes on its read_iter, write_iter, open and fsync, "
		    "entry to return): fsdist's histograms, as bcc's "
		    "ext4dist, xfsdist, btrfsdist, nfsdist.");
	for (i = 0; p && i < p->n; i++) {
		struct tool_ctx *t = ctx_of(c, p, i);
		int hfd = fsslower_hist_fd(t), sfd = fsslower_sums_fd(t);

		for (op = 0; op < FSS_NOPS; op++) {
			struct prom_label l[2] = { { "fs", p->ty[i].name },
						   { "op", fs_ops[op] } };
			uint64_t slots[FSS_SLOTS] = { 0 }, sum = 0;
			uint32_t k;

			for (k = 0; hfd >= 0 && k < FSS_SLOTS; k++) {
				uint32_t key = op * FSS_SLOTS + k;

				bpf_map_lookup_elem(hfd, &key, &slots[k]);
			}
			k = op;
			if (sfd >= 0)
				bpf_map_lookup_elem(sfd, &k, &sum);
			prom_hist_log2(f, "barebpf_fs_operation_latency_seconds",
				       l, 2, slots, FSS_SLOTS, EXP_BUCKETS,
				       1e6, sum / 1e9);
		}
	}
}

void exp_fs_stop(struct collector *c)
{
	struct fs_priv *p = c->priv;
	int i;

	/* c->t (ty[0]) is the frame's to clean up */
	for (i = 1; p && i < p->n; i++)
		tool_cleanup(&p->t[i]);
	free(p);
	c->priv = NULL;
}
