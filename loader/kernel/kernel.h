/* SPDX-License-Identifier: MIT */
/*
 * loader/kernel/: what the running kernel is and has, read from its files
 * and rings: the version (kver.c), tracefs and trace event formats
 * (tracefs.c), kernel symbols (kallsyms.c), stack maps (stack.c), perf
 * event array rings (perfbuf.c; perfbuf.h: its pure record walker, for
 * the tests), disks by dev_t (disk.c). Library rules (barebpf.h): -errno,
 * a sentence in struct bb_err, never a print.
 */
#ifndef BAREBPF_KERNEL_H
#define BAREBPF_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "barebpf.h"

/* ---- kernel version (kver.c) ---- */
#define KVER(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
/* Pure parsers: each returns 0 and sets *code, or -EINVAL. */
int kver_parse_release(const char *release, uint32_t *code); /* uname -r */
int kver_parse_ubuntu_signature(const char *sig, uint32_t *code);
int kver_parse_debian_uname_v(const char *uname_v, uint32_t *code);
int kver_parse_vdso_note(const void *vdso, size_t len, uint32_t *code);
/*
 * Find LINUX_VERSION_CODE: override string (option) if not NULL, then
 * $BAREBPF_KERN_VERSION, then the vDSO note, /proc/version_signature,
 * "Debian x.y.z" in uname -v, uname -r. source gets a short description
 * of where it came from ("vDSO note", ...).
 */
int kver_detect(const char *override, uint32_t *code, char *source,
		size_t srclen, struct bb_err *err);

/* ---- tracefs (tracefs.c) ---- */
/*
 * Find tracefs (mounting tracefs or debugfs if neither is mounted).
 * Returns 0 if it was there, or BB_MOUNTED_* if it had to mount it: the
 * caller then owes a tracefs_unmount() (a session does this itself).
 */
#define BB_MOUNTED_TRACEFS 1 /* tracefs on /sys/kernel/tracing */
#define BB_MOUNTED_DEBUGFS 2 /* debugfs on /sys/kernel/debug */
int tracefs_find(char *path, size_t len, struct bb_err *err);
int tracefs_unmount(int mounted);
/*
 * Unmount what tracefs_find mounted in this process and nobody unmounted
 * yet: the command line's last word, for an exit path that skipped its
 * cleanup. Returns 0 or -errno.
 */
int tracefs_unmount_owed(void);
/* Read a whole file below tracefs into a malloc'ed NUL-terminated buffer. */
int tracefs_read(const char *tracefs, const char *rel, char **buf);
/* One write() of text to a file below tracefs (O_APPEND). */
int tracefs_append(const char *tracefs, const char *rel, const char *text);
/* Trace event id of events/<category>/<name>/id. */
int tracefs_event_id(const char *tracefs, const char *category,
		     const char *name);

struct bb_tp_field {
	char name[64];
	char type[64]; /* the declaration without the name: "char[16]" */
	int offset;
	int size;
	int is_signed;
};
/* Pure: parse the text of a format file. Returns the number of fields. */
int tp_format_parse(const char *text, struct bb_tp_field *fields, int max);
/* Every field of events/<category>/<event>/format, in *fields (freed by
 * the caller). Returns how many, or -errno. */
int tp_fields(const char *tracefs, const char *category, const char *event,
	      struct bb_tp_field **fields, struct bb_err *err);
/* Field `field` of fields[0..n-1] (from tp_fields), or -ENOENT saying so. */
int tp_fields_find(const struct bb_tp_field *fields, int n,
		   const char *tracefs, const char *category,
		   const char *event, const char *field,
		   struct bb_tp_field *out, struct bb_err *err);
/* Look a field up in events/<category>/<event>/format. */
int tp_field(const char *tracefs, const char *category, const char *event,
	     const char *field, struct bb_tp_field *out, struct bb_err *err);

/* ---- perf event array reader (perfbuf.c) ---- */
typedef void (*perfbuf_sample_fn)(void *ctx, int cpu, const void *data,
				  uint32_t size);
struct bb_perfbuf;
/* Open one ring per possible CPU and store their fds in map_fd. */
int perfbuf_open(struct bb_perfbuf **pbp, int map_fd, int pages_per_cpu,
		 perfbuf_sample_fn fn, void *ctx, struct bb_err *err);
/*
 * The rings wake their reader at a watermark (a quarter full), so a record
 * may wait in its ring until a poll times out: perfbuf_poll waits at most
 * this long, which bounds the delay from a record to its delivery.
 */
