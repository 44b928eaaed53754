/* SPDX-License-Identifier: MIT */
/*
 * Per-disk log2 histograms kept in a BPF hash map whose key begins with
 * { u32 dev; u32 slot; } (the kernel dev_t, 0 when not split by disk, and
 * the log2 slot), optionally followed by up to 8 more bytes that split the
 * histograms further (biolatency -F: rwbs), and whose value is a u64 count.
 * Shared by biolatency and qenter; runqlat and cpudist split theirs by a
 * process or thread id instead (dhist_by_id, below).
 */
#ifndef BAREBPF_DHIST_H
#define BAREBPF_DHIST_H

#include <stdint.h>
#include <stddef.h>
#include "tool.h"

#define DHIST_SLOTS 64

struct dhist {
	uint32_t dev;
	char extra[9];  /* the key's bytes after slot, NUL-terminated */
	char disk[64];  /* name of dev, "?" if dev is 0 */
	uint64_t slots[DHIST_SLOTS];
};

struct dhist_fmt {
	const char *unit;  /* "usecs", "msecs" */
	int json, timestamp, per_disk;
	/* with extra bytes: the header line's "name = value", e.g. flags */
	const char *extra_name;
	void (*extra_str)(const char *extra, char *out, size_t len);
};

#define DHIST_KEY_MAX 16

/* The totals read last time, by key (sorted); { 0 } before the first. */
struct dhist_prev {
	struct dhist_kv *kv;
	int n;
};
void dhist_prev_free(struct dhist_prev *p);

/*
 * What the map gained since the last read (prev), as one histogram per
 * (dev, extra), by disk name. Nothing is deleted: the BPF side adds to
 * running totals (bb_hist_add), and no increment is lost between a read
 * and a clear.
 */
int dhist_collect(struct dhist_prev *prev, int fd, size_t key_size,
		  struct dhist **out, int *n);
/* bcc's text ("disk = 'sda'" headers), or one JSON line. */
void dhist_print(const struct dhist_fmt *f, const struct dhist *h, int n);

/*
 * The output loop of a histogram tool: every `interval` seconds (0: only at
 * the end) print and clear, until `count` outputs (0: no limit), the
 * duration (0: none) or a signal. Returns 0, or 1 after printing why.
 */
int dhist_loop(struct tool_ctx *t, int fd, size_t key_size,
	       const struct dhist_fmt *f, double interval, double duration,
	       unsigned long count);

/*
 * Histograms split by a 32-bit id (a process, a thread) in the 8 extra
 * bytes of a 16-byte key { dev 0, slot, id, 0 } (runqlat, cpudist).
 */
#define DHIST_ID_KEY 16
uint32_t dhist_id(const struct dhist *h);
/*
 * Sort h[0..n-1] by id; with map, first turn each id into map's (0: "?";
 * runqlat --pidnss: a process's PID namespace) and add up the histograms
 * of one. Returns the count left.
 */
int dhist_by_id(struct dhist *h, int n,
		uint32_t (*map)(uint32_t id, void *arg), void *arg);
/* A dhist_fmt's extra_str: the id, "?" for 0 (bcc's "pid = 42") */
void dhist_id_str(const char *extra, char *out, size_t len);
/* dhist_loop's, histograms by id (map: as dhist_by_id) */
int dhist_loop_by_id(struct tool_ctx *t, int fd, const struct dhist_fmt *f,
		     double interval, double duration, unsigned long count,
		     uint32_t (*map)(uint32_t id, void *arg));

#endif
