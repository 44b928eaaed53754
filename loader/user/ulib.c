/* SPDX-License-Identifier: MIT */
/*
 * Where a uprobe's library is, by bcc's rules: a path with '/' as it is;
 * else NAME is the library libNAME.so (`c` is libc.so.6): the one mapped
 * by the process of -p, then /etc/ld.so.cache, LD_LIBRARY_PATH and the
 * usual directories; and last a program of that name in PATH (bcc's trace
 * falls back to find_exe).
 *
 * /etc/ld.so.cache is glibc's (ldconfig); musl and uClibc systems have
 * none. It comes in two formats, both read here:
 *  - old (libc5 era, "ld.so-1.7.0"): nlibs entries {flags, key, value} of
 *    3 x 4 bytes; key and value are offsets into the strings that follow
 *    the entries. glibc up to 2.31 writes it followed by the new format;
 *  - new ("glibc-ld.so.cache1.1", 48-byte header): entries of 24 bytes
 *    (flags, key, value, osversion, hwcap); offsets count from the new
 *    header's start (the file's own, or past the old part).
 * flags say the ABI of each entry (dl-cache.h): ours must match, or `c`
 * would find the 32-bit libc on a multilib system.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "barebpf.h"
#include "user.h"
#include "arch.h"

#define OLD_MAGIC "ld.so-1.7.0"
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define OLD_HDR 16  /* magic[11], pad, nlibs */
#define OLD_ENT 12
#define NEW_HDR 48
#define NEW_ENT 24
#define LDCACHE_MAX (64u << 20)

#define FLAG_TYPE_MASK 0x00ff
#define FLAG_ELF_LIBC6 0x0003
#define FLAG_ARCH_MASK 0xff00

/* The ABI flags of a native library's entries (arch.c: ldcache). */
static int arch_ok(uint32_t flags)
{
	const struct bb_arch *a = bb_arch_native();
	uint32_t f = flags & FLAG_ARCH_MASK;

	if ((flags & FLAG_TYPE_MASK) != FLAG_ELF_LIBC6)
		return 0;
	return f == a->ldcache[0] || f == a->ldcache[1];
}

/* A NUL-terminated string at base + off inside [0, len), or NULL. */
static const char *str_at(const unsigned char *buf, size_t len, size_t base,
			  uint32_t off)
{
	const char *s;

	if (base > len || off >= len - base)
		return NULL;
	s = (const char *)buf + base + off;
	return memchr(s, 0, len - base - off) ? s : NULL;
}

/* The first entry of one table whose name starts with prefix. */
static int table_find(const unsigned char *buf, size_t len, size_t ents,
		      uint32_t n, size_t esz, size_t strbase,
		      const char *prefix, char *out, size_t outlen)
{
	size_t plen = strlen(prefix);
	uint32_t i;

	for (i = 0; i < n; i++) {
		const unsigned char *e = buf + ents + (size_t)i * esz;
		const char *key, *val;

		if (!arch_ok(bb_le32(e)))
			continue;
		key = str_at(buf, len, strbase, bb_le32(e + 4));
		val = str_at(buf, len, strbase, bb_le32(e + 8));
		if (!key || !val || strncmp(key, prefix, plen) || !*val)
			continue;
		if (strlen(val) >= outlen)
			return -ENAMETOOLONG;
		strcpy(out, val);
		return 0;
	}
	return -ENOENT;
}

