/* SPDX-License-Identifier: MIT */
/*
 * Disk names from the dev_t that block tracepoints carry. The kernel's
 * internal dev_t is major << 20 | minor (MINORBITS = 20), not the
 * userspace encoding; /sys/class/block/<name>/dev says "major:minor".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "kernel.h"

static int read_kdev(const char *name, uint32_t *kdev)
{
	char path[300], buf[32], *end, *end2;
	unsigned long maj, min;
	int n;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	n = bb_read_small(path, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? n : -EIO;
	/* "8:16\n"; strtoul, not sscanf, which would pull musl's vfscanf
	 * (4 KiB) into the binary for this and bb_pidns_ino alone */
	maj = strtoul(buf, &end, 10);
	if (end == buf || *end != ':')
		return -EINVAL;
	min = strtoul(end + 1, &end2, 10);
	if (end2 == end + 1 || maj > 0xfff || min > 0xfffff)
		return -EINVAL;
	*kdev = maj << 20 | min;
	return 0;
}

int disk_kdev(const char *name, uint32_t *kdev)
{
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	return read_kdev(name, kdev);
}

int disk_name(uint32_t kdev, char *name, size_t len)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	int ret = -ENOENT;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		uint32_t k;

		if (e->d_name[0] == '.' || read_kdev(e->d_name, &k) < 0)
			continue;
		if (k == kdev) {
			snprintf(name, len, "%s", e->d_name);
			ret = 0;
			break;
		}
	}
	closedir(d);
	if (ret < 0)
		snprintf(name, len, "%u:%u", kdev >> 20, kdev & 0xfffff);
	return ret;
}
