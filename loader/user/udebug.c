/* SPDX-License-Identifier: MIT */
/*
 * The separate debug file of a stripped binary (udebug.h): a library
 * stripped to its .dynsym names only its exported functions, and a frame
 * in a static one (glibc's __libc_start_call_main) printed [unknown] where
 * gdb, bcc and bpftrace name it from the debug file of Debian's libc6-dbg
 * or Fedora's glibc-debuginfo. The places are gdb's ("Separate Debug
 * Files" in its manual), and so is the check that a file found there is
 * the right one: the same build id, or the CRC32 that .gnu_debuglink
 * gives (a file of another build would name frames wrong).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "user.h"
#include "udebug.h"

const char *udebug_root(const char *dir)
{
	const char *env = getenv("BAREBPF_DEBUG_ROOT");

	if (dir)
		return dir;
	return env && *env ? env : "/usr/lib/debug";
}

void udebug_bid_path(const char *root, const uint8_t *id, size_t len,
		     char *out, size_t outlen)
{
	size_t i, n;

	n = snprintf(out, outlen, "%s/.build-id/%02x/", root, id[0]);
	for (i = 1; i < len && n + 16 < outlen; i++)
		n += snprintf(out + n, outlen - n, "%02x", id[i]);
	if (n < outlen)
		snprintf(out + n, outlen - n, ".debug");
}

/* The CRC32 of a regular file, read whole. */
static int file_crc(const char *path, uint32_t *crc)
{
	enum { CHUNK = 65536 };
	char *buf = malloc(CHUNK);
	struct stat st;
	ssize_t n = -1;
	int fd;

	*crc = 0;
	fd = buf ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
		 : -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		while ((n = read(fd, buf, CHUNK)) > 0)
			*crc = xz_crc32_update(*crc, buf, n);
	if (fd >= 0)
		close(fd);
	free(buf);
	return n < 0 ? -EIO : 0;
}

/* The file at path if it names e's functions: its symbols, or NULL. */
static struct bb_elfsyms *try_file(const struct bb_elfsyms *e,
				   const char *path, int link, uint32_t crc)
{
	const uint8_t *a, *b;
	struct bb_elfsyms *d;
	size_t na, nb;
	uint32_t have;

	if (elfsyms_load(&d, path) < 0)
		return NULL;
	na = elfsyms_build_id(e, &a);
	nb = elfsyms_build_id(d, &b);
	if (elfsyms_has_symtab(d)) {
		if (na && nb) {
			if (na == nb && !memcmp(a, b, na))
				return d;
		} else if (link && file_crc(path, &have) == 0 && have == crc) {
			return d;
		}
	}
	elfsyms_free(d);
	return NULL;
}

/* The places of the link name in dir (with prefix): DIR/NAME,
 * DIR/.debug/NAME, ROOT/DIR/NAME. */
static struct bb_elfsyms *by_link(const struct bb_elfsyms *e,
				  const char *prefix, const char *dir,
				  const char *name, uint32_t crc,
				  const char *root)
{
	static const char *const fmt[] = { "%s%s/%s", "%s%s/.debug/%s" };
	struct bb_elfsyms *d;
	char path[4400];
	size_t i;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		snprintf(path, sizeof(path), fmt[i], prefix, dir, name);
		d = try_file(e, path, 1, crc);
		if (d)
			return d;
	}
	snprintf(path, sizeof(path), "%s%s%s/%s", prefix, root, dir, name);
	return try_file(e, path, 1, crc);
}

struct bb_elfsyms *udebug_load(const struct bb_elfsyms *e, const char *path,
			       int pid, const char *root)
{
	char prefix[2][32] = { "", "" }, dir[4096], bpath[4400];
	const char *name, *slash = strrchr(path, '/');
	struct bb_elfsyms *d = NULL;
	const uint8_t *id;
	size_t len = elfsyms_build_id(e, &id);
	uint32_t crc;
	int i, n = 1;

	if (pid > 0) { /* inside its root first, then ours */
		snprintf(prefix[0], sizeof(prefix[0]), "/proc/%d/root", pid);
		n = 2;
	}
	name = elfsyms_debuglink(e, &crc);
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		name = NULL;
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	for (i = 0; i < n && !d; i++) {
		if (len) {
			size_t at = snprintf(bpath, sizeof(bpath), "%s",
					     prefix[i]);

			udebug_bid_path(root, id, len, bpath + at,
					sizeof(bpath) - at);
			d = try_file(e, bpath, 0, 0);
		}
		if (!d && name)
			d = by_link(e, prefix[i], dir, name, crc, root);
	}
	return d;
}
