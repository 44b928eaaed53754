/* SPDX-License-Identifier: MIT */
/*
 * Block devices by kernel dev_t for tools that print one line per event
 * (biosnoop, slowbio): a table read once from /sys/class/block, with each
 * partition's whole disk, instead of a directory scan per event.
 */
#ifndef BAREBPF_BLKDISK_H
#define BAREBPF_BLKDISK_H

#include <stdint.h>

struct blkdisk {
	uint32_t kdev; /* major << 20 | minor */
	uint32_t disk; /* kdev of the whole disk: kdev itself for a disk */
	char name[32];
	int unknown;   /* not in /sys/class/block: name is "major:minor" */
};

struct blkdisks {
	struct blkdisk *v;
	int n, cap;
};

/* Read /sys/class/block (again). Returns the number of devices or -errno. */
int blkdisks_scan(struct blkdisks *d);
/*
 * The device with this kdev. On a miss (a disk that appeared after the
 * scan) scan once more; if it is still unknown, remember it under the name
 * "major:minor" so that it costs one scan only. NULL only without memory.
 */
const struct blkdisk *blkdisks_get(struct blkdisks *d, uint32_t kdev);
/* Look a name up ("sda", "/dev/sda1") in the table; NULL if none. */
const struct blkdisk *blkdisks_by_name(struct blkdisks *d, const char *name);
void blkdisks_free(struct blkdisks *d);

#endif
