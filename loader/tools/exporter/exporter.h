/* SPDX-License-Identifier: MIT */
/*
 * barebpf exporter's parts: the frame (exporter.c: the poll loop,
 * HTTP, the textfile, its own health), its options (exporter_opts.c) and
 * the collectors (exporter_collect.c), one per BPF program.
 */
#ifndef BAREBPF_EXPORTER_H
#define BAREBPF_EXPORTER_H

#include <stdio.h>
#include "tool.h"
#include "blkdisk.h"
#include "httpd.h"
#include "mods.h"

/* Buckets up to le (2^27 - 1) us = 134 s (ebpf_exporter's biolatency goes
 * to 2^26 us); slower ones count in +Inf. */
#define EXP_BUCKETS 27
#define EXP_INTERVAL 5.0
/* --interval at most a day: the loop's waits are int milliseconds */
#define EXP_INTERVAL_MAX 86400.0
#define EXP_DURATION_MAX 2000000.0
#define EXP_MAX_ALLOW 32
#define EXP_TEXTFILE "barebpf.prom"
#define EXP_QENTER_MAXACTIVE 128   /* qenter's default */
#define EXP_SLOWBIO_MAXACTIVE 1024 /* slowbio's: waiters of a frozen queue */
#define EXP_SLOW_US 10000          /* slowbio's default threshold */
#define EXP_RING_DRAIN_MS 250
#define EXP_IRQ_NAMES 256          /* hardirqs' label values at most */
#define EXP_TCP_PORTS 64           /* tcp's port label values at most */

struct exp_opts {
	const char *listen, *textfile;
	double interval, duration;
	unsigned long slow_us;
	int no_kprobes;
	unsigned collectors;    /* --collectors: bit i for exp_collectors[i] */
	struct httpd_allow allow[EXP_MAX_ALLOW]; /* --allow; none: anyone */
	int nallow;
};

struct exporter;

struct collector;

/* What a collector is: its name, whether it needs kprobes, its parts. */
struct collector_kind {
	const char *name;
	int kprobes;
	int (*start)(struct exporter *e, struct collector *c);
	void (*render)(struct exporter *e, struct collector *c, FILE *f);
	void (*stop)(struct collector *c);
};

/* One collector of a run. */
struct collector {
	const struct collector_kind *k;
	struct tool_ctx t;
	int on;                 /* attached and collecting */
	struct bb_perfbuf *pb;  /* its ring, if it has one */
	void *priv;
};

struct exporter {
	struct exp_opts o;
	struct collector *c;
	int nc;
	char **avail;           /* available_filter_functions, sorted */
	int navail;
	struct blkdisks disks;  /* read again at each render */
	struct httpd *h;
	uint32_t kver;
	char release[65];
	int wrote_textfile, textfile_err;
};

/* The collectors, in the order they start (tracepoints first): the
 * first EXP_NDEFAULT run unless --collectors says otherwise. */
#define EXP_NCOLLECTORS 9
#define EXP_NDEFAULT 4
extern const struct collector_kind exp_collectors[EXP_NCOLLECTORS];

/* exporter_sched.c: runqlat, hardirqs, pagecache (start, render, stop) */
int exp_runqlat_start(struct exporter *e, struct collector *c);
void exp_runqlat_render(struct exporter *e, struct collector *c, FILE *f);
int exp_hardirqs_start(struct exporter *e, struct collector *c);
void exp_hardirqs_render(struct exporter *e, struct collector *c, FILE *f);
void exp_hardirqs_stop(struct collector *c);
int exp_pagecache_start(struct exporter *e, struct collector *c);
void exp_pagecache_render(struct exporter *e, struct collector *c, FILE *f);
void exp_free_priv(struct collector *c);
/* Pure: the handler names of a /proc/interrupts text (each once, up to
 * max, cut to HARDIRQS_NAME - 1 bytes as the tracepoint's); how many. */
int exp_irq_names(const char *text, char (*names)[32], int max);

/* exporter_fs.c: fs (start, render, stop) */
#define EXP_FS_TYPES 5          /* ext4, xfs, btrfs, nfs, f2fs */
struct exp_fs_type {
	const char *name;       /* "ext4" */
	struct fss_pick pick;   /* its functions */
};
int exp_fs_start(struct exporter *e, struct collector *c);
void exp_fs_render(struct exporter *e, struct collector *c, FILE *f);
void exp_fs_stop(struct collector *c);
/* Pure: the types whose functions avail (sorted) has, in that order, into
 * out (at most max); how many. */
int exp_fs_present(char *const *avail, int navail,
		   struct exp_fs_type *out, int max);

/* exporter_tcp.c: tcp (start, render; stop: exp_free_priv) */
int exp_tcp_start(struct exporter *e, struct collector *c);
void exp_tcp_render(struct exporter *e, struct collector *c, FILE *f);
/* Pure: port into the sorted set ports[0..n-1] (max at most); the new n. */
int exp_tcp_port_add(uint16_t *ports, int n, int max, uint16_t port);
/* Pure: add the local ports of the listening sockets (st 0A) of a
 * /proc/net/tcp or tcp6 text to ports[0..n-1]; the new n. */
int exp_tcp_listen_ports(const char *text, uint16_t *ports, int n, int max);

/* exporter_opts.c: the options into e->o, checked (0 or -errno, said);
 * a warning when listening beyond loopback without --allow; a URL to the
 * metrics for the "listening" line. */
int exporter_parse_args(struct tool_ctx *t, struct exporter *e, int argc,
			char **argv);
void exporter_listen_warn(struct tool_ctx *t, const struct exp_opts *o);
void exporter_listen_url(const char *listen, char *buf, size_t len);

#endif
