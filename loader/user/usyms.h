/* SPDX-License-Identifier: MIT */
/* Part of user.h, which includes it: user-space symbols. */
#ifndef BAREBPF_USYMS_H
#define BAREBPF_USYMS_H

#include <stddef.h>
#include <stdint.h>

struct bb_err;

/* ---- user-space symbols (elfsyms.c: one ELF file; usym.c: processes), without libelf ---- */
/* The function symbols of one ELF64 little-endian file (ET_EXEC, ET_DYN). */
struct bb_elfsyms;
/* Pure: parse an image in memory (it may be freed afterwards). -ENOEXEC:
 * not such a file; -EBADMSG: damaged. A file without symbols is fine. */
int elfsyms_parse(struct bb_elfsyms **ep, const void *buf, size_t len);
int elfsyms_load(struct bb_elfsyms **ep, const char *path);
size_t elfsyms_count(const struct bb_elfsyms *e);
/* Its GNU build id (NT_GNU_BUILD_ID in a PT_NOTE): the length (0: none)
 * and the bytes in *id. 20 bytes (SHA-1) as a rule; at most this: */
#define BB_BUILD_ID_MAX 32
size_t elfsyms_build_id(const struct bb_elfsyms *e, const uint8_t **id);
/* Whether its names came from a .symtab (not .dynsym alone, with or
 * without MiniDebugInfo): 1 or 0. */
int elfsyms_has_symtab(const struct bb_elfsyms *e);
/* The file name its .gnu_debuglink gives (no directory; NULL: none), and
 * that file's CRC32 in *crc. */
const char *elfsyms_debuglink(const struct bb_elfsyms *e, uint32_t *crc);
/* File offset -> link-time address, through the PT_LOAD that holds it. */
int elfsyms_vaddr(const struct bb_elfsyms *e, uint64_t foff, uint64_t *vaddr);
/* The function containing a link-time address (offset in *off), or NULL. */
const char *elfsyms_find(const struct bb_elfsyms *e, uint64_t vaddr,
			 uint64_t *off);
void elfsyms_free(struct bb_elfsyms *e);
/*
 * elflookup.c: every function symbol of an ELF file (64 or 32-bit, .symtab, else
 * .dynsym; aliases included) whose name matches glob (fnmatch): fn(ctx,
 * name, file offset), the offset a uprobe takes. fn returns 0 to go on,
 * 1 to stop there, -errno to fail. Returns how many were reported;
 * -EOPNOTSUPP if the only matches are 32-bit ARM Thumb functions, which
 * the kernel's uprobes cannot take.
 */
typedef int (*elfsyms_name_fn)(void *ctx, const char *name, uint64_t foff);
int elfsyms_lookup(const char *path, const char *glob, elfsyms_name_fn fn,
		   void *ctx);
int elfsyms_lookup_fd(int fd, const char *glob, elfsyms_name_fn fn,
		      void *ctx);

/*
 * The file of a uprobe's library or program, by bcc's rules (ulib.c): a
 * name with '/' is a path; else the libNAME.so* mapped by pid (if > 0),
 * then /etc/ld.so.cache, LD_LIBRARY_PATH, /lib64 /usr/lib64 /lib /usr/lib
 * and the multiarch directories, and last a program NAME in PATH.
 */
int ulib_resolve(const char *name, int pid, char *out, size_t outlen);
/* Pure: the first entry of an ld.so.cache image (old format, new, or both)
 * of this ABI whose name starts with prefix ("libc.so"): its path. */
int ldcache_find(const void *data, size_t len, const char *prefix, char *out,
		 size_t outlen);

/*
 * Pure (xz.c): decode an .xz stream (one stream; LZMA2 alone; check none,
 * CRC32 or CRC64, verified) into a new buffer of at most max bytes (*out,
 * free() it). -EBADMSG: damaged; -EOPNOTSUPP: another filter or check;
 * -EFBIG: more than max; -ENOMEM.
 */
int xz_decode(const void *src, size_t len, size_t max, uint8_t **out,
	      size_t *outlen);
/* CRC-32 as zlib's and .gnu_debuglink's: crc 0 to start, then the value
 * so far to go on. */
uint32_t xz_crc32_update(uint32_t crc, const void *p, size_t n);

/* One line of /proc/PID/maps. */
struct bb_maps_line {
	uint64_t start, end, offset, dev, inode;
	int exec;         /* 'x' in the permissions */
	const char *path; /* into the line: the rest of it, "" if none */
};
/* Pure: parse a line (without its newline). */
int usym_parse_maps_line(const char *line, struct bb_maps_line *m);

/* Per-process executable mappings and per-file symbols, cached. */
struct bb_usyms;
struct bb_usym {
	const char *name;   /* NULL if unknown */
	uint64_t off;
	const char *module; /* basename of the mapped file, NULL if none */
};
int usyms_new(struct bb_usyms **up);
/*
 * Read /proc/PID/maps now: call it when an event of the process comes in,
 * since it may have exited by the time its addresses are printed. Maps
 * already read are kept while the process is the same one (its start time
 * in /proc/PID/stat and its program file, /proc/PID/exe): a pid reused by
 * another process, or an exec, reads them again; a process gone keeps
 * what was read.
 */
int usyms_add_pid(struct bb_usyms *u, int pid);
/* Pure: the start time (field 22) of a /proc/PID/stat line. */
int usym_parse_stat_start(const char *stat, unsigned long long *start);
/* Symbolize addr of pid (reading its maps if not done yet). A file
 * stripped of its .symtab is named from its separate debug file where
 * there is one (by build id or .gnu_debuglink, in DEBUG_ROOT or next to
 * it, as gdb finds them: udebug.h), else from its .dynsym. */
int usyms_find(struct bb_usyms *u, int pid, uint64_t addr, struct bb_usym *s);
/*
 * Symbolize a file offset in the file of a build id (what stack maps made
 * with BPF_F_USER_BUILD_ID give: no pid, no address), for a process whose
 * maps were never read: among the files read so far (any process's), else
 * DEBUG_ROOT/.build-id/xx/rest.debug (DEBUG_ROOT: what
 * usyms_set_debug_root gave, else $BAREBPF_DEBUG_ROOT, else /usr/lib/debug) if it has the same build id and its PT_LOADs
 * still hold their bytes (a --only-keep-debug file does not: [unknown],
 * not a guess). -ENOENT: no such file; s->name NULL: no symbol there.
 */
int usyms_find_build_id(struct bb_usyms *u, const uint8_t *id, size_t len,
			uint64_t foff, struct bb_usym *s);
void usyms_set_debug_root(struct bb_usyms *u, const char *dir);
void usyms_free(struct bb_usyms *u);

#endif