int ldcache_find(const void *data, size_t len, const char *prefix, char *out,
		 size_t outlen)
{
	const unsigned char *buf = data;
	size_t newhdr = 0;
	uint32_t n;

	if (len >= OLD_HDR && !memcmp(buf, OLD_MAGIC, sizeof(OLD_MAGIC) - 1)) {
		n = bb_le32(buf + 12);
		if (n > (len - OLD_HDR) / OLD_ENT)
			return -EBADMSG;
		/* the new format after the old entries, 8-aligned */
		newhdr = (OLD_HDR + (size_t)n * OLD_ENT + 7) & ~(size_t)7;
		if (newhdr > len || len - newhdr < NEW_HDR ||
		    memcmp(buf + newhdr, NEW_MAGIC, sizeof(NEW_MAGIC) - 1))
			return table_find(buf, len, OLD_HDR, n, OLD_ENT,
					  OLD_HDR + (size_t)n * OLD_ENT,
					  prefix, out, outlen);
	} else if (len < NEW_HDR ||
		   memcmp(buf, NEW_MAGIC, sizeof(NEW_MAGIC) - 1)) {
		return -EBADMSG;
	}
	n = bb_le32(buf + newhdr + 20);
	if (n > (len - newhdr - NEW_HDR) / NEW_ENT)
		return -EBADMSG;
	return table_find(buf, len, newhdr + NEW_HDR, n, NEW_ENT, newhdr,
			  prefix, out, outlen);
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int ldcache_lookup(const char *prefix, char *out, size_t outlen)
{
	const char *path = getenv("BAREBPF_LDCACHE");
	struct stat st;
	void *buf;
	ssize_t n;
	int fd, ret;

	fd = open(path ? path : "/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > LDCACHE_MAX || !(buf = malloc(st.st_size + 1))) {
		close(fd);
		return -ENOENT;
	}
	n = pread(fd, buf, st.st_size, 0);
	close(fd);
	ret = n == st.st_size ? ldcache_find(buf, n, prefix, out, outlen)
			      : -EIO;
	free(buf);
	return ret;
}

/* The first mapping of pid whose file's name is libNAME.so* or libNAME-*
 * (libc-2.31.so), seen through the process's root. */
static int from_maps(int pid, const char *name, char *out, size_t outlen)
{
	char path[64], line[4200], so[256], dash[256];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	snprintf(so, sizeof(so), "/lib%s.so", name);
	snprintf(dash, sizeof(dash), "/lib%s-", name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		struct bb_maps_line m;
		const char *base;

		line[strcspn(line, "\n")] = 0;
		if (usym_parse_maps_line(line, &m) < 0 || m.path[0] != '/')
			continue;
		base = strrchr(m.path, '/');
		if (strncmp(base, so, strlen(so)) &&
		    strncmp(base, dash, strlen(dash)))
			continue;
		ret = snprintf(out, outlen, "/proc/%d/root%s", pid, m.path) <
				      (int)outlen ? 0 : -ENAMETOOLONG;
	}
	fclose(f);
	return ret;
}

/* dir/file for the first dir of a ':' list where it is a file. */
static int in_dirs(const char *dirs, const char *file, int exe, char *out,
		   size_t outlen)
{
	const char *d = dirs;

	while (d && *d) {
		size_t n = strcspn(d, ":");

		if (n && snprintf(out, outlen, "%.*s/%s", (int)n, d, file) <
				 (int)outlen &&
		    is_file(out) && (!exe || access(out, X_OK) == 0))
			return 0;
		d += n + (d[n] == ':');
	}
	return -ENOENT;
}

/* libNAME.so* in a directory: the plain .so is often only in -dev
 * packages, so the versioned names count too (libc.so.6). */
static int in_lib_dirs(const char *dirs, const char *name, char *out,
		       size_t outlen)
{
	static const char *const vers[] = { "", ".0", ".1", ".2", ".3", ".4",
					    ".5", ".6" };
	char file[256];
	size_t i;

	for (i = 0; i < sizeof(vers) / sizeof(vers[0]); i++) {
		snprintf(file, sizeof(file), "lib%s.so%s", name, vers[i]);
		if (in_dirs(dirs, file, 0, out, outlen) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The standard library folders, the architecture's multiarch ones too. */
static const char *std_dirs(char *buf, size_t len)
{
	const char *m = bb_arch_native()->multiarch;

	snprintf(buf, len, "/lib64:/usr/lib64:/lib:/usr/lib:/lib/%s:/usr/lib/%s",
		 m, m);
	return buf;
}

int ulib_resolve(const char *name, int pid, char *out, size_t outlen)
{
	char prefix[256], dirs[128];
	const char *env;

	if (!*name)
		return -EINVAL;
	/* the kernel takes a path from the root: a relative one is made
	 * whole (and its symlinks resolved) here */
	if (strchr(name, '/')) {
		char *abs = name[0] != '/' ? realpath(name, NULL) : NULL;
		int ret = snprintf(out, outlen, "%s", abs ? abs : name);

		free(abs);
		return ret < (int)outlen ? 0 : -ENAMETOOLONG;
	}
	if (strlen(name) > 200)
		return -ENAMETOOLONG;
	if (pid > 0 && from_maps(pid, name, out, outlen) == 0)
		return 0;
	/* a file name (libbpf's uprobe/libc.so.6:malloc) */
	if (strstr(name, ".so")) {
		env = getenv("LD_LIBRARY_PATH");
		if ((env && in_dirs(env, name, 0, out, outlen) == 0) ||
		    ldcache_lookup(name, out, outlen) == 0 ||
		    in_dirs(std_dirs(dirs, sizeof(dirs)), name, 0, out, outlen) == 0)
			return 0;
	}
	snprintf(prefix, sizeof(prefix), "lib%s.so", name);
	if (ldcache_lookup(prefix, out, outlen) == 0 && is_file(out))
		return 0;
	env = getenv("LD_LIBRARY_PATH");
	if (env && in_lib_dirs(env, name, out, outlen) == 0)
		return 0;
	if (in_lib_dirs(std_dirs(dirs, sizeof(dirs)), name, out, outlen) == 0)
		return 0;
	env = getenv("PATH");
	return in_dirs(env ? env : "/usr/local/bin:/usr/bin:/bin", name, 1,
		       out, outlen);
}
