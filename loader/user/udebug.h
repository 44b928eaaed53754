/* SPDX-License-Identifier: MIT */
/*
 * Inside the user-space symbols (usym.c), not a library interface: the
 * separate debug file of a stripped binary (udebug.c), where Debian's -dbg
 * packages and Fedora's debuginfo put the .symtab that stripping took out.
 */
#ifndef BAREBPF_UDEBUG_H
#define BAREBPF_UDEBUG_H

#include <stddef.h>
#include <stdint.h>

struct bb_elfsyms;

/* The debug directory: dir if not NULL, else $BAREBPF_DEBUG_ROOT if set,
 * else /usr/lib/debug. */
const char *udebug_root(const char *dir);
/* ROOT/.build-id/xx/rest.debug of a build id into out. */
void udebug_bid_path(const char *root, const uint8_t *id, size_t len,
		     char *out, size_t outlen);
/*
 * The separate debug file of e, a file without .symtab that a process
 * (pid; 0: none) maps at path, looked for as gdb does: by build id,
 * ROOT/.build-id/xx/rest.debug; then by .gnu_debuglink NAME, DIR/NAME,
 * DIR/.debug/NAME and ROOT/DIR/NAME (DIR: path's directory; inside the
 * process's root first, while it lives). A file is taken if it has a
 * .symtab and the same build id, or (where either has none) the CRC32 the
 * link gives. Its symbols, or NULL: none.
 */
struct bb_elfsyms *udebug_load(const struct bb_elfsyms *e, const char *path,
			       int pid, const char *root);

#endif
