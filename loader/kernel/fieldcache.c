/* SPDX-License-Identifier: MIT */
/*
 * Discovered field offsets kept for the rest of the boot (fieldoff.h): a
 * discovery costs seconds (runqlen's: 1.7 to 2.5 s on this machine), a
 * lookup here microseconds. One line per field, "BOOT_ID PATH OFFSET
 * SIZE", in a file of root's in /run (a tmpfs emptied at boot; the boot
 * id guards against one that is not). A file that is not ours alone
 * (another owner, writable by others, a link) is ignored, for its
 * offsets would steer what barebpf reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fieldoff.h"

static int boot_id(char *buf, size_t len)
{
	int ret = bb_read_small("/proc/sys/kernel/random/boot_id", buf, len);

	return ret < 0 ? ret : buf[0] ? 0 : -ENOENT;
}

int fieldcache_parse(const char *text, const char *boot, const char *path,
		     uint32_t *off, uint32_t *size)
{
	size_t bl = strlen(boot), pl = strlen(path);
	const char *p = text;

	while (p && *p) {
		unsigned o, s;
		char tail;

		if (!strncmp(p, boot, bl) && p[bl] == ' ' &&
		    !strncmp(p + bl + 1, path, pl) && p[bl + 1 + pl] == ' ' &&
		    sscanf(p + bl + 2 + pl, "%u %u%c", &o, &s, &tail) == 3 &&
		    tail == '\n' && s && s <= 8) {
			*off = o;
			*size = s;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

int fieldcache_get(const char *file, const char *path, struct bb_field *out)
{
	char boot[64], *text = NULL;
	struct stat st;
	int fd, ret;

	if (!file || boot_id(boot, sizeof(boot)) < 0)
		return -ENOENT;
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) ||
	    st.st_size > 65536) {
		close(fd);
		return -EPERM;
	}
	ret = bb_read_fd(fd, &text);
	close(fd);
	if (ret < 0)
		return ret;
	ret = fieldcache_parse(text, boot, path, &out->offset, &out->size);
	free(text);
	if (ret == 0)
		snprintf(out->how, sizeof(out->how), "discovered earlier this "
			 "boot (%s)", file);
	return ret;
}

void fieldcache_put(const char *file, const char *path,
		    const struct bb_field *f)
{
	char boot[64], line[256], dir[128], *slash;
	int fd, n;

	if (!file || boot_id(boot, sizeof(boot)) < 0 ||
	    strlen(file) >= sizeof(dir))
		return;
	strcpy(dir, file);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		mkdir(dir, 0700); /* may exist */
	}
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s %s %u %u\n", boot, path,
		     f->offset, f->size);
	/* a cache: a failed write costs a discovery next time */
	if (n > 0 && (size_t)n < sizeof(line))
		n = write(fd, line, n);
	close(fd);
}
