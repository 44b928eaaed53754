/* SPDX-License-Identifier: MIT */
/*
 * tracefs: where it is (mounting it if nobody did), reading and appending
 * to its files, trace event ids and the field layout of trace events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "barebpf.h"
#include "kernel.h"

#define TRACEFS_DIR "/sys/kernel/tracing"
#define DEBUGFS_DIR "/sys/kernel/debug"
#define DEBUGFS_TRACING DEBUGFS_DIR "/tracing"

/* BB_MOUNTED_* of what this process mounted and has not unmounted: a
 * mount is the whole process's, whichever session made it. */
static int tracefs_owed;

/* A tracefs instance is usable if it has events (or kprobe_events). */
static int tracefs_usable(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/events", dir);
	if (access(path, F_OK) == 0)
		return 1;
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	return access(path, F_OK) == 0;
}

static int set_path(char *path, size_t len, const char *dir)
{
	if (strlen(dir) >= len)
		return -ENAMETOOLONG;
	strcpy(path, dir);
	return 0;
}

/* What an unprivileged user lacks: CAP_BPF (39) and CAP_PERFMON (38)
 * exist from 5.8, where cap_last_cap is 39 or more. */
static const char *need_root(void)
{
	char buf[16] = "";
	int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = 0;
		close(fd);
	}
	return atoi(buf) >= 39 ? "run as root (or with CAP_BPF, CAP_PERFMON "
		"and read access to tracefs)" : "run as root";
}