#define PERFBUF_MAX_DELAY_MS 100
/* Wait up to timeout_ms (at most PERFBUF_MAX_DELAY_MS), then deliver every
 * pending sample. */
int perfbuf_poll(struct bb_perfbuf *pb, int timeout_ms);
/*
 * Grow every ring to pages (a power of two), one at each of the first
 * perfbuf_polls: a tool opens small rings, says it is tracing, and the
 * rings take their full size in its first moments (the small ones' slack
 * holds what comes meanwhile). Starting costs what the small rings cost.
 */
void perfbuf_grow_to(struct bb_perfbuf *pb, int pages);
uint64_t perfbuf_lost(const struct bb_perfbuf *pb);
/*
 * Pure: the pages per CPU of a ring, given a tool's least (a power of two)
 * and the machine: 1/512 of mem_bytes over ncpus rings, a power of two,
 * at most PERFBUF_MAX_RING_BYTES, never fewer than pages. A ring of 64
 * pages (256 KiB) fills in a millisecond at a million events a second,
 * sooner than a reader on a busy machine is scheduled again.
 */
#define PERFBUF_MAX_RING_BYTES (16UL << 20)
int perfbuf_pages_scaled(int pages, uint64_t mem_bytes, int ncpus,
			 size_t page_size);
void perfbuf_close(struct bb_perfbuf *pb);

/* ---- kernel symbols (kallsyms.c) ---- */
struct bb_ksym {
	uint64_t addr;
	const char *name;
};
struct bb_ksyms;
int ksyms_load(struct bb_ksyms **ksp, const char *path, struct bb_err *err);
/* Pure: parse text in /proc/kallsyms format. */
int ksyms_parse(struct bb_ksyms **ksp, const char *text);
/*
 * Only what names these n addresses (any order, repeats allowed): for each
 * the symbol ksyms_find would give from the whole file, kept as a table of
 * its own, the file read in chunks, never whole (10 MB and 100 ms for a
 * whole table of 120k symbols). ksyms_find answers these addresses as
 * from the whole table (others: the nearest of those kept). Returns the
 * symbols kept; -EACCES if every address is hidden (kptr_restrict).
 * ksyms_parse_for: the same over text (pure).
 */
int ksyms_load_for(struct bb_ksyms **ksp, const char *path,
		   const uint64_t *addrs, size_t n, struct bb_err *err);
int ksyms_parse_for(struct bb_ksyms **ksp, const char *text,
		    const uint64_t *addrs, size_t n);
/* The symbol at or below addr (offset in *off), or NULL. */
const struct bb_ksym *ksyms_find(const struct bb_ksyms *ks, uint64_t addr,
				 uint64_t *off);
int ksyms_has(const struct bb_ksyms *ks, const char *name);
void ksyms_free(struct bb_ksyms *ks);
/*
 * The addresses of names[0..n-1] (any symbol type: data too, where the
 * kernel lists it, CONFIG_KALLSYMS_ALL) in one pass over path (NULL:
 * /proc/kallsyms), without indexing the rest: addrs[i] 0 where not found
 * (or hidden by kptr_restrict). Returns how many were found, or -errno.
 * ksyms_lookup_text: the same on text in that format (pure).
 */
int ksyms_lookup(const char *path, const char *const *names, int n,
		 uint64_t *addrs, struct bb_err *err);
int ksyms_lookup_text(const char *text, const char *const *names, int n,
		      uint64_t *addrs);

/* ---- stacks (stack.c) ---- */
#define BB_MAX_STACK 127 /* PERF_MAX_STACK_DEPTH: stack map value size/8 */
/* Copy stack `stackid` of a stack trace map into ips; returns the depth. */
int stack_read(int map_fd, int stackid, uint64_t *ips, int max);
/* Put ret, a probed function's return address (PT_REGS_ENTRY_RET), after
 * ips[0] unless it is 0 or already there; returns the new depth (n if
 * n < 1). */
int stack_add_entry_ret(uint64_t *ips, int n, int max, uint64_t ret);
/*
 * Empty a stack trace map: a stack map is a hash of buckets that only
 * fills, and a new stack whose bucket holds another fails (EEXIST) for the
 * rest of the run. Returns how many stacks it held.
 */
int stack_map_clear(int map_fd, uint32_t max_entries);

/* ---- disks (disk.c) ---- */
/* Kernel dev_t (major << 20 | minor) <-> disk name, via /sys/block. */
int disk_name(uint32_t kdev, char *name, size_t len);
int disk_kdev(const char *name, uint32_t *kdev);


#endif
