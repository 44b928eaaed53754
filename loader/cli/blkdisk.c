/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "blkdisk.h"
#include "kernel.h"

static struct blkdisk *add(struct blkdisks *d)
{
	if (d->n == d->cap) {
		int cap = d->cap ? 2 * d->cap : 32;
		struct blkdisk *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->v = v;
		d->cap = cap;
	}
	memset(&d->v[d->n], 0, sizeof(d->v[0]));
	return &d->v[d->n++];
}

/*
 * A partition's sysfs directory sits inside its disk's
 * (.../block/sda/sda1) and has a "partition" file: the disk is the parent
 * directory of the resolved link.
 */
static uint32_t whole_disk(const char *name, uint32_t kdev)
{
	char path[PATH_MAX], real[PATH_MAX], *slash;
	uint32_t disk;

	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (access(path, F_OK))
		return kdev;
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	if (!realpath(path, real))
		return kdev;
	slash = strrchr(real, '/');
	if (!slash)
		return kdev;
	*slash = 0;
	slash = strrchr(real, '/');
	if (!slash || disk_kdev(slash + 1, &disk) < 0)
		return kdev;
	return disk;
}

static const struct blkdisk *find(const struct blkdisks *d, uint32_t kdev)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].kdev == kdev)
			return &d->v[i];
	return NULL;
}

/* Devices that were not in /sys/class/block stay known as unknown, so
 * that each costs one rescan, not one per event. */
int blkdisks_scan(struct blkdisks *d)
{
	struct blkdisks old = *d;
	DIR *dir = opendir("/sys/class/block");
	struct dirent *e;
	int i, ret;

	if (!dir)
		return -errno;
	memset(d, 0, sizeof(*d));
	while ((e = readdir(dir))) {
		struct blkdisk *b;
		uint32_t kdev;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(b->name) ||
		    disk_kdev(e->d_name, &kdev) < 0)
			continue;
		b = add(d);
		if (!b)
			goto oom;
		b->kdev = kdev;
		b->disk = whole_disk(e->d_name, kdev);
		memcpy(b->name, e->d_name, strlen(e->d_name) + 1); /* fits: checked */
	}
	for (i = 0; i < old.n; i++) {
		struct blkdisk *b;

		if (!old.v[i].unknown || find(d, old.v[i].kdev))
			continue;
		b = add(d);
		if (!b)
			goto oom;
		*b = old.v[i];
	}
	closedir(dir);
	blkdisks_free(&old);
	return d->n;
oom:
	ret = -ENOMEM;
	closedir(dir);
	blkdisks_free(d);
	*d = old;
	return ret;
}

const struct blkdisk *blkdisks_get(struct blkdisks *d, uint32_t kdev)
{
	const struct blkdisk *b = find(d, kdev);
	struct blkdisk *nb;

	if (b)
		return b;
	if (blkdisks_scan(d) >= 0 && (b = find(d, kdev)))
		return b;
	nb = add(d);
	if (!nb)
		return NULL;
	nb->kdev = nb->disk = kdev;
	nb->unknown = 1;
	snprintf(nb->name, sizeof(nb->name), "%u:%u", kdev >> 20,
		 kdev & 0xfffff);
	return nb;
}

const struct blkdisk *blkdisks_by_name(struct blkdisks *d, const char *name)
{
	int i;

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].name, name))
			return &d->v[i];
	return NULL;
}

void blkdisks_free(struct blkdisks *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