int tracefs_find(char *path, size_t len, struct bb_err *err)
{
	int ret, ret2;

	if (tracefs_usable(TRACEFS_DIR))
		return set_path(path, len, TRACEFS_DIR);
	/* With debugfs mounted, this lookup automounts tracefs (4.1+). */
	if (tracefs_usable(DEBUGFS_TRACING))
		return set_path(path, len, DEBUGFS_TRACING);
	/*
	 * Mounted, but root's alone (mode 0700, the default): not a kernel
	 * without tracing, a user without the rights.
	 */
	if (access(TRACEFS_DIR "/events", F_OK) < 0 && errno == EACCES)
		return bb_fail(err, -EACCES, "tracefs (" TRACEFS_DIR ") may "
			       "only be read by root: %s", need_root());
	if (access(DEBUGFS_TRACING "/events", F_OK) < 0 && errno == EACCES)
		return bb_fail(err, -EACCES, "tracefs (" DEBUGFS_TRACING ") may "
			       "only be read by root: %s", need_root());

	/*
	 * Nothing mounted (a rescue image, a minimal initramfs). The
	 * /sys/kernel/tracing mount point exists whenever the kernel has
	 * tracefs; older setups only know the debugfs path.
	 */
	ret = sys_mount("nodev", TRACEFS_DIR, "tracefs",
			MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (ret == 0) {
		if (tracefs_usable(TRACEFS_DIR)) {
			ret = set_path(path, len, TRACEFS_DIR);
			if (ret < 0) {
				tracefs_unmount(BB_MOUNTED_TRACEFS);
				return ret;
			}
			tracefs_owed = BB_MOUNTED_TRACEFS;
			return BB_MOUNTED_TRACEFS;
		}
		tracefs_unmount(BB_MOUNTED_TRACEFS);
	}
	ret2 = sys_mount("debugfs", DEBUGFS_DIR, "debugfs",
			 MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (ret2 == 0) {
		if (tracefs_usable(DEBUGFS_TRACING)) {
			ret2 = set_path(path, len, DEBUGFS_TRACING);
			if (ret2 < 0) {
				tracefs_unmount(BB_MOUNTED_DEBUGFS);
				return ret2;
			}
			tracefs_owed = BB_MOUNTED_DEBUGFS;
			return BB_MOUNTED_DEBUGFS;
		}
		tracefs_unmount(BB_MOUNTED_DEBUGFS);
		ret2 = -ENOENT;
	}
	if (ret == -EPERM && ret2 == -EPERM && geteuid() != 0)
		return bb_fail(err, -EPERM, "tracefs is not mounted, and only "
			       "root may mount it: %s", need_root());
	return bb_fail(err, ret2,
		       "tracefs is not mounted and mounting it failed "
		       "(tracefs on " TRACEFS_DIR ": %s; debugfs on "
		       DEBUGFS_DIR ": %s): run as root; the kernel needs "
		       "CONFIG_FTRACE/CONFIG_TRACING",
		       strerror(ret < 0 ? -ret : ENOENT), strerror(-ret2));
}

int tracefs_unmount(int mounted)
{
	int ret;

	switch (mounted) {
	case BB_MOUNTED_TRACEFS:
		ret = sys_umount2(TRACEFS_DIR, 0);
		break;
	case BB_MOUNTED_DEBUGFS:
		/*
		 * Looking into debugfs/tracing automounted tracefs below
		 * our debugfs; it keeps debugfs busy until it goes first.
		 */
		sys_umount2(DEBUGFS_TRACING, 0);
		ret = sys_umount2(DEBUGFS_DIR, 0);
		break;
	default:
		return 0;
	}
	/* Someone else is in there (a shell's cwd): let it go when done. */
	if (ret == -EBUSY)
		ret = sys_umount2(mounted == BB_MOUNTED_TRACEFS ? TRACEFS_DIR :
				  DEBUGFS_DIR, MNT_DETACH);
	if (mounted == tracefs_owed)
		tracefs_owed = 0;
	return ret;
}

int tracefs_unmount_owed(void)
{
	return tracefs_unmount(tracefs_owed);
}

static int tracefs_open(const char *tracefs, const char *rel, int flags)
{
	char path[512];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", tracefs, rel) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int tracefs_read(const char *tracefs, const char *rel, char **bufp)
{
	int fd, ret;

	*bufp = NULL;
	fd = tracefs_open(tracefs, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	ret = bb_read_fd(fd, bufp);
	close(fd);
	return ret;
}

/*
 * One write() per call: the kprobe_events parser takes whatever one write
 * brings as whole lines, so a definition split over two writes would be two
 * broken definitions. Always O_APPEND: opening kprobe_events with O_TRUNC
 * deletes every probe on the system, other tools' included.
 */
int tracefs_append(const char *tracefs, const char *rel, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = tracefs_open(tracefs, rel, O_WRONLY | O_APPEND);
	if (fd < 0)
		return fd;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

int tracefs_event_id(const char *tracefs, const char *category,
		     const char *name)
{
	char rel[256], *buf, *end;
	long id;
	int ret;

	if ((size_t)snprintf(rel, sizeof(rel), "events/%s/%s/id", category,
			     name) >= sizeof(rel))
		return -ENAMETOOLONG;
	ret = tracefs_read(tracefs, rel, &buf);
	if (ret < 0)
		return ret;
	errno = 0;
	id = strtol(buf, &end, 10);
	ret = (errno || end == buf || id < 0 || id > 0x7fffffff) ? -EINVAL
								 : (int)id;
	free(buf);
	return ret;
}

/* Value of "<key>:N;" in a format line, or -EINVAL. */
static int format_value(const char *line, const char *key, int *v)
{
	const char *p = strstr(line, key);
	char *end;
	long n;

	if (!p)
		return -EINVAL;
	p += strlen(key);
	n = strtol(p, &end, 10);
	if (end == p || *end != ';' || n < INT32_MIN || n > INT32_MAX)
		return -EINVAL;
	*v = n;
	return 0;
}

/*
 * "field:<type> <name>[N];" -> name. The declaration may be
 * "__data_loc char[] cmd" (a u32 offset<<16|len into the record) or an
 * array "char rwbs[10]": the name is the last word, without brackets.
 */
static int format_name(const char *decl, size_t dlen, char *name, size_t len)
{
	const char *end = decl + dlen, *start;
	size_t n;

	while (end > decl && end[-1] == ' ')
		end--;
	if (end > decl && end[-1] == ']') {
		const char *open = end - 1;

		while (open > decl && *open != '[')
			open--;
		if (*open != '[')
			return -EINVAL;
		end = open;
	}
	start = end;
	while (start > decl && start[-1] != ' ' && start[-1] != '\t')
		start--;
	n = end - start;
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(name, start, n);
	name[n] = 0;
	return 0;
}

/*
 * "field:<type> <name>[N];" -> "<type>[N]": what the declaration says
 * beside the name ("__data_loc char[]", "char[16]", "const char *").
 * Best effort: a type that does not fit is cut.
 */
static void format_type(const char *decl, size_t dlen, const char *name,
			char *type, size_t len)
{
	const char *end = decl + dlen, *at = NULL, *p;
	size_t nlen = strlen(name), n;

	type[0] = 0;
	for (p = decl; p + nlen <= end; p++)
		if (!memcmp(p, name, nlen) &&
		    (p == decl || p[-1] == ' ' || p[-1] == '\t' ||
		     p[-1] == '*') &&
		    (p + nlen == end || p[nlen] == '[' || p[nlen] == ' '))
			at = p; /* the last one: the name comes last */
	if (!at)
		return;
	for (p = at; p > decl && (p[-1] == ' ' || p[-1] == '\t'); p--)
		;
	while (decl < p && (*decl == ' ' || *decl == '\t'))
		decl++;
	n = p > decl ? (size_t)(p - decl) : 0;
	snprintf(type, len, "%.*s%.*s", (int)n, decl,
		 (int)(end - (at + nlen)), at + nlen);
	/* the rest after the name is "[N]" and maybe blanks */
	n = strlen(type);
	while (n && (type[n - 1] == ' ' || type[n - 1] == '\t'))
		type[--n] = 0;
}

int tp_format_parse(const char *text, struct bb_tp_field *fields, int max)
{
	const char *line = text;
	int count = 0;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *p = line, *semi;
		struct bb_tp_field f;
		char buf[512];
		size_t llen = eol ? (size_t)(eol - line) : strlen(line);

		while (p < line + llen && (*p == ' ' || *p == '\t'))
			p++;
		if (strncmp(p, "field:", 6) &&
		    strncmp(p, "field special:", 14)) {
			line = eol ? eol + 1 : NULL;
			continue;
		}
		if (llen >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, line, llen);
		buf[llen] = 0;
		p = strchr(buf, ':') + 1;
		semi = strchr(p, ';');
		if (!semi)
			return -EINVAL;
		memset(&f, 0, sizeof(f));
		if (format_name(p, semi - p, f.name, sizeof(f.name)) < 0 ||
		    format_value(semi, "offset:", &f.offset) < 0 ||
		    format_value(semi, "size:", &f.size) < 0)
			return -EINVAL;
		format_type(p, semi - p, f.name, f.type, sizeof(f.type));
		/* "signed:" came in 2.6.32; before it, assume unsigned. */
		if (format_value(semi, "signed:", &f.is_signed) < 0)
			f.is_signed = 0;
		if (count < max)
			fields[count] = f;
		count++;
		line = eol ? eol + 1 : NULL;
	}
	return count;
}

int tp_fields(const char *tracefs, const char *category, const char *event,
	      struct bb_tp_field **fields, struct bb_err *err)
{
	char rel[256], *text;
	int ret, n;

	*fields = NULL;
	if ((size_t)snprintf(rel, sizeof(rel), "events/%s/%s/format", category,
			     event) >= sizeof(rel))
		return bb_fail(err, -ENAMETOOLONG, "tracepoint name too long");
	ret = tracefs_read(tracefs, rel, &text);
	if (ret < 0)
		return bb_fail(err, ret,
			       "tracepoint %s:%s not found (%s/%s: %s)",
			       category, event, tracefs, rel, strerror(-ret));
	n = tp_format_parse(text, NULL, 0);
	if (n > 0) {
		*fields = calloc(n, sizeof(**fields));
		if (!*fields) {
			n = bb_fail(err, -ENOMEM, "out of memory");
			goto out;
		}
		n = tp_format_parse(text, *fields, n);
	}
	if (n < 0) {
		free(*fields);
		*fields = NULL;
		n = bb_fail(err, n, "cannot parse %s/%s", tracefs, rel);
	}
out:
	free(text);
	return n;
}

int tp_fields_find(const struct bb_tp_field *fields, int n,
		   const char *tracefs, const char *category,
		   const char *event, const char *field,
		   struct bb_tp_field *out, struct bb_err *err)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(fields[i].name, field)) {
			*out = fields[i];
			return 0;
		}
	}
	return bb_fail(err, -ENOENT,
		       "tracepoint %s:%s has no field '%s' on this kernel (see "
		       "%s/events/%s/%s/format)", category, event, field,
		       tracefs, category, event);
}

int tp_field(const char *tracefs, const char *category, const char *event,
	     const char *field, struct bb_tp_field *out, struct bb_err *err)
{
	struct bb_tp_field *fields;
	int n = tp_fields(tracefs, category, event, &fields, err);

	if (n < 0)
		return n;
	n = tp_fields_find(fields, n, tracefs, category, event, field, out,
			   err);
	free(fields);
	return n;
}
